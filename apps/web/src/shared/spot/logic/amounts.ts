import { divRound, formatUnits, mulDiv, parseDecimal, ROUND_CHARGE, ROUND_PAYOUT } from '@bourse/money';
import { spotFee } from '@bourse/risk';

/**
 * The order form's arithmetic, exact: every amount is a bigint at one internal scale (18 decimals,
 * the largest any asset uses), parsed from and shown as decimal strings. What the customer pays
 * (notional of a buy) rounds up, fees round down as the server charges them (@bourse/risk); what a percentage of the balance buys rounds down, to a whole
 * number of lots, so a slider position never asks for more than the balance holds.
 */
export const UNIT_SCALE = 18;
export const ONE = 10n ** BigInt(UNIT_SCALE);
export const SLIDER_STEPS = [25, 50, 75, 100] as const;

/** A non-negative decimal string as units; null when empty or not a decimal (or too precise). */
export function units(value: string | null | undefined): bigint | null {
  if (value === null || value === undefined) return null;
  const parsed = parseDecimal(value.trim(), { scale: UNIT_SCALE });
  return parsed.ok ? parsed.units : null;
}

/** Units as a decimal string with at most `digits` fraction digits (rounded `down` unless told). */
export function show(
  value: bigint,
  digits = UNIT_SCALE,
  rounding: 'down' | 'ceil' | 'floor' = 'down',
): string {
  return formatUnits(value, { scale: UNIT_SCALE, maxFractionDigits: Math.min(digits, UNIT_SCALE), rounding });
}

/** Decimal places of a step such as "0.01" (2) or "1" (0). */
export function decimalsOf(step: string): number {
  const dot = step.indexOf('.');
  return dot < 0 ? 0 : step.slice(dot + 1).replace(/0+$/, '').length;
}

/** `pct` percent of `available`, rounded down. */
export function percentOf(available: bigint, pct: number): bigint {
  if (!Number.isInteger(pct) || pct < 0 || pct > 100) throw new RangeError(`percent ${pct}`);
  return divRound(available * BigInt(pct), 100n, ROUND_PAYOUT);
}

/** The largest whole multiple of `step` not above `value`. */
export function floorToStep(value: bigint, step: bigint): bigint {
  if (step <= 0n) return value;
  return value - (value % step);
}

/** Price × quantity, what a buyer pays: rounded up. */
export function notionalOf(price: bigint, qty: bigint): bigint {
  return mulDiv(price, qty, ONE, ROUND_CHARGE);
}

/**
 * The fee on a traded value at a decimal rate (`"0.001"` = 0.1 %), exactly as the server charges it:
 * @bourse/risk's `spotFee` on the value in the quote's minor units (rounded down), back at UNIT_SCALE.
 */
export function feeOf(amount: bigint, rate: bigint, quoteScale: number): bigint {
  const step = 10n ** BigInt(UNIT_SCALE - quoteScale);
  return spotFee(amount / step, { num: rate, den: ONE }) * step;
}

/**
 * The quantity a percentage of the balance trades. Selling: that share of the base balance.
 * Buying: that share of the quote balance divided by the price, and when the fee is paid in the
 * quote currency on top, divided by (1 + fee rate) as well. Always a whole number of lots.
 */
export function sliderQty(options: {
  side: 'buy' | 'sell';
  pct: number;
  available: bigint;
  price: bigint | null;
  lot: bigint;
  /** Buy fee charged in quote on top of the notional (frozen with it). */
  buyFeeRate?: bigint;
}): bigint {
  const share = percentOf(options.available, options.pct);
  if (options.side === 'sell') return floorToStep(share, options.lot);
  if (options.price === null || options.price <= 0n) return 0n;
  const perUnit = mulDiv(options.price, ONE + (options.buyFeeRate ?? 0n), ONE, ROUND_CHARGE);
  const qty = mulDiv(share, ONE, perUnit, ROUND_PAYOUT);
  return floorToStep(qty, options.lot);
}

/**
 * The price a market order is judged at by the server before it reaches the book: a buy at the
 * reference price plus the market's band (what it may pay at worst, and what it freezes), a sell
 * at the reference price. Kept on the price grid (`tick`), rounded down as the server does.
 */
export function marketCheckPrice(options: {
  side: 'buy' | 'sell';
  reference: bigint;
  bandBps: number;
  tick: bigint;
}): bigint {
  const ref = floorToStep(options.reference, options.tick);
  if (options.side === 'sell') return ref;
  const band = divRound(ref * BigInt(options.bandBps), 10_000n, ROUND_PAYOUT);
  return floorToStep(ref + band, options.tick);
}

/** The rules an order is checked against, as the market states them (units at UNIT_SCALE). */
export type OrderRules = {
  tick: bigint;
  lot: bigint;
  minQty: bigint;
  minNotional: bigint;
  /** 0 = no maximum. */
  maxNotional: bigint;
};

export type RuleBreak =
  | { rule: 'tick'; step: bigint }
  | { rule: 'lot'; step: bigint }
  | { rule: 'minQty'; min: bigint }
  | { rule: 'minNotional'; min: bigint }
  | { rule: 'maxNotional'; max: bigint }
  | { rule: 'balance'; need: bigint; available: bigint };

/**
 * Which of the market's rules an order would break, in the order the server checks them. `price`
 * null for a market order (notional judged at `estimatePrice`, if any). `need` is what the order
 * would freeze (quote for a buy, base for a sell).
 */
export function ruleBreaks(options: {
  rules: OrderRules;
  side: 'buy' | 'sell';
  price: bigint | null;
  qty: bigint;
  estimatePrice: bigint | null;
  available: bigint;
  buyFeeRate?: bigint;
  /** The quote currency's scale: fees are whole minor units of it. */
  quoteScale: number;
}): RuleBreak[] {
  const { rules, side, price, qty } = options;
  const out: RuleBreak[] = [];
  if (price !== null && rules.tick > 0n && price % rules.tick !== 0n)
    out.push({ rule: 'tick', step: rules.tick });
  if (rules.lot > 0n && qty % rules.lot !== 0n) out.push({ rule: 'lot', step: rules.lot });
  if (qty < rules.minQty) out.push({ rule: 'minQty', min: rules.minQty });
  const at = price ?? options.estimatePrice;
  if (at !== null) {
    const notional = notionalOf(at, qty);
    if (notional < rules.minNotional) out.push({ rule: 'minNotional', min: rules.minNotional });
    if (rules.maxNotional > 0n && notional > rules.maxNotional)
      out.push({ rule: 'maxNotional', max: rules.maxNotional });
  }
  const need =
    side === 'sell'
      ? qty
      : at === null
        ? null
        : notionalOf(at, qty) + feeOf(notionalOf(at, qty), options.buyFeeRate ?? 0n, options.quoteScale);
  if (need !== null && need > options.available)
    out.push({ rule: 'balance', need, available: options.available });
  return out;
}

/**
 * The fee preview. Fees are paid in the quote currency on the traded value (price × quantity). A
 * market order pays the taker rate at the estimated price; a limit order may rest (maker rate) or
 * cross (taker rate), so both are shown. A buy freezes its value plus the larger fee.
 */
export function feePreview(options: {
  kind: 'limit' | 'market';
  /** The limit price, or for a market order the estimated average price (null: unknown). */
  price: bigint | null;
  qty: bigint;
  makerRate: bigint;
  takerRate: bigint;
  /** The quote currency's scale: fees are whole minor units of it. */
  quoteScale: number;
}): { notional: bigint | null; maker: bigint | null; taker: bigint | null } {
  const notional = options.price === null ? null : notionalOf(options.price, options.qty);
  const taker = notional === null ? null : feeOf(notional, options.takerRate, options.quoteScale);
  const maker =
    notional === null || options.kind === 'market'
      ? null
      : feeOf(notional, options.makerRate, options.quoteScale);
  return { notional, maker, taker };
}
