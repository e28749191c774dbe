import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Binance's request signing (SIGNED endpoints): `signature` = hex HMAC-SHA256 of the total params —
 * the query string followed directly by the form body — without the `signature` parameter itself;
 * `timestamp` (ms) within `recvWindow` (default 5 000, at most 60 000) of the server's clock and at
 * most 1 s ahead of it.
 */
export const SIGNING = { recvWindowDefault: 5_000, recvWindowMax: 60_000, aheadMaxMs: 1_000 } as const;

export function hmacHex(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** `a=1&signature=ff&b=2` → `a=1&b=2` and `ff`: the signed text and the signature sent. */
export function splitSignature(raw: string): { text: string; signature: string | null } {
  if (raw === '') return { text: '', signature: null };
  const kept: string[] = [];
  let signature: string | null = null;
  for (const part of raw.split('&')) {
    if (part.startsWith('signature=')) signature = decoded(part.slice('signature='.length));
    else kept.push(part);
  }
  return { text: kept.join('&'), signature };
}

/** The payload a client signed: query (without `signature`) then body (without `signature`). */
export function signedPayload(query: string, body: string): { payload: string; signature: string | null } {
  const q = splitSignature(query);
  const b = splitSignature(body);
  return { payload: q.text + b.text, signature: q.signature ?? b.signature };
}

export function signatureMatches(secret: string, payload: string, signature: string): boolean {
  if (!/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  const expected = Buffer.from(hmacHex(secret, payload), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

/** Binance's rule: `timestamp < serverTime + 1000` and `serverTime - timestamp <= recvWindow`. */
export function withinWindow(timestamp: number, recvWindow: number, nowMs: number): boolean {
  return timestamp < nowMs + SIGNING.aheadMaxMs && nowMs - timestamp <= recvWindow;
}
