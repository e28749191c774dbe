import type { CreateOrderBody } from '@bourse/protocol';
import { baseUnits, notionalUnits, priceText, qtyText, toSteps } from '@bourse/risk';
import { Refusal } from '../../http/refusal.ts';
import { baseCapitalOf } from './mm-capital.ts';
import type { MmState } from './mm-state.ts';
import type { Book } from './order.ts';

/**
 * The market maker's quotes: `levels` post-only bids and asks at `spread_bps + i × step_bps` around
 * the market module's mark, `level_notional` each, validated like any customer's order. A market
 * is re-quoted when its mark moved at least `requoteBps` (half a step) or a quote left the book, as
 * one amend (`spot.amendFor`: old quotes out, new ones in, in one batch of the book, so it never
 * stands empty); the inventory limit stops bids (or asks) when base holdings stray from the base
 * capital by `inventory_limit_pct`.
 */

/** Quotes one market of one book; true when its quotes are on the book afterwards (placed or kept). */
export async function quote(s: MmState, book: Book, symbol: string): Promise<boolean> {
  const customerId = s.ids[book];
  if (!customerId) return false;
  const m = s.spot.market(symbol);
  if (m.status !== 'enabled' || s.spot.killSwitch().engaged) return false;
  let mark: string;
  try {
    mark = s.market.priceForTrading(symbol).mark;
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return false; // no live price (stale, closed, halted): nothing to quote around
  }
  const key = `${book}:${symbol}`;
  let mine = 0;
  for (const o of s.spot.runner(symbol, book).open.values()) if (o.customerId === customerId) mine += 1;
  const ref = toSteps(mark, m.math.priceScale, m.math.tickUnits);
  if (!ref.ok) return false;
  const last = s.lastQuoted.get(key);
  // Every quote still resting and the mark within the tolerance of the one they were set around: kept.
  if (last && mine > 0 && mine >= last.resting && withinBps(last.refTicks, ref.steps, requoteBps(s)))
    return true;
  const [base, quoteBal] = await Promise.all([
    s.ledger.balance(s.db, { book, customerId, accountType: 'spot', currency: m.base }),
    s.ledger.balance(s.db, { book, customerId, accountType: 'spot', currency: m.quote }),
  ]);
  if (!s.committed.has(`${book}:${m.base}`) || !s.committed.has(`${book}:${m.quote}`)) return false;
  const level = toSteps(s.settings.level_notional, m.math.quoteScale, 1n);
  if (!level.ok) return false;
  const baseCapital = baseCapitalOf(s, symbol);
  const held = base.availableUnits + base.frozenUnits;
  const pct = BigInt(s.settings.inventory_limit_pct);
  // The old quotes' funds are released in the same batch, before the new quotes freeze theirs.
  const freed = { quote: 0n, base: 0n };
  for (const o of s.spot.runner(symbol, book).open.values()) {
    if (o.customerId !== customerId) continue;
    if (o.frozenCurrency === m.quote) freed.quote += o.frozen;
    else freed.base += o.frozen;
  }
  const bodies = levelOrders(s, m, {
    symbol,
    refTicks: ref.steps,
    levelUnits: level.steps,
    bids: held * 100n <= baseCapital * (100n + pct),
    asks: held * 100n >= baseCapital * (100n - pct),
    quoteLeft: quoteBal.availableUnits + freed.quote,
    baseLeft: base.availableUnits + freed.base,
  });
  // One batch: the old quotes out, the new ones in (a refused level — a customer's order inside the
  // spread makes a post-only quote take, a halt — is simply not quoted this round).
  const amended = await s.spot.amendFor(customerId, book, symbol, bodies);
  s.lastQuoted.set(key, { refTicks: ref.steps, resting: amended.placed.length });
  return true;
}

/**
 * How far (basis points) the mark may move before the quotes follow: half a level step, at least 1.
 * Smaller moves keep the quotes (each re-quote is a release and a freeze per quote in the ledger, so
 * an idle install would otherwise write tens of thousands of entries an hour chasing every tick).
 */
function requoteBps(s: MmState): number {
  return Math.max(1, Math.floor(s.settings.step_bps / 2));
}

/** Whether `now` is less than `bps` basis points away from `then` (both in ticks). */
function withinBps(then: bigint, now: bigint, bps: number): boolean {
  const gap = now > then ? now - then : then - now;
  return gap * 10_000n < then * BigInt(bps);
}

/** Each level's bid and ask that is allowed and affordable, as post-only limit orders. */
function levelOrders(
  s: MmState,
  m: ReturnType<MmState['spot']['market']>,
  q: {
    symbol: string;
    refTicks: bigint;
    /** Each level's value in quote minor units. */
    levelUnits: bigint;
    bids: boolean;
    asks: boolean;
    quoteLeft: bigint;
    baseLeft: bigint;
  },
): CreateOrderBody[] {
  let { quoteLeft, baseLeft } = q;
  const out: CreateOrderBody[] = [];
  for (let i = 0; i < s.settings.levels; i++) {
    const bps = BigInt(s.settings.spread_bps + i * s.settings.step_bps);
    const bid = (q.refTicks * (10_000n - bps)) / 10_000n;
    const ask = (q.refTicks * (10_000n + bps) + 9_999n) / 10_000n;
    for (const [side, price, allowed] of [
      ['buy', bid, q.bids],
      ['sell', ask, q.asks],
    ] as const) {
      if (!allowed || price <= 0n) continue;
      const lotValue = notionalUnits(m.math, price, 1n);
      let lots = q.levelUnits / lotValue;
      if (lots < m.minQtyLots) lots = m.minQtyLots;
      const cost = side === 'buy' ? notionalUnits(m.math, price, lots) * 2n : baseUnits(m.math, lots);
      if (side === 'buy' ? cost > quoteLeft : cost > baseLeft) continue;
      out.push({
        symbol: q.symbol,
        side,
        type: 'limit',
        price: priceText(m.math, price),
        quantity: qtyText(m.math, lots),
        post_only: '1',
      });
      if (side === 'buy') quoteLeft -= cost;
      else baseLeft -= cost;
    }
  }
  return out;
}
