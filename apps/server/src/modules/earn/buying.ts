import { type BuyProfitBody, RISK_RATINGS } from '@bourse/protocol';
import { inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import { bookOf, parseAmount } from '../assets/index.ts';
import { type Book, familyCode } from '../ledger/index.ts';
import { dayCutoff, nextCutoff } from './calendar.ts';
import {
  customerAccount,
  EARN_ACCOUNT_TYPE,
  type EarnDeps,
  fundAccount,
  MAIN_ACCOUNT_TYPE,
  platformAvailable,
  reserveAccount,
} from './context.ts';
import { productMoney } from './products.ts';
import type { FundingRow, OrderRow, ProductRow } from './repo.ts';
import * as repo from './repo.ts';
import { amountText, dailyReward, rate4Of } from './rules.ts';
import { vipLevelOf } from './vip.ts';

/**
 * Buying (README.md, "Buying"): the checks in their published order, each refusal a reason naming
 * its rule; then, in ONE transaction with the product row locked and the request's idempotency
 * record, one ledger entry moves the principal from the customer's main account into their own
 * `earn` account (frozen) and the whole reward from the funding account into the product's reserve.
 */

const dateText = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** State and sales window (re-checked under the row lock). */
export function checkOnSale(p: ProductRow, now: Date): void {
  if (p.state !== 'active') refuse('EARN_NOT_ON_SALE', { state: p.state });
  if (p.sale_starts_at && now < p.sale_starts_at)
    refuse('EARN_SALE_NOT_STARTED', { date: dateText(p.sale_starts_at) });
  if (p.sale_ends_at && now >= p.sale_ends_at) refuse('EARN_SALE_ENDED', { date: dateText(p.sale_ends_at) });
}

/**
 * Everything that does not need the product lock, in the published order: sale, jurisdiction,
 * verification (the profile's `earn` feature, then the product's tier), VIP level, risk rating and
 * its cap. The demo book is play money: verification, VIP and rating gates apply to real accounts.
 */
export async function checkCustomer(
  deps: EarnDeps,
  auth: Pick<AuthContext, 'customerId' | 'isDemo'>,
  p: ProductRow,
  amountUnits: bigint | null,
): Promise<{ vipLevel: number | null }> {
  checkOnSale(p, deps.clock.now());
  const profile = await deps.jurisdiction.active();
  if (!p.jurisdictions.includes(profile.id)) refuse('EARN_JURISDICTION', { profile: profile.id });
  let vipLevel: number | null = null;
  if (auth.isDemo) return { vipLevel };
  const id = auth.customerId;
  await deps.requireFeature(id, 'earn');
  if (p.min_tier !== null && !(await deps.tierApproved(id, p.min_tier)))
    refuse('EARN_TIER_REQUIRED', { tier: p.min_tier });
  if (p.vip_level !== null) {
    vipLevel = await vipLevelOf(deps, id, (await repo.setting(deps.db)).vip_levels);
    if (vipLevel < p.vip_level) refuse('EARN_VIP_LEVEL_REQUIRED', { level: vipLevel, required: p.vip_level });
  }
  const rating = await deps.rating(id);
  if (RISK_RATINGS.indexOf(rating) < RISK_RATINGS.indexOf(p.min_rating))
    refuse('EARN_RATING_REQUIRED', { rating, required: p.min_rating });
  if (amountUnits !== null) {
    const usdt = deps.usdtValue(p.currency, amountUnits);
    if (usdt === null) refuse('EARN_NO_PRICE', { currency: p.currency });
    await deps.ratingCaps.checkCap(id, { productClass: 'earn', amountUnits: usdt });
  }
  return { vipLevel };
}

/** Min and max per customer, capacity and reserve coverage, under the product lock. */
export async function checkAmount(
  deps: EarnDeps,
  tx: Tx,
  input: { p: ProductRow; fund: FundingRow; book: Book; customerId: string; amountUnits: bigint },
): Promise<void> {
  const { p, fund, book, amountUnits } = input;
  const c = p.currency;
  if (amountUnits < BigInt(p.min_amount_units))
    refuse('EARN_BELOW_MIN', { min: amountText(BigInt(p.min_amount_units), c), currency: c });
  const held = await repo.heldInProduct(tx, p.id, input.customerId);
  if (held + amountUnits > BigInt(p.max_amount_units))
    refuse('EARN_ABOVE_MAX', {
      max: amountText(BigInt(p.max_amount_units), c),
      held: amountText(held, c),
      currency: c,
    });
  if (dailyReward(amountUnits, rate4Of(p.annual_rate)) === 0n) refuse('EARN_REWARD_ZERO', { currency: c });
  // The demo book takes no real capacity, and its reserve is topped up from the faucet (README.md).
  if (book === 'demo') return;
  const money = await productMoney(deps, tx, p, fund);
  if (amountUnits > money.byCapacity)
    refuse('EARN_CAPACITY', { left: amountText(money.capacityLeft, c), currency: c });
  if (amountUnits > money.byFunding)
    refuse('EARN_RESERVE_SHORT', { left: amountText(money.capacityLeft, c), currency: c });
}

export async function buy(deps: EarnDeps, auth: AuthContext, body: BuyProfitBody): Promise<OrderRow> {
  const { db, clock, ledger } = deps;
  const product = await repo.findProduct(db, body.product_id);
  if (!product || product.state === 'draft') refuse('NOT_FOUND');
  const amountUnits = parseAmount('amount', body.amount, product.currency);
  if (body.accept_terms !== '1') refuse('EARN_TERMS_REQUIRED');
  await checkCustomer(deps, auth, product, amountUnits);
  const book = bookOf(auth);
  const customerId = auth.customerId;
  const row = await inTransaction(db, async (tx) => {
    // The product row, then its funding account: racing buys of the last capacity or reserve queue here.
    const p = await repo.findProduct(tx, product.id, { lock: true });
    if (!p) refuse('NOT_FOUND');
    const fund = (await tx
      .selectFrom('earn_funding')
      .selectAll()
      .where('id', '=', p.funding_id)
      .forUpdate()
      .executeTakeFirstOrThrow()) as FundingRow;
    const now = clock.now();
    checkOnSale(p, now);
    await checkAmount(deps, tx, { p, fund, book, customerId, amountUnits });
    const rate4 = rate4Of(p.annual_rate);
    const daily = dailyReward(amountUnits, rate4);
    const total = daily * BigInt(p.term_days);
    const setting = await repo.setting(tx);
    const first = nextCutoff(now, setting.cutoff_hour, setting.time_zone);
    const id = newId('eor', now.getTime());
    const c = p.currency;
    if (book === 'demo') {
      // The demo twin of the funding account is virtual money: topped up from the faucet as needed.
      const have = await platformAvailable(deps, tx, book, familyCode('earn_fund_', fund.code), c);
      if (have < total)
        await ledger.post(tx, {
          reason: 'earn.demo_fund',
          reference: { type: 'earn_order', id },
          idempotencyKey: `earn:demo-fund:${id}`,
          postings: [
            { account: { book, platform: 'demo_faucet' }, currency: c, amountUnits: -(total - have) },
            { account: fundAccount(book, fund.code), currency: c, amountUnits: total - have },
          ],
        });
    }
    const entry = await ledger.post(tx, {
      reason: 'earn.buy',
      reference: { type: 'earn_order', id },
      idempotencyKey: `earn:buy:${id}`,
      postings: [
        {
          account: customerAccount(book, customerId, MAIN_ACCOUNT_TYPE),
          currency: c,
          amountUnits: -amountUnits,
        },
        {
          account: customerAccount(book, customerId, EARN_ACCOUNT_TYPE),
          currency: c,
          bucket: 'frozen',
          amountUnits,
        },
        { account: fundAccount(book, fund.code), currency: c, amountUnits: -total },
        { account: reserveAccount(book, p.code), currency: c, amountUnits: total },
      ],
    });
    const schedule = { first_day: first.day, cutoff_hour: setting.cutoff_hour, time_zone: setting.time_zone };
    const order: OrderRow = {
      id,
      customer_id: customerId,
      book,
      product_id: p.id,
      kind: p.kind,
      currency: c,
      amount_units: amountUnits.toString(),
      term_days: p.term_days,
      annual_rate: p.annual_rate,
      daily_reward_units: daily.toString(),
      total_reward_units: total.toString(),
      accrued_units: '0',
      days_accrued: 0,
      state: 'in_custody',
      ...schedule,
      next_accrual_at: first.at,
      matures_at: dayCutoff(schedule, p.term_days),
      redeem_rule: p.redeem_rule,
      penalty_rate: p.penalty_rate,
      redeem_delay_days: p.redeem_delay_days,
      fund_code: fund.code,
      reserve_code: p.code,
      created_at: now,
      buy_entry_id: entry.id,
      completed_at: null,
      quote_id: null,
      principal_returned_units: null,
      rewards_paid_units: null,
      rewards_forfeited_units: null,
      penalty_units: null,
      redeem_requested_at: null,
      arrives_at: null,
    };
    await repo.insertOrder(tx, order);
    if (book === 'real') await repo.addSubscribed(tx, p.id, amountUnits);
    return order;
  });
  return row;
}
