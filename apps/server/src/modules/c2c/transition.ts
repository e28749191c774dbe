import type { C2cEventData, C2cOrderData, C2cState } from '@bourse/protocol';
import { type C2cEvent, c2cStep, isC2cFinal } from '@bourse/risk';
import type { Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import { type C2cDeps, coinText, escrowAccount, fiatText, ms, priceText, spotOf } from './context.ts';
import type { EventRow, OrderRow } from './repo.ts';
import * as repo from './repo.ts';
import type { C2cOrderTable } from './tables.ts';

/**
 * The one way an order changes state (README.md, "States"): the transition must be in
 * `@bourse/risk`'s table (else `C2C_ORDER_STATE`); its escrow move is posted under the order's one
 * `c2c:out:<order>` key (so coins leave escrow exactly once, whoever asks); the row, the timeline
 * event and the audit record are written in the caller's transaction with the order row locked.
 */

export type Actor = { kind: 'customer' | 'merchant' | 'staff' | 'job'; id: string };

const LEDGER_REASON = { release_to_buyer: 'c2c.release', return_to_seller: 'c2c.return' } as const;

export async function applyEvent(
  deps: C2cDeps,
  tx: Tx,
  order: OrderRow,
  input: {
    event: C2cEvent;
    actor: Actor;
    reason?: string | null;
    patch?: Partial<C2cOrderTable>;
  },
): Promise<OrderRow> {
  const step = c2cStep(order.state, input.event);
  if (!step) refuse('C2C_ORDER_STATE', { state: order.state, action: input.event });
  const now = deps.clock.now();
  const patch: Partial<C2cOrderTable> = { ...input.patch, state: step.to, event_seq: order.event_seq + 1 };
  if (step.move === 'release_to_buyer' || step.move === 'return_to_seller') {
    const amount = BigInt(order.amount_units);
    // The offer first (the lock order of a match: offer, then balances), then the coins.
    if (step.move === 'return_to_seller') await repo.returnToOffer(tx, order.offer_id, amount);
    const to = step.move === 'release_to_buyer' ? order.buyer_id : order.seller_id;
    const entry = await deps.ledger.post(tx, {
      reason: LEDGER_REASON[step.move],
      reference: { type: 'c2c_order', id: order.id },
      idempotencyKey: `c2c:out:${order.id}`,
      actorId: input.actor.kind === 'staff' ? input.actor.id : null,
      postings: [
        { account: escrowAccount(order.id, order.book), currency: order.coin, amountUnits: -amount },
        { account: spotOf(to, order.book), currency: order.coin, amountUnits: amount },
      ],
    });
    if (entry.replayed) throw new Error(`c2c order ${order.id}: its escrow already went out`);
    patch.escrow_out_entry = entry.id;
  }
  if (isC2cFinal(step.to)) patch.finished_at = now;
  await repo.updateOrder(tx, order.id, patch);
  await repo.insertEvent(tx, {
    order_id: order.id,
    seq: order.event_seq + 1,
    event: input.event,
    from_state: order.state,
    to_state: step.to,
    actor: input.actor.kind,
    actor_id: input.actor.id,
    reason: input.reason ?? null,
    at: now,
  });
  await deps.audit.record(tx, {
    actorId: input.actor.id,
    action: `c2c.order.${input.event}`,
    targetType: 'c2c_order',
    targetId: order.id,
    before: { state: order.state },
    after: { state: step.to, escrow_out_entry: patch.escrow_out_entry ?? null },
    ...(input.reason ? { reason: input.reason } : {}),
  });
  return { ...order, ...patch } as OrderRow;
}

/** Which party of the order a customer is: the orderer, the merchant, or neither (null). */
export function partyOf(order: OrderRow, customerId: string): 'customer' | 'merchant' | null {
  if (order.customer_id === customerId) return 'customer';
  if (order.merchant_customer_id === customerId) return 'merchant';
  return null;
}

/** The order a party may see; anyone else is told it does not exist. */
export async function partyOrder(tx: Tx | C2cDeps['db'], id: string, customerId: string, lock = false) {
  const order = await repo.findOrder(tx, id, { lock });
  if (!order || partyOf(order, customerId) === null) refuse('NOT_FOUND');
  return order;
}

export const eventData = (e: EventRow): C2cEventData => ({
  seq: e.seq,
  event: e.event,
  from: e.from_state as C2cState | null,
  to: e.to_state as C2cState,
  actor: e.actor,
  reason: e.reason,
  at: e.at.getTime(),
});

/** The wire form for `viewer` (a party's customer id; staff see the customer's view). */
export function orderData(
  o: OrderRow,
  input: { viewer: string | null; merchantName: string; timeline: EventRow[] },
): C2cOrderData {
  const role = input.viewer !== null && input.viewer === o.merchant_customer_id ? 'merchant' : 'customer';
  const me = role === 'merchant' ? o.merchant_customer_id : o.customer_id;
  const showPayTo = o.state === 'matched' || o.state === 'paid' || o.state === 'disputed';
  return {
    order_id: o.id,
    offer_id: o.offer_id,
    book: o.book,
    merchant_name: input.merchantName,
    role,
    side: o.side,
    coin: o.coin,
    fiat: o.fiat,
    amount: coinText(o.amount_units, o.coin_scale),
    price: priceText(o.price_units),
    fiat_amount: fiatText(o.fiat_cents),
    fee: '0',
    price_kind: o.price_kind,
    feed:
      o.feed_symbol && o.feed_price_units && o.feed_source && o.feed_at
        ? {
            symbol: o.feed_symbol,
            price: priceText(o.feed_price_units),
            source: o.feed_source,
            at: o.feed_at.getTime(),
            spread_bps: o.spread_bps ?? 0,
          }
        : null,
    method: o.method,
    state: o.state,
    i_pay: o.buyer_id === me,
    pay_to: showPayTo ? o.pay_to : null,
    pay_by: o.pay_by.getTime(),
    confirm_by: ms(o.confirm_by),
    payer_name: o.payer_name,
    payer_bank: o.payer_bank,
    proof_id: o.proof_file_id,
    paid_at: ms(o.paid_at),
    dispute:
      o.disputed_at && o.dispute_by && o.dispute_reason
        ? {
            reason: o.dispute_reason,
            note: o.dispute_note ?? '',
            by: o.dispute_by,
            at: o.disputed_at.getTime(),
            respond_by: ms(o.respond_by) ?? o.disputed_at.getTime(),
          }
        : null,
    outcome:
      o.outcome && o.outcome_by && o.finished_at
        ? {
            outcome: o.outcome,
            reason: o.outcome_reason ?? '',
            by: o.outcome_by,
            at: o.finished_at.getTime(),
          }
        : null,
    end_reason: o.end_reason,
    created_at: o.created_at.getTime(),
    finished_at: ms(o.finished_at),
    timeline: input.timeline.map(eventData),
  };
}
