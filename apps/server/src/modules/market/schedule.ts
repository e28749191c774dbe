/**
 * Trading hours. A schedule is written as text in the catalogue (and its CSV):
 *
 *   24/7                                         crypto
 *   UTC Sun 22:00-Fri 22:00                      forex: one weekly window
 *   America/New_York Mon-Fri 09:30-16:00         stocks: a session on each listed day
 *   America/New_York Sun-Thu 18:00-17:00         metals/energy: a close at or before the open ends next day
 *   Asia/Hong_Kong Mon-Fri 09:30-12:00, Mon-Fri 13:00-16:00   several parts, comma-separated
 *
 * The time zone is an IANA name; daylight saving follows it. Exchange holidays are not modelled
 * (a limit, listed in the README): a holiday needs the instrument halted by the operator.
 */
export type Schedule = Readonly<{
  text: string;
  always: boolean;
  tz: string;
  /** [start, end) in local minutes of the week, Monday 00:00 = 0; never crossing the week's end. */
  windows: ReadonlyArray<readonly [number, number]>;
}>;

export const MINUTES_PER_WEEK = 7 * 24 * 60;
const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
const DAY = '(Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const TIME = '([01][0-9]|2[0-3]):([0-5][0-9])';
const DAILY = new RegExp(`^${DAY}(?:-${DAY})? ${TIME}-${TIME}$`);
const WEEKLY = new RegExp(`^${DAY} ${TIME}-${DAY} ${TIME}$`);
const TZ = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;
export const SCHEDULE_TEXT_MAX = 200;

export type ScheduleResult = { ok: true; schedule: Schedule } | { ok: false; error: string };

function dayIndex(name: string | undefined): number {
  return DAYS.indexOf(name as (typeof DAYS)[number]);
}

function minutes(hh: string | undefined, mm: string | undefined): number {
  return Number.parseInt(hh ?? '0', 10) * 60 + Number.parseInt(mm ?? '0', 10);
}

/** Adds [start, end) (end may pass the week's end, at most once) as one or two windows. */
function addWindow(out: Array<[number, number]>, start: number, end: number): void {
  if (end <= MINUTES_PER_WEEK) out.push([start, end]);
  else {
    out.push([start, MINUTES_PER_WEEK]);
    out.push([0, end - MINUTES_PER_WEEK]);
  }
}

function parsePart(part: string, out: Array<[number, number]>): string | null {
  const weekly = WEEKLY.exec(part);
  if (weekly) {
    const start = dayIndex(weekly[1]) * 1440 + minutes(weekly[2], weekly[3]);
    let end = dayIndex(weekly[4]) * 1440 + minutes(weekly[5], weekly[6]);
    if (end <= start) end += MINUTES_PER_WEEK;
    addWindow(out, start, end);
    return null;
  }
  const daily = DAILY.exec(part);
  if (!daily) return `cannot read "${part}"`;
  const first = dayIndex(daily[1]);
  const last = daily[2] ? dayIndex(daily[2]) : first;
  const open = minutes(daily[3], daily[4]);
  let close = minutes(daily[5], daily[6]);
  if (close <= open) close += 1440;
  const count = ((last - first + 7) % 7) + 1;
  for (let i = 0; i < count; i++) {
    const day = (first + i) % 7;
    addWindow(out, day * 1440 + open, day * 1440 + close);
  }
  return null;
}

export function isTimeZone(tz: string): boolean {
  if (!TZ.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function parseSchedule(text: string): ScheduleResult {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  if (trimmed === '' || trimmed.length > SCHEDULE_TEXT_MAX) return { ok: false, error: 'empty or too long' };
  if (trimmed === '24/7')
    return { ok: true, schedule: { text: trimmed, always: true, tz: 'UTC', windows: [] } };
  const space = trimmed.indexOf(' ');
  const tz = space > 0 ? trimmed.slice(0, space) : '';
  if (!isTimeZone(tz)) return { ok: false, error: `unknown time zone "${tz}"` };
  const windows: Array<[number, number]> = [];
  for (const part of trimmed.slice(space + 1).split(/ ?, ?/)) {
    const error = parsePart(part, windows);
    if (error) return { ok: false, error };
  }
  windows.sort((a, b) => a[0] - b[0]);
  return { ok: true, schedule: { text: trimmed, always: false, tz, windows } };
}

export function parseScheduleOrThrow(text: string): Schedule {
  const result = parseSchedule(text);
  if (!result.ok) throw new Error(`trading hours "${text}": ${result.error}`);
  return result.schedule;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The last answer per time zone: every instrument in one zone shares one computation per minute. */
const lastMinute = new Map<string, { minuteMs: number; minuteOfWeek: number }>();

/** Local minute of the week (Monday 00:00 = 0) of `atMs` in `tz`. */
export function minuteOfWeek(tz: string, atMs: number): number {
  const minuteMs = atMs - (((atMs % 60_000) + 60_000) % 60_000);
  const cached = lastMinute.get(tz);
  if (cached && cached.minuteMs === minuteMs) return cached.minuteOfWeek;
  let format = formatters.get(tz);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(tz, format);
  }
  let day = 0;
  let hour = 0;
  let minute = 0;
  for (const part of format.formatToParts(minuteMs)) {
    if (part.type === 'weekday') day = dayIndex(part.value);
    else if (part.type === 'hour') hour = Number.parseInt(part.value, 10);
    else if (part.type === 'minute') minute = Number.parseInt(part.value, 10);
  }
  const result = day * 1440 + hour * 60 + minute;
  lastMinute.set(tz, { minuteMs, minuteOfWeek: result });
  return result;
}

export function isOpenAt(schedule: Schedule, atMs: number): boolean {
  if (schedule.always) return true;
  const m = minuteOfWeek(schedule.tz, atMs);
  for (const [start, end] of schedule.windows) {
    if (m >= start && m < end) return true;
  }
  return false;
}

/**
 * The next instant the schedule opens (the start of the next window), or null when open now or
 * never. Found by the local minute distance, then corrected once for a daylight-saving shift in
 * between. (Support's staffed hours tell a customer when staff are next in.)
 */
export function nextOpenAt(schedule: Schedule, atMs: number): number | null {
  if (schedule.always || schedule.windows.length === 0 || isOpenAt(schedule, atMs)) return null;
  const minuteStart = atMs - (((atMs % 60_000) + 60_000) % 60_000);
  const now = minuteOfWeek(schedule.tz, minuteStart);
  const ahead = (start: number) => (start - now + MINUTES_PER_WEEK) % MINUTES_PER_WEEK || MINUTES_PER_WEEK;
  const target = schedule.windows.map(([start]) => start).sort((a, b) => ahead(a) - ahead(b))[0] as number;
  const candidate = minuteStart + ahead(target) * 60_000;
  const half = MINUTES_PER_WEEK / 2;
  const drift =
    ((((target - minuteOfWeek(schedule.tz, candidate)) % MINUTES_PER_WEEK) + MINUTES_PER_WEEK + half) %
      MINUTES_PER_WEEK) -
    half;
  return candidate + drift * 60_000;
}
