/**
 * Moving averages of closing prices, computed exactly: closes are decimal strings turned into
 * integer units at the chart's price scale, summed as bigints over a sliding window, and divided
 * once with half-up rounding. The chart library draws numbers; the legend shows these strings.
 */
export const MA_PERIODS = [7, 25, 99] as const;

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** "12.5" at scale 2 → 1250n. More digits than the scale are cut (never happens for candle prices). */
export function toUnits(value: string, scale: number): bigint {
  const match = DECIMAL.exec(value);
  if (!match) throw new Error(`not a decimal: ${value}`);
  const [, sign = '', whole = '0', fraction = ''] = match;
  const units = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
  return sign ? -units : units;
}

export function fromUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

/** Half-up (away from zero) division of a sum by a count. */
function divideHalfUp(sum: bigint, count: bigint): bigint {
  const negative = sum < 0n;
  const magnitude = negative ? -sum : sum;
  const q = (magnitude * 2n + count) / (count * 2n);
  return negative ? -q : q;
}

/**
 * The `period`-candle simple moving average of `closes` at `scale` decimals: one entry per close,
 * null until the window is full.
 */
export function movingAverage(
  closes: readonly string[],
  period: number,
  scale: number,
): Array<string | null> {
  if (!Number.isInteger(period) || period < 1) throw new Error(`bad period ${period}`);
  const units = closes.map((c) => toUnits(c, scale));
  const out: Array<string | null> = [];
  let sum = 0n;
  for (let i = 0; i < units.length; i++) {
    sum += units[i] as bigint;
    if (i >= period) sum -= units[i - period] as bigint;
    out.push(i + 1 >= period ? fromUnits(divideHalfUp(sum, BigInt(period)), scale) : null);
  }
  return out;
}
