import { abs, divRound, formatUnits, MAX_SCALE, parseUnitsOrThrow } from '@bourse/money';

/** An exact fraction num / den with den > 0 (risk rates, levels, conversion, funding and payout rates). */
export type Ratio = Readonly<{ num: bigint; den: bigint }>;

const RATE_ONE = 10n ** BigInt(MAX_SCALE);

function gcd(a: bigint, b: bigint): bigint {
  let x = abs(a);
  let y = abs(b);
  while (y !== 0n) {
    const t = x % y;
    x = y;
    y = t;
  }
  return x;
}

/** num / den reduced to lowest terms with a positive denominator; throws on den = 0 or non-bigints. */
export function ratio(num: bigint, den: bigint): Ratio {
  if (typeof num !== 'bigint' || typeof den !== 'bigint') {
    throw new TypeError('ratio: numerator and denominator must be bigints');
  }
  if (den === 0n) throw new RangeError('ratio: zero denominator');
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const g = gcd(num, den);
  return g > 1n ? { num: num / g, den: den / g } : { num, den };
}

/**
 * A decimal string ("0.8", "-0.0001", "150.214") as an exact fraction, parsed by `@bourse/money`
 * (up to 18 fraction digits, 20 integer digits; no exponents, no spaces). Throws `MoneyParseError`
 * on anything else: rates come from configuration and the feed, where a bad value is a bug.
 */
export function ratioFromDecimal(text: string): Ratio {
  return ratio(parseUnitsOrThrow(text, { scale: MAX_SCALE, allowNegative: true }), RATE_ONE);
}

/** -1, 0 or 1 as a < b, a = b, a > b (exact; both denominators are positive). */
export function compareRatio(a: Ratio, b: Ratio): -1 | 0 | 1 {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

/** rate ≥ level, exactly: the risk-rate test that liquidates (see README, "Risk rate"). */
export function reachesLevel(rate: Ratio, level: Ratio): boolean {
  return rate.num * level.den >= level.num * rate.den;
}

function assertDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_SCALE) {
    throw new RangeError(`decimals must be an integer in 0..${MAX_SCALE}, got ${String(decimals)}`);
  }
}

/** The fraction as a decimal string with exactly `decimals` fraction digits, rounded half-up ("0.4215"). Display only. */
export function formatRatio(r: Ratio, decimals: number): string {
  assertDecimals(decimals);
  const units = divRound(r.num * 10n ** BigInt(decimals), r.den, 'halfUp');
  return formatUnits(units, { scale: decimals, minFractionDigits: decimals });
}

/** The fraction × 100 with exactly `decimals` fraction digits, rounded half-up ("42.15" for 0.42149…). Display only. */
export function formatRatioPercent(r: Ratio, decimals: number): string {
  assertDecimals(decimals);
  const units = divRound(r.num * 100n * 10n ** BigInt(decimals), r.den, 'halfUp');
  return formatUnits(units, { scale: decimals, minFractionDigits: decimals });
}
