import type { BuyEtfBody, FundModelId, RiskRating } from '@bourse/protocol';
import { RISK_RATINGS } from '@bourse/protocol';
import { baseUnits, qtyText } from '@bourse/risk';
import { inTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import { parseAmount } from '../assets/index.ts';
import { FUNDS_FEATURE, type FundsDeps } from './context.ts';
import { marksOf, navNow, valuesAt } from './nav.ts';
import { budgets, CASH, lotsOf, planBuy, unitsOf, usdt, weightsOf } from './plan.ts';
import type { LegRow, ModelRow, OrderRow } from './repo.ts';
import * as repo from './repo.ts';
import { move, runLeg } from './trade.ts';

/**
 * Orders: buying (the whole amount set aside in the customer's earn account, then one market buy
 * per asset), redemption (one market sale per holding, then everything left back to spot), and the
 * processing that drives an order's open legs to their end — run by the request and, after a
 * crash, by the job. One order is processed at a time in this process (`locked`); every step is
 * also guarded in the database (leg and order states), so a second process only repeats no-ops.
 */

const chains = new Map<string, Promise<unknown>>();

/** Runs `fn` after any earlier work on the same order in this process. */
export function locked<T>(orderId: string, fn: () => Promise<T>): Promise<T> {
  const before = chains.get(orderId) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const tail = run.catch(() => undefined);
  chains.set(orderId, tail);
  void tail.then(() => {
    if (chains.get(orderId) === tail) chains.delete(orderId);
  });
  return run;
}

export type Plan = {
  model: ModelRow;
  amountUnits: bigint;
  prices: Map<string, string>;
  legs: Array<{
    asset: string;
    symbol: string;
    weight_bps: number;
    budget: bigint;
    price: string;
    qtyLots: bigint;
    quantityUnits: bigint;
    valueUnits: bigint;
    feeUnits: bigint;
    tooSmall: boolean;
  }>;
};

/** The model, checked open, and the amount, checked within its limits. */
export async function modelForPurchase(deps: FundsDeps, id: FundModelId, amount: string) {
  const model = await repo.model(deps.db, id);
  if (!model) refuse('NOT_FOUND');
  const amountUnits = parseAmount('amount', amount, CASH);
  if (amountUnits < BigInt(model.min_amount_units))
    refuse('FUNDS_AMOUNT_BELOW_MIN', { min: usdt(BigInt(model.min_amount_units)) });
  if (amountUnits > BigInt(model.max_amount_units))
    refuse('FUNDS_AMOUNT_ABOVE_MAX', { max: usdt(BigInt(model.max_amount_units)) });
  return { model, amountUnits };
}

/** What `amountUnits` buys now: each weight's budget at the reference price, rounded down to the lot. */
export function planOf(deps: FundsDeps, model: ModelRow, amountUnits: bigint): Plan {
  const prices = new Map<string, string>();
  const budget = budgets(model.weights, amountUnits);
  const legs: Plan['legs'] = [];
  for (const w of model.weights) {
    if (w.symbol === null) continue;
    const m = deps.spot.market(w.symbol);
    if (m.status !== 'enabled') refuse('SPOT_MARKET_HALTED', { symbol: w.symbol, reason: '' });
    // The price a market order would be checked against now (refuses a closed or stale market).
    const price = deps.market.priceForTrading(w.symbol).mark;
    prices.set(w.symbol, price);
    const b = budget.get(w.asset) ?? 0n;
    const p = planBuy(m, b, price);
    legs.push({ asset: w.asset, symbol: w.symbol, weight_bps: w.weight_bps, budget: b, price, ...p });
  }
  return { model, amountUnits, prices, legs };
}

const RANK = (r: RiskRating) => RISK_RATINGS.indexOf(r);

/** Verification, the model's rating and the rating's cap on earn (real book; the demo book is play money). */
export async function checkEligible(
  deps: FundsDeps,
  auth: AuthContext,
  model: ModelRow,
  amountUnits: bigint,
) {
  if (auth.isDemo) return;
  await deps.requireFeature(auth.customerId, FUNDS_FEATURE);
  const rating = await deps.ratings.ratingOf(auth.customerId);
  if (RANK(rating) < RANK(model.min_rating))
    refuse('FUNDS_RATING_REQUIRED', { rating, required: model.min_rating });
  await deps.ratings.checkCap(auth.customerId, { productClass: 'earn', amountUnits });
}

function sameOrder(o: OrderRow, modelId: string, amountUnits: bigint) {
  return o.model_id === modelId && BigInt(o.amount_units) === amountUnits;
}

/** Buys: checks, then one transaction setting the amount aside with the order and its planned legs; then the legs. */
export async function buy(deps: FundsDeps, auth: AuthContext, body: BuyEtfBody): Promise<string> {
  const { model, amountUnits } = await modelForPurchase(deps, body.model_id, body.amount);
  if (model.state !== 'open') refuse('FUNDS_MODEL_PAUSED', { model: body.model_id });
  await checkEligible(deps, auth, model, amountUnits);
  const customerId = auth.customerId;
  if (body.client_oid) {
    const twin = await repo.orderByClientOid(deps.db, customerId, body.client_oid);
    if (twin) {
      if (!sameOrder(twin, body.model_id, amountUnits))
        refuse('CLIENT_OID_REUSED', { client_oid: body.client_oid });
      return twin.id;
    }
  }
  const plan = planOf(deps, model, amountUnits);
  const nav = navNow(deps, model);
  const id = await inTransaction(deps.db, async (tx) => {
    await repo.lockCustomer(tx, customerId);
    if (body.client_oid) {
      const twin = await repo.orderByClientOid(tx, customerId, body.client_oid);
      if (twin) {
        if (!sameOrder(twin, body.model_id, amountUnits))
          refuse('CLIENT_OID_REUSED', { client_oid: body.client_oid });
        return twin.id;
      }
    }
    const now = deps.clock.now();
    const order: OrderRow = {
      id: newId('etf', now.getTime()),
      customer_id: customerId,
      book: auth.isDemo ? 'demo' : 'real',
      model_id: model.id,
      client_oid: body.client_oid ?? null,
      state: 'buying',
      amount_units: amountUnits.toString(),
      cost_units: null,
      fee_units: '0',
      units: null,
      nav_units: nav.toString(),
      proceeds_units: null,
      weights: model.weights,
      created_at: now,
      bought_at: null,
      redeem_requested_at: null,
      redeemed_at: null,
      rebalancing: null,
    };
    await repo.insertOrder(tx, order);
    // The whole amount leaves spot for the customer's own earn account, tagged to the order (cash
    // until each leg's trade); INSUFFICIENT_BALANCE here refuses the purchase with nothing written.
    await deps.ledger.post(tx, {
      reason: 'fund.subscribe',
      reference: { type: 'fund_order', id: order.id },
      idempotencyKey: `fund:subscribe:${order.id}`,
      postings: [
        {
          account: { book: order.book, customerId, accountType: 'spot' },
          currency: CASH,
          amountUnits: -amountUnits,
        },
        {
          account: { book: order.book, customerId, accountType: 'earn' },
          currency: CASH,
          bucket: 'frozen',
          amountUnits,
        },
      ],
    });
    await repo.addHolding(tx, order.id, CASH, amountUnits);
    await repo.insertLegs(
      tx,
      plan.legs.map((l, i) =>
        legRow(deps, order, {
          seq: i + 1,
          phase: 'buy',
          rebalanceId: null,
          asset: l.asset,
          symbol: l.symbol,
          side: 'buy',
          quantityUnits: l.quantityUnits,
          price: l.price,
          tooSmall: l.tooSmall ? deps.spot.market(l.symbol) : null,
        }),
      ),
    );
    return order.id;
  });
  await process(deps, id);
  return id;
}

export function legRow(
  deps: FundsDeps,
  o: Pick<OrderRow, 'id'>,
  l: {
    seq: number;
    phase: LegRow['phase'];
    rebalanceId: string | null;
    asset: string;
    symbol: string;
    side: 'buy' | 'sell';
    quantityUnits: bigint;
    price: string;
    tooSmall: ReturnType<FundsDeps['spot']['market']> | null;
  },
): LegRow {
  const now = deps.clock.now();
  const id = newId('flg', now.getTime());
  return {
    id,
    order_id: o.id,
    phase: l.phase,
    rebalance_id: l.rebalanceId,
    seq: l.seq,
    asset: l.asset,
    symbol: l.symbol,
    side: l.side,
    quantity_units: l.tooSmall ? '0' : l.quantityUnits.toString(),
    funded_units: '0',
    reference_price: l.price,
    spot_client_oid: id,
    spot_order_id: null,
    filled_units: '0',
    value_units: '0',
    fee_units: '0',
    state: l.tooSmall ? 'skipped' : 'planned',
    refusal: l.tooSmall
      ? {
          code: 'FUNDS_LEG_TOO_SMALL',
          params: { symbol: l.symbol, min: qtyText(l.tooSmall.math, l.tooSmall.minQtyLots) },
        }
      : null,
    created_at: now,
    updated_at: now,
  };
}

/** Redeems: in custody → redeeming with one sale per holding, then the sales and the payback. */
export async function redeem(deps: FundsDeps, auth: AuthContext, orderId: string): Promise<void> {
  await locked(orderId, async () => {
    await inTransaction(deps.db, async (tx) => {
      const o = await repo.order(tx, orderId, { customerId: auth.customerId, lock: true });
      if (!o) refuse('NOT_FOUND');
      if (o.state === 'redeeming' || o.state === 'redeemed') return; // a retry: the same redemption
      if (o.state !== 'in_custody' || o.rebalancing) refuse('FUNDS_ORDER_NOT_REDEEMABLE', { state: o.state });
      const held = await repo.holdings(tx, [o.id]);
      let seq = await repo.nextLegSeq(tx, o.id);
      const rows: LegRow[] = [];
      for (const h of held) {
        const w = o.weights.find((x) => x.asset === h.asset);
        if (!w?.symbol || BigInt(h.quantity_units) === 0n) continue;
        const m = deps.spot.market(w.symbol);
        const lots = lotsOf(m, BigInt(h.quantity_units));
        if (lots === 0n) continue; // dust below one lot goes back as it is
        rows.push(
          legRow(deps, o, {
            seq: seq++,
            phase: 'redeem',
            rebalanceId: null,
            asset: h.asset,
            symbol: w.symbol,
            side: 'sell',
            quantityUnits: baseUnits(m.math, lots),
            price: deps.market.ticker(w.symbol).mark,
            tooSmall: null,
          }),
        );
      }
      await repo.insertLegs(tx, rows);
      await repo.updateOrder(tx, o.id, { state: 'redeeming', redeem_requested_at: deps.clock.now() });
    });
  });
  await process(deps, orderId);
}

/** Drives an order's open legs to their end, then closes the step it is in (buy, redemption, rebalance). */
export function process(deps: FundsDeps, orderId: string): Promise<void> {
  return locked(orderId, async () => {
    const o = await repo.order(deps.db, orderId);
    if (!o) return;
    for (const l of await repo.legs(deps.db, [orderId]))
      if (l.state === 'planned' || l.state === 'funded' || l.state === 'released') await runLeg(deps, o, l);
    if (o.state === 'buying') await finishBuy(deps, o);
    else if (o.state === 'redeeming') await finishRedeem(deps, o);
    if (o.rebalancing) await finishRebalance(deps, o, o.rebalancing);
  });
}

async function finishBuy(deps: FundsDeps, o: OrderRow): Promise<void> {
  await inTransaction(deps.db, async (tx) => {
    const row = await repo.order(tx, o.id, { lock: true });
    if (row?.state !== 'buying') return;
    const legs = await repo.legs(tx, [o.id]);
    const fees = legs.reduce((s, l) => s + BigInt(l.fee_units), 0n);
    // The whole amount stays the customer's inside the order (assets bought + cash): it is the cost.
    const cost = BigInt(row.amount_units);
    await repo.updateOrder(tx, o.id, {
      state: 'in_custody',
      cost_units: cost.toString(),
      fee_units: fees.toString(),
      units: unitsOf(cost, BigInt(row.nav_units)).toString(),
      bought_at: deps.clock.now(),
    });
  });
}

async function finishRedeem(deps: FundsDeps, o: OrderRow): Promise<void> {
  await inTransaction(deps.db, async (tx) => {
    const row = await repo.order(tx, o.id, { lock: true });
    if (row?.state !== 'redeeming') return;
    const held = await repo.holdings(tx, [o.id]);
    const legs = (await repo.legs(tx, [o.id])).filter((l) => l.phase === 'redeem');
    const cash = BigInt(held.find((h) => h.asset === CASH)?.quantity_units ?? '0');
    const proceeds = legs.reduce((s, l) => s + BigInt(l.value_units) - BigInt(l.fee_units), 0n) + cash;
    await move(
      deps,
      tx,
      row,
      held.map((h) => ({ asset: h.asset, toSpot: BigInt(h.quantity_units) })),
      { reason: 'fund.redeem', key: `fund:redeem:${o.id}`, reference: o.id },
    );
    await repo.updateOrder(tx, o.id, {
      state: 'redeemed',
      proceeds_units: proceeds.toString(),
      fee_units: (BigInt(row.fee_units) + legs.reduce((s, l) => s + BigInt(l.fee_units), 0n)).toString(),
      redeemed_at: deps.clock.now(),
    });
  });
}

async function finishRebalance(deps: FundsDeps, o: OrderRow, rebalanceId: string): Promise<void> {
  await inTransaction(deps.db, async (tx) => {
    const row = await repo.order(tx, o.id, { lock: true });
    if (row?.rebalancing !== rebalanceId) return;
    const held = await repo.holdings(tx, [o.id]);
    const quantities = Object.fromEntries(held.map((h) => [h.asset, h.quantity_units]));
    const after = weightsOf(valuesAt(row.weights, quantities, marksOf(deps, row.weights)));
    const legs = (await repo.legs(tx, [o.id])).filter((l) => l.rebalance_id === rebalanceId);
    await repo.finishRebalance(tx, rebalanceId, {
      after: row.weights.map((w) => ({ asset: w.asset, weight_bps: after.get(w.asset) ?? 0 })),
      done_at: deps.clock.now(),
    });
    await repo.updateOrder(tx, o.id, {
      rebalancing: null,
      fee_units: (BigInt(row.fee_units) + legs.reduce((s, l) => s + BigInt(l.fee_units), 0n)).toString(),
    });
  });
}
