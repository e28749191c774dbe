import { isOpenAt, nextOpenAt, parseSchedule, SCHEDULE_TEXT_MAX, type Schedule } from '../market/index.ts';

/**
 * Staffed hours as data: schedule text in the market's trading-hours grammar (`24/7`, or an IANA zone
 * and comma-separated parts `Mon-Fri 09:00-18:00`; a close at or before the open ends the next day),
 * read and evaluated by the market module's schedule code. Pure functions of an instant; the caller
 * passes the injected clock's time.
 */
export type Hours = Schedule;

/** The schedule, or null when the text cannot be read (the caller refuses it by field). */
export function parseHours(input: string): Hours | null {
  const parsed = parseSchedule(input);
  return parsed.ok ? parsed.schedule : null;
}

export const isStaffedAt: (hours: Hours, atMs: number) => boolean = isOpenAt;

/** The next instant staff are in, or null when staffed now or never. */
export const nextStaffedAt: (hours: Hours, atMs: number) => number | null = nextOpenAt;
