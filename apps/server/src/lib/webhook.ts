import { hmac, safeEqual } from './crypto.ts';

/**
 * Signed webhooks from a custody provider: header `x-bourse-signature: t=<unix seconds>,v1=<hex>`
 * where v1 = HMAC-SHA256(secret, `${t}.${rawBody}`). A signature older or newer than the tolerance
 * is refused, so a captured request cannot be replayed later (the handlers are also idempotent).
 */
export const SIGNATURE_HEADER = 'x-bourse-signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export function signWebhook(secret: string, rawBody: string, nowMs: number): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${hmac(secret, `${t}.${rawBody}`)}`;
}

export type SignatureCheck =
  | { ok: true }
  | { ok: false; why: 'missing' | 'malformed' | 'expired' | 'mismatch' };

export function verifyWebhook(
  secret: string,
  rawBody: string,
  header: string | undefined,
  nowMs: number,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): SignatureCheck {
  if (!header) return { ok: false, why: 'missing' };
  const parts = Object.fromEntries(
    header.split(',').map((part) => {
      const at = part.indexOf('=');
      return at < 0 ? [part.trim(), ''] : [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    }),
  );
  const t = Number(parts.t);
  const v1 = parts.v1;
  if (!Number.isSafeInteger(t) || typeof v1 !== 'string' || !/^[0-9a-f]{64}$/.test(v1)) {
    return { ok: false, why: 'malformed' };
  }
  if (Math.abs(nowMs / 1000 - t) > toleranceSeconds) return { ok: false, why: 'expired' };
  return safeEqual(hmac(secret, `${t}.${rawBody}`), v1) ? { ok: true } : { ok: false, why: 'mismatch' };
}
