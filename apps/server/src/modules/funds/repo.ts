import type { FundModelId, FundOrderState, Paged } from '@bourse/protocol';
import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import { pageNewestFirst } from '../../http/paging.ts';
import type { FundsTables } from './tables.ts';

/** The only SQL on the funds_* tables. Functions taking `Tx` lock what they read for the caller's transaction. */
type Q = Db | Tx;
export type ModelRow = FundsTables['funds_model'];
export type OrderRow = FundsTables['funds_order'];
export type LegRow = FundsTables['funds_order_leg'];
export type RebalanceRow = FundsTables['funds_rebalance'];
export type NavRow = FundsTables['funds_nav'];

const json = (v: unknown) => JSON.stringify(v) as never;

// ---- models

export async function insertModelIfMissing(q: Q, row: ModelRow): Promise<boolean> {
  const r = await q
    .insertInto('funds_model')
    .values({
      ...row,
      names: json(row.names),
      descriptions: json(row.descriptions),
      weights: json(row.weights),
      positions: json(row.positions),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function models(q: Q): Promise<ModelRow[]> {
  return q.selectFrom('funds_model').selectAll().orderBy('id').execute();
}

export async function model(q: Q, id: FundModelId, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('funds_model').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function setModelState(
  q: Q,
  id: FundModelId,
  change: Pick<ModelRow, 'state' | 'state_reason' | 'updated_at'>,
) {
  await q.updateTable('funds_model').set(change).where('id', '=', id).execute();
}

export async function setModelNav(
  q: Q,
  id: FundModelId,
  change: { positions: Record<string, string>; nav_through: Date },
) {
  await q
    .updateTable('funds_model')
    .set({ positions: json(change.positions), nav_through: change.nav_through })
    .where('id', '=', id)
    .execute();
}

// ---- NAV history

export async function insertNav(q: Q, row: NavRow): Promise<void> {
  await q
    .insertInto('funds_nav')
    .values({ ...row, prices: json(row.prices) })
    .onConflict((oc) => oc.columns(['model_id', 'at']).doNothing())
    .execute();
}

export async function lastNav(q: Q, id: FundModelId): Promise<NavRow | undefined> {
  return q
    .selectFrom('funds_nav')
    .selectAll()
    .where('model_id', '=', id)
    .orderBy('at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** NAV rows from `from` on, oldest first, at most `limit` (the newest `limit` when there are more). */
export async function navHistory(q: Q, id: FundModelId, from: Date | null, limit: number): Promise<NavRow[]> {
  let query = q.selectFrom('funds_nav').selectAll().where('model_id', '=', id);
  if (from) query = query.where('at', '>=', from);
  const rows = await query.orderBy('at', 'desc').limit(limit).execute();
  return rows.reverse();
}

// ---- orders

/** One customer's purchases run one at a time (client_oid twins are exact). */
export async function lockCustomer(tx: Tx, customerId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`funds:${customerId}`}))`.execute(tx);
}

export async function insertOrder(q: Q, row: OrderRow): Promise<void> {
  await q
    .insertInto('funds_order')
    .values({ ...row, weights: json(row.weights) })
    .execute();
}

export async function order(q: Q, id: string, options: { customerId?: string; lock?: boolean } = {}) {
  let query = q.selectFrom('funds_order').selectAll().where('id', '=', id);
  if (options.customerId) query = query.where('customer_id', '=', options.customerId);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function orderByClientOid(q: Q, customerId: string, clientOid: string) {
  return q
    .selectFrom('funds_order')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('client_oid', '=', clientOid)
    .executeTakeFirst();
}

export async function updateOrder(q: Q, id: string, change: Partial<OrderRow>): Promise<void> {
  const { weights, ...rest } = change;
  await q
    .updateTable('funds_order')
    .set({ ...rest, ...(weights ? { weights: json(weights) } : {}) })
    .where('id', '=', id)
    .execute();
}

/** Orders with work left: buying, redeeming, or in a rebalance. */
export async function pendingOrderIds(q: Q): Promise<string[]> {
  const rows = await q
    .selectFrom('funds_order')
    .select('id')
    .where((eb) => eb.or([eb('state', 'in', ['buying', 'redeeming']), eb('rebalancing', 'is not', null)]))
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function inCustody(q: Q): Promise<OrderRow[]> {
  return q
    .selectFrom('funds_order')
    .selectAll()
    .where('state', '=', 'in_custody')
    .where('rebalancing', 'is', null)
    .orderBy('id')
    .execute();
}

export type OrderFilter = {
  customerId?: string;
  modelId?: FundModelId;
  state?: FundOrderState;
  book?: 'real' | 'demo';
};

export async function ordersPage<T>(
  q: Q,
  f: OrderFilter,
  paging: { page: number; pageSize: number },
  map: (rows: OrderRow[]) => Promise<T[]>,
): Promise<Paged<T>> {
  let query = q.selectFrom('funds_order');
  if (f.customerId) query = query.where('customer_id', '=', f.customerId);
  if (f.modelId) query = query.where('model_id', '=', f.modelId);
  if (f.state) query = query.where('state', '=', f.state);
  if (f.book) query = query.where('book', '=', f.book);
  return pageNewestFirst(query, 'created_at', paging, (rows) => map(rows as OrderRow[]));
}

export async function custodyTotals(q: Q): Promise<Array<{ model_id: FundModelId; n: string }>> {
  return q
    .selectFrom('funds_order')
    .select(['model_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('state', '=', 'in_custody')
    .groupBy('model_id')
    .execute();
}

// ---- holdings

export async function holdings(q: Q, orderIds: readonly string[]) {
  if (orderIds.length === 0) return [];
  return q
    .selectFrom('funds_order_holding')
    .selectAll()
    .where('order_id', 'in', [...orderIds])
    .orderBy('order_id')
    .orderBy('asset')
    .execute();
}

/** Adds `delta` (signed minor units) to an order's holding of `asset`; the CHECK refuses a negative result. */
export async function addHolding(q: Q, orderId: string, asset: string, delta: bigint): Promise<void> {
  if (delta === 0n) return;
  if (delta < 0n) {
    // A CHECK is tested on the row an upsert proposes: a decrease is an update of the existing row.
    const r = await q
      .updateTable('funds_order_holding')
      .set({ quantity_units: sql`quantity_units + ${delta.toString()}::numeric` })
      .where('order_id', '=', orderId)
      .where('asset', '=', asset)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new Error(`no ${asset} holding on ${orderId} to take from`);
    return;
  }
  await q
    .insertInto('funds_order_holding')
    .values({ order_id: orderId, asset, quantity_units: delta.toString() })
    .onConflict((oc) =>
      oc.columns(['order_id', 'asset']).doUpdateSet({
        quantity_units: sql`funds_order_holding.quantity_units + ${delta.toString()}::numeric`,
      }),
    )
    .execute();
}

// ---- legs

export async function insertLegs(q: Q, rows: readonly LegRow[]): Promise<void> {
  if (rows.length === 0) return;
  await q
    .insertInto('funds_order_leg')
    .values(rows.map((r) => ({ ...r, refusal: r.refusal ? json(r.refusal) : null })))
    .execute();
}

export async function legs(q: Q, orderIds: readonly string[]): Promise<LegRow[]> {
  if (orderIds.length === 0) return [];
  return q
    .selectFrom('funds_order_leg')
    .selectAll()
    .where('order_id', 'in', [...orderIds])
    .orderBy('order_id')
    .orderBy('seq')
    .execute();
}

export async function legsOfRebalances(q: Q, ids: readonly string[]): Promise<LegRow[]> {
  if (ids.length === 0) return [];
  return q
    .selectFrom('funds_order_leg')
    .selectAll()
    .where('rebalance_id', 'in', [...ids])
    .orderBy('seq')
    .execute();
}

export async function leg(q: Q, id: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('funds_order_leg').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function updateLeg(q: Q, id: string, change: Partial<LegRow>): Promise<void> {
  const { refusal, ...rest } = change;
  await q
    .updateTable('funds_order_leg')
    .set({ ...rest, ...(refusal !== undefined ? { refusal: refusal ? json(refusal) : null } : {}) })
    .where('id', '=', id)
    .execute();
}

export async function nextLegSeq(q: Q, orderId: string): Promise<number> {
  const r = await q
    .selectFrom('funds_order_leg')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return (r?.seq == null ? 0 : Number(r.seq)) + 1;
}

// ---- rebalances

export async function insertRebalance(q: Q, row: RebalanceRow): Promise<void> {
  await q
    .insertInto('funds_rebalance')
    .values({ ...row, before: json(row.before), after: row.after ? json(row.after) : null })
    .execute();
}

export async function finishRebalance(
  q: Q,
  id: string,
  change: { after: RebalanceRow['after']; done_at: Date },
): Promise<void> {
  await q
    .updateTable('funds_rebalance')
    .set({ state: 'done', after: json(change.after), done_at: change.done_at })
    .where('id', '=', id)
    .where('state', '=', 'running')
    .execute();
}

export async function rebalancesPage<T>(
  q: Q,
  f: { modelId?: FundModelId; orderId?: string },
  paging: { page: number; pageSize: number },
  map: (rows: RebalanceRow[]) => Promise<T[]>,
): Promise<Paged<T>> {
  let query = q.selectFrom('funds_rebalance');
  if (f.modelId) query = query.where('model_id', '=', f.modelId);
  if (f.orderId) query = query.where('order_id', '=', f.orderId);
  return pageNewestFirst(query, 'started_at', paging, (rows) => map(rows as RebalanceRow[]));
}
