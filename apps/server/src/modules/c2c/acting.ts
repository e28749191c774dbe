import { C2C_LIMITS, type C2cDisputeBody, type C2cMarkPaidBody } from '@bourse/protocol';
import { sameName } from '@bourse/risk';
import { inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import { requireVerifiedName } from './accounts.ts';
import { type C2cDeps, CONFIRM_WINDOW_MINUTES, DISPUTE_RESPONSE_MINUTES, minutes } from './context.ts';
import { notifyOrder, publishOrder } from './notices.ts';
import type { OrderRow } from './repo.ts';
import * as repo from './repo.ts';
import { type Actor, applyEvent, partyOf, partyOrder } from './transition.ts';

/**
 * What the two parties do to an order (README.md, "Buying and selling", "Disputes"): the fiat payer
 * (the coin buyer) marks it paid — payer name equal to their verified real name, paying bank, the
 * remittance proof claimed from the upload pipeline — or cancels it before paying; the fiat receiver
 * (the coin seller) confirms receipt, which releases the escrow to the buyer in one entry; after
 * "paid" either side may open a dispute with a reason and evidence. Each in one transaction with the
 * order row locked; the state machine refuses everything else by name.
 */

function actorOf(order: OrderRow, customerId: string): Actor {
  const party = partyOf(order, customerId);
  if (party === null) refuse('NOT_FOUND');
  return { kind: party, id: customerId };
}

/** Claims an upload of the caller (purpose `remittance_proof`) for the order, or refuses naming it. */
export async function claimUpload(
  deps: C2cDeps,
  tx: Tx,
  input: { fileId: string; customerId: string; ref: string },
) {
  const claimed = await deps.uploads.attach(tx, {
    fileId: input.fileId,
    customerId: input.customerId,
    purpose: 'remittance_proof',
    ref: input.ref,
    retainUntil: await deps.documentRetainUntil(deps.clock.now()),
  });
  if (!claimed) refuse('C2C_PROOF_UNKNOWN', { file_id: input.fileId });
}

async function act(
  deps: C2cDeps,
  auth: AuthContext,
  orderId: string,
  work: (tx: Tx, order: OrderRow, actor: Actor) => Promise<OrderRow>,
): Promise<OrderRow> {
  const row = await inTransaction(deps.db, async (tx) => {
    const order = await partyOrder(tx, orderId, auth.customerId, true);
    return work(tx, order, actorOf(order, auth.customerId));
  });
  await publishOrder(deps, row, row.state);
  return row;
}

export async function markPaid(deps: C2cDeps, auth: AuthContext, body: C2cMarkPaidBody): Promise<OrderRow> {
  // Checked before the transaction too, so a mismatch changes nothing (not even the upload's claim).
  const verified = await requireVerifiedName(deps, auth.customerId);
  if (!sameName(body.payer_name, verified)) refuse('C2C_PAYER_NAME_MISMATCH');
  return act(deps, auth, body.order_id, async (tx, order, actor) => {
    if (order.buyer_id !== auth.customerId) refuse('C2C_WRONG_SIDE', { action: 'mark_paid' });
    if (order.state !== 'matched') refuse('C2C_ORDER_STATE', { state: order.state, action: 'mark_paid' });
    // A real payment needs its proof; a demo-desk order is play money (demo accounts cannot upload).
    if (body.proof_id === undefined && order.book === 'real') refuse('FIELD_REQUIRED', { field: 'proof_id' });
    if (body.proof_id !== undefined)
      await claimUpload(deps, tx, {
        fileId: body.proof_id,
        customerId: auth.customerId,
        ref: `c2c:${order.id}:proof`,
      });
    const now = deps.clock.now();
    return applyEvent(deps, tx, order, {
      event: 'mark_paid',
      actor,
      patch: {
        payer_name: body.payer_name.trim(),
        payer_bank: body.payer_bank.trim(),
        proof_file_id: body.proof_id ?? null,
        paid_at: now,
        confirm_by: new Date(now.getTime() + minutes(CONFIRM_WINDOW_MINUTES)),
      },
    });
  });
}

export async function confirm(deps: C2cDeps, auth: AuthContext, orderId: string): Promise<OrderRow> {
  const row = await act(deps, auth, orderId, async (tx, order, actor) => {
    if (order.seller_id !== auth.customerId) refuse('C2C_WRONG_SIDE', { action: 'confirm' });
    return applyEvent(deps, tx, order, { event: 'confirm', actor, patch: { end_reason: 'confirmed' } });
  });
  await notifyOrder(deps, row, 'completed');
  return row;
}

export async function cancel(deps: C2cDeps, auth: AuthContext, orderId: string): Promise<OrderRow> {
  return act(deps, auth, orderId, async (tx, order, actor) => {
    // Only the payer may walk away, and only before paying: the seller's coins are then back at once.
    if (order.buyer_id !== auth.customerId) refuse('C2C_WRONG_SIDE', { action: 'cancel' });
    return applyEvent(deps, tx, order, {
      event: 'cancel',
      actor,
      patch: { end_reason: 'cancelled_by_payer' },
    });
  });
}

export async function openDispute(deps: C2cDeps, auth: AuthContext, body: C2cDisputeBody): Promise<OrderRow> {
  const ids = (body.evidence_ids ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (ids.length > C2C_LIMITS.evidencePerDisputeMax)
    refuse('C2C_EVIDENCE_TOO_MANY', { max: C2C_LIMITS.evidencePerDisputeMax });
  const row = await act(deps, auth, body.order_id, async (tx, order, actor) => {
    if (order.state !== 'paid') refuse('C2C_ORDER_STATE', { state: order.state, action: 'dispute' });
    const now = deps.clock.now();
    let seq = order.message_seq;
    for (const fileId of ids) {
      await claimUpload(deps, tx, { fileId, customerId: auth.customerId, ref: `c2c:${order.id}:evidence` });
      seq += 1;
      await repo.insertMessage(tx, {
        id: newId('cms', now.getTime()),
        order_id: order.id,
        seq,
        sender: actor.kind === 'merchant' ? 'merchant' : 'customer',
        sender_id: auth.customerId,
        kind: 'evidence',
        body: null,
        file_id: fileId,
        at: now,
      });
    }
    return applyEvent(deps, tx, order, {
      event: 'dispute',
      actor,
      reason: body.reason,
      patch: {
        message_seq: seq,
        dispute_reason: body.reason,
        dispute_note: body.note.trim(),
        dispute_by: actor.kind === 'merchant' ? 'merchant' : 'customer',
        disputed_at: now,
        respond_by: new Date(now.getTime() + minutes(DISPUTE_RESPONSE_MINUTES)),
      },
    });
  });
  await notifyOrder(deps, row, 'disputed');
  return row;
}
