import { mulDiv, ROUND_CHARGE, ROUND_PAYOUT } from '@bourse/money';
import { feeOf, floorToStep, notionalOf, ONE, units } from './amounts.ts';

/**
 * Quotes from the visible book, exact: what a market order of a given size would trade, level by
 * level from the best price. Used for the market-order estimate, /exchange and /kjmbSelect. The
 * quote is an estimate: the book can move before the order arrives, and the server's price band
 * protects the customer from a far worse fill.
 */
export type Level = { price: bigint; qty: bigint };

/** `[price, qty]` decimal pairs, best first, as bigint levels (malformed ones dropped). */
export function levelsOf(pairs: ReadonlyArray<readonly [string, string]>): Level[] {
  const out: Level[] = [];
  for (const [p, q] of pairs) {
    const price = units(p);
    const qty = units(q);
    if (price !== null && qty !== null && price > 0n && qty > 0n) out.push({ price, qty });
  }
  return out;
}

export type Fill = {
  /** Base quantity that trades. */
  qty: bigint;
  /** Quote value of it (Σ price × qty): rounded up for a buy, down for a sell. */
  value: bigint;
  /** value / qty, or null when nothing fills. */
  avgPrice: bigint | null;
  /** False when the visible book is too thin for the whole size. */
  complete: boolean;
};

function avg(value: bigint, qty: bigint): bigint | null {
  return qty === 0n ? null : mulDiv(value, ONE, qty, ROUND_PAYOUT);
}

/** Trading `qty` base against `levels` (asks for a buy, bids for a sell). */
export function fillBase(levels: readonly Level[], qty: bigint, side: 'buy' | 'sell'): Fill {
  let left = qty;
  let value = 0n;
  for (const level of levels) {
    if (left === 0n) break;
    // biome-ignore lint/complexity/useMathMinMax: bigints (Math.min takes numbers only)
    const take = left < level.qty ? left : level.qty;
    // Exact product at twice the scale; rounded once at the end.
    value += level.price * take;
    left -= take;
  }
  const filled = qty - left;
  const rounded = mulDiv(value, 1n, ONE, side === 'buy' ? ROUND_CHARGE : ROUND_PAYOUT);
  return { qty: filled, value: rounded, avgPrice: avg(rounded, filled), complete: left === 0n };
}

/**
 * How much base a quote budget buys from `levels` (asks), paying `feeRate` in quote on top: the
 * largest whole number of lots whose value plus fee stays within the budget.
 */
export function buyWithQuote(
  levels: readonly Level[],
  budget: bigint,
  lot: bigint,
  feeRate: bigint,
  quoteScale: number,
): Fill {
  // Spendable on value: budget / (1 + fee), rounded down.
  let left = mulDiv(budget, ONE, ONE + feeRate, ROUND_PAYOUT);
  let qty = 0n;
  for (const level of levels) {
    if (left <= 0n) break;
    const levelValue = notionalOf(level.price, level.qty);
    if (levelValue <= left) {
      qty += level.qty;
      left -= levelValue;
      continue;
    }
    qty += mulDiv(left, ONE, level.price, ROUND_PAYOUT);
    left = 0n;
  }
  // The visible book ran out before the budget did.
  const exhausted = left > 0n;
  let lots = floorToStep(qty, lot);
  // Rounding per level can overshoot by a minor unit: step down until value + fee fits.
  let fill = fillBase(levels, lots, 'buy');
  while (lots > 0n && fill.value + feeOf(fill.value, feeRate, quoteScale) > budget) {
    lots -= lot > 0n ? lot : 1n;
    fill = fillBase(levels, lots, 'buy');
  }
  return { ...fill, complete: !exhausted };
}
