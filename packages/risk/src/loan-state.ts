import { divRound } from '@bourse/money';
import type { LoanQuote } from './loan-quote.ts';
import { PPM } from './loans.ts';

/**
 * A disbursed loan's charging and repayment, pure (README, "Loans"): the server keeps a `LoanState`
 * per loan, and every change — interest accrued, an overdue day charged, a repayment — is a function
 * from one state to the next plus the amounts to post. Nothing here reads a clock: days are counted
 * by the caller from the disbursement day (day 0; the loan is due at the end of day `termDays`).
 */

/** The contract, fixed at disbursement from the quote the customer accepted. */
export type LoanTerms = Readonly<{
  principalUnits: bigint;
  termDays: number;
  dailyRatePpm: bigint;
  interestFreeDays: number;
  overdueRatePpm: bigint;
  lateFeeUnits: bigint;
  /** Everything charged on top of the principal, together, never exceeds this. */
  costCapUnits: bigint;
}>;

/** What is owed, by part, in USDT units. */
export type LoanParts = Readonly<{ feesUnits: bigint; interestUnits: bigint; principalUnits: bigint }>;

export type LoanState = Readonly<{
  terms: LoanTerms;
  outstanding: LoanParts;
  /** Days of contractual interest accrued so far (0…termDays). */
  accruedDays: number;
  /**
   * The fraction of a unit of contractual interest not yet charged, in units × ppm (0 ≤ r < 10^6):
   * carried so that accruing in pieces charges exactly what accruing at once would.
   */
  accrualRemainder: bigint;
  /** The last day past due charged (0: none); overdue days are charged one at a time, in order. */
  overdueDaysCharged: number;
  /** Interest, overdue interest and fees charged so far, paid or not (≤ terms.costCapUnits). */
  costChargedUnits: bigint;
}>;

const ZERO_PARTS: LoanParts = Object.freeze({ feesUnits: 0n, interestUnits: 0n, principalUnits: 0n });

const minBig = (a: bigint, b: bigint): bigint => (a < b ? a : b);

function assertState(s: LoanState): void {
  const { terms: t, outstanding: o } = s;
  const bad =
    o.feesUnits < 0n ||
    o.interestUnits < 0n ||
    o.principalUnits < 0n ||
    o.principalUnits > t.principalUnits ||
    !Number.isSafeInteger(s.accruedDays) ||
    s.accruedDays < 0 ||
    s.accruedDays > t.termDays ||
    s.accrualRemainder < 0n ||
    s.accrualRemainder >= PPM ||
    !Number.isSafeInteger(s.overdueDaysCharged) ||
    s.overdueDaysCharged < 0 ||
    s.costChargedUnits < 0n ||
    s.costChargedUnits > t.costCapUnits;
  if (bad) throw new RangeError('loan state out of its invariants');
}

/** The state at disbursement: the principal owed, nothing charged yet. */
export function openLoan(quote: LoanQuote): LoanState {
  return {
    terms: {
      principalUnits: quote.principalUnits,
      termDays: quote.termDays,
      dailyRatePpm: quote.dailyRatePpm,
      interestFreeDays: quote.interestFreeDays,
      overdueRatePpm: quote.overdueRatePpm,
      lateFeeUnits: quote.lateFeeUnits,
      costCapUnits: quote.costCapUnits,
    },
    outstanding: { ...ZERO_PARTS, principalUnits: quote.principalUnits },
    accruedDays: 0,
    accrualRemainder: 0n,
    overdueDaysCharged: 0,
    costChargedUnits: 0n,
  };
}

/** Everything owed now. */
export function outstandingUnits(state: LoanState): bigint {
  const o = state.outstanding;
  return o.feesUnits + o.interestUnits + o.principalUnits;
}

/** Days past due after `daysElapsed` days since disbursement: max(0, elapsed − term). */
export function daysPastDue(termDays: number, daysElapsed: number): number {
  return Math.max(0, daysElapsed - termDays);
}

export type Accrual = Readonly<{ state: LoanState; interestUnits: bigint; capped: boolean }>;

/**
 * Contractual interest from the last accrued day through day min(`throughDay`, term), on the
 * principal outstanding meanwhile (so the caller accrues to today before applying a repayment).
 * Interest-free days bear none. Rounded down once over the whole accrual (the remainder is carried),
 * so accruing day by day charges exactly the quote's ⌊A × rate × chargeable days⌋. A day already
 * accrued is not accrued again (a no-op, not an error).
 */
export function accrueInterest(state: LoanState, throughDay: number): Accrual {
  assertState(state);
  if (!Number.isSafeInteger(throughDay) || throughDay < 0) throw new RangeError('accrueInterest: day ≥ 0');
  const t = state.terms;
  const to = Math.min(throughDay, t.termDays);
  if (to <= state.accruedDays) return { state, interestUnits: 0n, capped: false };
  const days = Math.max(0, to - Math.max(state.accruedDays, t.interestFreeDays));
  const raw = state.outstanding.principalUnits * t.dailyRatePpm * BigInt(days) + state.accrualRemainder;
  const due = raw / PPM;
  const charged = minBig(due, t.costCapUnits - state.costChargedUnits);
  const next: LoanState = {
    ...state,
    outstanding: { ...state.outstanding, interestUnits: state.outstanding.interestUnits + charged },
    accruedDays: to,
    accrualRemainder: raw % PPM,
    costChargedUnits: state.costChargedUnits + charged,
  };
  return { state: next, interestUnits: charged, capped: charged < due };
}

export type EarlyRepayment = Readonly<{
  /** Interest owed if everything is repaid after `daysElapsed` days (outstanding + accrued to date). */
  interestToDateUnits: bigint;
  /** Everything owed at that day: fees + interest to date + principal. */
  payoffUnits: bigint;
  /** The contractual interest not charged because the loan ends early (vs. holding it to term). */
  interestSavedUnits: bigint;
  /** The state accrued to that day (apply the repayment to this one). */
  state: LoanState;
}>;

/**
 * Repaying early costs only the interest to date (interest-free days honoured): the payoff after
 * `daysElapsed` days (0…term) of a loan not yet past due.
 */
export function earlyRepayment(state: LoanState, daysElapsed: number): EarlyRepayment {
  if (!Number.isSafeInteger(daysElapsed) || daysElapsed < 0 || daysElapsed > state.terms.termDays)
    throw new RangeError('earlyRepayment: day must be within the term');
  const toDate = accrueInterest(state, daysElapsed).state;
  const toTerm = accrueInterest(toDate, state.terms.termDays).state;
  return {
    interestToDateUnits: toDate.outstanding.interestUnits,
    payoffUnits: outstandingUnits(toDate),
    interestSavedUnits: toTerm.outstanding.interestUnits - toDate.outstanding.interestUnits,
    state: toDate,
  };
}

export type OverdueCharge = Readonly<{
  day: number;
  interestUnits: bigint;
  feeUnits: bigint;
  /** Something due today was cut by the cost cap (what fits was charged). */
  capped: boolean;
  state: LoanState;
}>;

/**
 * The charge for overdue day `day` (1 = the first day past due): overdue interest ⌊principal
 * outstanding × overdue rate⌋ (rounded down; never on interest or fees: no compounding), and on day 1
 * the late fee, if anything is still owed. The fee is taken first, then interest, each cut to what the
 * cost cap leaves (`capped`). Days must come in order — `day` = overdueDaysCharged + 1 — so a day
 * charged twice or skipped throws instead of charging: the daily job stores the day with the entry
 * and resumes from the state. The contractual interest must be accrued to the term first.
 */
export function overdueChargeForDay(state: LoanState, day: number): OverdueCharge {
  assertState(state);
  const t = state.terms;
  if (state.accruedDays !== t.termDays) throw new RangeError('overdueChargeForDay: accrue to the term first');
  if (day !== state.overdueDaysCharged + 1)
    throw new RangeError(`overdueChargeForDay: day ${day} after day ${state.overdueDaysCharged}`);
  const owed = outstandingUnits(state) > 0n;
  const fee = owed && day === 1 ? t.lateFeeUnits : 0n;
  const interest = divRound(state.outstanding.principalUnits * t.overdueRatePpm, PPM, 'floor');
  const room = t.costCapUnits - state.costChargedUnits;
  const feeUnits = minBig(fee, room);
  const interestUnits = minBig(interest, room - feeUnits);
  const o = state.outstanding;
  return {
    day,
    interestUnits,
    feeUnits,
    capped: feeUnits + interestUnits < fee + interest,
    state: {
      ...state,
      outstanding: {
        ...o,
        feesUnits: o.feesUnits + feeUnits,
        interestUnits: o.interestUnits + interestUnits,
      },
      overdueDaysCharged: day,
      costChargedUnits: state.costChargedUnits + feeUnits + interestUnits,
    },
  };
}

export type Repayment = Readonly<{
  state: LoanState;
  /** What the payment settled, by part (their sum + unapplied = the amount). */
  paid: LoanParts;
  /** The part of the amount beyond everything owed: not taken. */
  unappliedUnits: bigint;
}>;

/**
 * A payment settles fees first, then interest, then principal (Apache Fineract's default order, and
 * the usual one): charges that stop growing are cleared before the principal that bears interest.
 * Interest never accrues on unpaid interest or fees, and the cost cap counts what was charged, not
 * what is outstanding, so the order cannot raise the total beyond the cap; it does mean a partial
 * payment lowers later interest less than if it went to principal first. Accrue to today first.
 */
export function applyRepayment(state: LoanState, amountUnits: bigint): Repayment {
  assertState(state);
  if (amountUnits <= 0n) throw new RangeError('applyRepayment: amount must be > 0');
  const o = state.outstanding;
  let left = amountUnits;
  const take = (owed: bigint): bigint => {
    const part = minBig(owed, left);
    left -= part;
    return part;
  };
  const feesUnits = take(o.feesUnits);
  const interestUnits = take(o.interestUnits);
  const principalUnits = take(o.principalUnits);
  const paid: LoanParts = { feesUnits, interestUnits, principalUnits };
  return {
    state: {
      ...state,
      outstanding: {
        feesUnits: o.feesUnits - paid.feesUnits,
        interestUnits: o.interestUnits - paid.interestUnits,
        principalUnits: o.principalUnits - paid.principalUnits,
      },
    },
    paid,
    unappliedUnits: left,
  };
}
