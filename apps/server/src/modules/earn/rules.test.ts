import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutoffOf, dayCutoff, isTimeZone, lastCutoff, localDay, nextCutoff } from './calendar.ts';
import {
  dailyRateText,
  dailyReward,
  maxAmountFunded,
  parseRate,
  penaltyOf,
  redeemFigures,
  totalReward,
} from './rules.ts';

const rate4 = fc.bigInt({ min: 1n, max: 500_000n }); // 0.0001 % … 50 %
const units = fc.bigInt({ min: 1n, max: 10n ** 20n });
const term = fc.integer({ min: 1, max: 3650 });

describe('earn money rules', () => {
  it('derives the daily reward and its rate from the annual rate', () => {
    // 3.65 % a year on 1,000 USDT: 0.1 USDT a day, 0.7 over 7 days.
    expect(dailyReward(1000n * 10n ** 8n, 36_500n)).toBe(10n ** 7n);
    expect(totalReward(1000n * 10n ** 8n, 36_500n, 7)).toBe(7n * 10n ** 7n);
    expect(dailyRateText(36_500n)).toBe('0.01');
    expect(dailyRateText(40_000n)).toBe('0.011');
    expect(parseRate('4', '50')).toBe(40_000n);
    for (const bad of ['0', '-1', '50.0001', 'x', '1.00001', '1e2'])
      expect(parseRate(bad, '50'), bad).toBeNull();
  });

  it('never reserves more than the funding account holds, and uses all it can', () => {
    fc.assert(
      fc.property(units, rate4, term, (funding, r, days) => {
        const x = maxAmountFunded(funding, r, days);
        expect(totalReward(x, r, days)).toBeLessThanOrEqual(funding);
        if (funding / BigInt(days) > 0n) expect(totalReward(x + 1n, r, days)).toBeGreaterThan(funding);
        else expect(x).toBe(0n);
      }),
    );
  });

  it('rounds rewards down: never more than the exact rate pays', () => {
    fc.assert(
      fc.property(units, rate4, (amount, r) => {
        const daily = dailyReward(amount, r);
        expect(daily * 365n * 1_000_000n).toBeLessThanOrEqual(amount * r);
      }),
    );
  });

  it('penalties: zero under forfeit_rewards, never above the principal under any rule', () => {
    fc.assert(
      fc.property(
        units,
        fc.bigInt({ min: 1n, max: 1_000_000n }),
        fc.integer({ min: 0, max: 3650 }),
        fc.constantFrom('forfeit_rewards', 'principal_percent', 'principal_daily', 'none' as const),
        (principal, r, remaining, rule) => {
          const penalty = penaltyOf({
            rule,
            penaltyRate4: r,
            principalUnits: principal,
            remainingDays: remaining,
          });
          expect(penalty).toBeGreaterThanOrEqual(0n);
          expect(penalty).toBeLessThanOrEqual(principal);
          if (rule === 'forfeit_rewards' || rule === 'none') expect(penalty).toBe(0n);
        },
      ),
    );
    // The spec's figures: 5 % of the principal; 0.4 % × remaining days, capped at the principal.
    expect(
      penaltyOf({
        rule: 'principal_percent',
        penaltyRate4: 50_000n,
        principalUnits: 1000n,
        remainingDays: 3,
      }),
    ).toBe(50n);
    expect(
      penaltyOf({ rule: 'principal_daily', penaltyRate4: 4_000n, principalUnits: 1000n, remainingDays: 10 }),
    ).toBe(40n);
    expect(
      penaltyOf({ rule: 'principal_daily', penaltyRate4: 4_000n, principalUnits: 1000n, remainingDays: 400 }),
    ).toBe(1000n);
  });

  it('an early redemption splits the reserve exactly: forfeited + unused = the whole reward', () => {
    fc.assert(
      fc.property(units, rate4, fc.integer({ min: 1, max: 60 }), fc.nat(60), (amount, r, days, done) => {
        const accrued = Math.min(done, days - 1);
        const daily = dailyReward(amount, r);
        const f = redeemFigures({
          amountUnits: amount,
          accruedUnits: daily * BigInt(accrued),
          totalRewardUnits: daily * BigInt(days),
          daysAccrued: accrued,
          termDays: days,
          rule: 'forfeit_rewards',
          penaltyRate4: null,
        });
        expect(f.forfeited + f.unusedReserve).toBe(daily * BigInt(days));
        expect(f.returned).toBe(amount);
        expect(f.penalty).toBeLessThanOrEqual(f.forfeited + f.principal);
      }),
    );
  });
});

describe('the daily cut-off calendar', () => {
  it('finds the first cut-off strictly after an instant', () => {
    const at = new Date('2026-11-21T04:00:00Z');
    expect(nextCutoff(at, 0, 'UTC')).toEqual({ day: '2026-11-22', at: new Date('2026-11-22T00:00:00Z') });
    expect(nextCutoff(new Date('2026-11-22T00:00:00Z'), 0, 'UTC').at).toEqual(
      new Date('2026-11-23T00:00:00Z'),
    );
    expect(nextCutoff(at, 9, 'Asia/Hong_Kong').at).toEqual(new Date('2026-11-22T01:00:00Z'));
    expect(nextCutoff(new Date('2026-11-21T00:30:00Z'), 9, 'Asia/Hong_Kong').at).toEqual(
      new Date('2026-11-21T01:00:00Z'),
    );
    expect(lastCutoff(at, 0, 'UTC')).toEqual(new Date('2026-11-21T00:00:00Z'));
    expect(localDay(new Date('2026-11-21T20:00:00Z'), 'Asia/Hong_Kong')).toBe('2026-11-22');
  });

  it('keeps the local hour across a daylight-saving change (New York, 1 November 2026)', () => {
    const order = { first_day: '2026-10-31', cutoff_hour: 0, time_zone: 'America/New_York' };
    expect(dayCutoff(order, 1)).toEqual(new Date('2026-10-31T04:00:00Z'));
    expect(dayCutoff(order, 2)).toEqual(new Date('2026-11-01T04:00:00Z'));
    expect(dayCutoff(order, 3)).toEqual(new Date('2026-11-02T05:00:00Z'));
    expect(cutoffOf('2026-03-07', 1, 12, 'America/New_York')).toEqual(new Date('2026-03-08T16:00:00Z'));
  });

  it('every cut-off is after the last one and one local day later', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2030, 0, 1) }),
        fc.integer({ min: 0, max: 23 }),
        fc.constantFrom('UTC', 'Asia/Hong_Kong', 'America/New_York', 'Europe/London', 'Australia/Sydney'),
        (ms, hour, tz) => {
          const at = new Date(ms);
          const next = nextCutoff(at, hour, tz);
          expect(next.at.getTime()).toBeGreaterThan(ms);
          expect(lastCutoff(at, hour, tz).getTime()).toBeLessThanOrEqual(ms);
          const day2 = cutoffOf(next.day, 1, hour, tz);
          expect(day2.getTime() - next.at.getTime()).toBeGreaterThanOrEqual(22 * 3_600_000);
          expect(day2.getTime() - next.at.getTime()).toBeLessThanOrEqual(26 * 3_600_000);
        },
      ),
    );
  });

  it('knows a time zone', () => {
    expect(isTimeZone('Asia/Hong_Kong')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
