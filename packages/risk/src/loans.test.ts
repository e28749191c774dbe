import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accrueInterest,
  applyRepayment,
  aprBps,
  checkProductAgainstCaps,
  daysPastDue,
  earlyRepayment,
  LOAN_CAPS,
  type LoanCaps,
  type LoanProduct,
  type LoanQuote,
  type LoanState,
  lateTotalUnits,
  loanRequestProblem,
  openLoan,
  outstandingUnits,
  overdueChargeForDay,
  ppmFromPercent,
  ppmPercentText,
  quoteLoan,
} from './index.ts';

/**
 * The loan maths: worked examples with round numbers, then fast-check properties against a reference
 * written here by another route — interest summed day by day as exact rationals, the cap and the
 * overdue charges replayed by a naive loop, and the APR from floating-point Math.pow (floats only in
 * this file, only in the reference).
 */
const SEED = Number(process.env.PROPERTY_SEED ?? 20261122);
const RUNS = { seed: SEED, numRuns: 200 };

const USDT = (whole: number | bigint): bigint => BigInt(whole) * 100_000_000n;
const UK = LOAN_CAPS.eu_retail;

/** 10–10,000 USDT, 7/14/30 days, 0.1 % a day, 3 days free, 0.2 % a day overdue, a 10 USDT late fee. */
const PRODUCT: LoanProduct = {
  amountMinUnits: USDT(10),
  amountMaxUnits: USDT(10_000),
  termDays: [7, 14, 30],
  dailyRatePpm: 1_000n,
  interestFreeDays: 3,
  overdueRatePpm: 2_000n,
  lateFeeUnits: USDT(10),
};

const quote = (amount: bigint, termDays: number, product = PRODUCT, caps: LoanCaps = UK): LoanQuote =>
  quoteLoan({ product, caps, amountUnits: amount, termDays });

const accrued = (s: LoanState): LoanState => accrueInterest(s, s.terms.termDays).state;

describe('loans: worked examples', () => {
  it('1,000 USDT for 30 days at 0.1 % a day, 3 free days', () => {
    const q = quote(USDT(1000), 30);
    // 1,000 × 0.001 × (30 − 3) = 27 USDT; one repayment of 1,027 USDT on day 30.
    expect(q.chargeableDays).toBe(27);
    expect(q.interestUnits).toBe(USDT(27));
    expect(q.totalRepayableUnits).toBe(USDT(1027));
    expect(q.dueInDays).toBe(30);
    // APR: 1.027^(365/30) − 1 = 38.2846 % → 38.28 %; simple: 2.7 % × 365/30 = 32.85 %.
    expect(q.aprBps).toBe(3828n);
    expect(q.simpleAnnualRateBps).toBe(3285n);
    // Overdue: 1,000 × 0.002 = 2 USDT a day; the UK cap allows 1,000 USDT of cost, 27 used: 973 left.
    // Day 1 adds the 10 USDT fee: 10 + 2N ≥ 973 from N = 482 (⌈963 / 2⌉).
    expect(q.overdueInterestPerDayUnits).toBe(USDT(2));
    expect(q.costCapUnits).toBe(USDT(1000));
    expect(q.overdueChargesMaxUnits).toBe(USDT(973));
    expect(q.capReachedOnDay).toBe(482);
    expect(lateTotalUnits(q, 0)).toBe(USDT(1027));
    expect(lateTotalUnits(q, 10)).toBe(USDT(1027 + 10 + 20));
    expect(lateTotalUnits(q, 482)).toBe(USDT(2000));
    expect(q.worstCaseTotalUnits).toBe(USDT(2000));
  });

  it('at the UK cap: 500 USDT, 30 days, 0.8 % a day, 0.8 % overdue, 15 USDT fee', () => {
    const product = { ...PRODUCT, dailyRatePpm: 8_000n, overdueRatePpm: 8_000n, lateFeeUnits: USDT(15) };
    expect(checkProductAgainstCaps(product, UK)).toEqual([]);
    const q = quote(USDT(500), 30, product);
    // 500 × 0.008 × 27 = 108 USDT; APR 1.216^(365/30) − 1 = 979.84 %.
    expect(q.interestUnits).toBe(USDT(108));
    expect(q.aprBps).toBe(97_984n);
    // Cap 500 USDT; 392 left after interest; 4 USDT a day after a 15 USDT fee: ⌈377 / 4⌉ = day 95.
    expect(q.capReachedOnDay).toBe(95);
    expect(q.worstCaseTotalUnits).toBe(USDT(1000)); // never more than twice the amount
  });

  it('repaid within the free days costs no interest; early repayment only the interest to date', () => {
    const state = openLoan(quote(USDT(1000), 30));
    expect(earlyRepayment(state, 3)).toMatchObject({ interestToDateUnits: 0n, payoffUnits: USDT(1000) });
    // Day 10: 1,000 × 0.001 × 7 = 7 USDT; the 20 USDT of days 11…30 are not charged.
    const day10 = earlyRepayment(state, 10);
    expect(day10.interestToDateUnits).toBe(USDT(7));
    expect(day10.payoffUnits).toBe(USDT(1007));
    expect(day10.interestSavedUnits).toBe(USDT(20));
    const paid = applyRepayment(day10.state, USDT(1007));
    expect(outstandingUnits(paid.state)).toBe(0n);
    expect(paid.paid).toEqual({ feesUnits: 0n, interestUnits: USDT(7), principalUnits: USDT(1000) });
  });

  it('a partial repayment on day 10 lowers the interest of the days after it', () => {
    const s0 = openLoan(quote(USDT(1000), 30));
    // Day 10: 7 USDT interest owed; 507 USDT pays it, then 500 of principal.
    const r = applyRepayment(accrueInterest(s0, 10).state, USDT(507));
    expect(r.paid).toEqual({ feesUnits: 0n, interestUnits: USDT(7), principalUnits: USDT(500) });
    // Days 11…30 on 500 USDT: 500 × 0.001 × 20 = 10 USDT.
    const end = accrueInterest(r.state, 30);
    expect(end.interestUnits).toBe(USDT(10));
    expect(outstandingUnits(end.state)).toBe(USDT(510));
  });

  it('overdue days: the fee on day 1, interest each day, in order, never twice', () => {
    const s = accrued(openLoan(quote(USDT(1000), 30)));
    const d1 = overdueChargeForDay(s, 1);
    expect(d1).toMatchObject({ day: 1, feeUnits: USDT(10), interestUnits: USDT(2), capped: false });
    const d2 = overdueChargeForDay(d1.state, 2);
    expect(d2).toMatchObject({ feeUnits: 0n, interestUnits: USDT(2) });
    expect(outstandingUnits(d2.state)).toBe(USDT(1027 + 14));
    expect(() => overdueChargeForDay(d2.state, 2)).toThrow(RangeError); // charged already
    expect(() => overdueChargeForDay(d2.state, 4)).toThrow(RangeError); // day 3 skipped
    expect(() => overdueChargeForDay(openLoan(quote(USDT(1000), 30)), 1)).toThrow(/accrue/);
    expect(daysPastDue(30, 33)).toBe(3);
    expect(daysPastDue(30, 12)).toBe(0);
  });

  it('the allocation order is fees, interest, principal', () => {
    let s = accrued(openLoan(quote(USDT(1000), 30)));
    s = overdueChargeForDay(s, 1).state; // fee 10, interest 27 + 2
    const a = applyRepayment(s, USDT(15));
    expect(a.paid).toEqual({ feesUnits: USDT(10), interestUnits: USDT(5), principalUnits: 0n });
    const b = applyRepayment(a.state, USDT(5000));
    expect(b.paid).toEqual({ feesUnits: 0n, interestUnits: USDT(24), principalUnits: USDT(1000) });
    expect(b.unappliedUnits).toBe(USDT(5000 - 1024));
    expect(() => applyRepayment(b.state, 0n)).toThrow(RangeError);
  });

  it('APR at round figures, exact at ties (half-up)', () => {
    // 36.5 % over exactly a year is 36.5 %; 36.505 % rounds up to 36.51 %.
    expect(aprBps({ principalUnits: 1000n, totalUnits: 1365n, termDays: 365 })).toBe(3650n);
    expect(aprBps({ principalUnits: 100_000n, totalUnits: 136_505n, termDays: 365 })).toBe(3651n);
    expect(aprBps({ principalUnits: 100_000n, totalUnits: 136_504n, termDays: 365 })).toBe(3650n);
    // 7 days at 0.1 %: 1.007^(365/7) − 1 = 43.87 %; 1 day at 0.8 %: 1.008^365 − 1 = 1732.71 %.
    expect(aprBps({ principalUnits: USDT(1000), totalUnits: USDT(1007), termDays: 7 })).toBe(4387n);
    expect(aprBps({ principalUnits: 1000n, totalUnits: 1008n, termDays: 1 })).toBe(173_271n);
    // Two years, 5 % in total: 1.05^(1/2) − 1 = 2.47 %. No interest: 0 %.
    expect(aprBps({ principalUnits: 1000n, totalUnits: 1050n, termDays: 730 })).toBe(247n);
    expect(aprBps({ principalUnits: 1000n, totalUnits: 1000n, termDays: 30 })).toBe(0n);
    expect(() => aprBps({ principalUnits: 1000n, totalUnits: 999n, termDays: 30 })).toThrow(RangeError);
  });

  it('rates as percent text', () => {
    expect(ppmFromPercent('0.1')).toBe(1_000n);
    expect(ppmFromPercent('0.8')).toBe(8_000n);
    expect(ppmFromPercent('100')).toBe(1_000_000n);
    expect(ppmFromPercent('0.00001')).toBeNull();
    expect(ppmFromPercent('-1')).toBeNull();
    expect(ppmPercentText(1_000n)).toBe('0.1');
    expect(ppmPercentText(1_000_000n)).toBe('100');
  });
});

describe('loans: products against caps, requests against products', () => {
  it('a product inside the UK caps passes; each breach is named by rule and field', () => {
    expect(checkProductAgainstCaps(PRODUCT, UK)).toEqual([]);
    const bad: LoanProduct = {
      amountMinUnits: USDT(100),
      amountMaxUnits: USDT(50),
      termDays: [30, 30, 0],
      dailyRatePpm: 9_000n,
      interestFreeDays: -1,
      overdueRatePpm: -1n,
      lateFeeUnits: USDT(20),
    };
    expect(checkProductAgainstCaps(bad, UK)).toEqual([
      { field: 'amount_min', rule: 'amount_min_above_max', limit: USDT(50) },
      { field: 'term_days', rule: 'term_days_range', limit: 1095n },
      { field: 'term_days', rule: 'term_days_repeated', limit: null },
      { field: 'interest_free_days', rule: 'interest_free_days_range', limit: 1095n },
      { field: 'daily_rate', rule: 'daily_rate_cap', limit: 8_000n },
      { field: 'overdue_rate', rule: 'rate_range', limit: 0n },
      { field: 'late_fee', rule: 'late_fee_cap', limit: USDT(15) },
    ]);
    expect(checkProductAgainstCaps({ ...PRODUCT, termDays: [] }, UK)).toEqual([
      { field: 'term_days', rule: 'term_days_empty', limit: null },
    ]);
    expect(checkProductAgainstCaps({ ...PRODUCT, amountMinUnits: 0n }, UK)).toEqual([
      { field: 'amount_min', rule: 'amount_range', limit: 1n },
    ]);
  });

  it('a term whose interest alone passes the total-cost cap is refused, naming the longest that fits', () => {
    // 0.8 % a day: 100 % is reached after 125 charged days; with 3 free days, 128 days fit.
    const product = { ...PRODUCT, dailyRatePpm: 8_000n, termDays: [30, 128, 129] };
    expect(checkProductAgainstCaps(product, UK)).toEqual([
      { field: 'term_days', rule: 'total_cost_cap', limit: 128n },
    ]);
    expect(checkProductAgainstCaps({ ...product, termDays: [30, 128] }, UK)).toEqual([]);
    expect(() => quote(USDT(100), 129, product)).toThrow(/total_cost_cap/);
  });

  it('requests: amount first, then the credit limit, then the term', () => {
    const ask = (amountUnits: bigint, termDays: number, creditLimitUnits?: bigint) =>
      loanRequestProblem({ product: PRODUCT, amountUnits, termDays, creditLimitUnits });
    expect(ask(USDT(9), 30)).toEqual({ field: 'amount', rule: 'below_min', limit: USDT(10) });
    expect(ask(USDT(10_001), 30)).toEqual({ field: 'amount', rule: 'above_max', limit: USDT(10_000) });
    expect(ask(USDT(600), 30, USDT(500))).toEqual({
      field: 'amount',
      rule: 'above_credit_limit',
      limit: USDT(500),
    });
    expect(ask(USDT(500), 31)).toEqual({ field: 'term_days', rule: 'not_offered', limit: null });
    expect(ask(USDT(500), 30, USDT(500))).toBeNull();
    expect(() => quote(USDT(500), 31)).toThrow(/not_offered/);
  });
});

// ---------------------------------------------------------------------------------------- reference

type Case = { product: LoanProduct; amount: bigint; term: number };

/** Products inside the UK caps: rates ≤ 0.8 % a day, terms short enough for the cost cap. */
const caseArb: fc.Arbitrary<Case> = fc
  .record({
    dailyRatePpm: fc.bigInt({ min: 0n, max: 8_000n }),
    overdueRatePpm: fc.bigInt({ min: 0n, max: 8_000n }),
    interestFreeDays: fc.integer({ min: 0, max: 10 }),
    lateFeeUnits: fc.bigInt({ min: 0n, max: USDT(15) }),
    amount: fc.bigInt({ min: 1n, max: USDT(1_000_000) }),
    termWish: fc.integer({ min: 1, max: 400 }),
  })
  .map((r) => {
    // Shorten the term until the contractual interest fits the 100 % cap.
    const fits = r.dailyRatePpm === 0n ? 400 : r.interestFreeDays + Number(1_000_000n / r.dailyRatePpm);
    const term = Math.max(1, Math.min(r.termWish, fits));
    const product: LoanProduct = {
      amountMinUnits: 1n,
      amountMaxUnits: USDT(1_000_000),
      termDays: [term],
      dailyRatePpm: r.dailyRatePpm,
      interestFreeDays: r.interestFreeDays,
      overdueRatePpm: r.overdueRatePpm,
      lateFeeUnits: r.lateFeeUnits,
    };
    return { product, amount: r.amount, term };
  });

const quoteOf = (c: Case): LoanQuote => quote(c.amount, c.term, c.product);

/** Interest summed day by day as an exact rational (numerator over 10^6), floored once. */
function refInterest(amount: bigint, ratePpm: bigint, fromDay: number, toDay: number, free: number): bigint {
  let num = 0n;
  for (let day = fromDay + 1; day <= toDay; day++) if (day > free) num += amount * ratePpm;
  return num / 1_000_000n;
}

/** The float APR in percent: (total / A)^(365 / T) − 1. */
const refAprPercent = (amount: bigint, total: bigint, term: number): number =>
  ((Number(total) / Number(amount)) ** (365 / term) - 1) * 100;

/** Stated tolerance: 0.01 percentage points (the result is rounded half-up to 0.01, so ≤ 0.005 + float error). */
const APR_TOLERANCE_PP = 0.01;

describe('property: loan maths against the reference', () => {
  it('interest = the day-by-day sum; total = principal + interest; free days cost nothing', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const q = quoteOf(c);
        const p = c.product;
        expect(q.interestUnits).toBe(refInterest(c.amount, p.dailyRatePpm, 0, c.term, p.interestFreeDays));
        expect(q.totalRepayableUnits).toBe(c.amount + q.interestUnits);
        if (c.term <= p.interestFreeDays) expect(q.interestUnits).toBe(0n);
        const state = openLoan(q);
        for (let day = 0; day <= Math.min(p.interestFreeDays, c.term); day++) {
          expect(earlyRepayment(state, day).interestToDateUnits).toBe(0n);
        }
      }),
      RUNS,
    );
  });

  it('APR within 0.01 percentage points of the float reference', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: USDT(1_000_000) }),
        fc.integer({ min: 1, max: 1095 }),
        fc.bigInt({ min: 0n, max: 2_000_000n }), // total cost 0 … 200 % of the amount
        (amount, term, costPpm) => {
          const total = amount + (amount * costPpm) / 1_000_000n;
          const apr = aprBps({ principalUnits: amount, totalUnits: total, termDays: term });
          const ref = refAprPercent(amount, total, term);
          expect(Math.abs(Number(apr) / 100 - ref)).toBeLessThanOrEqual(APR_TOLERANCE_PP + ref * 1e-12);
        },
      ),
      { ...RUNS, numRuns: 300 },
    );
  });

  it('the quote APR matches the reference for random products', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const q = quoteOf(c);
        const ref = refAprPercent(c.amount, q.totalRepayableUnits, c.term);
        expect(Math.abs(Number(q.aprBps) / 100 - ref)).toBeLessThanOrEqual(APR_TOLERANCE_PP + ref * 1e-12);
      }),
      RUNS,
    );
  });

  it('overdue: never above the cap over 400 days; equal to lateTotalUnits every day', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const q = quoteOf(c);
        let s = accrued(openLoan(q));
        expect(s.costChargedUnits).toBe(q.interestUnits);
        let charged = 0n;
        // Naive reference: charge fee then interest each day, stop at the cap.
        let refLeft = q.costCapUnits - q.interestUnits;
        const perDay = (c.amount * c.product.overdueRatePpm) / 1_000_000n;
        for (let day = 1; day <= 400; day++) {
          const r = overdueChargeForDay(s, day);
          charged += r.interestUnits + r.feeUnits;
          const want = (day === 1 ? c.product.lateFeeUnits : 0n) + perDay;
          const got = want < refLeft ? want : refLeft;
          refLeft -= got;
          expect(r.interestUnits + r.feeUnits).toBe(got);
          expect(r.capped).toBe(got < want);
          expect(charged).toBeLessThanOrEqual(q.costCapUnits - q.interestUnits);
          expect(q.totalRepayableUnits + charged).toBe(lateTotalUnits(q, day));
          s = r.state;
        }
        expect(s.costChargedUnits).toBeLessThanOrEqual(q.costCapUnits);
        expect(outstandingUnits(s)).toBeLessThanOrEqual(q.worstCaseTotalUnits);
        if (q.capReachedOnDay !== null && q.capReachedOnDay <= 400) {
          expect(outstandingUnits(s)).toBe(q.worstCaseTotalUnits);
          expect(lateTotalUnits(q, q.capReachedOnDay)).toBe(q.worstCaseTotalUnits);
          if (q.capReachedOnDay > 1)
            expect(lateTotalUnits(q, q.capReachedOnDay - 1)).toBeLessThan(q.worstCaseTotalUnits);
        }
      }),
      { ...RUNS, numRuns: 100 },
    );
  });

  it('early repayment never costs more than the full term, and grows with the days', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 0, max: 400 }), (c, at) => {
        const q = quoteOf(c);
        const day = Math.min(at, c.term);
        const early = earlyRepayment(openLoan(q), day);
        expect(early.payoffUnits).toBeLessThanOrEqual(q.totalRepayableUnits);
        expect(early.interestToDateUnits).toBe(
          refInterest(c.amount, c.product.dailyRatePpm, 0, day, c.product.interestFreeDays),
        );
        expect(early.interestToDateUnits + early.interestSavedUnits).toBe(q.interestUnits);
        if (day > 0) {
          const before = earlyRepayment(openLoan(q), day - 1);
          expect(before.payoffUnits).toBeLessThanOrEqual(early.payoffUnits);
        }
      }),
      RUNS,
    );
  });

  it('accruing in pieces charges exactly what accruing at once does', () => {
    fc.assert(
      fc.property(caseArb, fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 8 }), (c, cuts) => {
        const q = quoteOf(c);
        let s = openLoan(q);
        let sum = 0n;
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          const r = accrueInterest(s, cut);
          sum += r.interestUnits;
          s = r.state;
        }
        sum += accrueInterest(s, c.term).interestUnits;
        expect(sum).toBe(q.interestUnits);
      }),
      RUNS,
    );
  });
});

/** A random life: repayments on random days during the term, overdue days, then paid off. */
const lifeArb = fc.record({
  c: caseArb,
  payments: fc.array(
    fc.record({ day: fc.integer({ min: 0, max: 400 }), amount: fc.bigInt({ min: 1n, max: USDT(2000) }) }),
    {
      maxLength: 6,
    },
  ),
  overdueDays: fc.integer({ min: 0, max: 60 }),
});

describe('property: repayments', () => {
  it('allocation conserves money, nothing goes negative, and the total paid = principal + charges', () => {
    fc.assert(
      fc.property(lifeArb, ({ c, payments, overdueDays }) => {
        const q = quoteOf(c);
        let s = openLoan(q);
        let paidTotal = 0n;
        let charges = 0n;
        const pay = (amount: bigint): void => {
          const before = s.outstanding;
          const r = applyRepayment(s, amount);
          const after = r.state.outstanding;
          for (const part of ['feesUnits', 'interestUnits', 'principalUnits'] as const) {
            expect(r.paid[part]).toBeGreaterThanOrEqual(0n);
            expect(after[part]).toBeGreaterThanOrEqual(0n);
            expect(before[part] - after[part]).toBe(r.paid[part]);
          }
          // Order: nothing reaches interest while fees are owed, nor principal while interest is.
          if (r.paid.interestUnits > 0n) expect(after.feesUnits).toBe(0n);
          if (r.paid.principalUnits > 0n) expect(after.interestUnits).toBe(0n);
          const applied = r.paid.feesUnits + r.paid.interestUnits + r.paid.principalUnits;
          expect(applied + r.unappliedUnits).toBe(amount);
          paidTotal += applied;
          s = r.state;
        };
        // Reference contractual interest: Σ over days of the principal outstanding that day × rate.
        let refNum = 0n;
        let refDay = 0;
        const accrueTo = (day: number): void => {
          for (let d = refDay + 1; d <= day; d++)
            if (d > c.product.interestFreeDays)
              refNum += s.outstanding.principalUnits * c.product.dailyRatePpm;
          refDay = Math.max(refDay, day);
          const r = accrueInterest(s, day);
          charges += r.interestUnits;
          s = r.state;
        };
        for (const p of [...payments].sort((a, b) => a.day - b.day)) {
          accrueTo(Math.min(p.day, c.term));
          pay(p.amount);
        }
        accrueTo(c.term);
        expect(charges).toBe(refNum / 1_000_000n);
        for (let day = 1; day <= overdueDays; day++) {
          const r = overdueChargeForDay(s, day);
          charges += r.interestUnits + r.feeUnits;
          s = r.state;
        }
        expect(s.costChargedUnits).toBe(charges);
        expect(charges).toBeLessThanOrEqual(q.costCapUnits);
        const rest = outstandingUnits(s);
        if (rest > 0n) pay(rest);
        expect(outstandingUnits(s)).toBe(0n);
        expect(paidTotal).toBe(c.amount + charges);
        // Repaying early or in part never costs more than the quote's worst case.
        expect(paidTotal).toBeLessThanOrEqual(q.worstCaseTotalUnits);
      }),
      RUNS,
    );
  });
});
