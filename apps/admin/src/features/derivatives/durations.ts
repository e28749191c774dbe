import { isDecimal, isWholeInRange, signOf } from '@bourse/money';
import { DERIVATIVES_LIMITS, type OptionDurationData } from '@bourse/protocol';

/** One editable row of an option duration set: seconds and payout rate as typed. */
export type DurationRow = { seconds: string; rate: string };

export type DurationProblem = 'seconds' | 'rate' | 'duplicate';

export function durationRows(durations: readonly OptionDurationData[]): DurationRow[] {
  return durations.map((d) => ({ seconds: String(d.seconds), rate: d.payout_rate }));
}

/** The wire form of `POST admin/options/settings`: "60:0.85,300:0.9", in ascending seconds. */
export function serialiseDurations(rows: readonly DurationRow[]): string {
  return [...rows]
    .map((r) => ({ seconds: Number.parseInt(r.seconds.trim(), 10), rate: r.rate.trim() }))
    .sort((a, b) => a.seconds - b.seconds)
    .map((r) => `${r.seconds}:${r.rate}`)
    .join(',');
}

/** Per-row problems (null when the row is fine), checked before the server sees the set. */
export function durationProblems(rows: readonly DurationRow[]): (DurationProblem | null)[] {
  const seen = new Map<string, number>();
  for (const r of rows) seen.set(r.seconds.trim(), (seen.get(r.seconds.trim()) ?? 0) + 1);
  return rows.map((r) => {
    const seconds = r.seconds.trim();
    if (
      !isWholeInRange(
        seconds,
        DERIVATIVES_LIMITS.optionDurationMinSeconds,
        DERIVATIVES_LIMITS.optionDurationMaxSeconds,
      )
    )
      return 'seconds';
    if (!isDecimal(r.rate) || signOf(r.rate.trim()) <= 0) return 'rate';
    if ((seen.get(seconds) ?? 0) > 1) return 'duplicate';
    return null;
  });
}

export function durationCountOk(rows: readonly DurationRow[]): boolean {
  return rows.length >= 1 && rows.length <= DERIVATIVES_LIMITS.optionDurationsMax;
}
