import { divRound } from '@bourse/money';
import type { Ratio } from './ratio.ts';

/** Lots and contract sizes are bigint units of 10^-8 ("0.01" lots = 1_000_000n). */
export const LOTS_SCALE = 8;
/** Margin, fees, P&L, funding and stakes are USDT minor units (10^-8, as in the ledger). */
export const USDT_SCALE = 8;
/** Largest instrument price scale accepted (price units = price × 10^priceScale). */
export const MAX_PRICE_SCALE = 12;
/** Leverage is a whole number in 1…100 (DERIVATIVES_LIMITS.leverageMax). */
export const MAX_LEVERAGE = 100;

export type Side = 'buy' | 'sell';

/** What turns a price and a number of lots into USDT for one instrument. */
export type ContractMath = Readonly<{
  /** Price units = price × 10^priceScale (the instrument's scale, 0…12). */
  priceScale: number;
  /** Contract size × 10^8 (1 lot = contract size × base). */
  contractSizeUnits: bigint;
  /** Quote currency → USDT (1/1 for USD and USDT quotes). */
  toUsdt: Ratio;
}>;

const POW10: bigint[] = [];
function pow10(n: number): bigint {
  let p = POW10[n];
  if (p === undefined) {
    p = 10n ** BigInt(n);
    POW10[n] = p;
  }
  return p;
}

function assertMath(m: ContractMath): void {
  if (!Number.isInteger(m.priceScale) || m.priceScale < 0 || m.priceScale > MAX_PRICE_SCALE) {
    throw new RangeError(
      `priceScale must be an integer in 0..${MAX_PRICE_SCALE}, got ${String(m.priceScale)}`,
    );
  }
  if (typeof m.contractSizeUnits !== 'bigint' || m.contractSizeUnits <= 0n) {
    throw new RangeError('contractSizeUnits must be a positive bigint');
  }
  if (
    typeof m.toUsdt.num !== 'bigint' ||
    typeof m.toUsdt.den !== 'bigint' ||
    m.toUsdt.den <= 0n ||
    m.toUsdt.num < 0n
  ) {
    throw new RangeError('toUsdt must be a non-negative ratio with a positive denominator');
  }
}

function assertUnits(value: bigint, name: string, min: bigint): void {
  if (typeof value !== 'bigint') throw new TypeError(`${name} must be a bigint`);
  if (value < min) throw new RangeError(`${name} must be ≥ ${min}, got ${value}`);
}

/**
 * The exact USDT value of one price unit on `lots`, as a fraction K / D of USDT minor units:
 * value(Δprice units) = Δ × K / D, with K = lots × contractSize × toUsdt.num and
 * D = toUsdt.den × 10^(priceScale + 8). (price × 10^-s × lots × 10^-8 × size × 10^-8 × rate, in 10^-8 units.)
 */
export function usdtFactor(m: ContractMath, lotsUnits: bigint): { k: bigint; d: bigint } {
  assertMath(m);
  return { k: lotsUnits * m.contractSizeUnits * m.toUsdt.num, d: usdtDenominator(m) };
}

/** D = toUsdt.den × 10^(priceScale + 8) (see usdtFactor); the caller has validated m. */
export function usdtDenominator(m: ContractMath): bigint {
  return m.toUsdt.den * pow10(m.priceScale + LOTS_SCALE + LOTS_SCALE - USDT_SCALE);
}

/** price × lots × contract size × toUsdt, rounded half-up to USDT minor units (a display/exposure figure). */
export function notionalUsdt(m: ContractMath, priceUnits: bigint, lotsUnits: bigint): bigint {
  assertUnits(priceUnits, 'priceUnits', 0n);
  assertUnits(lotsUnits, 'lotsUnits', 0n);
  const { k, d } = usdtFactor(m, lotsUnits);
  return divRound(priceUnits * k, d, 'halfUp');
}

/** price × lots × contract size, exactly, in the quote currency: `units` at `scale` (trailing zeros removed; scale may exceed 18). */
export function notionalQuote(
  m: ContractMath,
  priceUnits: bigint,
  lotsUnits: bigint,
): { units: bigint; scale: number } {
  assertMath(m);
  assertUnits(priceUnits, 'priceUnits', 0n);
  assertUnits(lotsUnits, 'lotsUnits', 0n);
  let units = priceUnits * lotsUnits * m.contractSizeUnits;
  let scale = m.priceScale + LOTS_SCALE + LOTS_SCALE;
  if (units === 0n) return { units: 0n, scale: 0 };
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return { units, scale };
}

function assertLeverage(leverage: number): void {
  if (!Number.isInteger(leverage) || leverage < 1 || leverage > MAX_LEVERAGE) {
    throw new RangeError(`leverage must be a whole number in 1..${MAX_LEVERAGE}, got ${String(leverage)}`);
  }
}

/** ceil(exact notional in USDT ÷ leverage): the margin is never less than the exact share. */
export function marginFor(m: ContractMath, priceUnits: bigint, lotsUnits: bigint, leverage: number): bigint {
  assertUnits(priceUnits, 'priceUnits', 0n);
  assertUnits(lotsUnits, 'lotsUnits', 0n);
  assertLeverage(leverage);
  const { k, d } = usdtFactor(m, lotsUnits);
  return divRound(priceUnits * k, d * BigInt(leverage), 'ceil');
}

/** ceil(fee per lot × lots): a charge, rounded toward the platform. */
export function feeFor(feePerLotUnits: bigint, lotsUnits: bigint): bigint {
  assertUnits(feePerLotUnits, 'feePerLotUnits', 0n);
  assertUnits(lotsUnits, 'lotsUnits', 0n);
  return divRound(feePerLotUnits * lotsUnits, pow10(LOTS_SCALE), 'ceil');
}

/**
 * Signed P&L in USDT units of `lots` opened at `open` and valued at `close`: (close − open) for a
 * long, (open − close) for a short, × lots × contract size × toUsdt, floored toward −∞ — a gain is
 * never rounded up and a loss never rounded down, so the customer never receives a fraction not earned.
 */
export function pnlUsdt(
  m: ContractMath,
  side: Side,
  openUnits: bigint,
  closeUnits: bigint,
  lotsUnits: bigint,
): bigint {
  assertSide(side);
  assertUnits(openUnits, 'openUnits', 0n);
  assertUnits(closeUnits, 'closeUnits', 0n);
  assertUnits(lotsUnits, 'lotsUnits', 0n);
  const { k, d } = usdtFactor(m, lotsUnits);
  const diff = side === 'buy' ? closeUnits - openUnits : openUnits - closeUnits;
  return divRound(diff * k, d, 'floor');
}

function assertSide(side: Side): void {
  if (side !== 'buy' && side !== 'sell')
    throw new RangeError(`side must be buy or sell, got ${String(side)}`);
}

/**
 * Risk rate = max(0, −pnlUsdt at the mark price) ÷ margin, as the exact fraction
 * { num: loss in USDT units, den: margin } (not reduced). Margin must be positive.
 */
export function riskRate(
  m: ContractMath,
  side: Side,
  openUnits: bigint,
  markUnits: bigint,
  lotsUnits: bigint,
  marginUnits: bigint,
): Ratio {
  assertUnits(marginUnits, 'marginUnits', 1n);
  const pnl = pnlUsdt(m, side, openUnits, markUnits, lotsUnits);
  return { num: pnl < 0n ? -pnl : 0n, den: marginUnits };
}

/**
 * The exact boundary of the liquidation region, in price units (not on the tick grid): a long
 * reaches `level` exactly when mark ≤ boundary, a short exactly when mark ≥ boundary. null when no
 * price can reach it (a zero conversion rate). Derivation (README, "Liquidation price"):
 * loss(X) = ceil(|X − open| × K / D) on the losing side; loss × level.den ≥ level.num × margin
 * ⇔ loss ≥ T = ceil(level.num × margin / level.den) ⇔ |X − open| ≥ floor((T − 1) × D / K) + 1.
 */
export function liquidationBoundary(
  m: ContractMath,
  side: Side,
  openUnits: bigint,
  lotsUnits: bigint,
  marginUnits: bigint,
  level: Ratio,
): bigint | null {
  assertSide(side);
  assertUnits(openUnits, 'openUnits', 0n);
  assertUnits(lotsUnits, 'lotsUnits', 1n);
  assertUnits(marginUnits, 'marginUnits', 1n);
  assertLevel(level);
  const { k, d } = usdtFactor(m, lotsUnits);
  return boundaryOf(side, openUnits, marginUnits, level, k, d);
}

/** liquidationBoundary with K and D already computed (the PositionBook's hot path). */
export function boundaryOf(
  side: Side,
  openUnits: bigint,
  marginUnits: bigint,
  level: Ratio,
  k: bigint,
  d: bigint,
): bigint | null {
  if (k <= 0n) return null;
  const threshold = divRound(level.num * marginUnits, level.den, 'ceil');
  const distance = ((threshold - 1n) * d) / k + 1n;
  return side === 'buy' ? openUnits - distance : openUnits + distance;
}

export function assertLevel(level: Ratio): void {
  if (typeof level.num !== 'bigint' || typeof level.den !== 'bigint' || level.den <= 0n || level.num <= 0n) {
    throw new RangeError('level must be a positive ratio with a positive denominator');
  }
}

/**
 * The price on the tick grid (multiples of `tickUnits`) nearest to `open` at which the risk rate
 * reaches `level`: for a long the highest such price below open, for a short the lowest above.
 * null when there is none above zero. At the returned price reachesLevel(riskRate(…), level) holds;
 * one tick towards open it does not.
 */
export function liquidationPrice(
  m: ContractMath,
  side: Side,
  openUnits: bigint,
  lotsUnits: bigint,
  marginUnits: bigint,
  level: Ratio,
  tickUnits: bigint,
): bigint | null {
  assertUnits(tickUnits, 'tickUnits', 1n);
  const boundary = liquidationBoundary(m, side, openUnits, lotsUnits, marginUnits, level);
  if (boundary === null) return null;
  if (side === 'buy') {
    if (boundary <= 0n) return null;
    const price = (boundary / tickUnits) * tickUnits;
    return price > 0n ? price : null;
  }
  return divRound(boundary, tickUnits, 'ceil') * tickUnits;
}

/** Smallest price an executable sell/close-long price is clamped to: one price unit (never ≤ 0). */
export const MIN_EXECUTABLE_PRICE = 1n;

/**
 * The platform's prices from the feed's bid/ask and the configured spread (all price units):
 * buys open and shorts close at ask + spread; sells open and longs close at bid − spread, clamped
 * to MIN_EXECUTABLE_PRICE (1 price unit) so a wide spread on a cheap instrument never gives a
 * price ≤ 0.
 */
export function executable(
  bidUnits: bigint,
  askUnits: bigint,
  spreadUnits: bigint,
): { openBuy: bigint; openSell: bigint; closeLong: bigint; closeShort: bigint } {
  assertUnits(bidUnits, 'bidUnits', 1n);
  assertUnits(askUnits, 'askUnits', 1n);
  assertUnits(spreadUnits, 'spreadUnits', 0n);
  const buy = askUnits + spreadUnits;
  const raw = bidUnits - spreadUnits;
  const sell = raw < MIN_EXECUTABLE_PRICE ? MIN_EXECUTABLE_PRICE : raw;
  return { openBuy: buy, openSell: sell, closeLong: sell, closeShort: buy };
}

export type TpSlRefusal = {
  reason: 'TP_MUST_BE_ABOVE' | 'TP_MUST_BE_BELOW' | 'SL_MUST_BE_BELOW' | 'SL_MUST_BE_ABOVE';
  /** The reference price the level must beat (the refusal's `price` parameter). */
  priceUnits: bigint;
};

/**
 * Validates take-profit / stop-loss levels against the side and a reference price (the current
 * executable close price, or a pending order's price), strictly: buy → tp > reference, sl <
 * reference; sell → tp < reference, sl > reference. Take-profit is checked first. null = valid.
 */
export function checkTpSl(
  side: Side,
  referenceUnits: bigint,
  tpUnits: bigint | null,
  slUnits: bigint | null,
): TpSlRefusal | null {
  assertSide(side);
  if (side === 'buy') {
    if (tpUnits !== null && !(tpUnits > referenceUnits))
      return { reason: 'TP_MUST_BE_ABOVE', priceUnits: referenceUnits };
    if (slUnits !== null && !(slUnits < referenceUnits))
      return { reason: 'SL_MUST_BE_BELOW', priceUnits: referenceUnits };
    return null;
  }
  if (tpUnits !== null && !(tpUnits < referenceUnits))
    return { reason: 'TP_MUST_BE_BELOW', priceUnits: referenceUnits };
  if (slUnits !== null && !(slUnits > referenceUnits))
    return { reason: 'SL_MUST_BE_ABOVE', priceUnits: referenceUnits };
  return null;
}

/**
 * Whether the executable close price triggers a level: long — close ≥ tp → take_profit, close ≤ sl
 * → stop_loss; short — close ≤ tp → take_profit, close ≥ sl → stop_loss. Stop-loss wins when both
 * hold (impossible for validated levels).
 */
export function tpSlTriggered(
  side: Side,
  closeUnits: bigint,
  tpUnits: bigint | null,
  slUnits: bigint | null,
): 'take_profit' | 'stop_loss' | null {
  if (side === 'buy') {
    if (slUnits !== null && closeUnits <= slUnits) return 'stop_loss';
    if (tpUnits !== null && closeUnits >= tpUnits) return 'take_profit';
    return null;
  }
  if (slUnits !== null && closeUnits >= slUnits) return 'stop_loss';
  if (tpUnits !== null && closeUnits <= tpUnits) return 'take_profit';
  return null;
}

/**
 * Funding for the customer (signed USDT units): exact amount A = notional at mark × rate; a long
 * gets −A, a short +A, floored toward −∞. So with rate > 0 a long pays ceil(A) and a short receives
 * floor(A); with rate < 0 the reverse. The platform (the other side) never pays a fraction it did
 * not owe.
 */
export function fundingUsdt(
  m: ContractMath,
  side: Side,
  markUnits: bigint,
  lotsUnits: bigint,
  rate: Ratio,
): bigint {
  assertSide(side);
  assertUnits(markUnits, 'markUnits', 0n);
  assertUnits(lotsUnits, 'lotsUnits', 0n);
  if (rate.den <= 0n) throw new RangeError('rate must have a positive denominator');
  const { k, d } = usdtFactor(m, lotsUnits);
  const exact = markUnits * k * rate.num;
  return divRound(side === 'buy' ? -exact : exact, d * rate.den, 'floor');
}

/**
 * Margin released when `closeLots` of `openLots` are closed: floor(margin × closeLots / openLots),
 * or all of it when the close takes every open lot (so the remainder is never stranded).
 */
export function releasedMargin(marginUnits: bigint, closeLotsUnits: bigint, openLotsUnits: bigint): bigint {
  assertUnits(marginUnits, 'marginUnits', 0n);
  assertUnits(openLotsUnits, 'openLotsUnits', 1n);
  assertUnits(closeLotsUnits, 'closeLotsUnits', 1n);
  if (closeLotsUnits > openLotsUnits) throw new RangeError('cannot close more lots than are open');
  if (closeLotsUnits === openLotsUnits) return marginUnits;
  return (marginUnits * closeLotsUnits) / openLotsUnits;
}
