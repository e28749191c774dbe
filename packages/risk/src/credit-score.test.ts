import { REQUIRED_TIERS } from '@bourse/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CREDIT_FACTOR_DIRECTIONS,
  CREDIT_FACTORS,
  CREDIT_TIERS,
  type CreditFactor,
  type CreditInput,
  type CreditLimitBand,
  type CreditScoreTable,
  creditLimitTableProblems,
  creditScore,
  creditTableProblems,
  limitForScore,
  type ScoreBand,
} from './index.ts';

const SEED = Number(process.env.PROPERTY_SEED ?? 20261122);
const RUNS = { seed: SEED, numRuns: 200 };
const USDT = (whole: number): bigint => BigInt(whole) * 100_000_000n;
const b = (from: bigint | number, points: number): ScoreBand => ({ from: BigInt(from), points });

/** An example published table: base 300, at most 300 + 100 + 60 + 80 + 60 + 100 = 700 before penalties. */
const TABLE: CreditScoreTable = {
  version: 1,
  basePoints: 300,
  bands: {
    verification: [b(0, 0), b(1, 50), b(2, 80), b(3, 100)], // none, primary, advanced, address
    account_age: [b(0, 0), b(30, 20), b(180, 40), b(365, 60)],
    deposits: [b(0, 0), b(USDT(100), 20), b(USDT(1_000), 50), b(USDT(10_000), 80)],
    trading_volume: [b(0, 0), b(USDT(1_000), 20), b(USDT(100_000), 60)],
    loans_on_time: [b(0, 0), b(1, 40), b(3, 70), b(5, 100)],
    loans_late: [b(0, 0), b(1, -60), b(3, -150)],
    overdue_days: [b(0, 0), b(1, -100), b(30, -250)],
  },
};

const LIMITS: CreditLimitBand[] = [
  { scoreMin: 400, limitUnits: USDT(100) },
  { scoreMin: 500, limitUnits: USDT(500) },
  { scoreMin: 600, limitUnits: USDT(2_000) },
  { scoreMin: 700, limitUnits: USDT(5_000) },
];

const NEWCOMER: CreditInput = {
  verificationTier: 'advanced',
  accountAgeDays: 45,
  depositTotalUnits: USDT(1_500),
  tradingVolumeUnits: USDT(20_000),
  loansClearedOnTime: 1,
  loansClearedLate: 0,
  overdueDays: 0,
};

describe('credit score: worked example', () => {
  it('adds each factor’s points to the base and says how to improve', () => {
    const s = creditScore(NEWCOMER, TABLE);
    // 300 + 80 (advanced) + 20 (45 days) + 50 (1,500 USDT) + 20 (20,000 USDT traded) + 40 (1 on time) = 510.
    expect(s.score).toBe(510);
    expect(s.breakdown.map((f) => [f.factor, f.points, f.hint])).toEqual([
      ['verification', 80, 'complete_verification'],
      ['account_age', 20, 'keep_account'],
      ['deposits', 50, 'deposit_more'],
      ['trading_volume', 20, 'trade_more'],
      ['loans_on_time', 40, 'repay_on_time'],
      ['loans_late', 0, null],
      ['overdue_days', 0, null],
    ]);
    expect(s.breakdown[2]?.next).toEqual({ value: USDT(10_000), points: 80 });
    expect(limitForScore(s.score, LIMITS)).toBe(USDT(500));
  });

  it('overdue days and late history cost points; only the overdue can be undone', () => {
    const s = creditScore({ ...NEWCOMER, loansClearedLate: 1, overdueDays: 31 }, TABLE);
    expect(s.score).toBe(510 - 60 - 250);
    const late = s.breakdown.find((f) => f.factor === 'loans_late');
    const overdue = s.breakdown.find((f) => f.factor === 'overdue_days');
    expect(late).toMatchObject({ points: -60, bestPoints: 0, next: null, hint: 'late_repayments_weigh' });
    expect(overdue).toMatchObject({ points: -250, next: { value: 0n, points: 0 }, hint: 'clear_overdue' });
    expect(limitForScore(s.score, LIMITS)).toBe(0n); // 200: below the first band
  });

  it('refuses bad tables and inputs by name', () => {
    expect(creditTableProblems(TABLE)).toEqual([]);
    const broken: CreditScoreTable = {
      ...TABLE,
      bands: {
        ...TABLE.bands,
        deposits: [b(1, 0), b(1, 10)],
        loans_late: [b(0, 0), b(2, 10)],
        account_age: [],
      },
    };
    expect(creditTableProblems(broken)).toEqual([
      { factor: 'account_age', index: null, rule: 'bands_empty' },
      { factor: 'deposits', index: 0, rule: 'first_from_not_zero' },
      { factor: 'deposits', index: 1, rule: 'from_not_ascending' },
      { factor: 'loans_late', index: 1, rule: 'points_not_monotone' },
    ]);
    expect(() => creditScore(NEWCOMER, broken)).toThrow(RangeError);
    expect(() => creditScore({ ...NEWCOMER, accountAgeDays: 1.5 }, TABLE)).toThrow(RangeError);
    expect(creditLimitTableProblems([])).toEqual([{ index: null, rule: 'bands_empty' }]);
    expect(
      creditLimitTableProblems([
        { scoreMin: 500, limitUnits: USDT(10) },
        { scoreMin: 400, limitUnits: USDT(5) },
      ]),
    ).toEqual([
      { index: 1, rule: 'score_not_ascending' },
      { index: 1, rule: 'limit_not_monotone' },
    ]);
  });

  it('the tiers are the verification tiers of the protocol, in rank order', () => {
    expect([...CREDIT_TIERS]).toEqual([...REQUIRED_TIERS]);
  });
});

// ------------------------------------------------------------------------------------ properties

const bandsArb = (factor: CreditFactor): fc.Arbitrary<ScoreBand[]> =>
  fc
    .tuple(
      fc.array(fc.bigInt({ min: 1n, max: 10n ** 12n }), { minLength: 0, maxLength: 6 }),
      fc.array(fc.integer({ min: -500, max: 500 }), { minLength: 7, maxLength: 7 }),
    )
    .map(([steps, pts]) => {
      const froms = [0n];
      for (const step of steps) froms.push((froms[froms.length - 1] as bigint) + step);
      const points = pts.slice(0, froms.length).sort((x, y) => x - y);
      if (CREDIT_FACTOR_DIRECTIONS[factor] === 'bad') points.reverse();
      return froms.map((from, i) => ({ from, points: points[i] as number }));
    });

const tableArb: fc.Arbitrary<CreditScoreTable> = fc
  .tuple(fc.integer({ min: -1000, max: 1000 }), ...CREDIT_FACTORS.map(bandsArb))
  .map(([basePoints, ...bands]) => ({
    version: 1,
    basePoints,
    bands: Object.fromEntries(CREDIT_FACTORS.map((f, i) => [f, bands[i]])) as Record<
      CreditFactor,
      ScoreBand[]
    >,
  }));

const inputArb: fc.Arbitrary<CreditInput> = fc.record({
  verificationTier: fc.constantFrom(...CREDIT_TIERS),
  accountAgeDays: fc.integer({ min: 0, max: 5000 }),
  depositTotalUnits: fc.bigInt({ min: 0n, max: 10n ** 14n }),
  tradingVolumeUnits: fc.bigInt({ min: 0n, max: 10n ** 15n }),
  loansClearedOnTime: fc.integer({ min: 0, max: 50 }),
  loansClearedLate: fc.integer({ min: 0, max: 50 }),
  overdueDays: fc.integer({ min: 0, max: 400 }),
});

/** Raises one factor's value by `by` (the tier by one rank, capped at the top). */
function raise(input: CreditInput, factor: CreditFactor, by: number): CreditInput {
  switch (factor) {
    case 'verification': {
      const rank = Math.min(CREDIT_TIERS.length - 1, CREDIT_TIERS.indexOf(input.verificationTier) + 1);
      return { ...input, verificationTier: CREDIT_TIERS[rank] as CreditInput['verificationTier'] };
    }
    case 'account_age':
      return { ...input, accountAgeDays: input.accountAgeDays + by };
    case 'deposits':
      return { ...input, depositTotalUnits: input.depositTotalUnits + BigInt(by) * 10n ** 9n };
    case 'trading_volume':
      return { ...input, tradingVolumeUnits: input.tradingVolumeUnits + BigInt(by) * 10n ** 10n };
    case 'loans_on_time':
      return { ...input, loansClearedOnTime: input.loansClearedOnTime + by };
    case 'loans_late':
      return { ...input, loansClearedLate: input.loansClearedLate + by };
    case 'overdue_days':
      return { ...input, overdueDays: input.overdueDays + by };
  }
}

/** Reference: a band by linear search from the top, written independently of the implementation. */
const refPoints = (bands: readonly ScoreBand[], value: bigint): number =>
  [...bands].reverse().find((band) => band.from <= value)?.points ?? Number.NaN;

describe('property: credit score', () => {
  it('generated tables are valid; the score is the base plus the reference points of each factor', () => {
    fc.assert(
      fc.property(tableArb, inputArb, (table, input) => {
        expect(creditTableProblems(table)).toEqual([]);
        const s = creditScore(input, table);
        let sum = table.basePoints;
        for (const f of s.breakdown) {
          expect(f.points).toBe(refPoints(table.bands[f.factor], f.value));
          expect(f.points).toBeLessThanOrEqual(f.bestPoints);
          expect(f.hint === null).toBe(f.points === f.bestPoints);
          if (f.next !== null) expect(f.next.points).toBeGreaterThan(f.points);
          sum += f.points;
        }
        expect(s.score).toBe(sum);
      }),
      RUNS,
    );
  });

  it('monotone: raising a good factor never lowers the score; raising a penalty never raises it', () => {
    fc.assert(
      fc.property(
        tableArb,
        inputArb,
        fc.constantFrom(...CREDIT_FACTORS),
        fc.integer({ min: 1, max: 1000 }),
        (table, input, factor, by) => {
          const before = creditScore(input, table).score;
          const after = creditScore(raise(input, factor, by), table).score;
          if (CREDIT_FACTOR_DIRECTIONS[factor] === 'good') expect(after).toBeGreaterThanOrEqual(before);
          else expect(after).toBeLessThanOrEqual(before);
        },
      ),
      RUNS,
    );
  });

  it('the limit is monotone in the score', () => {
    const limitTableArb = fc
      .tuple(
        fc.integer({ min: -500, max: 500 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 200 }), fc.bigInt({ min: 0n, max: USDT(10_000) })), {
          minLength: 0,
          maxLength: 10,
        }),
      )
      .map(([start, steps]) => {
        const out: CreditLimitBand[] = [{ scoreMin: start, limitUnits: 0n }];
        for (const [gap, rise] of steps) {
          const prev = out[out.length - 1] as CreditLimitBand;
          out.push({ scoreMin: prev.scoreMin + gap, limitUnits: prev.limitUnits + rise });
        }
        return out;
      });
    fc.assert(
      fc.property(
        limitTableArb,
        fc.integer({ min: -2000, max: 3000 }),
        fc.integer({ min: 0, max: 2000 }),
        (table, score, by) => {
          expect(creditLimitTableProblems(table)).toEqual([]);
          expect(limitForScore(score, table)).toBeLessThanOrEqual(limitForScore(score + by, table));
        },
      ),
      RUNS,
    );
  });
});
