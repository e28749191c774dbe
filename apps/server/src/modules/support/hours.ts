/**
 * Staffed hours as data: schedule text in the market's trading-hours grammar, the daily form only —
 * `24/7`, or an IANA zone and comma-separated parts `Mon-Fri 09:00-18:00` (a close at or before the
 * open ends the next day). A small local parser: the market module publishes `isOpenAt` but not its
 * parser, and support also needs the next opening. Pure functions of an instant; the caller passes
 * the injected clock's time.
 */
export type Hours = Readonly<{
  text: string;
  always: boolean;
  tz: string;
  /** [start, end) in local minutes of the week, Monday 00:00 = 0, never crossing the week's end. */
  windows: ReadonlyArray<readonly [number, number]>;
}>;

export const HOURS_TEXT_MAX = 200;
const WEEK = 7 * 1440;
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
const DAY = '(Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const TIME = '([01][0-9]|2[0-3]):([0-5][0-9])';
const PART = new RegExp(`^${DAY}(?:-${DAY})? ${TIME}-${TIME}$`);

const dayIndex = (name: string | undefined) => DAYS.indexOf(name as (typeof DAYS)[number]);
const minutes = (hh: string | undefined, mm: string | undefined) => Number(hh ?? 0) * 60 + Number(mm ?? 0);

function validZone(tz: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

/** The schedule, or null when the text cannot be read (the caller refuses it by field). */
export function parseHours(input: string): Hours | null {
  const text = input.trim().replace(/\s+/g, ' ');
  if (text === '' || text.length > HOURS_TEXT_MAX) return null;
  if (text === '24/7') return { text, always: true, tz: 'UTC', windows: [] };
  const space = text.indexOf(' ');
  const tz = space > 0 ? text.slice(0, space) : '';
  if (!validZone(tz)) return null;
  const windows: Array<[number, number]> = [];
  for (const part of text.slice(space + 1).split(/ ?, ?/)) {
    const m = PART.exec(part);
    if (!m) return null;
    const first = dayIndex(m[1]);
    const last = m[2] ? dayIndex(m[2]) : first;
    const open = minutes(m[3], m[4]);
    let close = minutes(m[5], m[6]);
    if (close <= open) close += 1440;
    for (let i = 0; i <= (last - first + 7) % 7; i++) {
      const start = ((first + i) % 7) * 1440 + open;
      const end = ((first + i) % 7) * 1440 + close;
      if (end <= WEEK) windows.push([start, end]);
      else windows.push([start, WEEK], [0, end - WEEK]);
    }
  }
  windows.sort((a, b) => a[0] - b[0]);
  return { text, always: false, tz, windows };
}

/** Local minute of the week (Monday 00:00 = 0) of `atMs` in `tz`. */
function minuteOfWeek(tz: string, atMs: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(atMs);
  const get = (type: string) => parts.find((p) => p.type === type)?.value;
  return dayIndex(get('weekday')) * 1440 + Number(get('hour')) * 60 + Number(get('minute'));
}

export function isStaffedAt(hours: Hours, atMs: number): boolean {
  if (hours.always) return true;
  const m = minuteOfWeek(hours.tz, atMs);
  return hours.windows.some(([start, end]) => m >= start && m < end);
}

/**
 * The next instant staff are in (the start of the next window), or null when staffed now or never.
 * Found by the local minute distance, then corrected once for a daylight-saving shift in between.
 */
export function nextStaffedAt(hours: Hours, atMs: number): number | null {
  if (hours.always || hours.windows.length === 0 || isStaffedAt(hours, atMs)) return null;
  const minuteStart = atMs - (((atMs % 60_000) + 60_000) % 60_000);
  const now = minuteOfWeek(hours.tz, minuteStart);
  const ahead = (start: number) => (start - now + WEEK) % WEEK || WEEK;
  const target = hours.windows.map(([start]) => start).sort((a, b) => ahead(a) - ahead(b))[0] as number;
  let candidate = minuteStart + ahead(target) * 60_000;
  const drift = ((((target - minuteOfWeek(hours.tz, candidate)) % WEEK) + WEEK + WEEK / 2) % WEEK) - WEEK / 2;
  candidate += drift * 60_000;
  return candidate;
}
