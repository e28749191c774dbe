import { divRound, parseDecimal, scaleOf, toDecimalString } from '@bourse/money';

/**
 * The money of a spot market, exact in bigint minor units — the one source the server charges with
 * and the web previews with. A market's tick and lot are chosen so that price × quantity is a whole
 * number of the quote's minor unit (price decimals + quantity decimals ≤ quote scale) and a lot a
 * whole number of the base's (quantity decimals ≤ base scale): no rounding anywhere but the fee,
 * which is ⌊value × rate⌋ per fill, in the quote's minor unit — rounded down, so a trade's fee
 * never exceeds the posted rate (README, "Formulas and rounding").
 */
export type Rate = { num: bigint; den: bigint };
export const RATE_SCALE = 8;
export const RATE_MAX = '0.1';

export type MarketMath = {
  priceScale: number;
  qtyScale: number;
  baseScale: number;
  quoteScale: number;
  /** The tick in units of 10^-priceScale. */
  tickUnits: bigint;
  /** The lot in units of 10^-qtyScale. */
  lotUnits: bigint;
};

export function scaleOfText(text: string): number {
  const dot = text.indexOf('.');
  if (dot < 0) return 0;
  let end = text.length;
  while (end > dot + 1 && text[end - 1] === '0') end -= 1;
  return end - dot - 1;
}

export function normalizeDecimal(text: string): string {
  if (!text.includes('.')) return text;
  const trimmed = text.replace(/0+$/, '');
  return trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
}

export function mathOf(m: { base: string; quote: string; priceTick: string; lotSize: string }): MarketMath {
  const priceScale = scaleOfText(m.priceTick);
  const qtyScale = scaleOfText(m.lotSize);
  const tick = parseDecimal(normalizeDecimal(m.priceTick), { scale: priceScale });
  const lot = parseDecimal(normalizeDecimal(m.lotSize), { scale: qtyScale });
  if (!tick.ok || !lot.ok) throw new Error(`bad tick or lot ${m.priceTick} ${m.lotSize}`);
  return {
    priceScale,
    qtyScale,
    baseScale: scaleOf(m.base),
    quoteScale: scaleOf(m.quote),
    tickUnits: tick.units,
    lotUnits: lot.units,
  };
}

/** Why a tick/lot pair cannot be a market, or null. */
export function scaleProblem(
  math: Pick<MarketMath, 'priceScale' | 'qtyScale' | 'baseScale' | 'quoteScale'>,
): { field: string; max: number } | null {
  if (math.qtyScale > math.baseScale) return { field: 'lot_size', max: math.baseScale };
  if (math.priceScale + math.qtyScale > math.quoteScale)
    return { field: 'price_tick', max: math.quoteScale - math.qtyScale };
  return null;
}

/** price × quantity in quote minor units (exact by the scale rule). */
export function notionalUnits(math: MarketMath, priceTicks: bigint, qtyLots: bigint): bigint {
  return (
    priceTicks *
    math.tickUnits *
    qtyLots *
    math.lotUnits *
    10n ** BigInt(math.quoteScale - math.priceScale - math.qtyScale)
  );
}

export function baseUnits(math: MarketMath, qtyLots: bigint): bigint {
  return qtyLots * math.lotUnits * 10n ** BigInt(math.baseScale - math.qtyScale);
}

export function parseRate(text: string): Rate {
  const parsed = parseDecimal(text, { scale: RATE_SCALE });
  if (!parsed.ok) throw new Error(`bad rate ${text}`);
  return { num: parsed.units, den: 10n ** BigInt(RATE_SCALE) };
}

/** The fee on a fill's value (quote minor units) at a rate: ⌊value × rate⌋, rounded down. */
export function spotFee(valueUnits: bigint, rate: Rate): bigint {
  if (valueUnits < 0n || rate.num < 0n || rate.den <= 0n)
    throw new RangeError('spotFee: negative value or rate');
  return divRound(valueUnits * rate.num, rate.den, 'floor');
}

/** A decimal (price or quantity) into whole steps; null when not a multiple of the step. */
export function toSteps(
  text: string,
  scale: number,
  stepUnits: bigint,
): { ok: true; steps: bigint } | { ok: false; error: 'INVALID' | 'NOT_POSITIVE' | 'OFF_GRID' } {
  const loose = parseDecimal(text, { scale: 18, maxIntegerDigits: 24 });
  if (!loose.ok) {
    if (loose.error === 'NEGATIVE') return { ok: false, error: 'NOT_POSITIVE' };
    if (loose.error === 'TOO_PRECISE') return { ok: false, error: 'OFF_GRID' };
    return { ok: false, error: 'INVALID' };
  }
  if (loose.units <= 0n) return { ok: false, error: 'NOT_POSITIVE' };
  const exact = parseDecimal(text, { scale, maxIntegerDigits: 24 });
  if (!exact.ok) return { ok: false, error: 'OFF_GRID' };
  if (exact.units % stepUnits !== 0n) return { ok: false, error: 'OFF_GRID' };
  return { ok: true, steps: exact.units / stepUnits };
}

export function priceText(math: MarketMath, ticks: bigint): string {
  return toDecimalString(ticks * math.tickUnits, math.priceScale);
}
export function qtyText(math: MarketMath, lots: bigint): string {
  return toDecimalString(lots * math.lotUnits, math.qtyScale);
}
export function quoteText(math: MarketMath, units: bigint): string {
  return toDecimalString(units, math.quoteScale);
}
export function baseText(math: MarketMath, units: bigint): string {
  return toDecimalString(units, math.baseScale);
}
