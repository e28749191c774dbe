import { MAX_SCALE } from './assets.ts';
import { parseDecimal, toDecimalString } from './decimal.ts';
import { assertRounding, divRound, type Rounding } from './rounding.ts';
import { assertScale, pow10 } from './scale.ts';

/**
 * Re-expresses an amount at another scale. Going up is exact; going down
 * divides, so the rounding is required even when it would not be used, to
 * keep call sites honest about which way they lose precision.
 */
export function rescale(units: bigint, options: { from: number; to: number; rounding: Rounding }): bigint {
  const { from, to, rounding } = options;
  assertScale(from, 'from');
  assertScale(to, 'to');
  assertRounding(rounding);
  if (to >= from) {
    return units * pow10(to - from);
  }
  return divRound(units, pow10(from - to), rounding);
}

/** a × b ÷ c with a single rounding at the end (no intermediate precision loss). */
export function mulDiv(a: bigint, b: bigint, c: bigint, rounding: Rounding): bigint {
  return divRound(a * b, c, rounding);
}

/**
 * Product of two scaled amounts, e.g. price (quote units at the price scale)
 * × quantity (base units at the base scale) → notional at the quote scale.
 * The exact product has scale aScale + bScale; it is rounded once.
 */
export function multiply(options: {
  a: bigint;
  aScale: number;
  b: bigint;
  bScale: number;
  resultScale: number;
  rounding: Rounding;
}): bigint {
  const { a, aScale, b, bScale, resultScale, rounding } = options;
  assertScale(aScale, 'aScale');
  assertScale(bScale, 'bScale');
  assertScale(resultScale, 'resultScale');
  assertRounding(rounding);
  const productScale = aScale + bScale;
  if (resultScale >= productScale) {
    return a * b * pow10(resultScale - productScale);
  }
  return divRound(a * b, pow10(productScale - resultScale), rounding);
}

export const BPS_PER_UNIT = 10_000n;

/**
 * units × bps / 10 000, e.g. a 25 bps fee on a notional. Negative bps are
 * allowed (maker rebates); the caller picks ROUND_CHARGE or ROUND_PAYOUT.
 */
export function applyBps(units: bigint, bps: bigint | number, rounding: Rounding): bigint {
  return divRound(units * toBigIntBps(bps), BPS_PER_UNIT, rounding);
}

/** Basis points as a percent text, exactly (no float): 500 → "5", 25 → "0.25", 8010 → "80.1", -50 → "-0.5". */
export function bpsPercentText(bps: bigint | number): string {
  return toDecimalString(toBigIntBps(bps), 2);
}

function toBigIntBps(bps: bigint | number): bigint {
  if (typeof bps === 'bigint') {
    return bps;
  }
  // A fractional number of bps would already be a float approximation.
  if (typeof bps !== 'number' || !Number.isSafeInteger(bps)) {
    throw new RangeError(`bps must be an integer, got ${String(bps)}`);
  }
  return BigInt(bps);
}

/** Rates may carry up to this many decimals ('0.000000000000000001'). */
export const MAX_RATE_SCALE = MAX_SCALE;

/**
 * units × rate, where rate is a decimal string ('0.004', '1.25', '-0.0001')
 * parsed exactly, then rounded once. An unparseable rate is configuration
 * gone wrong, so it throws rather than returning a result type.
 */
export function applyRate(options: { units: bigint; rate: string; rounding: Rounding }): bigint {
  const { units, rate, rounding } = options;
  const parsed = parseDecimal(rate, { scale: MAX_RATE_SCALE, allowNegative: true });
  if (!parsed.ok) {
    const shown = typeof rate === 'string' ? JSON.stringify(rate.slice(0, 64)) : String(rate);
    throw new RangeError(`Invalid rate ${shown}: ${parsed.error}`);
  }
  return divRound(units * parsed.units, pow10(MAX_RATE_SCALE), rounding);
}

export function sum(values: readonly bigint[]): bigint {
  let total = 0n;
  for (const value of values) {
    total += value;
  }
  return total;
}

/** At least one argument by construction, so there is no "min of nothing". */
export function min(first: bigint, ...rest: bigint[]): bigint {
  let result = first;
  for (const value of rest) {
    if (value < result) result = value;
  }
  return result;
}

export function max(first: bigint, ...rest: bigint[]): bigint {
  let result = first;
  for (const value of rest) {
    if (value > result) result = value;
  }
  return result;
}

export function abs(units: bigint): bigint {
  return units < 0n ? -units : units;
}

export function isPositive(units: bigint): boolean {
  return units > 0n;
}

export function isNegative(units: bigint): boolean {
  return units < 0n;
}

export function isZero(units: bigint): boolean {
  return units === 0n;
}

/**
 * Splits `units` in proportion to `weights` so the parts sum to exactly
 * `units`: each part gets the floor of its exact share, then the units left
 * over go one each to the largest remainders (ties: earlier index first, so
 * the result is deterministic). A zero weight always gets 0. Negative amounts
 * are split as their magnitude and negated, so allocation is symmetric.
 */
export function allocate(units: bigint, weights: readonly bigint[]): bigint[] {
  let totalWeight = 0n;
  for (const weight of weights) {
    if (typeof weight !== 'bigint' || weight < 0n) {
      throw new RangeError('allocate: weights must be non-negative bigints');
    }
    totalWeight += weight;
  }
  if (totalWeight === 0n) {
    throw new RangeError('allocate: at least one weight must be positive');
  }
  const magnitude = abs(units);
  const parts = weights.map((weight) => (magnitude * weight) / totalWeight);
  const remainders = weights.map((weight, index) => ({
    index,
    remainder: (magnitude * weight) % totalWeight,
  }));
  remainders.sort((x, y) =>
    x.remainder === y.remainder ? x.index - y.index : x.remainder > y.remainder ? -1 : 1,
  );
  let leftover = magnitude - sum(parts);
  // leftover < number of non-zero remainders, so zero weights never get one.
  for (let i = 0; leftover > 0n; i++, leftover--) {
    const target = remainders[i];
    if (target === undefined) break;
    parts[target.index] = (parts[target.index] ?? 0n) + 1n;
  }
  return units < 0n ? parts.map((part) => -part) : parts;
}
