import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  currentStreak,
  customerDay,
  dayNumber,
  isSigninTimeZone,
  nextDayBoundary,
  nextStreak,
  SIGNIN_CYCLE_DAYS,
  type SignedDay,
} from './signin.ts';

/**
 * The sign-in rules against a model: a customer who tries to sign in at arbitrary instants, in
 * arbitrary zones, is paid at most once per customer-day; a streak never leaves 1…7; a missed day
 * always resets it; the day boundary is the first instant of the next local day.
 */

const ZONES = [
  'UTC',
  'Asia/Shanghai',
  'Asia/Hong_Kong',
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'America/Sao_Paulo',
  'Pacific/Kiritimati',
  'America/St_Johns',
] as const;
const zone = fc.constantFrom(...ZONES);
/** 1990 … 2060: instants well inside what every zone's data covers. */
const instant = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 0, 1) });

/** The model's customer: signs in whenever nextStreak allows, remembering each day paid. */
function run(instants: number[], timeZone: string) {
  let last: SignedDay | null = null;
  const paid = new Map<string, number>();
  for (const at of [...instants].sort((a, b) => a - b)) {
    const today = customerDay(at, timeZone);
    const streak = nextStreak(last, today);
    if (streak === null) continue;
    paid.set(today, (paid.get(today) ?? 0) + 1);
    last = { day: today, streak };
  }
  return { paid, last };
}

describe('customer days', () => {
  it('a day is YYYY-MM-DD in the zone, not the machine', () => {
    // 2026-11-27 16:30 UTC is already the 28th in Shanghai (UTC+8) and still the 27th in New York.
    const at = Date.UTC(2026, 10, 27, 16, 30);
    expect(customerDay(at, 'UTC')).toBe('2026-11-27');
    expect(customerDay(at, 'Asia/Shanghai')).toBe('2026-11-28');
    expect(customerDay(at, 'America/New_York')).toBe('2026-11-27');
    expect(isSigninTimeZone('Asia/Shanghai')).toBe(true);
    expect(isSigninTimeZone('Mars/Olympus')).toBe(false);
    expect(isSigninTimeZone('')).toBe(false);
  });

  it('the next boundary is midnight local time, across daylight saving too', () => {
    const at = Date.UTC(2026, 10, 27, 10);
    expect(nextDayBoundary(at, 'UTC')).toBe(Date.UTC(2026, 10, 28));
    expect(nextDayBoundary(at, 'Asia/Shanghai')).toBe(Date.UTC(2026, 10, 27, 16));
    // New York on 2026-03-08 (clocks go forward at 02:00): the day is 23 hours long.
    const dst = Date.UTC(2026, 2, 8, 6);
    expect(nextDayBoundary(dst, 'America/New_York')).toBe(Date.UTC(2026, 2, 9, 4));
  });

  it('the boundary starts a later day, and the instant before it is still today', () => {
    fc.assert(
      fc.property(instant, zone, (at, tz) => {
        const b = nextDayBoundary(at, tz);
        const today = customerDay(at, tz);
        expect(b).toBeGreaterThan(at);
        expect(customerDay(b, tz) > today).toBe(true);
        expect(customerDay(b - 1, tz)).toBe(today);
      }),
    );
  });
});

describe('streaks', () => {
  it('day after day runs 1…7 and wraps to 1; a gap resets', () => {
    let last: SignedDay | null = null;
    const seen: number[] = [];
    for (let d = 1; d <= 9; d++) {
      const day = `2026-12-${String(d).padStart(2, '0')}`;
      const streak = nextStreak(last, day) as number;
      seen.push(streak);
      last = { day, streak };
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 1, 2]);
    expect(nextStreak(last, '2026-12-09')).toBeNull();
    expect(nextStreak(last, '2026-12-11')).toBe(1);
    expect(currentStreak(last, '2026-12-10')).toBe(2);
    expect(currentStreak(last, '2026-12-11')).toBe(0);
    expect(currentStreak(null, '2026-12-11')).toBe(0);
    // Across a month and a year end.
    expect(nextStreak({ day: '2026-12-31', streak: 3 }, '2027-01-01')).toBe(4);
    expect(dayNumber('2027-01-01') - dayNumber('2026-12-31')).toBe(1);
  });

  it('pays at most once per customer-day, whatever the instants and zone', () => {
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 40 }), zone, (instants, tz) => {
        const { paid } = run(instants, tz);
        for (const count of paid.values()) expect(count).toBe(1);
        // Every distinct day tried is paid (nothing refused that should not be).
        const days = new Set(instants.map((at) => customerDay(at, tz)));
        expect(paid.size).toBe(days.size);
      }),
    );
  });

  it('many tries within one day: one payment; a try in a day already passed: none', () => {
    fc.assert(
      fc.property(instant, zone, fc.array(fc.integer({ min: 0, max: 86_399_999 })), (at, tz, offsets) => {
        const end = nextDayBoundary(at, tz);
        const tries = [at, ...offsets.map((o) => at + (o % Math.max(1, end - at)))];
        const { paid } = run(tries, tz);
        expect([...paid.values()]).toEqual([1]);
      }),
    );
  });

  it('a streak never leaves 1…7, continues only on the next day, and a gap always resets', () => {
    const signed = fc.record({
      day: fc.integer({ min: 7000, max: 30000 }),
      streak: fc.integer({ min: 1, max: SIGNIN_CYCLE_DAYS }),
    });
    fc.assert(
      fc.property(signed, fc.integer({ min: -5, max: 40 }), (s, gap) => {
        const iso = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);
        const last = { day: iso(s.day), streak: s.streak };
        const next = nextStreak(last, iso(s.day + gap));
        if (gap <= 0) expect(next).toBeNull();
        else if (gap === 1) expect(next).toBe((s.streak % 7) + 1);
        else expect(next).toBe(1);
        if (next !== null) {
          expect(next).toBeGreaterThanOrEqual(1);
          expect(next).toBeLessThanOrEqual(SIGNIN_CYCLE_DAYS);
        }
      }),
    );
  });

  it('the same instants in UTC and in Shanghai: each zone pays once per its own local day, streaks within 1…7', () => {
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 20 }), (instants) => {
        for (const tz of ['UTC', 'Asia/Shanghai']) {
          const { paid, last } = run(instants, tz);
          expect(Math.max(...paid.values())).toBe(1);
          expect(last?.streak).toBeGreaterThanOrEqual(1);
          expect(last?.streak).toBeLessThanOrEqual(7);
        }
      }),
    );
  });
});
