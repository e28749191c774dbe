import type { CustomerSummary } from '@bourse/protocol';
import { inTransaction, type Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { AuditLog } from '../../http/staff.ts';
import { parseAmount } from '../assets/index.ts';
import {
  BANK_REFERENCE_MAX,
  checkNote,
  checkReason,
  PAYOUT_FAIL_REASONS,
  type PayoutFailReason,
  staffAudit,
  view,
  WITHDRAW_ACCOUNT_TYPE,
  type WithdrawalsContext,
  type WithdrawalsDeps,
} from './context.ts';
import { notify } from './notices.ts';
import * as repo from './repo.ts';
import { type DestinationHistory, riskFlags } from './risk.ts';
import { finish } from './settlement.ts';

/**
 * The staff side (routes under /api/admin check the permission): the queue with who is being paid
 * and the risk flags, and the decisions — approve or reject a pending withdrawal, mark a
 * processing one failed or paid (four-eyes above the threshold). Each decision carries a reason or
 * note and writes an audit record in its own transaction; the customer is told after it commits.
 */

const NO_HISTORY: DestinationHistory = { used_before: 0, first_used_at: null, other_customers: 0 };

/** One queue row: the withdrawal, its customer (without totals), the destination's history, the risk flags. */
function queueRow(
  deps: Pick<WithdrawalsDeps, 'book'>,
  row: repo.WithdrawalRow,
  customer: CustomerSummary | null,
  destination: DestinationHistory,
) {
  const risk = customer
    ? riskFlags({
        amountUnits: BigInt(row.amount),
        notCountedUnits: ['pending', 'processing', 'completed'].includes(row.status)
          ? 0n
          : BigInt(row.amount),
        currency: row.currency,
        customer,
        destination,
      })
    : [];
  const { totals: _totals, ...shown } = customer ?? { totals: null };
  return { ...view(deps, row), customer: customer ? shown : null, destination_history: destination, risk };
}

/**
 * The staff queue: each row with its customer (summary, recent activity), the destination's
 * history and the risk flags it raises. A fixed number of queries per page (no query per row).
 */
export async function queue(
  deps: Pick<WithdrawalsDeps, 'db' | 'clock' | 'book' | 'customerSummaries'>,
  filter: repo.WithdrawalFilter,
  page: { page: number; pageSize: number },
) {
  const { rows, total } = await repo.listWithdrawals(deps.db, filter, {
    offset: (page.page - 1) * page.pageSize,
    limit: page.pageSize,
  });
  const now = deps.clock.now();
  const [customers, histories] = await Promise.all([
    deps.customerSummaries(
      rows.map((r) => r.customer_id),
      now,
    ),
    repo.destinationHistories(
      deps.db,
      rows.map((r) => r.id),
    ),
  ]);
  const list = rows.map((row) =>
    queueRow(deps, row, customers.get(row.customer_id) ?? null, histories.get(row.id) ?? { ...NO_HISTORY }),
  );
  return { list, total, page: page.page, page_size: page.pageSize };
}

/** Approve: the provider is asked to send what the customer receives; the withdrawal is processing. */
async function sendPayout(deps: WithdrawalsContext, tx: Tx, row: repo.WithdrawalRow, now: Date) {
  const sent = await deps.provider.send(
    tx,
    {
      withdrawalId: row.id,
      currency: row.currency,
      chain: row.chain,
      destinationLabel: row.destination_label,
      memo: row.memo,
      amountUnits: BigInt(row.received),
    },
    now,
  );
  return { status: 'processing' as const, provider_ref: sent.providerRef, tx_hash: sent.txHash };
}

/** Reject: the frozen amount is unfrozen, with the staff member's reason. */
async function releaseRejected(
  deps: WithdrawalsContext,
  tx: Tx,
  row: repo.WithdrawalRow,
  input: { staffId: string; reason: string | undefined },
) {
  await deps.ledger.unfreeze(tx, {
    book: 'real',
    customerId: row.customer_id,
    accountType: WITHDRAW_ACCOUNT_TYPE,
    currency: row.currency,
    amountUnits: BigInt(row.amount),
    reason: 'withdrawal.reject',
    reference: { type: 'withdrawal', id: row.id },
    idempotencyKey: `wdr-release:${row.id}`,
    actorId: input.staffId,
    memo: input.reason ?? null,
  });
  return { status: 'rejected' as const, reject_reason: input.reason ?? '' };
}

async function decide(
  deps: WithdrawalsContext,
  input: { staffId: string; withdrawalId: string; action: 'approve' | 'reject'; reason?: string },
) {
  const { staffId, action, reason } = input;
  const audit = staffAudit(deps);
  const decided = await inTransaction(deps.db, async (tx) => {
    const row = await repo.findWithdrawal(tx, input.withdrawalId, { lock: true });
    if (!row) refuse('NOT_FOUND');
    if (row.status !== 'pending') refuse('WITHDRAW_NOT_PENDING');
    const now = deps.clock.now();
    const patch: Partial<repo.WithdrawalRow> =
      action === 'approve'
        ? await sendPayout(deps, tx, row, now)
        : await releaseRejected(deps, tx, row, { staffId, reason });
    Object.assign(patch, { decided_by: staffId, decided_at: now, updated_at: now });
    await repo.updateWithdrawal(tx, row.id, patch);
    const after = { ...row, ...patch };
    await audit.record(tx, {
      actorId: staffId,
      action: `withdrawal.${action}`,
      targetType: 'withdrawal',
      targetId: row.id,
      before: { status: row.status },
      after: { status: after.status, provider_ref: after.provider_ref ?? null },
      ...(reason ? { reason } : {}),
    });
    return after;
  });
  await notify(deps, decided);
  return view(deps, decided);
}

/** Every money decision carries the staff member's reason (audited with it). */
export function approve(deps: WithdrawalsContext, staffId: string, withdrawalId: string, reason: string) {
  return decide(deps, { staffId, withdrawalId, action: 'approve', reason: checkReason(reason) });
}

export function reject(deps: WithdrawalsContext, staffId: string, withdrawalId: string, reason: string) {
  return decide(deps, { staffId, withdrawalId, action: 'reject', reason: checkReason(reason) });
}

/**
 * Staff: a payout that will not arrive (the chain or bank refused it). Processing only; the
 * frozen amount is unfrozen, the customer reads the reason in their language; audited with the
 * staff note in the same transaction. On the simulated chain the broadcast is dropped.
 */
export async function markFailed(
  deps: WithdrawalsContext,
  staffId: string,
  input: { withdrawalId: string; reason: string; note: string },
) {
  const audit = staffAudit(deps);
  if (!(PAYOUT_FAIL_REASONS as readonly string[]).includes(input.reason))
    refuse('BAD_INPUT', { field: 'reason' });
  const note = checkNote(input.note);
  const after = await inTransaction(deps.db, async (tx) => {
    const row = await repo.findWithdrawal(tx, input.withdrawalId, { lock: true });
    if (!row) refuse('NOT_FOUND');
    if (row.status !== 'processing') refuse('WITHDRAW_NOT_PROCESSING');
    const done = await finish(
      deps,
      tx,
      row,
      { status: 'failed', reason: input.reason as PayoutFailReason },
      staffId,
    );
    await audit.record(tx, {
      actorId: staffId,
      action: 'withdrawal.fail',
      targetType: 'withdrawal',
      targetId: row.id,
      before: { status: row.status },
      after: { status: done.status, fail_reason: done.fail_reason },
      reason: note,
    });
    return done;
  });
  await notify(deps, after);
  return view(deps, after);
}

function checkBankReference(text: string): string {
  const reference = text.trim();
  if (reference === '') refuse('FIELD_REQUIRED', { field: 'bank_reference' });
  if (reference.length > BANK_REFERENCE_MAX)
    refuse('FIELD_TOO_LONG', { field: 'bank_reference', max: BANK_REFERENCE_MAX });
  return reference;
}

type PaidStep = { staffId: string; reference: string; note: string };

/** The first of two: kept with its reference; the withdrawal stays processing. */
async function requestPaid(
  deps: WithdrawalsContext,
  tx: Tx,
  row: repo.WithdrawalRow,
  input: PaidStep & { audit: AuditLog },
) {
  const patch = {
    bank_reference: input.reference,
    paid_requested_by: input.staffId,
    updated_at: deps.clock.now(),
  };
  await repo.updateWithdrawal(tx, row.id, patch);
  await input.audit.record(tx, {
    actorId: input.staffId,
    action: 'withdrawal.paid_request',
    targetType: 'withdrawal',
    targetId: row.id,
    before: { status: row.status },
    after: { status: row.status, bank_reference: input.reference, awaiting: 'second staff member' },
    reason: input.note,
  });
  return { row: { ...row, ...patch }, done: false };
}

/** Paid: the withdrawal completes with the bank's reference. */
async function completePaid(
  deps: WithdrawalsContext,
  tx: Tx,
  row: repo.WithdrawalRow,
  input: PaidStep & { audit: AuditLog },
) {
  const { staffId, reference } = input;
  const done = await finish(
    deps,
    tx,
    row,
    { status: 'confirmed', txHash: null, bankReference: reference },
    staffId,
  );
  await input.audit.record(tx, {
    actorId: staffId,
    action: 'withdrawal.paid',
    targetType: 'withdrawal',
    targetId: row.id,
    before: { status: row.status, paid_requested_by: row.paid_requested_by },
    after: { status: done.status, bank_reference: reference },
    reason: input.note,
  });
  return { row: done, done: true };
}

/**
 * Staff: a bank withdrawal was paid, with the bank's reference. Processing bank withdrawals only;
 * audited. Above the threshold the first staff member's call is a request a second one confirms
 * with the same reference.
 */
export async function markPaid(
  deps: WithdrawalsContext,
  staffId: string,
  input: { withdrawalId: string; bankReference: string; note: string },
) {
  const audit = staffAudit(deps);
  const reference = checkBankReference(input.bankReference);
  const note = checkNote(input.note);
  const step = { staffId, reference, note, audit };
  const result = await inTransaction(deps.db, async (tx) => {
    const row = await repo.findWithdrawal(tx, input.withdrawalId, { lock: true });
    if (!row) refuse('NOT_FOUND');
    if (row.method !== 'bank') refuse('WITHDRAW_NOT_BANK');
    if (row.status !== 'processing') refuse('WITHDRAW_NOT_PROCESSING');
    const threshold = parseAmount('threshold', deps.bankPaidApprovalThreshold ?? '10000', row.currency);
    if (BigInt(row.amount) > threshold) {
      if (!row.paid_requested_by) return requestPaid(deps, tx, row, step);
      if (row.paid_requested_by === staffId) refuse('WITHDRAW_PAID_SECOND_STAFF');
      if (row.bank_reference !== reference) refuse('BAD_INPUT', { field: 'bank_reference' });
    }
    return completePaid(deps, tx, row, step);
  });
  if (result.done) await notify(deps, result.row);
  return view(deps, result.row);
}
