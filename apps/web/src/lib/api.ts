import { CODE, type Envelope, type ReasonParams, type WsSessionEnded } from '@bourse/protocol';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { API_BASE, REQUEST_TIMEOUT_MS, SESSION_END_DEFAULT_SECONDS, STORAGE_KEYS } from '../config/app.ts';
import { currentLang, i18n } from './i18n.ts';
import { rememberReturnTo } from './returnTo.ts';
import { clearToken, getToken } from './session.ts';
import { session } from './storage.ts';

/**
 * The one API client (docs API.md). Every call is `/api/web/<call>`; POST bodies are form-encoded,
 * GET parameters go in the query; each request carries `token` (when logged in), `lang` and a fresh
 * `rtoken`. The envelope decides what happens: see `settle`.
 */

export type Params = Readonly<Record<string, string | number | boolean | null | undefined>>;

/**
 * Why a call was rejected. `refused` (code 0) is for the caller to show; every other kind has
 * already been shown by the client (toast or dialog), so callers only stop.
 */
export type ApiErrorKind = 'refused' | 'session' | 'error' | 'network';

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly code: number | null;
  readonly reason: string | undefined;
  readonly params: ReasonParams | undefined;

  constructor(kind: ApiErrorKind, message: string, envelope?: Envelope) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.code = envelope?.code ?? null;
    this.reason = envelope?.reason;
    this.params = envelope?.params;
  }
}

const RTOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const RTOKEN_LENGTH = 12;

/** A fresh random request token (6–16 characters per API.md); also the server's idempotency key. */
export function newRtoken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(RTOKEN_LENGTH));
  let out = '';
  for (const byte of bytes) out += RTOKEN_ALPHABET[byte % RTOKEN_ALPHABET.length];
  return out;
}

function withCommonFields(params: Params): URLSearchParams {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    search.set(key, String(value));
  }
  const token = getToken();
  if (token) search.set('token', token);
  // A query whose key holds a language passes it: the fetch may start after the next switch.
  if (!search.has('lang')) search.set('lang', currentLang());
  search.set('rtoken', newRtoken());
  return search;
}

export function apiGet<T>(call: string, params: Params = {}): Promise<T> {
  const query = withCommonFields(params).toString();
  return send<T>(call, `${API_BASE}/${call}?${query}`, { method: 'GET' });
}

export function apiPost<T>(call: string, body: Params = {}): Promise<T> {
  return send<T>(call, `${API_BASE}/${call}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    body: withCommonFields(body).toString(),
  });
}

function t(key: 'api.requestError' | 'api.networkError' | 'api.timeout' | 'api.sessionEnded'): string {
  return i18n.t(key);
}

async function send<T>(call: string, url: string, init: RequestInit): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  let envelope: Envelope<T>;
  try {
    const response = await fetch(url, {
      ...init,
      headers: { Accept: 'application/json', ...init.headers },
      credentials: 'same-origin',
      signal: controller.signal,
    });
    envelope = await readEnvelope<T>(response);
  } catch (error) {
    const timedOut = controller.signal.aborted;
    const message = timedOut ? t('api.timeout') : t('api.networkError');
    console.error(`[api] ${call} failed`, error);
    notifications.show({ color: 'red', message, autoClose: 5000 });
    throw new ApiError('network', message);
  } finally {
    clearTimeout(timer);
  }
  return settle(call, envelope);
}

/** Any answer that is not an envelope (a proxy's 502 page, a truncated body) is a network failure. */
async function readEnvelope<T>(response: Response): Promise<Envelope<T>> {
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`HTTP ${response.status}: not JSON (${text.slice(0, 80)})`);
  }
  if (!isEnvelope(parsed)) throw new Error(`HTTP ${response.status}: no envelope`);
  return parsed as Envelope<T>;
}

function isEnvelope(value: unknown): value is Envelope {
  return (
    typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number'
  );
}

/**
 * An answer read outside `fetch` (an upload sent with XMLHttpRequest for its progress events):
 * parsed and settled exactly as every other call's, so a refusal, a session end or an error is
 * handled the same way. Text that is not an envelope is a network failure.
 */
export function settleText<T>(call: string, status: number, text: string): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (!isEnvelope(parsed)) {
    const message = t('api.networkError');
    console.error(`[api] ${call} failed: HTTP ${status}, no envelope`);
    notifications.show({ color: 'red', message, autoClose: 5000 });
    throw new ApiError('network', message);
  }
  return settle(call, parsed as Envelope<T>);
}

/** The fields every call carries (token, lang, a fresh rtoken), for a request built by hand. */
export function commonFields(params: Params = {}): URLSearchParams {
  return withCommonFields(params);
}

function settle<T>(call: string, envelope: Envelope<T>): T {
  switch (envelope.code) {
    case CODE.OK:
    case CODE.SILENT:
      return envelope.data;
    case CODE.REFUSED:
      throw new ApiError('refused', envelope.msg || t('api.requestError'), envelope);
    case CODE.SESSION_ENDED:
      endSession(envelope);
      throw new ApiError('session', envelope.msg || t('api.sessionEnded'), envelope);
    case CODE.SESSION_CONFIRM:
      confirmSession(envelope);
      throw new ApiError('session', envelope.msg, envelope);
    default: {
      const message = envelope.msg || t('api.requestError');
      console.warn(`[api] ${call} answered ${envelope.code}`, envelope.reason ?? '');
      notifications.show({ color: 'yellow', message, autoClose: 5000 });
      throw new ApiError('error', message, envelope);
    }
  }
}

let sessionEnding = false;

/** Where the customer is now: after logging in again they come back here. */
function rememberHere(): void {
  rememberReturnTo(`${window.location.pathname}${window.location.search}${window.location.hash}`);
}

/** Code 1000: the session is over. Forget the token, say why, reload after `time` seconds. */
function endSession(envelope: Envelope): void {
  rememberHere();
  clearToken();
  if (envelope.reason === 'DEMO_EXPIRED') session.set(STORAGE_KEYS.demoExpired, '1');
  if (sessionEnding) return;
  sessionEnding = true;
  const seconds =
    typeof envelope.time === 'number' && envelope.time >= 0 ? envelope.time : SESSION_END_DEFAULT_SECONDS;
  notifications.show({ color: 'yellow', message: envelope.msg || t('api.sessionEnded'), autoClose: false });
  setTimeout(() => window.location.reload(), seconds * 1000);
}

/**
 * The market socket was told its session ended (`{main_type: 4, event: "session_ended"}`): the same
 * as an HTTP answer with that code — 1000 logs out and reloads, 2000 asks to log in again.
 */
export function sessionEndedElsewhere(message: Pick<WsSessionEnded, 'code' | 'reason'>): void {
  if (!getToken()) return;
  const envelope: Envelope = {
    code: message.code,
    msg: i18n.t(`common:reason.${message.reason}`),
    data: null,
    reason: message.reason,
  };
  if (message.code === CODE.SESSION_CONFIRM) confirmSession(envelope);
  else endSession(envelope);
}

let confirming = false;

/** Code 2000: the session needs confirming. Log in again (forget the token, reload) or go back. */
function confirmSession(envelope: Envelope): void {
  if (confirming) return;
  confirming = true;
  modals.openConfirmModal({
    title: i18n.t('api.sessionConfirmTitle'),
    children: envelope.msg,
    labels: { confirm: i18n.t('api.relogin'), cancel: i18n.t('api.back') },
    confirmProps: { 'data-testid': 'session-relogin' } as Record<string, string>,
    cancelProps: { 'data-testid': 'session-back' } as Record<string, string>,
    closeOnClickOutside: false,
    onConfirm: () => {
      rememberHere();
      clearToken();
      window.location.reload();
    },
    onClose: () => {
      confirming = false;
    },
  });
}
