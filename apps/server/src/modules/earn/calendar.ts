/**
 * The daily cut-off: the hour `hour` (0–23) of each calendar day in the IANA time zone `timeZone`,
 * as instants. Pure functions over `Intl` (the same way withdrawals/policy.ts reads local time), so
 * a daylight-saving change moves the instant, never the local hour, and nothing reads the machine's
 * time zone.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64) return false;
  try {
    formatter(value);
    return true;
  } catch {
    return false;
  }
}

type Wall = { y: number; m: number; d: number; h: number; mi: number; s: number };

function wallOf(at: number, timeZone: string): Wall {
  const parts = formatter(timeZone).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? '0');
  return {
    y: get('year'),
    m: get('month'),
    d: get('day'),
    h: get('hour'),
    mi: get('minute'),
    s: get('second'),
  };
}

/** The zone's offset from UTC at instant `at`, in ms (local wall time − UTC). */
function offsetAt(at: number, timeZone: string): number {
  const w = wallOf(at, timeZone);
  return Date.UTC(w.y, w.m - 1, w.d, w.h, w.mi, w.s) - Math.floor(at / 1000) * 1000;
}

/** The instant of local `day` (YYYY-MM-DD) + `plusDays`, at `hour`:00 in the zone. */
export function cutoffOf(day: string, plusDays: number, hour: number, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d + plusDays, hour);
  const first = guess - offsetAt(guess, timeZone);
  // Once more at the first estimate: right across a daylight-saving change.
  return new Date(guess - offsetAt(first, timeZone));
}

/** The local calendar day (YYYY-MM-DD) of an instant. */
export function localDay(at: Date, timeZone: string): string {
  const w = wallOf(at.getTime(), timeZone);
  return `${w.y}-${String(w.m).padStart(2, '0')}-${String(w.d).padStart(2, '0')}`;
}

/** The first cut-off strictly after `at`, and its local day. */
export function nextCutoff(at: Date, hour: number, timeZone: string): { day: string; at: Date } {
  const today = localDay(at, timeZone);
  for (let plus = -1; plus <= 2; plus++) {
    const c = cutoffOf(today, plus, hour, timeZone);
    if (c.getTime() > at.getTime()) return { day: localDay(c, timeZone), at: c };
  }
  throw new Error(`no cut-off after ${at.toISOString()} in ${timeZone}`);
}

/** The latest cut-off at or before `at`. */
export function lastCutoff(at: Date, hour: number, timeZone: string): Date {
  const today = localDay(at, timeZone);
  for (let plus = 1; plus >= -2; plus--) {
    const c = cutoffOf(today, plus, hour, timeZone);
    if (c.getTime() <= at.getTime()) return c;
  }
  throw new Error(`no cut-off before ${at.toISOString()} in ${timeZone}`);
}

/** An order's schedule: day k (1…term) is posted at the k-th cut-off after its purchase. */
export function dayCutoff(
  order: { first_day: string; cutoff_hour: number; time_zone: string },
  day: number,
): Date {
  return cutoffOf(order.first_day, day - 1, order.cutoff_hour, order.time_zone);
}
