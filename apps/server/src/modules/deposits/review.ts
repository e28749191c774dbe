import { scaleOf, toDecimalString } from '@bourse/money';
import { ASSET_LIMITS, type DocumentLinkData } from '@bourse/protocol';
import { inTransaction } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { knownCurrency, parseAmount } from '../assets/index.ts';
import { bankStatus, channelData, cryptoStatus, DEPOSIT_ACCOUNT_TYPE, type DepositsDeps } from './context.ts';
import { creditCrypto } from './crediting.ts';
import { notifyDeposit } from './notices.ts';
import {
  bankQueue,
  cryptoQueue,
  lockBankDeposit,
  lockChannel,
  lockCrypto,
  proofOf,
  updateBankDeposit,
  updateChannel as updateChannelRow,
} from './repo.ts';

/**
 * The staff side (routes under /api/admin check the permission): the queue with who is being
 * credited, an audited link to the proof image, and the decisions — confirm or reject a bank deposit, release a held
 * crypto deposit, change a channel. Each decision carries a reason and writes an audit record in
 * its own transaction; the customer is told of a decision on their deposit after it commits.
 */

type Deps = Pick<DepositsDeps, 'db' | 'ledger' | 'clock' | 'audit' | 'log' | 'notifier' | 'contacts'>;

/** Crypto deposits (pending, held) and bank deposits awaiting a decision (`all`: every one), newest first. */
export async function queue(
  deps: Pick<DepositsDeps, 'db' | 'clock' | 'customerSummaries'>,
  input: { status?: 'open' | 'all' } = {},
) {
  const open = input.status !== 'all';
  const [c, b] = await Promise.all([cryptoQueue(deps.db, open), bankQueue(deps.db, open)]);
  // Who is being credited: one summary per customer on the page, in a fixed number of queries.
  const customers = await deps.customerSummaries(
    [...c.map((r) => r.customer_id), ...b.map((r) => r.customer_id)],
    deps.clock.now(),
  );
  const customerOf = (customerId: string) => {
    const summary = customers.get(customerId);
    if (!summary) return null;
    const { totals: _totals, ...shown } = summary;
    return shown;
  };
  return {
    crypto: c.map((r) => ({
      id: r.id,
      customer_id: r.customer_id,
      chain: r.chain,
      currency: r.currency,
      txid: r.txid,
      output_index: r.output_index,
      address: r.address,
      amount: toDecimalString(BigInt(r.amount_units), scaleOf(r.currency)),
      confirmations: r.confirmations,
      state: r.status,
      status: cryptoStatus(r.status),
      released_by: r.released_by,
      created_at: r.created_at.getTime(),
      customer: customerOf(r.customer_id),
    })),
    bank: b.map((r) => ({
      id: r.id,
      customer_id: r.customer_id,
      currency: r.currency,
      amount: toDecimalString(BigInt(r.amount_units), scaleOf(r.currency)),
      reference: r.reference,
      proof_id: r.proof_id,
      state: r.status,
      status: bankStatus(r.status),
      reject_reason: r.reject_reason,
      decided_by: r.decided_by,
      decided_at: r.decided_at?.getTime() ?? null,
      created_at: r.created_at.getTime(),
      customer: customerOf(r.customer_id),
    })),
  };
}

/**
 * A 5-minute link to a bank deposit's remittance proof for this staff member, issued by the upload
 * pipeline, which audits it (`document.view`) in the same transaction. An unknown deposit or a
 * proof already deleted by retention is NOT_FOUND.
 */
export async function proofLink(
  deps: Pick<DepositsDeps, 'db' | 'uploads'>,
  staff: StaffContext,
  id: string,
): Promise<DocumentLinkData> {
  const row = await proofOf(deps.db, id);
  if (!row) refuse('NOT_FOUND');
  const links = await deps.uploads.staffLinks(staff.staffId, [row.proof_id], {
    about: `bank deposit ${id}`,
    purposes: ['deposit_proof'],
  });
  return links.get(row.proof_id) ?? refuse('NOT_FOUND');
}

/** The staff member's reason: required, and (`max`) no longer than a rejection reason may be. */
function reasonOf(reason: string, max: boolean): string {
  const why = reason.trim();
  if (why === '') refuse('FIELD_REQUIRED', { field: 'reason' });
  if (max && why.length > ASSET_LIMITS.rejectReasonMax) {
    refuse('FIELD_TOO_LONG', { field: 'reason', max: ASSET_LIMITS.rejectReasonMax });
  }
  return why;
}

/** Credits the customer: a money action, so it carries the staff member's reason (audited). */
export async function confirmBank(deps: Deps, staff: StaffContext, id: string, reason: string) {
  const why = reasonOf(reason, true);
  const { answer, row } = await inTransaction(deps.db, async (tx) => {
    const row = await lockBankDeposit(tx, id);
    if (!row) refuse('NOT_FOUND');
    if (row.status !== 'pending') refuse('DEPOSIT_NOT_PENDING');
    const entry = await deps.ledger.credit(tx, {
      book: 'real',
      customerId: row.customer_id,
      accountType: DEPOSIT_ACCOUNT_TYPE,
      currency: row.currency,
      amountUnits: BigInt(row.amount_units),
      from: 'deposits_clearing',
      reason: 'deposit.bank',
      reference: { type: 'deposit', id: row.id },
      idempotencyKey: `bank-deposit:${row.id}`,
      actorId: staff.staffId,
    });
    const now = deps.clock.now();
    await updateBankDeposit(tx, id, {
      status: 'confirmed',
      entry_id: entry.id,
      decided_by: staff.staffId,
      decided_at: now,
    });
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'deposit.confirm',
      targetType: 'bank_deposit',
      targetId: id,
      before: { status: row.status },
      after: { status: 'confirmed', entry_id: entry.id, amount: row.amount_units, currency: row.currency },
      reason: why,
    });
    return { answer: { id, status: 2 as const, entry_id: entry.id }, row };
  });
  await notifyDeposit(deps, { type: 'bankConfirmed', row });
  return answer;
}

export async function rejectBank(deps: Deps, staff: StaffContext, id: string, reason: string) {
  const why = reasonOf(reason, true);
  const row = await inTransaction(deps.db, async (tx) => {
    const row = await lockBankDeposit(tx, id);
    if (!row) refuse('NOT_FOUND');
    if (row.status !== 'pending') refuse('DEPOSIT_NOT_PENDING');
    await updateBankDeposit(tx, id, {
      status: 'rejected',
      reject_reason: why,
      decided_by: staff.staffId,
      decided_at: deps.clock.now(),
    });
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'deposit.reject',
      targetType: 'bank_deposit',
      targetId: id,
      before: { status: row.status },
      after: { status: 'rejected' },
      reason: why,
    });
    return row;
  });
  // The staff member's reason is what the customer reads (as in the records' `failure`).
  await notifyDeposit(deps, { type: 'bankRejected', row, reason: why });
  return { id, status: 0 as const };
}

/** Staff release of a held (below-minimum) crypto deposit: credited as it is, audited. */
export async function releaseHeld(deps: Deps, staff: StaffContext, id: string, reason: string) {
  const why = reasonOf(reason, false);
  const { answer, row } = await inTransaction(deps.db, async (tx) => {
    const row = await lockCrypto(tx, id);
    if (!row) refuse('NOT_FOUND');
    if (row.status !== 'held') refuse('DEPOSIT_NOT_PENDING');
    const entry = await creditCrypto(deps, tx, { row, releasedBy: staff.staffId, actorId: staff.staffId });
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'deposit.release_held',
      targetType: 'crypto_deposit',
      targetId: id,
      before: { status: 'held' },
      after: { status: 'credited', entry_id: entry.id },
      reason: why,
    });
    return { answer: { id, status: 2 as const, entry_id: entry.id }, row };
  });
  await notifyDeposit(deps, { type: 'cryptoCredited', row });
  return answer;
}

type ChannelInput = {
  currency: string;
  chain: string;
  open?: string;
  min_amount?: string;
  confirmations?: string;
};

/** Operator data: open/close a channel, its minimum and confirmations. Audited. */
export async function updateChannel(deps: Deps, staff: StaffContext, input: ChannelInput) {
  const currency = knownCurrency(input.currency);
  return inTransaction(deps.db, async (tx) => {
    const row = await lockChannel(tx, currency, input.chain);
    if (!row) refuse('NOT_FOUND');
    const patch = channelPatch(input, currency);
    const updated = await updateChannelRow(
      tx,
      { currency, chain: input.chain },
      { ...patch, updated_at: deps.clock.now() },
    );
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'deposit_channel.update',
      targetType: 'deposit_channel',
      targetId: `${currency}:${input.chain}`,
      before: channelData(row),
      after: channelData(updated),
    });
    return channelData(updated);
  });
}

/** The fields the staff member changes, each checked (`open` 0/1, a minimum amount, ≤ 10,000 confirmations). */
function channelPatch(input: ChannelInput, currency: string) {
  const patch: { open?: boolean; min_units?: string; confirmations?: number } = {};
  if (input.open !== undefined) {
    if (input.open !== '0' && input.open !== '1') refuse('BAD_INPUT', { field: 'open' });
    patch.open = input.open === '1';
  }
  if (input.min_amount !== undefined) {
    patch.min_units = parseAmount('min_amount', input.min_amount, currency).toString();
  }
  if (input.confirmations !== undefined) {
    if (!/^\d{1,5}$/.test(input.confirmations) || Number(input.confirmations) > 10_000) {
      refuse('BAD_INPUT', { field: 'confirmations' });
    }
    patch.confirmations = Number(input.confirmations);
  }
  return patch;
}
