import {
  accrueInterest,
  earlyRepayment,
  type LoanState,
  outstandingUnits,
  overdueChargeForDay,
} from '@bourse/risk';
import type { Tx } from '../../db/database.ts';
import {
  CURRENCY,
  dayEndsAt,
  daysElapsed,
  LOAN_BOOK,
  type LoansDeps,
  lenderAccount,
  stateFrom,
  storedState,
} from './context.ts';
import type { LoanRow } from './repo.ts';
import * as repo from './repo.ts';

/**
 * Loan-days (README.md, "The daily job"): day d of a loan ends d × 24 h after its disbursement and is
 * charged once, in order: a contractual day (d ≤ term) accrues its interest with `accrueInterest`, a
 * later day is overdue day d − term, charged with `overdueChargeForDay` (overdue interest, the late
 * fee on the first, both cut by the cost cap). Each day is one ledger entry (key
 * `loan:day:<loan>:<day>`; none when nothing is due), the `loans_day` row (primary key loan + day)
 * and the new `LoanState`, in the caller's transaction with the loan row locked — so a crash leaves
 * a day wholly charged or not at all, and a rerun charges it once.
 */

/** The state after charging every loan-day ended by `elapsed` (pure: what a repayment now would see). */
export function stateThrough(state: LoanState, daysDone: number, elapsed: number): LoanState {
  let s = state;
  for (let day = daysDone + 1; day <= elapsed; day += 1) {
    s =
      day <= s.terms.termDays
        ? accrueInterest(s, day).state
        : overdueChargeForDay(s, day - s.terms.termDays).state;
  }
  return s;
}

/** Repaying everything at `now`: the payoff, the interest in it, and (early) the interest not charged. */
export function payoffAt(row: LoanRow, now: Date) {
  if (
    row.loan_state === null ||
    row.disbursed_at === null ||
    row.state === 'cleared' ||
    row.state === 'written_off'
  )
    return null;
  const elapsed = daysElapsed(row.disbursed_at, now);
  const state = stateThrough(stateFrom(row.loan_state), row.days_done, elapsed);
  const saved = elapsed < row.term_days ? earlyRepayment(state, elapsed).interestSavedUnits : 0n;
  return {
    totalUnits: outstandingUnits(state),
    interestUnits: state.outstanding.interestUnits,
    interestSavedUnits: saved,
  };
}

/**
 * Charges the loan's next day if it has ended by `now`; `row` must be locked by the caller's
 * transaction. Answers the row as updated, or null when no day was due.
 */
export async function chargeNextDay(
  deps: LoansDeps,
  tx: Tx,
  row: LoanRow,
  now: Date,
): Promise<LoanRow | null> {
  if (row.next_day_at === null || row.next_day_at > now) return null;
  if (row.loan_state === null || row.disbursed_at === null)
    throw new Error(`loan ${row.id} is due a day but was never disbursed`);
  const day = row.days_done + 1;
  const before = stateFrom(row.loan_state);
  const contractual = day <= row.term_days;
  const charge = contractual
    ? { ...accrueInterest(before, day), feeUnits: 0n }
    : overdueChargeForDay(before, day - row.term_days);
  const total = charge.interestUnits + charge.feeUnits;
  let entryId: string | null = null;
  if (total > 0n) {
    const entry = await deps.ledger.post(tx, {
      reason: contractual ? 'loan.interest' : 'loan.overdue',
      reference: { type: 'loans_loan', id: row.id },
      idempotencyKey: `loan:day:${row.id}:${day}`,
      postings: [
        { account: LOAN_BOOK, currency: CURRENCY, amountUnits: -total },
        { account: lenderAccount(row.lender_code), currency: CURRENCY, bucket: 'frozen', amountUnits: total },
      ],
    });
    entryId = entry.id;
  }
  await repo.insertDay(tx, {
    loan_id: row.id,
    day,
    kind: contractual ? 'interest' : 'overdue',
    interest_units: charge.interestUnits.toString(),
    fee_units: charge.feeUnits.toString(),
    capped: charge.capped,
    entry_id: entryId,
    posted_at: now,
  });
  await deps.afterDayPost?.(row.id, day);
  const patch = {
    loan_state: storedState(charge.state),
    days_done: day,
    next_day_at: dayEndsAt(row.disbursed_at, day + 1),
    state: !contractual && outstandingUnits(charge.state) > 0n ? ('overdue' as const) : row.state,
  };
  await repo.updateLoan(tx, row.id, patch);
  return { ...row, ...patch };
}

/** Every loan-day ended by `now`, in order, in the caller's transaction ("accrue to today first"). */
export async function chargeThrough(deps: LoansDeps, tx: Tx, row: LoanRow, now: Date): Promise<LoanRow> {
  let current = row;
  for (;;) {
    const next = await chargeNextDay(deps, tx, current, now);
    if (next === null) return current;
    current = next;
  }
}
