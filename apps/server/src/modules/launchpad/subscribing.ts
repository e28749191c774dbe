import { toDecimalString } from '@bourse/money';
import {
  type LaunchpadEligibilityData,
  RISK_RATINGS,
  type SubscribeBody,
  type SubscriptionQuoteData,
} from '@bourse/protocol';
import { inTransaction, isUniqueViolation } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { Refusal, refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import { type LaunchpadDeps, listCoin, MAIN_ACCOUNT_TYPE } from './context.ts';
import type { ProjectRow, SubscriptionRow } from './repo.ts';
import * as repo from './repo.ts';
import { coinsOfLots, costOf, lotsOf, USDT } from './rules.ts';

/**
 * Subscribing (README.md, "Subscribing"): the checks in their published order, each refusal a
 * reason naming its rule; then, in ONE transaction with the project row locked and the request's
 * idempotency record, the cost and the fee are frozen in the customer's own spot USDT and the
 * subscription is written with its arrival number. The project lock is what makes the window's
 * edge and first-come's last lots exact under a race.
 */

const dateText = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const usdtText = (units: bigint) => toDecimalString(units, USDT.scale);

/** State and window, re-checked under the project lock. */
export function checkOpen(p: ProjectRow, now: Date): void {
  if (p.state === 'announced' || (p.state === 'open' && now < p.opens_at))
    refuse('LAUNCHPAD_NOT_STARTED', { date: dateText(p.opens_at) });
  if (p.state === 'open' && now >= p.closes_at) refuse('LAUNCHPAD_ENDED', { date: dateText(p.closes_at) });
  if (p.state !== 'open') refuse('LAUNCHPAD_NOT_OPEN', { state: p.state });
}

/**
 * The customer's rules, in the published order: jurisdiction, verification (the profile's
 * `launchpad` feature, then the project's tier), risk rating. The same rules are applied again by
 * the review at close (a customer may lose a tier or a rating in between): `reviewReason`.
 */
export async function checkCustomer(deps: LaunchpadDeps, customerId: string, p: ProjectRow): Promise<void> {
  const profile = await deps.activeProfile();
  if (!p.jurisdictions.includes(profile)) refuse('LAUNCHPAD_JURISDICTION', { profile });
  await deps.requireFeature(customerId, 'launchpad');
  if (p.min_tier !== null && !(await deps.tierApproved(customerId, p.min_tier)))
    refuse('LAUNCHPAD_TIER_REQUIRED', { tier: p.min_tier });
  const rating = await deps.rating(customerId);
  if (RISK_RATINGS.indexOf(rating) < RISK_RATINGS.indexOf(p.min_rating))
    refuse('LAUNCHPAD_RATING_REQUIRED', { rating, required: p.min_rating });
}

/** What one customer may ask for at most: the cap in first come (and what is left), the supply in pro rata. */
function maxLots(p: ProjectRow): bigint {
  if (p.mode === 'pro_rata') return BigInt(p.supply_lots);
  return BigInt(p.cap_lots);
}

/** Quantity rules under the lock: minimum, maximum, first come's remaining lots. */
export function checkLots(p: ProjectRow, lots: bigint): void {
  const coins = (n: bigint | string) => coinsOfLots(p, BigInt(n));
  if (lots < BigInt(p.min_lots)) refuse('LAUNCHPAD_BELOW_MIN', { min: coins(p.min_lots), coin: p.coin });
  if (lots > maxLots(p)) refuse('LAUNCHPAD_ABOVE_MAX', { max: coins(maxLots(p)), coin: p.coin });
  if (p.mode === 'first_come') {
    const left = BigInt(p.supply_lots) - BigInt(p.subscribed_lots);
    if (left <= 0n) refuse('LAUNCHPAD_SOLD_OUT');
    if (lots > left) refuse('LAUNCHPAD_REMAINING', { left: coins(left), coin: p.coin });
  }
}

async function visibleProject(deps: LaunchpadDeps, projectId: string): Promise<ProjectRow> {
  const p = await repo.findProject(deps.db, projectId);
  if (!p || p.state === 'draft') refuse('NOT_FOUND');
  listCoin(p);
  return p;
}

export async function quote(
  deps: LaunchpadDeps,
  projectId: string,
  quantity: string,
): Promise<SubscriptionQuoteData> {
  const p = await visibleProject(deps, projectId);
  const lots = lotsOf(p, quantity);
  const { cost, fee, frozen } = costOf(p, lots);
  return {
    project_id: p.id,
    quantity: coinsOfLots(p, lots),
    lots: lots.toString(),
    cost: usdtText(cost),
    margin: usdtText(cost),
    fee: usdtText(fee),
    frozen: usdtText(frozen),
    pay_currency: 'USDT',
  };
}

async function available(deps: LaunchpadDeps, customerId: string): Promise<bigint> {
  const bal = await deps.ledger.balance(deps.db, {
    book: 'real',
    customerId,
    accountType: MAIN_ACCOUNT_TYPE,
    currency: USDT.code,
  });
  return bal.availableUnits;
}

export async function subscribe(
  deps: LaunchpadDeps,
  auth: AuthContext,
  body: SubscribeBody,
): Promise<SubscriptionRow> {
  const { db, clock, ledger } = deps;
  if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
  const project = await visibleProject(deps, body.project_id);
  checkOpen(project, clock.now());
  const lots = lotsOf(project, body.quantity);
  if (body.accept_terms !== '1') refuse('LAUNCHPAD_TERMS_REQUIRED');
  const customerId = auth.customerId;
  await checkCustomer(deps, customerId, project);
  const { cost, fee, frozen } = costOf(project, lots);
  await deps.checkCap(customerId, cost);
  try {
    return await inTransaction(db, async (tx) => {
      const p = await repo.findProject(tx, project.id, { lock: true });
      if (!p) refuse('NOT_FOUND');
      const now = clock.now();
      checkOpen(p, now);
      if (await repo.subscriptionOf(tx, p.id, customerId)) refuse('LAUNCHPAD_ALREADY_SUBSCRIBED');
      checkLots(p, lots);
      const have = await ledger.balance(tx, {
        book: 'real',
        customerId,
        accountType: MAIN_ACCOUNT_TYPE,
        currency: USDT.code,
      });
      if (have.availableUnits < frozen)
        refuse('LAUNCHPAD_INSUFFICIENT_USDT', {
          required: usdtText(frozen),
          available: usdtText(have.availableUnits),
        });
      const id = newId('lps', now.getTime());
      await ledger.freeze(tx, {
        book: 'real',
        customerId,
        accountType: MAIN_ACCOUNT_TYPE,
        currency: USDT.code,
        amountUnits: frozen,
        reference: { type: 'launchpad_subscription', id },
        idempotencyKey: `launchpad:freeze:${id}`,
        reason: 'launchpad.subscribe',
      });
      const seq = p.next_seq + 1;
      const row: SubscriptionRow = {
        id,
        project_id: p.id,
        customer_id: customerId,
        seq,
        lots: lots.toString(),
        cost_units: cost.toString(),
        fee_units: fee.toString(),
        frozen_units: frozen.toString(),
        state: 'under_review',
        review_reason: null,
        allocated_lots: null,
        paid_units: null,
        fee_paid_units: null,
        refunded_units: null,
        failure_reason: null,
        token_state: 'none',
        leaf_index: null,
        leaf_id: null,
        commit_nonce: null,
        allot_nonce: null,
        created_at: now,
        reviewed_at: null,
        allocated_at: null,
        refunded_at: null,
        released_at: null,
      };
      await repo.insertSubscription(tx, row);
      await repo.updateProject(tx, p.id, {
        next_seq: seq,
        subscribed_lots: (BigInt(p.subscribed_lots) + lots).toString(),
        subscribers: p.subscribers + 1,
      });
      return row;
    });
  } catch (error) {
    // Two first subscriptions of one customer racing: the second meets the unique key.
    if (isUniqueViolation(error)) refuse('LAUNCHPAD_ALREADY_SUBSCRIBED');
    throw error;
  }
}

/** A signed-in customer's standing: the first rule that stops them, and how much they may still ask for. */
export async function eligibility(
  deps: LaunchpadDeps,
  auth: AuthContext,
  p: ProjectRow,
): Promise<LaunchpadEligibilityData> {
  const coins = (n: bigint) => coinsOfLots(p, n);
  const have = auth.isDemo ? 0n : await available(deps, auth.customerId);
  const mine = auth.isDemo ? undefined : await repo.subscriptionOf(deps.db, p.id, auth.customerId);
  let may = maxLots(p);
  if (p.mode === 'first_come') {
    const left = BigInt(p.supply_lots) - BigInt(p.subscribed_lots);
    if (left < may) may = left;
  }
  const perLot = costOf(p, 1n).frozen;
  if (have / perLot < may) may = have / perLot;
  if (!auth.isDemo && deps.ratingCapUsdt) {
    const cap = await deps.ratingCapUsdt(auth.customerId);
    const lotCost = BigInt(p.lot_price_units);
    if (cap !== null && cap / lotCost < may) may = cap / lotCost;
  }
  if (mine || may < 0n) may = 0n;
  let refusal: LaunchpadEligibilityData['refusal'] = null;
  try {
    if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
    checkOpen(p, deps.clock.now());
    if (mine) refuse('LAUNCHPAD_ALREADY_SUBSCRIBED');
    await checkCustomer(deps, auth.customerId, p);
    if (may < BigInt(p.min_lots)) {
      checkLots(p, BigInt(p.min_lots));
      const need = costOf(p, BigInt(p.min_lots)).frozen;
      if (have < need)
        refuse('LAUNCHPAD_INSUFFICIENT_USDT', { required: usdtText(need), available: usdtText(have) });
      await deps.checkCap(auth.customerId, costOf(p, BigInt(p.min_lots)).cost);
    }
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    refusal = { code: error.reason, params: error.params as Record<string, string | number> };
  }
  return {
    eligible: refusal === null,
    refusal,
    available: usdtText(have),
    may_subscribe: coins(may),
    held: coins(mine ? BigInt(mine.lots) : 0n),
  };
}
