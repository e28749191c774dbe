import { formatUnits, parseDecimal, parseUnitsOrThrow, toDecimalString } from '@bourse/money';
import {
  type ContractMath,
  formatRatio,
  LOTS_SCALE,
  type Ratio,
  ratio,
  ratioFromDecimal,
  USDT_SCALE,
} from '@bourse/risk';
import { refuse } from '../../http/refusal.ts';

/**
 * The conversions between wire text and the integer units `@bourse/risk` computes with. No risk
 * number is computed here: margin, fees, P&L, risk rates, liquidation prices and funding all come
 * from `@bourse/risk`; this file only parses, formats and builds its inputs.
 */

/** What an instrument contributes to its ContractMath (from the market module's Instrument). */
export type InstrumentInfo = Readonly<{
  id: string;
  symbol: string;
  name: string;
  assetClass: string;
  base: string;
  quote: string;
  priceTick: string;
  priceScale: number;
  tickUnits: bigint;
  lotSize: string;
  lotUnits: bigint;
  contractSize: string;
  maxLeverage: number;
  expiryAt: Date | null;
}>;

export const ONE: Ratio = ratio(1n, 1n);
/** Conversion rates are recorded with this many decimals, and the recorded value is the one used. */
export const RATE_DECIMALS = 12;

export function mathOf(i: InstrumentInfo, toUsdt: Ratio): ContractMath {
  return {
    priceScale: i.priceScale,
    contractSizeUnits: parseUnitsOrThrow(i.contractSize, { scale: LOTS_SCALE }),
    toUsdt,
  };
}

export function priceText(i: Pick<InstrumentInfo, 'priceScale'>, units: bigint): string {
  return formatUnits(units, { scale: i.priceScale, minFractionDigits: i.priceScale });
}
/** A stored price (NUMERIC text, on the grid) into price units. */
export function storedPrice(i: Pick<InstrumentInfo, 'priceScale'>, text: string): bigint {
  return parseUnitsOrThrow(text, { scale: i.priceScale });
}
export function lotsText(units: bigint): string {
  return toDecimalString(units, LOTS_SCALE);
}
export function usdtText(units: bigint): string {
  return toDecimalString(units, USDT_SCALE);
}
export function usdtUnits(text: string): bigint {
  return parseUnitsOrThrow(text, { scale: USDT_SCALE, allowNegative: true });
}
export function decimalText(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** A customer's price: on the tick grid and positive, else a named refusal. */
export function parsePrice(i: InstrumentInfo, field: string, text: string): bigint {
  const loose = parseDecimal(text.trim(), { scale: 18, maxIntegerDigits: 20, allowNegative: true });
  if (!loose.ok) refuse('AMOUNT_INVALID', { field });
  if (loose.units <= 0n) refuse('AMOUNT_NOT_POSITIVE', { field });
  const exact = parseDecimal(text.trim(), { scale: i.priceScale, maxIntegerDigits: 20 });
  if (!exact.ok || exact.units % i.tickUnits !== 0n) refuse('ORDER_PRICE_TICK', { tick: i.priceTick });
  return exact.units;
}

/** "" or absent → null (no level); otherwise a price on the grid. */
export function parseLevel(i: InstrumentInfo, field: string, text: string | undefined): bigint | null {
  if (text === undefined || text.trim() === '') return null;
  return parsePrice(i, field, text);
}

/** Lots: a positive multiple of the instrument's lot step, within [min, max]. */
export function parseLots(
  i: InstrumentInfo,
  text: string,
  limits: { minUnits: bigint; maxUnits: bigint } | null,
): bigint {
  const loose = parseDecimal(text.trim(), { scale: 18, maxIntegerDigits: 20, allowNegative: true });
  if (!loose.ok) refuse('AMOUNT_INVALID', { field: 'lots' });
  if (loose.units <= 0n) refuse('AMOUNT_NOT_POSITIVE', { field: 'lots' });
  const exact = parseDecimal(text.trim(), { scale: LOTS_SCALE, maxIntegerDigits: 20 });
  if (!exact.ok || exact.units % i.lotUnits !== 0n) refuse('LOTS_STEP', { step: i.lotSize });
  if (limits) {
    if (exact.units < limits.minUnits) refuse('LOTS_BELOW_MIN', { min: lotsText(limits.minUnits) });
    if (exact.units > limits.maxUnits) refuse('LOTS_ABOVE_MAX', { max: lotsText(limits.maxUnits) });
  }
  return exact.units;
}

/** A decimal rate recorded with RATE_DECIMALS and the exact Ratio the maths used (the recorded one). */
export type Conversion = Readonly<{ rate: Ratio; text: string; via: string | null }>;

export const IDENTITY: Conversion = Object.freeze({ rate: ONE, text: '1', via: null });

/**
 * Quote → USDT from the catalogue pair's bid/ask (price units at `scale`): `<Q>/USD` → mid,
 * `USD/<Q>` → 1 / mid. Recorded rounded half-up to RATE_DECIMALS; the recorded value is what the
 * maths use, so the rate in the records reproduces every figure.
 */
export function conversionFrom(
  pair: { symbol: string; inverse: boolean; scale: number },
  bidUnits: bigint,
  askUnits: bigint,
): Conversion {
  const twice = bidUnits + askUnits; // 2 × mid, in price units
  const scaleUnits = 10n ** BigInt(pair.scale);
  const exact = pair.inverse ? ratio(2n * scaleUnits, twice) : ratio(twice, 2n * scaleUnits);
  const text = decimalText(formatRatio(exact, RATE_DECIMALS));
  return Object.freeze({ rate: ratioFromDecimal(text), text, via: pair.symbol });
}

export function conversionOfText(text: string, via: string | null): Conversion {
  return Object.freeze({ rate: ratioFromDecimal(text), text: decimalText(text), via });
}
