import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  effectiveReferralDepth,
  REFERRAL_BPS_WHOLE,
  REFERRAL_DEPTH_MAX,
  referralIncome,
  referralSettingsProblem,
} from './index.ts';

/**
 * Referral income: never more than the fee it came from, per level and in total; never deeper than
 * the profile allows; nothing at depth 0. The reference here multiplies out in rationals by another
 * route (compare fee × share with amount × 10 000) instead of calling the implementation's helpers.
 */
const SEED = Number(process.env.PROPERTY_SEED ?? 20261127);
const RUNS = { seed: SEED, numRuns: 500 };

const fee = fc.bigInt({ min: 0n, max: 10n ** 30n });
/** Up to four shares whose sum is at most 100 %. */
const shares = fc
  .array(fc.integer({ min: 0, max: REFERRAL_BPS_WHOLE }), { minLength: 0, maxLength: REFERRAL_DEPTH_MAX })
  .filter((s) => s.reduce((a, b) => a + b, 0) <= REFERRAL_BPS_WHOLE);
const chain = fc.array(fc.uuid(), { minLength: 0, maxLength: 6 });
const depth = fc.integer({ min: 0, max: REFERRAL_DEPTH_MAX });

describe('referral income (properties)', () => {
  it('each level ≤ fee × share, rounded down by less than one unit; total ≤ fee', () => {
    fc.assert(
      fc.property(fee, shares, chain, depth, depth, (feeUnits, sharesBps, inviters, d, profileMax) => {
        const lines = referralIncome({
          feeUnits,
          inviters,
          sharesBps,
          depth: effectiveReferralDepth(d, profileMax),
        });
        let total = 0n;
        for (const line of lines) {
          const exact = feeUnits * BigInt(line.shareBps);
          expect(line.amountUnits * 10_000n <= exact).toBe(true);
          expect(exact - line.amountUnits * 10_000n < 10_000n).toBe(true);
          expect(line.amountUnits >= 0n).toBe(true);
          total += line.amountUnits;
        }
        expect(total <= feeUnits).toBe(true);
      }),
      RUNS,
    );
  });

  it('never deeper than the profile, the programme, the shares or the chain; nearest inviter first', () => {
    fc.assert(
      fc.property(fee, shares, chain, depth, depth, (feeUnits, sharesBps, inviters, d, profileMax) => {
        const lines = referralIncome({
          feeUnits,
          inviters,
          sharesBps,
          depth: effectiveReferralDepth(d, profileMax),
        });
        expect(lines.length).toBe(Math.min(d, profileMax, sharesBps.length, inviters.length));
        expect(lines.length <= profileMax).toBe(true);
        lines.forEach((line, i) => {
          expect(line.level).toBe(i + 1);
          expect(line.inviter).toBe(inviters[i]);
          expect(line.shareBps).toBe(sharesBps[i]);
        });
      }),
      RUNS,
    );
  });

  it('zero depth (a profile that bans referral rewards) pays nothing', () => {
    fc.assert(
      fc.property(fee, shares, chain, depth, (feeUnits, sharesBps, inviters, d) => {
        expect(
          referralIncome({ feeUnits, inviters, sharesBps, depth: effectiveReferralDepth(d, 0) }),
        ).toEqual([]);
      }),
      RUNS,
    );
  });

  it('settings: a valid programme is accepted; over 100 % in total or beyond the profile refused', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: REFERRAL_BPS_WHOLE }), {
          minLength: 0,
          maxLength: REFERRAL_DEPTH_MAX,
        }),
        depth,
        (sharesBps, profileMax) => {
          const problem = referralSettingsProblem({
            depth: sharesBps.length,
            sharesBps,
            profileMaxDepth: profileMax,
          });
          const total = sharesBps.reduce((a, b) => a + b, 0);
          if (sharesBps.length > profileMax)
            expect(problem).toEqual({ rule: 'depth_profile', max: profileMax });
          else if (total > REFERRAL_BPS_WHOLE)
            expect(problem).toEqual({ rule: 'shares_total', total_bps: total });
          else expect(problem).toBeNull();
        },
      ),
      RUNS,
    );
  });
});

describe('referral income (examples)', () => {
  it('20 % of a 0.12 USDT fee (scale 8) is 0.024 USDT; 1 unit at 20 % rounds to nothing', () => {
    expect(referralIncome({ feeUnits: 12_000_000n, inviters: ['a'], sharesBps: [2000], depth: 1 })).toEqual([
      { level: 1, inviter: 'a', shareBps: 2000, amountUnits: 2_400_000n },
    ]);
    expect(
      referralIncome({ feeUnits: 1n, inviters: ['a'], sharesBps: [2000], depth: 1 })[0]?.amountUnits,
    ).toBe(0n);
  });

  it('refuses bad settings by rule, and a negative fee or shares over 100 % outright', () => {
    expect(referralSettingsProblem({ depth: 5, sharesBps: [1, 1, 1, 1, 1], profileMaxDepth: 4 })).toEqual({
      rule: 'depth_range',
      max: 4,
    });
    expect(referralSettingsProblem({ depth: 2, sharesBps: [1000], profileMaxDepth: 4 })).toEqual({
      rule: 'shares_count',
      depth: 2,
    });
    expect(referralSettingsProblem({ depth: 1, sharesBps: [10_001], profileMaxDepth: 4 })).toEqual({
      rule: 'share_range',
      level: 1,
    });
    expect(() => referralIncome({ feeUnits: -1n, inviters: ['a'], sharesBps: [1], depth: 1 })).toThrow(
      RangeError,
    );
    expect(() =>
      referralIncome({ feeUnits: 1n, inviters: ['a', 'b'], sharesBps: [6000, 6000], depth: 2 }),
    ).toThrow(RangeError);
  });
});
