/**
 * The seven-day sign-in reward's rules (issue 20 item 2): the customer-day of an instant in an IANA
 * time zone, the streak day a sign-in earns, and the next day boundary. Pure over `Intl` (the way
 * the server reads every local time; nothing reads the machine's zone), so the server's claim and
 * the web page's strip agree by construction.
 *
 * A customer-day is a local calendar date `YYYY-MM-DD` in the programme's zone. A streak runs
 * 1…7: the day after a signed day continues it (after day 7 the cycle starts again at 1); a missed
 * day resets it to 1. A date at or before the last signed one earns nothing (already signed — this
 * also covers a clock that goes back across midnight).
 */

/** Days in one cycle. */
export const SIGNIN_CYCLE_DAYS = 7;

const MS_PER_DAY = 86_400_000;
/** The next local day starts within this much after any instant (the longest day is 25 h; margin for history). */
const BOUNDARY_SEARCH_MS = 50 * 3_600_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether `value` is an IANA time zone this runtime knows. */
export function isSigninTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64) return false;
  try {
    formatter(value);
    return true;
  } catch {
    return false;
  }
}

/** The customer-day (`YYYY-MM-DD`, local calendar date in `timeZone`) of an instant (epoch ms). */
export function customerDay(atMs: number, timeZone: string): string {
  const parts = formatter(timeZone).formatToParts(new Date(atMs));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year').padStart(4, '0')}-${get('month')}-${get('day')}`;
}

/** The day's number since 1970-01-01 (calendar arithmetic only; no zone). */
export function dayNumber(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Math.round(Date.UTC(y, m - 1, d) / MS_PER_DAY);
}

export type SignedDay = { day: string; streak: number };

/**
 * The streak day signing in on `today` earns, given the customer's last signed day (null: never):
 * the day after it → its streak + 1 (after 7 → 1); any later day → 1 (missed day resets); the
 * same day or an earlier one → null (already signed).
 */
export function nextStreak(last: SignedDay | null, today: string): number | null {
  if (last === null) return 1;
  const gap = dayNumber(today) - dayNumber(last.day);
  if (gap <= 0) return null;
  if (gap === 1) return (last.streak % SIGNIN_CYCLE_DAYS) + 1;
  return 1;
}

/**
 * The streak as it stands on `today` without signing: the last streak if the last signed day is
 * today or yesterday (still alive), else 0 (the cycle has reset; the next sign-in is day 1).
 */
export function currentStreak(last: SignedDay | null, today: string): number {
  if (last === null) return 0;
  const gap = dayNumber(today) - dayNumber(last.day);
  return gap <= 1 ? last.streak : 0;
}

/**
 * The first instant (epoch ms) after `atMs` whose customer-day is later than `atMs`'s: when "today"
 * ends. A binary search over whole milliseconds, so daylight-saving changes at midnight and
 * historical offsets need no special case.
 */
export function nextDayBoundary(atMs: number, timeZone: string): number {
  const today = customerDay(atMs, timeZone);
  let lo = atMs;
  let hi = atMs + BOUNDARY_SEARCH_MS;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (customerDay(mid, timeZone) > today) hi = mid;
    else lo = mid;
  }
  return hi;
}
