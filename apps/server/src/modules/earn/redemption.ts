import { EARN_LIMITS, type EarnOrderData, type RedeemQuoteData, type SellProfitBody } from '@bourse/protocol';
import { inTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import {
  customerAccount,
  EARN_ACCOUNT_TYPE,
  type EarnDeps,
  fundAccount,
  MAIN_ACCOUNT_TYPE,
  reserveAccount,
} from './context.ts';
import { nonZero } from './ledger-moves.ts';
import { type EarnNotice, notifyEarn } from './notices.ts';
import { isPrincipalRule } from './products.ts';
import type { OrderRow, QuoteRow } from './repo.ts';
import * as repo from './repo.ts';
import { amountText, DAY_MS, rate4Of, redeemFigures } from './rules.ts';

/**
 * Early redemption (README.md, "Early redemption"): `quote` stores a binding quote valid
 * EARN_LIMITS.quoteTtlMs on the clock; `sell` posts exactly its figures — or refuses (expired, a
 * day posted since, another quote used) and changes nothing. Accrued rewards and the order's unused
 * reserve go back to the funding account; a principal penalty (only where the profile allows it)
 * goes to `fee_income`. With a redemption delay the principal stays frozen, the order `redeeming`,
 * until the job releases it at `arrives_at`.
 */

function quoteData(q: QuoteRow, o: OrderRow): RedeemQuoteData {
  const c = o.currency;
  return {
    quote_id: q.id,
    order_id: o.id,
    currency: c,
    principal: amountText(BigInt(q.principal_units), c),
    rewards_forfeited: amountText(BigInt(q.forfeited_units), c),
    penalty: amountText(BigInt(q.penalty_units), c),
    returned: amountText(BigInt(q.returned_units), c),
    arrives_at: q.arrives_at.getTime(),
    expires_at: q.expires_at.getTime(),
  };
}

/** The rule a redemption applies now: a principal penalty the active profile no longer allows is not applied. */
async function ruleNow(deps: EarnDeps, o: OrderRow) {
  if (o.redeem_rule === 'none') refuse('EARN_REDEEM_NOT_ALLOWED', { rule: o.redeem_rule });
  if (isPrincipalRule(o.redeem_rule) && !(await deps.jurisdiction.active()).earn_principal_penalty)
    return { rule: 'forfeit_rewards' as const, penaltyRate4: null };
  return { rule: o.redeem_rule, penaltyRate4: o.penalty_rate === null ? null : rate4Of(o.penalty_rate) };
}

export async function quote(deps: EarnDeps, auth: AuthContext, orderId: string): Promise<RedeemQuoteData> {
  const o = await repo.findOrder(deps.db, orderId, { customerId: auth.customerId });
  if (!o) refuse('NOT_FOUND');
  if (o.state !== 'in_custody') refuse('EARN_ORDER_NOT_RUNNING', { state: o.state });
  const { rule, penaltyRate4 } = await ruleNow(deps, o);
  const f = redeemFigures({
    amountUnits: BigInt(o.amount_units),
    accruedUnits: BigInt(o.accrued_units),
    totalRewardUnits: BigInt(o.total_reward_units),
    daysAccrued: o.days_accrued,
    termDays: o.term_days,
    rule,
    penaltyRate4,
  });
  const now = deps.clock.now();
  const q: QuoteRow = {
    id: newId('eqt', now.getTime()),
    order_id: o.id,
    customer_id: o.customer_id,
    days_accrued: o.days_accrued,
    principal_units: f.principal.toString(),
    forfeited_units: f.forfeited.toString(),
    penalty_units: f.penalty.toString(),
    returned_units: f.returned.toString(),
    arrives_at: new Date(now.getTime() + o.redeem_delay_days * DAY_MS),
    expires_at: new Date(now.getTime() + EARN_LIMITS.quoteTtlMs),
    created_at: now,
    used_at: null,
  };
  await repo.insertQuote(deps.db, q);
  return quoteData(q, o);
}

/**
 * Posts exactly the quote (in the request's idempotent transaction), or refuses with nothing
 * written; after the commit tells the customer, only when this call made the redemption.
 */
export async function sell(deps: EarnDeps, auth: AuthContext, body: SellProfitBody): Promise<OrderRow> {
  const done = await postSell(deps, auth, body);
  if (done.notice) await notifyEarn(deps, done.notice);
  return done.order;
}

type SellDone = { order: OrderRow; notice: EarnNotice | null };

async function postSell(deps: EarnDeps, auth: AuthContext, body: SellProfitBody): Promise<SellDone> {
  const { db, clock, ledger } = deps;
  return inTransaction(db, async (tx): Promise<SellDone> => {
    const o = await repo.findOrder(tx, body.order_id, { lock: true, customerId: auth.customerId });
    if (!o) refuse('NOT_FOUND');
    const q = await repo.findQuote(tx, body.quote_id, { lock: true });
    if (!q || q.order_id !== o.id || q.customer_id !== auth.customerId) refuse('EARN_QUOTE_UNKNOWN');
    if (q.used_at !== null) {
      if (o.quote_id === q.id) return { order: o, notice: null }; // this very redemption, confirmed again
      refuse('EARN_QUOTE_UNKNOWN');
    }
    if (o.state !== 'in_custody') refuse('EARN_ORDER_NOT_RUNNING', { state: o.state });
    const now = clock.now();
    if (now.getTime() > q.expires_at.getTime()) refuse('EARN_QUOTE_EXPIRED');
    if (o.days_accrued !== q.days_accrued) refuse('EARN_QUOTE_STALE');
    const book = o.book;
    const c = o.currency;
    const principal = BigInt(q.principal_units);
    const forfeited = BigInt(q.forfeited_units);
    const penalty = BigInt(q.penalty_units);
    const returned = BigInt(q.returned_units);
    const unused = BigInt(o.total_reward_units) - BigInt(o.accrued_units);
    const atOnce = o.redeem_delay_days === 0;
    // The product row before any ledger account, in the order buying takes them (no lock cycle).
    if (book === 'real') await repo.addSubscribed(tx, o.product_id, -principal);
    const earn = customerAccount(book, o.customer_id, EARN_ACCOUNT_TYPE);
    const reference = { type: 'earn_order', id: o.id };
    const postings = nonZero([
      { account: earn, currency: c, bucket: 'frozen', amountUnits: -(forfeited + (atOnce ? returned : 0n)) },
      {
        account: customerAccount(book, o.customer_id, MAIN_ACCOUNT_TYPE),
        currency: c,
        amountUnits: atOnce ? returned : 0n,
      },
      { account: reserveAccount(book, o.reserve_code), currency: c, amountUnits: -unused },
      { account: fundAccount(book, o.fund_code), currency: c, amountUnits: forfeited + unused },
    ]);
    if (postings)
      await ledger.post(tx, {
        reason: 'earn.redeem',
        reference,
        idempotencyKey: `earn:redeem:${o.id}`,
        postings,
      });
    if (penalty > 0n)
      await ledger.post(tx, {
        reason: 'earn.penalty',
        reference,
        idempotencyKey: `earn:penalty:${o.id}`,
        postings: [
          { account: earn, currency: c, bucket: 'frozen', amountUnits: -penalty },
          { account: { book, platform: 'fee_income' }, currency: c, amountUnits: penalty },
        ],
      });
    const patch = {
      state: atOnce ? ('redeemed' as const) : ('redeeming' as const),
      next_accrual_at: null,
      quote_id: q.id,
      principal_returned_units: returned.toString(),
      rewards_paid_units: '0',
      rewards_forfeited_units: forfeited.toString(),
      penalty_units: penalty.toString(),
      redeem_requested_at: now,
      arrives_at: atOnce ? now : q.arrives_at,
      completed_at: atOnce ? now : null,
    };
    await repo.updateOrder(tx, o.id, patch);
    await repo.useQuote(tx, q.id, now);
    const order = { ...o, ...patch };
    return { order, notice: { type: atOnce ? 'redeemed' : 'redeeming', order } };
  });
}

/**
 * The job: a delayed redemption's principal (less any penalty) to the available balance at
 * `arrives_at`; after the commit tells the customer, only when this call released it.
 */
export async function releaseOne(deps: EarnDeps, orderId: string, now: Date): Promise<boolean> {
  const released = await postRelease(deps, orderId, now);
  if (released) await notifyEarn(deps, { type: 'released', order: released });
  return released !== null;
}

async function postRelease(deps: EarnDeps, orderId: string, now: Date): Promise<OrderRow | null> {
  return inTransaction(deps.db, async (tx) => {
    const o = await repo.findOrder(tx, orderId, { lock: true });
    if (o?.state !== 'redeeming' || !o.arrives_at || o.arrives_at > now) return null;
    const returned = BigInt(o.principal_returned_units ?? '0');
    if (returned > 0n)
      await deps.ledger.post(tx, {
        reason: 'earn.release',
        reference: { type: 'earn_order', id: o.id },
        idempotencyKey: `earn:release:${o.id}`,
        postings: [
          {
            account: customerAccount(o.book, o.customer_id, EARN_ACCOUNT_TYPE),
            currency: o.currency,
            bucket: 'frozen',
            amountUnits: -returned,
          },
          {
            account: customerAccount(o.book, o.customer_id, MAIN_ACCOUNT_TYPE),
            currency: o.currency,
            amountUnits: returned,
          },
        ],
      });
    const patch = { state: 'redeemed' as const, completed_at: now };
    await repo.updateOrder(tx, o.id, patch);
    return { ...o, ...patch };
  });
}

export type SoldOrder = EarnOrderData;
