import type {
  AdminLoanVoucherConfirmBody,
  LendBackBody,
  LoanRepaymentData,
  LoanStatus,
} from '@bourse/protocol';
import { applyRepayment, daysPastDue, outstandingUnits } from '@bourse/risk';
import { inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { newId } from '../../lib/ids.ts';
import { parseAmount } from '../assets/index.ts';
import type { AccountRef } from '../ledger/index.ts';
import {
  CURRENCY,
  customerSpot,
  daysElapsed,
  LOAN_BOOK,
  type LoansDeps,
  lenderAccount,
  stateFrom,
  storedState,
  usdt,
} from './context.ts';
import { chargeThrough } from './days.ts';
import type { LoanRow, RepaymentRow } from './repo.ts';
import * as repo from './repo.ts';

/**
 * Repayments (README.md, "Repaying"): from the customer's spot USDT at once, or by bank transfer with
 * a voucher staff confirm. Both first charge every loan-day ended by now (`chargeThrough`: interest
 * accrued to today, so an early repayment costs only the interest to date), then apply the amount
 * with `applyRepayment` (fees, then interest, then principal) and post ONE entry: the money in, what
 * is owed (`loan_book`) down, the lender's claim (frozen) turned into money it may lend again
 * (available) — in the transaction that stores the new `LoanState`. Nothing is ever taken from a
 * customer balance but by the customer's own repayment.
 */

const REPAYABLE: readonly LoanStatus[] = ['disbursed', 'repaying', 'overdue'];

export function repaymentData(r: RepaymentRow): LoanRepaymentData {
  const paid =
    r.paid_fees_units === null
      ? null
      : {
          fees: usdt(r.paid_fees_units),
          interest: usdt(r.paid_interest_units ?? '0'),
          principal: usdt(r.paid_principal_units ?? '0'),
        };
  return {
    repayment_id: r.id,
    loan_id: r.loan_id,
    method: r.method,
    state: r.state,
    amount: usdt(r.amount_units),
    paid,
    voucher_id: r.voucher_id,
    created_at: r.created_at.getTime(),
    decided_at: r.decided_at?.getTime() ?? null,
    decision_reason: r.decision_reason,
  };
}

type Settled = {
  row: LoanRow;
  paid: { feesUnits: bigint; interestUnits: bigint; principalUnits: bigint };
  entryId: string;
};

/**
 * Applies `amount` to a loan charged through `now` (row locked) and posts it: from the customer's
 * spot account (`balance`) or from outside the ledger (`bank`, a confirmed voucher).
 */
async function settle(
  deps: LoansDeps,
  tx: Tx,
  input: { row: LoanRow; amountUnits: bigint; source: 'balance' | 'bank'; repaymentId: string; now: Date },
): Promise<Settled> {
  const { row, amountUnits, now } = input;
  const state = stateFrom(row.loan_state as NonNullable<LoanRow['loan_state']>);
  const applied = applyRepayment(state, amountUnits);
  if (applied.unappliedUnits > 0n) refuse('LOAN_REPAY_ABOVE_OWED', { owed: usdt(outstandingUnits(state)) });
  const from: AccountRef =
    input.source === 'balance'
      ? customerSpot(row.customer_id)
      : { book: 'real', platform: 'loan_bank_repayments' };
  const entry = await deps.ledger.post(tx, {
    reason: input.source === 'balance' ? 'loan.repay' : 'loan.repay_bank',
    reference: { type: 'loans_loan', id: row.id },
    idempotencyKey: `loan:repay:${input.repaymentId}`,
    postings: [
      { account: from, currency: CURRENCY, amountUnits: -amountUnits },
      { account: LOAN_BOOK, currency: CURRENCY, amountUnits: amountUnits },
      {
        account: lenderAccount(row.lender_code),
        currency: CURRENCY,
        bucket: 'frozen',
        amountUnits: -amountUnits,
      },
      { account: lenderAccount(row.lender_code), currency: CURRENCY, amountUnits: amountUnits },
    ],
  });
  const cleared = outstandingUnits(applied.state) === 0n;
  const late = daysPastDue(row.term_days, daysElapsed(row.disbursed_at as Date, now)) > 0;
  const patch = {
    loan_state: storedState(applied.state),
    repaid_units: (BigInt(row.repaid_units) + amountUnits).toString(),
    state: cleared
      ? ('cleared' as const)
      : row.state === 'overdue'
        ? ('overdue' as const)
        : ('repaying' as const),
    next_day_at: cleared ? null : row.next_day_at,
    cleared_at: cleared ? now : null,
    cleared_late: cleared ? late : null,
  };
  await repo.updateLoan(tx, row.id, patch);
  return { row: { ...row, ...patch }, paid: applied.paid, entryId: entry.id };
}

async function lockedRepayable(tx: Tx, loanId: string, customerId?: string): Promise<LoanRow> {
  const row = await repo.findLoan(tx, loanId, { lock: true, customerId });
  if (!row) refuse('NOT_FOUND');
  if (!REPAYABLE.includes(row.state)) refuse('LOAN_NOT_REPAYABLE', { state: row.state });
  return row;
}

/** `lendBack` by voucher: the voucher upload claimed, a pending repayment for staff to confirm. */
async function submitVoucher(deps: LoansDeps, auth: AuthContext, body: LendBackBody, amountUnits: bigint) {
  const voucherId = body.voucher_id?.trim() ?? '';
  if (voucherId === '') refuse('FIELD_REQUIRED', { field: 'voucher_id' });
  const now = deps.clock.now();
  const retainUntil = await deps.documentRetainUntil(now);
  return inTransaction(deps.db, async (tx) => {
    const row = await lockedRepayable(tx, body.loan_id, auth.customerId);
    const id = newId('lrp', now.getTime());
    const claimed = await deps.uploads.attach(tx, {
      fileId: voucherId,
      customerId: auth.customerId,
      purpose: 'loan_voucher',
      ref: `loan:${row.id}:repayment:${id}`,
      retainUntil,
    });
    if (!claimed) refuse('LOAN_PROOF_UNKNOWN', { file_id: voucherId.slice(0, 40) });
    const rep: RepaymentRow = {
      id,
      loan_id: row.id,
      customer_id: row.customer_id,
      method: 'voucher',
      state: 'pending',
      amount_units: amountUnits.toString(),
      voucher_id: voucherId,
      paid_fees_units: null,
      paid_interest_units: null,
      paid_principal_units: null,
      entry_id: null,
      created_at: now,
      decided_by: null,
      decided_at: null,
      decision_reason: null,
    };
    await repo.insertRepayment(tx, rep);
    return rep;
  });
}

/** `POST web/lendBack`: repay from the balance at once, or hand in a bank-transfer voucher. */
export async function repay(deps: LoansDeps, auth: AuthContext, body: LendBackBody): Promise<RepaymentRow> {
  if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
  const amountUnits = parseAmount('amount', body.amount, CURRENCY);
  if ((body.method ?? 'balance') === 'voucher') return submitVoucher(deps, auth, body, amountUnits);
  return inTransaction(deps.db, async (tx) => {
    const now = deps.clock.now();
    const locked = await lockedRepayable(tx, body.loan_id, auth.customerId);
    const row = await chargeThrough(deps, tx, locked, now);
    const id = newId('lrp', now.getTime());
    const s = await settle(deps, tx, { row, amountUnits, source: 'balance', repaymentId: id, now });
    const rep: RepaymentRow = {
      id,
      loan_id: row.id,
      customer_id: row.customer_id,
      method: 'balance',
      state: 'confirmed',
      amount_units: amountUnits.toString(),
      voucher_id: null,
      paid_fees_units: s.paid.feesUnits.toString(),
      paid_interest_units: s.paid.interestUnits.toString(),
      paid_principal_units: s.paid.principalUnits.toString(),
      entry_id: s.entryId,
      created_at: now,
      decided_by: null,
      decided_at: now,
      decision_reason: null,
    };
    await repo.insertRepayment(tx, rep);
    return rep;
  });
}

/** Staff confirm a voucher (the amount received, by default the customer's) or reject it; audited. */
export async function decideVoucher(
  deps: LoansDeps,
  staff: StaffContext,
  id: string,
  decision: 'confirm' | 'reject',
  body: AdminLoanVoucherConfirmBody,
): Promise<RepaymentRow> {
  return inTransaction(deps.db, async (tx) => {
    const rep = await repo.findRepayment(tx, id, { lock: true });
    if (!rep) refuse('NOT_FOUND');
    if (rep.state !== 'pending') refuse('LOAN_REPAYMENT_DECIDED', { state: rep.state });
    const now = deps.clock.now();
    const base = { decided_by: staff.staffId, decided_at: now, decision_reason: body.reason.trim() };
    let out: RepaymentRow;
    if (decision === 'reject') {
      out = { ...rep, ...base, state: 'rejected' };
      await repo.updateRepayment(tx, id, { ...base, state: 'rejected' });
    } else {
      const amountUnits = body.amount
        ? parseAmount('amount', body.amount, CURRENCY)
        : BigInt(rep.amount_units);
      const locked = await lockedRepayable(tx, rep.loan_id);
      const row = await chargeThrough(deps, tx, locked, now);
      const s = await settle(deps, tx, { row, amountUnits, source: 'bank', repaymentId: id, now });
      const patch = {
        ...base,
        state: 'confirmed' as const,
        amount_units: amountUnits.toString(),
        paid_fees_units: s.paid.feesUnits.toString(),
        paid_interest_units: s.paid.interestUnits.toString(),
        paid_principal_units: s.paid.principalUnits.toString(),
        entry_id: s.entryId,
      };
      await repo.updateRepayment(tx, id, patch);
      out = { ...rep, ...patch };
    }
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: `loans.voucher.${decision}`,
      targetType: 'loans_repayment',
      targetId: id,
      before: { state: rep.state, amount: usdt(rep.amount_units), loan_id: rep.loan_id },
      after: { state: out.state, amount: usdt(out.amount_units) },
      reason: base.decision_reason,
    });
    return out;
  });
}
