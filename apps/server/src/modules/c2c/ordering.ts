import { parseDecimal, scaleOf } from '@bourse/money';
import { C2C_LIMITS, type C2cCreateOrderBody, type C2cPayToData } from '@bourse/protocol';
import { C2C_AGE_BANDS, c2cLimitProblem, quoteC2c } from '@bourse/risk';
import { inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import { payToOf, requireVerifiedName } from './accounts.ts';
import {
  bookOf,
  type C2cDeps,
  coinText,
  escrowAccount,
  MAIN_ACCOUNT_TYPE,
  minutes,
  spotOf,
} from './context.ts';
import { pricingOf } from './offers.ts';
import type { OfferRow, OrderRow } from './repo.ts';
import * as repo from './repo.ts';
import { applyEvent } from './transition.ts';

/**
 * Ordering (README.md, "Buying and selling"): the checks in their published order, each refusal
 * naming its rule; then ONE transaction with the request's idempotency record and the offer row
 * locked: the limits again (the offer's remaining amount is exact under a race), the price now, the
 * coin seller's coins from their spot balance into the order's own escrow account, and only then
 * the receiver's collection account copied onto the order — the payer never sees where to pay
 * before the coins are held.
 */

const DAY_MS = 86_400_000;

function limitRefusal(rule: string, limit: bigint, o: OfferRow, method: string): never {
  const scale = scaleOf(o.coin);
  const text = coinText(limit, scale);
  if (rule === 'offer_min') refuse('C2C_AMOUNT_BELOW_MIN', { min: text, coin: o.coin });
  if (rule === 'offer_max') refuse('C2C_AMOUNT_ABOVE_MAX', { max: text, coin: o.coin });
  if (rule === 'offer_remaining') refuse('C2C_OFFER_REMAINING', { left: text, coin: o.coin });
  if (rule === 'method_max') refuse('C2C_METHOD_MAX', { max: text, coin: o.coin, method });
  const band = C2C_AGE_BANDS.find((b) => b.maxUnits === null || b.maxUnits > limit);
  refuse('C2C_ACCOUNT_AGE_LIMIT', { max: text, coin: o.coin, days: band?.ageDaysFrom ?? 0 });
}

async function ageDays(deps: C2cDeps, customerId: string): Promise<number> {
  const at = await deps.accountCreatedAt(customerId);
  if (!at) return 0;
  return Math.max(0, Math.floor((deps.clock.now().getTime() - at.getTime()) / DAY_MS));
}

/** Where the fiat goes: the merchant's account (customer buys) or the customer's chosen one (sells). */
async function payTo(
  deps: C2cDeps,
  o: OfferRow,
  merchantCustomerId: string,
  auth: AuthContext,
  body: C2cCreateOrderBody,
): Promise<C2cPayToData> {
  if (o.side === 'sell') {
    const mine = await repo.accountsOf(deps.db, auth.customerId);
    const a = mine.find((x) => x.id === body.account_id && x.method === body.method);
    if (!a) refuse('C2C_ACCOUNT_REQUIRED', { method: body.method });
    return payToOf(a);
  }
  const theirs = await repo.accountsOf(deps.db, merchantCustomerId);
  const a = theirs.find((x) => x.method === body.method);
  if (!a) refuse('C2C_ACCOUNT_REQUIRED', { method: body.method });
  return payToOf(a);
}

export async function createOrder(
  deps: C2cDeps,
  auth: AuthContext,
  body: C2cCreateOrderBody,
): Promise<OrderRow> {
  const offer = await repo.findOffer(deps.db, body.offer_id);
  // A demo account sees and orders only the demo desk's offers (play money), a real one only real offers.
  if (!offer || offer.book !== bookOf(auth)) refuse('NOT_FOUND');
  const merchant = await repo.findMerchant(deps.db, offer.merchant_id);
  if (!merchant) refuse('NOT_FOUND');
  if (merchant.customer_id === auth.customerId) refuse('C2C_OWN_OFFER');
  const parsed = parseDecimal(body.amount, { scale: scaleOf(offer.coin), allowZero: false });
  if (!parsed.ok) refuse('BAD_INPUT', { field: 'amount' });
  const method = offer.methods.find((m) => m.method === body.method);
  if (!method) refuse('C2C_METHOD_NOT_ACCEPTED', { method: body.method });
  // A demo account trades play money on the demo desk under the demo name: no verification rule.
  if (!auth.isDemo) await deps.requireFeature(auth.customerId);
  await requireVerifiedName(deps, auth.customerId);
  if ((await repo.openOrderCount(deps.db, auth.customerId)) >= C2C_LIMITS.openOrdersPerCustomerMax)
    refuse('C2C_OPEN_ORDERS_LIMIT', { max: C2C_LIMITS.openOrdersPerCustomerMax });
  const payToAccount = await payTo(deps, offer, merchant.customer_id, auth, body);
  const age = await ageDays(deps, auth.customerId);
  return inTransaction(deps.db, (tx) =>
    match(deps, tx, { auth, offerId: offer.id, amount: parsed.units, method, age, payTo: payToAccount }),
  );
}

async function match(
  deps: C2cDeps,
  tx: Tx,
  input: {
    auth: AuthContext;
    offerId: string;
    amount: bigint;
    method: OfferRow['methods'][number];
    age: number;
    payTo: C2cPayToData;
  },
): Promise<OrderRow> {
  // The limit counted again under the customer's lock: racing requests cannot all pass the early check.
  await repo.lockCustomerOrders(tx, input.auth.customerId);
  if ((await repo.openOrderCount(tx, input.auth.customerId)) >= C2C_LIMITS.openOrdersPerCustomerMax)
    refuse('C2C_OPEN_ORDERS_LIMIT', { max: C2C_LIMITS.openOrdersPerCustomerMax });
  const o = await repo.findOffer(tx, input.offerId, { lock: true });
  const m = o && (await repo.findMerchant(tx, o.merchant_id));
  if (!o || !m) refuse('NOT_FOUND');
  if (o.state !== 'active' || m.state !== 'approved')
    refuse('C2C_OFFER_UNAVAILABLE', { state: m.state !== 'approved' ? m.state : o.state });
  const problem = c2cLimitProblem({
    coinUnits: input.amount,
    offerMinUnits: BigInt(o.min_units),
    offerMaxUnits: BigInt(o.max_units),
    offerRemainingUnits: BigInt(o.total_units) - BigInt(o.sold_units),
    methodMaxUnits: input.method.max_units === null ? null : BigInt(input.method.max_units),
    accountAgeDays: input.age,
  });
  if (problem) limitRefusal(problem.rule, problem.limitUnits, o, input.method.method);
  const priced = pricingOf(deps, o);
  if (!priced) refuse('C2C_PRICE_UNAVAILABLE', { symbol: o.feed_symbol ?? '' });
  const scale = scaleOf(o.coin);
  const q = quoteC2c({ side: o.side, pricing: priced.pricing, coinUnits: input.amount, coinScale: scale });
  const customerId = input.auth.customerId;
  const seller = o.side === 'buy' ? m.customer_id : customerId;
  const buyer = o.side === 'buy' ? customerId : m.customer_id;
  const have = await deps.ledger.balance(tx, {
    book: o.book,
    customerId: seller,
    accountType: MAIN_ACCOUNT_TYPE,
    currency: o.coin,
    lock: true,
  });
  const available = have.availableUnits;
  if (available < input.amount) {
    if (seller === customerId)
      refuse('C2C_INSUFFICIENT_COINS', {
        required: coinText(input.amount, scale),
        available: coinText(available, scale),
        coin: o.coin,
      });
    refuse('C2C_MERCHANT_SHORT', { coin: o.coin });
  }
  const now = deps.clock.now();
  const id = newId('cod', now.getTime());
  const row: OrderRow = {
    id,
    offer_id: o.id,
    merchant_id: m.id,
    merchant_customer_id: m.customer_id,
    customer_id: customerId,
    side: o.side,
    seller_id: seller,
    buyer_id: buyer,
    coin: o.coin,
    coin_scale: scale,
    fiat: o.fiat,
    amount_units: input.amount.toString(),
    price_units: q.priceUnits.toString(),
    fiat_cents: q.fiatCents.toString(),
    price_kind: o.price_kind,
    feed_symbol: o.feed_symbol,
    feed_price_units: priced.pricing.kind === 'spread' ? priced.pricing.feedPriceUnits.toString() : null,
    feed_source: priced.feed?.source ?? null,
    feed_at: priced.feed?.at ?? null,
    spread_bps: o.spread_bps,
    method: input.method.method,
    window_minutes: input.method.window_minutes,
    state: 'pending_match',
    pay_to: null,
    pay_by: new Date(now.getTime() + minutes(input.method.window_minutes)),
    confirm_by: null,
    payer_name: null,
    payer_bank: null,
    proof_file_id: null,
    paid_at: null,
    dispute_reason: null,
    dispute_note: null,
    dispute_by: null,
    disputed_at: null,
    respond_by: null,
    first_outcome: null,
    first_reason: null,
    first_by: null,
    first_at: null,
    outcome: null,
    outcome_by: null,
    outcome_reason: null,
    decided_by: null,
    escrow_in_entry: null,
    escrow_out_entry: null,
    end_reason: null,
    finished_at: null,
    pay_reminded_at: null,
    confirm_reminded_at: null,
    event_seq: 1,
    message_seq: 0,
    book: o.book,
    created_at: now,
  };
  await repo.insertOrder(tx, row);
  await repo.insertEvent(tx, {
    order_id: id,
    seq: 1,
    event: 'create',
    from_state: null,
    to_state: 'pending_match',
    actor: 'customer',
    actor_id: customerId,
    reason: null,
    at: now,
  });
  await repo.updateOffer(tx, o.id, { sold_units: (BigInt(o.sold_units) + input.amount).toString() });
  // Escrow first; the receiver's account is written onto the order only after the coins are held.
  const entry = await deps.ledger.post(tx, {
    reason: 'c2c.escrow',
    reference: { type: 'c2c_order', id },
    idempotencyKey: `c2c:escrow:${id}`,
    postings: [
      { account: spotOf(seller, o.book), currency: o.coin, amountUnits: -input.amount },
      { account: escrowAccount(id, o.book), currency: o.coin, amountUnits: input.amount },
    ],
  });
  return applyEvent(deps, tx, row, {
    event: 'match',
    actor: { kind: 'customer', id: customerId },
    patch: { escrow_in_entry: entry.id, pay_to: input.payTo },
  });
}
