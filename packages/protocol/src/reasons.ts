import { CODE, type EnvelopeCode } from './envelope.ts';

/**
 * The one registry of refusal and error reasons. Every key needs a translation under
 * `reason.<KEY>` in each i18n catalog and a line in docs/errors.md; reasons.test.ts enforces both.
 * `params` lists the parameter names the message may interpolate, so tests can check them.
 */
export const REASONS = {
  // Transport and input
  BAD_INPUT: { code: CODE.BAD_REQUEST, params: ['field'] },
  FIELD_REQUIRED: { code: CODE.BAD_REQUEST, params: ['field'] },
  FIELD_TOO_LONG: { code: CODE.BAD_REQUEST, params: ['field', 'max'] },
  FIELD_TOO_SHORT: { code: CODE.BAD_REQUEST, params: ['field', 'min'] },
  UNKNOWN_FIELD: { code: CODE.BAD_REQUEST, params: ['field'] },
  MALFORMED_BODY: { code: CODE.BAD_REQUEST, params: [] },
  UNSUPPORTED_MEDIA_TYPE: { code: CODE.UNSUPPORTED_TYPE, params: [] },
  BODY_TOO_LARGE: { code: CODE.TOO_LARGE, params: ['maxBytes'] },
  RATE_LIMITED: { code: CODE.TOO_MANY_REQUESTS, params: ['seconds'] },
  NOT_FOUND: { code: CODE.NOT_FOUND, params: [] },
  FORBIDDEN: { code: CODE.FORBIDDEN, params: [] },
  REQUEST_IN_PROGRESS: { code: CODE.CONFLICT, params: [] },
  SERVER_ERROR: { code: CODE.SERVER_ERROR, params: [] },

  // Sessions
  LOGIN_REQUIRED: { code: CODE.SESSION_ENDED, params: [] },
  SESSION_EXPIRED: { code: CODE.SESSION_ENDED, params: [] },
  SESSION_PASSWORD_CHANGED: { code: CODE.SESSION_CONFIRM, params: [] },
  DEMO_EXPIRED: { code: CODE.SESSION_ENDED, params: [] },

  // Access
  PASSWORDS_MISMATCH: { code: CODE.REFUSED, params: [] },
  PASSWORD_LENGTH: { code: CODE.REFUSED, params: ['min', 'max'] },
  EMAIL_INVALID: { code: CODE.REFUSED, params: [] },
  PHONE_INVALID: { code: CODE.REFUSED, params: [] },
  ACCOUNT_NAME_INVALID: { code: CODE.REFUSED, params: [] },
  CODE_WRONG: { code: CODE.REFUSED, params: ['triesLeft'] },
  CODE_EXPIRED: { code: CODE.REFUSED, params: [] },
  CODE_TRIES_EXHAUSTED: { code: CODE.REFUSED, params: ['maxTries'] },
  CODE_COOLDOWN: { code: CODE.REFUSED, params: ['seconds'] },
  ACCOUNT_EXISTS: { code: CODE.REFUSED, params: [] },
  ACCOUNT_NOT_FOUND: { code: CODE.REFUSED, params: [] },
  ACCOUNT_DISABLED: { code: CODE.REFUSED, params: [] },
  LOGIN_FAILED: { code: CODE.REFUSED, params: ['attemptsLeft'] },
  LOGIN_LOCKED: { code: CODE.REFUSED, params: ['minutes', 'maxFailures'] },
  INVITATION_REQUIRED: { code: CODE.REFUSED, params: [] },
  INVITATION_INVALID: { code: CODE.REFUSED, params: [] },
  AGREEMENT_REQUIRED: { code: CODE.REFUSED, params: [] },
  OLD_PASSWORD_WRONG: { code: CODE.REFUSED, params: [] },
  PASSWORD_UNCHANGED: { code: CODE.REFUSED, params: [] },
  WALLET_NONCE_INVALID: { code: CODE.REFUSED, params: [] },
  WALLET_MESSAGE_INVALID: { code: CODE.REFUSED, params: ['field'] },
  WALLET_SIGNATURE_INVALID: { code: CODE.REFUSED, params: [] },
  REAL_ACCOUNT_REQUIRED: { code: CODE.REFUSED, params: [] },

  // Ledger
  INSUFFICIENT_BALANCE: { code: CODE.REFUSED, params: ['currency', 'available'] },
  INSUFFICIENT_FROZEN: { code: CODE.REFUSED, params: ['currency', 'frozen'] },
  DEMO_BOOK_MISMATCH: { code: CODE.REFUSED, params: [] },
  ENTRY_ALREADY_REVERSED: { code: CODE.REFUSED, params: [] },

  // Market data
  INSTRUMENT_UNKNOWN: { code: CODE.NOT_FOUND, params: ['symbol'] },
  INSTRUMENT_HALTED: { code: CODE.REFUSED, params: ['symbol'] },
  INSTRUMENT_DELISTED: { code: CODE.REFUSED, params: ['symbol'] },
  MARKET_CLOSED: { code: CODE.REFUSED, params: ['symbol', 'hours'] },
  PRICE_STALE: { code: CODE.REFUSED, params: ['symbol', 'seconds'] },
  LIMIT_TOO_LARGE: { code: CODE.BAD_REQUEST, params: ['field', 'max'] },
  CHANNEL_UNKNOWN: { code: CODE.BAD_REQUEST, params: ['channel'] },
  SUBSCRIPTIONS_LIMIT: { code: CODE.REFUSED, params: ['max'] },
  IMPORT_ROW_INVALID: { code: CODE.BAD_REQUEST, params: ['line', 'field'] },
  IMPORT_TOO_LARGE: { code: CODE.TOO_LARGE, params: ['maxRows'] },
} as const satisfies Record<string, { code: EnvelopeCode; params: readonly string[] }>;

export type ReasonCode = keyof typeof REASONS;

export const REASON_CODES = Object.keys(REASONS) as ReasonCode[];

export function isReasonCode(value: string): value is ReasonCode {
  return Object.hasOwn(REASONS, value);
}
