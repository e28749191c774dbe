import type { MarketMakerHealthData } from '@bourse/protocol';
import { type MarketHealth, type MmState, quotedMarkets } from './mm-state.ts';

export type { MarketHealth } from './mm-state.ts';

import type { Book } from './order.ts';

/**
 * The market maker's health per market and book (`/healthz?detail=1`, `/metrics`, the back office):
 * when its quotes were last confirmed, failed rounds in a rolling window by the injected clock.
 * A failure is logged at error level once per run of failures (again only if the message changes).
 */

/** Errors count towards "errors in the last hour" this long (by the injected clock). */
export const MM_ERROR_WINDOW_MS = 3_600_000;

export type MarketMakerHealth = MarketMakerHealthData;

export function healthOf(s: MmState, book: Book, symbol: string): MarketHealth {
  const key = `${book}:${symbol}`;
  let h = s.health.get(key);
  if (!h) {
    h = { lastQuoteAt: null, errorTimes: [], errorsTotal: 0, lastError: null, failures: 0 };
    s.health.set(key, h);
  }
  return h;
}

function pruneErrors(h: MarketHealth, now: number): void {
  const from = now - MM_ERROR_WINDOW_MS;
  let drop = 0;
  while (drop < h.errorTimes.length && (h.errorTimes[drop] as number) <= from) drop += 1;
  if (drop > 0) h.errorTimes.splice(0, drop);
}

/** A round that did not throw: the run of failures ends (said once at info), `quoted` confirms the quotes. */
export function recordRound(s: MmState, where: { book: Book; symbol: string }, quoted: boolean): void {
  const h = healthOf(s, where.book, where.symbol);
  if (h.failures > 0)
    s.log.info({ ...where, failures: h.failures }, 'market maker quoting this market again');
  h.failures = 0;
  if (quoted) h.lastQuoteAt = s.clock.now().getTime();
}

/** A failed round: counted, and logged at error level once per run of failures (or a new message). */
export function recordFailure(s: MmState, where: { book: Book; symbol: string }, error: unknown): void {
  const h = healthOf(s, where.book, where.symbol);
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
  const now = s.clock.now().getTime();
  h.errorTimes.push(now);
  pruneErrors(h, now);
  h.errorsTotal += 1;
  h.failures += 1;
  if (h.failures === 1 || message !== h.lastError)
    s.log.error({ err: error, ...where, failures: h.failures }, 'market maker could not quote this market');
  else s.log.debug({ ...where, failures: h.failures }, 'market maker still failing on this market');
  h.lastError = message;
}

/** Health per enabled market (or one with a record) and book whose account exists. */
export function healthReport(s: MmState): MarketMakerHealth {
  const now = s.clock.now().getTime();
  const markets: MarketMakerHealth['markets'] = [];
  for (const book of ['real', 'demo'] as const) {
    if (!s.ids[book]) continue;
    const quoted = new Set(quotedMarkets(s).map((m) => m.symbol));
    for (const m of s.spot.markets()) {
      if (!quoted.has(m.symbol) && !s.health.has(`${book}:${m.symbol}`)) continue;
      // SPOT_LEASES: another process owns the book and its market maker quotes it (and reports it).
      if (!s.spot.owns(m.symbol, book)) continue;
      const h = healthOf(s, book, m.symbol);
      pruneErrors(h, now);
      markets.push({
        symbol: m.symbol,
        book,
        last_quote_at: h.lastQuoteAt === null ? null : new Date(h.lastQuoteAt).toISOString(),
        last_quote_age_s:
          h.lastQuoteAt === null ? null : Math.max(0, Math.floor((now - h.lastQuoteAt) / 1000)),
        errors_last_hour: h.errorTimes.length,
        errors_total: h.errorsTotal,
        last_error: h.lastError,
      });
    }
  }
  return { enabled: s.settings.enabled, markets };
}
