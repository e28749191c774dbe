import { mulDiv, scaleOf, toDecimalString } from '@bourse/money';
import { baseUnits, type MarketMath, notionalUnits, parseRate, spotFee } from '@bourse/risk';
import type { StoredWeight } from './tables.ts';

/**
 * The money of an ETF order, pure and in bigint minor units: how much of each asset a budget buys
 * at the reference price (rounded down to the lot, fee included), what holdings are worth, their
 * weights, and what a rebalance trades. Shared by the preview, the purchase and the rebalance job.
 */

export const CASH = 'USDT';
export const USDT_SCALE = scaleOf(CASH);
export const BPS = 10_000n;

/** What the plan needs of a spot market (modules/spot's loaded market has these fields). */
export type PlanMarket = {
  symbol: string;
  base: string;
  math: MarketMath;
  takerFeeRate: string;
  minQtyLots: bigint;
  minNotionalUnits: bigint;
};

/** A reference price read as ticks of the market, rounded UP: sizing at it never overspends. */
export function priceTicksUp(math: MarketMath, price: string): bigint {
  const units = decimalUnits(price, math.priceScale + 12);
  const step = math.tickUnits * 10n ** 12n;
  const ticks = (units + step - 1n) / step;
  return ticks < 1n ? 1n : ticks;
}

/** A non-negative decimal string as units of 10^-scale, truncated (no float anywhere). */
export function decimalUnits(text: string, scale: number): bigint {
  const m = /^([0-9]+)(?:\.([0-9]*))?$/.exec(text.trim());
  if (!m) throw new Error(`not a decimal: ${text}`);
  const frac = (m[2] ?? '').slice(0, scale).padEnd(scale, '0');
  return BigInt(m[1] ?? '0') * 10n ** BigInt(scale) + BigInt(frac || '0');
}

export type BuyPlan = {
  qtyLots: bigint;
  quantityUnits: bigint;
  valueUnits: bigint;
  feeUnits: bigint;
  /** Too small for the market (its minimum quantity or notional): nothing is bought, the budget stays cash. */
  tooSmall: boolean;
};

/**
 * The most lots whose value at `price` plus the taker fee on it fit in `budgetUnits` (USDT):
 * q = ⌊budget · den / (unit · (den + num))⌋, so q·unit + ⌊q·unit·rate⌋ ≤ budget.
 */
export function planBuy(m: PlanMarket, budgetUnits: bigint, price: string): BuyPlan {
  const rate = parseRate(m.takerFeeRate);
  const ticks = priceTicksUp(m.math, price);
  const unit = notionalUnits(m.math, ticks, 1n);
  let q = budgetUnits <= 0n ? 0n : (budgetUnits * rate.den) / (unit * (rate.den + rate.num));
  // ⌊fee⌋ may leave room for one more lot; take it only when it still fits.
  while (q >= 0n) {
    const next = q + 1n;
    const v = notionalUnits(m.math, ticks, next);
    if (v + spotFee(v, rate) > budgetUnits) break;
    q = next;
  }
  const valueUnits = notionalUnits(m.math, ticks, q);
  const feeUnits = spotFee(valueUnits, rate);
  const tooSmall = q < m.minQtyLots || q === 0n || valueUnits < m.minNotionalUnits;
  return {
    qtyLots: tooSmall ? 0n : q,
    quantityUnits: tooSmall ? 0n : baseUnits(m.math, q),
    valueUnits: tooSmall ? 0n : valueUnits,
    feeUnits: tooSmall ? 0n : feeUnits,
    tooSmall,
  };
}

/** Lots held in `quantityUnits` of the base (the dust below one lot cannot be sold). */
export function lotsOf(m: PlanMarket, quantityUnits: bigint): bigint {
  return quantityUnits / baseUnits(m.math, 1n);
}

/** The value in USDT minor units of `quantityUnits` of an asset at `price` (floor). */
export function worthOf(asset: string, quantityUnits: bigint, price: string): bigint {
  if (asset === CASH) return quantityUnits;
  const p = decimalUnits(price, 18);
  return mulDiv(quantityUnits, p, 10n ** BigInt(scaleOf(asset) + 18 - USDT_SCALE), 'floor');
}

/** Each weight's budget of `amountUnits`: ⌊amount · bps / 10,000⌋ (the rounding remainder stays cash). */
export function budgets(weights: readonly StoredWeight[], amountUnits: bigint): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const w of weights) out.set(w.asset, (amountUnits * BigInt(w.weight_bps)) / BPS);
  return out;
}

/** Weights now (bps of the total, floor) of holdings valued at prices; cash under USDT. */
export function weightsOf(values: ReadonlyMap<string, bigint>): Map<string, number> {
  let total = 0n;
  for (const v of values.values()) total += v;
  const out = new Map<string, number>();
  for (const [asset, v] of values) out.set(asset, total === 0n ? 0 : Number((v * BPS) / total));
  return out;
}

/** The largest |weight − target| in bps. */
export function driftOf(values: ReadonlyMap<string, bigint>, targets: readonly StoredWeight[]): number {
  const now = weightsOf(values);
  let worst = 0;
  for (const t of targets) worst = Math.max(worst, Math.abs((now.get(t.asset) ?? 0) - t.weight_bps));
  return worst;
}

/**
 * What a rebalance trades to bring each asset back to its target value: for an over-weight asset the
 * value to sell, for an under-weight one the budget to buy (USDT). Cash is what is left.
 */
export function rebalanceTargets(
  values: ReadonlyMap<string, bigint>,
  targets: readonly StoredWeight[],
): Array<{ asset: string; side: 'buy' | 'sell'; valueUnits: bigint }> {
  let total = 0n;
  for (const v of values.values()) total += v;
  const out: Array<{ asset: string; side: 'buy' | 'sell'; valueUnits: bigint }> = [];
  for (const t of targets) {
    if (t.symbol === null) continue;
    const target = (total * BigInt(t.weight_bps)) / BPS;
    const now = values.get(t.asset) ?? 0n;
    if (now > target) out.push({ asset: t.asset, side: 'sell', valueUnits: now - target });
    else if (now < target) out.push({ asset: t.asset, side: 'buy', valueUnits: target - now });
  }
  // Sells first: their proceeds are the cash the buys spend.
  return out.sort((a, b) => (a.side === b.side ? 0 : a.side === 'sell' ? -1 : 1));
}

/** Units of an order: what it cost over the NAV per unit at purchase (both USDT minor units), floor. */
export function unitsOf(costUnits: bigint, navUnits: bigint): bigint {
  return navUnits <= 0n ? 0n : (costUnits * 10n ** BigInt(USDT_SCALE)) / navUnits;
}

export const usdt = (units: bigint) => toDecimalString(units, USDT_SCALE);
export const assetText = (asset: string, units: bigint) => toDecimalString(units, scaleOf(asset));
