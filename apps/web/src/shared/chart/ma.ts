import { divRound, formatUnits, signedUnits } from '@bourse/money';

/**
 * Moving averages of closing prices, computed exactly: closes are decimal strings turned into
 * integer units at the chart's price scale (@bourse/money), summed as bigints over a sliding window,
 * and divided once with half-up rounding. The chart library draws numbers; the legend shows these strings.
 */
export const MA_PERIODS = [7, 25, 99] as const;

/** "12.5" at scale 2 → 1250n. More digits than the scale are cut (never happens for candle prices). */
export const toUnits = (value: string, scale: number): bigint => signedUnits(value, scale);

/** Units back to a decimal string with exactly `scale` fraction digits ("-12.50"). */
export const fromUnits = (units: bigint, scale: number): string =>
  formatUnits(units, { scale, minFractionDigits: scale });

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
    out.push(i + 1 >= period ? fromUnits(divRound(sum, BigInt(period), 'halfUp'), scale) : null);
  }
  return out;
}
