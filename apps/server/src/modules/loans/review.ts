import type { AdminLoanRejectBody } from '@bourse/protocol';
import { openLoan, quoteLoan } from '@bourse/risk';
import { inTransaction, type Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { checkWithinCaps } from './applying.ts';
import {
  CURRENCY,
  capsFrom,
  capsOf,
  customerSpot,
  dayEndsAt,
  LOAN_BOOK,
  type LoansDeps,
  lenderAccount,
  productOf,
  quoteFrom,
  storedState,
  usdt,
} from './context.ts';
import { notifyLoan } from './notices.ts';
import { lenderAvailable } from './products.ts';
import type { LoanRow, ProductRow } from './repo.ts';
import * as repo from './repo.ts';
import { scoreOf } from './score.ts';

/**
 * Review and disbursement (README.md, "Review"): staff approve or reject an unreviewed application.
 * Approval checks the amount against the customer's limit today and the product against the caps of
 * the profile in force; above the threshold it needs two staff members (the first approval is
 * recorded, a different one confirms). The confirming approval disburses: ONE ledger entry from the
 * product's lender account to the customer's spot USDT — the lender's money becomes its claim
 * (available → frozen) and what the customer owes grows in `loan_book` — in the transaction that
 * stores the `LoanState` from `openLoan` of the quote the customer accepted.
 */

export type Approval = { row: LoanRow; disbursed: boolean };

/** The accepted quote, computed again by `quoteLoan`: it must be the one stored (else the product changed: a bug). */
function acceptedQuote(row: LoanRow, p: ProductRow) {
  const quote = quoteLoan({
    product: productOf(p),
    caps: capsFrom(row.caps),
    amountUnits: BigInt(row.amount_units),
    termDays: row.term_days,
  });
  const stored = quoteFrom(row.quote);
  if (quote.interestUnits !== stored.interestUnits || quote.costCapUnits !== stored.costCapUnits)
    throw new Error(`loan ${row.id}: the product's quote differs from the accepted one`);
  return quote;
}

async function disburse(
  deps: LoansDeps,
  tx: Tx,
  input: { row: LoanRow; staff: StaffContext; reason: string },
): Promise<LoanRow> {
  const { row, staff } = input;
  const amount = BigInt(row.amount_units);
  const available = await lenderAvailable(deps, row.lender_code);
  if (available < amount) refuse('LOAN_LENDER_SHORT', { available: usdt(available) });
  const p = (await repo.findProduct(tx, row.product_id)) as ProductRow;
  const state = openLoan(acceptedQuote(row, p));
  const lender = lenderAccount(row.lender_code);
  const entry = await deps.ledger.post(tx, {
    reason: 'loan.disburse',
    reference: { type: 'loans_loan', id: row.id },
    idempotencyKey: `loan:disburse:${row.id}`,
    actorId: staff.staffId,
    postings: [
      { account: lender, currency: CURRENCY, amountUnits: -amount },
      { account: lender, currency: CURRENCY, bucket: 'frozen', amountUnits: amount },
      { account: LOAN_BOOK, currency: CURRENCY, amountUnits: -amount },
      { account: customerSpot(row.customer_id), currency: CURRENCY, amountUnits: amount },
    ],
  });
  const now = deps.clock.now();
  const patch = {
    state: 'disbursed' as const,
    decided_by: staff.staffId,
    decided_at: now,
    decision_note: input.reason,
    disbursed_at: now,
    disburse_entry_id: entry.id,
    due_at: dayEndsAt(now, row.term_days),
    loan_state: storedState(state),
    days_done: 0,
    next_day_at: dayEndsAt(now, 1),
  };
  await repo.updateLoan(tx, row.id, patch);
  return { ...row, ...patch };
}

/** Approve: the first of two approvals above the threshold, else (or the second) the disbursement. */
export async function approve(
  deps: LoansDeps,
  staff: StaffContext,
  id: string,
  reasonText: string,
): Promise<Approval> {
  const reason = reasonText.trim();
  const first = await repo.findLoan(deps.db, id);
  if (!first) refuse('NOT_FOUND');
  if (first.state !== 'unreviewed') refuse('LOAN_NOT_UNDER_REVIEW', { state: first.state });
  const [scored, setting, profile, product] = await Promise.all([
    scoreOf(deps, first.customer_id),
    repo.setting(deps.db),
    deps.activeProfile(),
    repo.findProduct(deps.db, first.product_id),
  ]);
  checkWithinCaps(productOf(product as ProductRow), capsOf(profile));
  const approval = await inTransaction(deps.db, async (tx): Promise<Approval> => {
    const row = await repo.findLoan(tx, id, { lock: true });
    if (!row) refuse('NOT_FOUND');
    if (row.state !== 'unreviewed') refuse('LOAN_NOT_UNDER_REVIEW', { state: row.state });
    const amount = BigInt(row.amount_units);
    if (amount > scored.limitUnits) refuse('LOAN_LIMIT_EXCEEDED', { limit: usdt(scored.limitUnits) });
    const fourEyes = amount > BigInt(setting.approval_threshold_units);
    if (fourEyes && row.first_approved_by === staff.staffId) refuse('LOAN_SECOND_STAFF');
    const audit = {
      actorId: staff.staffId,
      targetType: 'loans_loan',
      targetId: row.id,
      reason,
    };
    if (fourEyes && row.first_approved_by === null) {
      const now = deps.clock.now();
      await repo.updateLoan(tx, row.id, { first_approved_by: staff.staffId, first_approved_at: now });
      await deps.audit.record(tx, {
        ...audit,
        action: 'loans.application.approve_first',
        before: { state: row.state },
        after: { state: row.state, awaiting_second: true, amount: usdt(amount), score: scored.score.score },
      });
      return { row: { ...row, first_approved_by: staff.staffId, first_approved_at: now }, disbursed: false };
    }
    const done = await disburse(deps, tx, { row, staff, reason });
    await deps.audit.record(tx, {
      ...audit,
      action: 'loans.application.approve',
      before: { state: row.state, first_approved_by: row.first_approved_by },
      after: {
        state: done.state,
        amount: usdt(amount),
        lender_id: row.lender_id,
        entry_id: done.disburse_entry_id,
        score: scored.score.score,
        limit: usdt(scored.limitUnits),
      },
    });
    return { row: done, disbursed: true };
  });
  if (approval.disbursed) await notifyLoan(deps, approval.row, 'disbursed');
  return approval;
}

/** Reject with a catalogue reason code and the staff member's note (audited, notified). */
export async function reject(
  deps: LoansDeps,
  staff: StaffContext,
  id: string,
  body: AdminLoanRejectBody,
): Promise<LoanRow> {
  const row = await inTransaction(deps.db, async (tx) => {
    const r = await repo.findLoan(tx, id, { lock: true });
    if (!r) refuse('NOT_FOUND');
    if (r.state !== 'unreviewed') refuse('LOAN_NOT_UNDER_REVIEW', { state: r.state });
    const patch = {
      state: 'rejected' as const,
      reject_reason: body.reason_code,
      decision_note: body.reason.trim(),
      decided_by: staff.staffId,
      decided_at: deps.clock.now(),
    };
    await repo.updateLoan(tx, r.id, patch);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'loans.application.reject',
      targetType: 'loans_loan',
      targetId: r.id,
      before: { state: r.state },
      after: { state: 'rejected', reject_reason: body.reason_code },
      reason: patch.decision_note,
    });
    return { ...r, ...patch };
  });
  await notifyLoan(deps, row, 'rejected');
  return row;
}
