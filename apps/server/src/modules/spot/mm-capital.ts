import { baseUnits, toSteps } from '@bourse/risk';
import { type MmState, quotedMarkets } from './mm-state.ts';
import type { Book } from './order.ts';

/**
 * The market maker's capital, committed once per book, market-maker account and currency by an
 * ordinary ledger entry — from `market_maker_capital` (real) or `demo_faucet` (demo). The amount
 * never depends on the live price: the idempotent credit must carry the same amount whenever asked.
 */

/** Capital per market and book: this many times (levels × level_notional), in quote and in base. */
export const MM_CAPITAL_MULTIPLE = 4n;

/** The quote capital one market commits: MM_CAPITAL_MULTIPLE × levels × level notional (no price in it). */
export function quoteCapitalOf(s: MmState, symbol: string): bigint {
  const m = s.spot.market(symbol);
  const level = toSteps(s.settings.level_notional, m.math.quoteScale, 1n);
  if (!level.ok) throw new Error(`level_notional ${s.settings.level_notional} does not fit ${m.quote}`);
  return level.steps * BigInt(s.settings.levels) * MM_CAPITAL_MULTIPLE;
}

/**
 * The base capital one market commits: the quote capital's worth at the catalogue's reference
 * price (`ref_price`, static instrument data), whole lots rounded up. Never the live mark: the
 * amount must be the same whenever it is asked for, or the idempotent credit would refuse.
 */
export function baseCapitalOf(s: MmState, symbol: string): bigint {
  const m = s.spot.market(symbol);
  const instrument = s.market.instrument(symbol);
  const refUnits = instrument.refTicks * instrument.tickUnits; // at instrument.priceScale
  const num = quoteCapitalOf(s, symbol) * 10n ** BigInt(instrument.priceScale + m.math.qtyScale);
  const den = refUnits * m.math.lotUnits * 10n ** BigInt(m.math.quoteScale);
  if (den <= 0n) throw new Error(`${symbol}: no reference price`);
  return baseUnits(m.math, (num + den - 1n) / den);
}

/**
 * Commits a book's capital in a currency once per market-maker account (idempotency key
 * `spot:mm:capital:<book>:<account>:<currency>`): the sum over the enabled markets using the
 * currency, in quote (quoteCapitalOf) or base (baseCapitalOf). A currency funded under the
 * earlier per-market keys (`spot:mm:capital:<book>:<symbol>:<currency>`) counts as committed.
 * A market added later whose currency is already committed shares that capital.
 */
export async function ensureCapital(s: MmState, book: Book, currency: string): Promise<void> {
  const customerId = s.ids[book];
  if (!customerId || s.committed.has(`${book}:${currency}`)) return;
  const key = `spot:mm:capital:${book}:${customerId}:${currency}`;
  const uses = (m: { base: string; quote: string }) => m.base === currency || m.quote === currency;
  const using = s.spot.markets().filter(uses);
  const known = [key, ...using.map((m) => `spot:mm:capital:${book}:${m.symbol}:${currency}`)];
  for (const k of known) {
    if ((await s.ledger.entryIdByKey(s.db, k)) !== null) {
      s.committed.add(`${book}:${currency}`);
      return;
    }
  }
  let amountUnits = 0n;
  for (const m of quotedMarkets(s).filter(uses)) {
    amountUnits += m.quote === currency ? quoteCapitalOf(s, m.symbol) : baseCapitalOf(s, m.symbol);
  }
  if (amountUnits <= 0n) return;
  await s.ledger.credit(s.db, {
    book,
    customerId,
    accountType: 'spot',
    currency,
    amountUnits,
    from: book === 'real' ? 'market_maker_capital' : 'demo_faucet',
    reason: 'spot.mm.capital',
    reference: { type: 'market_maker', id: `${book}:${currency}` },
    idempotencyKey: key,
  });
  s.committed.add(`${book}:${currency}`);
}
