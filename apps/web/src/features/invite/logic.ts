/** Pure helpers of `/invite`. */

/** "20" for 2000 basis points, "12.5" for 1250: a share as a percentage, without a float. */
export function percentOfBps(bps: number): string {
  const whole = Math.floor(bps / 100);
  const rest = bps % 100;
  if (rest === 0) return String(whole);
  return `${whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}`;
}

/** Pages of a list: at least one. */
export function pagesOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
