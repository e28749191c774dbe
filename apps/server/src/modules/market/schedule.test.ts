import { describe, expect, it } from 'vitest';
import { isOpenAt, parseSchedule, parseScheduleOrThrow } from './schedule.ts';

const at = (iso: string) => Date.parse(iso);

describe('trading hours', () => {
  it('24/7 is always open', () => {
    const s = parseScheduleOrThrow('24/7');
    expect(isOpenAt(s, at('2026-11-21T04:00:00Z'))).toBe(true);
    expect(isOpenAt(s, at('2026-11-22T23:59:00Z'))).toBe(true);
  });

  it('forex 24/5: Sunday 22:00 to Friday 22:00 UTC', () => {
    const s = parseScheduleOrThrow('UTC Sun 22:00-Fri 22:00');
    expect(isOpenAt(s, at('2026-11-20T21:59:00Z'))).toBe(true); // Friday
    expect(isOpenAt(s, at('2026-11-20T22:00:00Z'))).toBe(false);
    expect(isOpenAt(s, at('2026-11-21T12:00:00Z'))).toBe(false); // Saturday
    expect(isOpenAt(s, at('2026-11-22T21:59:00Z'))).toBe(false); // Sunday before the open
    expect(isOpenAt(s, at('2026-11-22T22:00:00Z'))).toBe(true);
    expect(isOpenAt(s, at('2026-11-25T03:00:00Z'))).toBe(true); // Wednesday night
  });

  it('New York stocks follow the exchange time zone through daylight saving', () => {
    const s = parseScheduleOrThrow('America/New_York Mon-Fri 09:30-16:00');
    // November (EST, UTC-5): 14:30–21:00 UTC.
    expect(isOpenAt(s, at('2026-11-23T14:29:00Z'))).toBe(false);
    expect(isOpenAt(s, at('2026-11-23T14:30:00Z'))).toBe(true);
    expect(isOpenAt(s, at('2026-11-23T20:59:00Z'))).toBe(true);
    expect(isOpenAt(s, at('2026-11-23T21:00:00Z'))).toBe(false);
    // July (EDT, UTC-4): 13:30–20:00 UTC.
    expect(isOpenAt(s, at('2026-07-15T13:30:00Z'))).toBe(true);
    expect(isOpenAt(s, at('2026-07-15T20:30:00Z'))).toBe(false);
    expect(isOpenAt(s, at('2026-11-21T15:00:00Z'))).toBe(false); // Saturday
  });

  it('overnight sessions (metals) and lunch breaks (Hong Kong)', () => {
    const metals = parseScheduleOrThrow('America/New_York Sun-Thu 18:00-17:00');
    expect(isOpenAt(metals, at('2026-11-23T03:00:00Z'))).toBe(true); // Sunday 22:00 ET
    expect(isOpenAt(metals, at('2026-11-23T22:30:00Z'))).toBe(false); // Monday 17:30 ET, daily break
    expect(isOpenAt(metals, at('2026-11-27T21:59:00Z'))).toBe(true); // Friday 16:59 ET
    expect(isOpenAt(metals, at('2026-11-27T22:01:00Z'))).toBe(false); // Friday after the close
    const hk = parseScheduleOrThrow('Asia/Hong_Kong Mon-Fri 09:30-12:00, Mon-Fri 13:00-16:00');
    expect(isOpenAt(hk, at('2026-11-23T02:00:00Z'))).toBe(true); // 10:00 HKT
    expect(isOpenAt(hk, at('2026-11-23T04:30:00Z'))).toBe(false); // 12:30 HKT lunch
    expect(isOpenAt(hk, at('2026-11-23T05:30:00Z'))).toBe(true); // 13:30 HKT
  });

  it.each([
    '',
    'always',
    'Mars/Olympus Mon-Fri 09:30-16:00',
    'UTC Mon-Fri 9:30-16:00',
    'UTC Mon-Fri 09:30-24:00',
    'UTC Funday 09:30-16:00',
    'UTC Mon 09:30-Fri',
    `UTC ${'Mon-Fri 09:30-16:00, '.repeat(20)}`,
  ])('refuses %j', (text) => {
    expect(parseSchedule(text).ok).toBe(false);
  });
});
