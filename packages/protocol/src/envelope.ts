/**
 * The response envelope of docs/API: every answer of /api is one of these.
 * `code` tells the app what to do; `reason` is the stable machine code tests and clients rely on.
 */
export const CODE = {
  REFUSED: 0,
  OK: 1,
  SILENT: 7,
  SESSION_ENDED: 1000,
  SESSION_CONFIRM: 2000,
  BAD_REQUEST: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_LARGE: 413,
  UNSUPPORTED_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  SERVER_ERROR: 500,
  /** Nothing was done and the same request may be retried elsewhere or later (`Retry-After`). */
  UNAVAILABLE: 503,
} as const;

export type EnvelopeCode = (typeof CODE)[keyof typeof CODE];

export type ReasonParams = Readonly<Record<string, string | number>>;

export type Envelope<T = unknown> = {
  code: EnvelopeCode;
  msg: string;
  data: T;
  reason?: string;
  params?: ReasonParams;
  /** Seconds before the app logs out and reloads (code 1000). */
  time?: number;
};

/** Codes that travel with HTTP 200: the app reads the envelope, not the status line. */
export function httpStatusOf(code: EnvelopeCode): number {
  return code >= 400 && code < 600 ? code : 200;
}
