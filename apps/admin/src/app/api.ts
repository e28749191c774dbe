import { CODE, type Envelope, type ReasonParams } from '@bourse/protocol';
import { currentLang, i18n } from './i18n.ts';

/**
 * The back office's API client: `/api/admin/<call>`, the staff token as `Authorization: Bearer`,
 * `lang` and a fresh `rtoken` on every call; POST bodies are JSON. A refusal rejects with an
 * `ApiError` carrying the server's localized message and reason; a session end (code 1000/2000)
 * clears the token and returns to the login screen.
 */
const TOKEN_KEY = 'bourse.admin.token';
const TIMEOUT_MS = 30_000;

export type Params = Readonly<Record<string, string | number | boolean | null | undefined>>;

export class ApiError extends Error {
  readonly code: number | null;
  readonly reason: string | undefined;
  readonly params: ReasonParams | undefined;
  constructor(message: string, envelope?: Envelope) {
    super(message);
    this.name = 'ApiError';
    this.code = envelope?.code ?? null;
    this.reason = envelope?.reason;
    this.params = envelope?.params;
  }
}

type Listener = () => void;
const listeners = new Set<Listener>();

export const staffToken = {
  get(): string | null {
    try {
      return sessionStorage.getItem(TOKEN_KEY);
    } catch {
      return null;
    }
  },
  set(token: string | null): void {
    try {
      if (token) sessionStorage.setItem(TOKEN_KEY, token);
      else sessionStorage.removeItem(TOKEN_KEY);
    } catch {}
    for (const listener of listeners) listener();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

function rtoken(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => alphabet[b % alphabet.length]).join(
    '',
  );
}

function clean(params: Params): Record<string, string> {
  const out: Record<string, string> = { lang: currentLang(), rtoken: rtoken() };
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') out[key] = String(value);
  }
  return out;
}

async function send<T>(url: string, init: RequestInit): Promise<T> {
  const token = staffToken.get();
  const headers = new Headers(init.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    throw new ApiError(i18n.t('admin:common.networkError'));
  }
  let envelope: Envelope<T>;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    throw new ApiError(i18n.t('admin:common.requestError'));
  }
  if (envelope.code === CODE.OK || envelope.code === CODE.SILENT) return envelope.data as T;
  if (envelope.code === CODE.SESSION_ENDED || envelope.code === CODE.SESSION_CONFIRM) {
    staffToken.set(null);
  }
  throw new ApiError(envelope.msg || i18n.t('admin:common.requestError'), envelope as Envelope);
}

export const api = {
  get<T>(call: string, params: Params = {}): Promise<T> {
    return send<T>(`/api/admin/${call}?${new URLSearchParams(clean(params)).toString()}`, { method: 'GET' });
  },
  post<T>(call: string, body: Params = {}): Promise<T> {
    return send<T>(`/api/admin/${call}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(clean(body)),
    });
  },
  /** POST keeping JSON types (booleans, integers, nested objects) for calls whose schema wants them. */
  postJson<T>(call: string, body: Readonly<Record<string, unknown>>): Promise<T> {
    return send<T>(`/api/admin/${call}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ lang: currentLang(), rtoken: rtoken(), ...body }),
    });
  },
};
