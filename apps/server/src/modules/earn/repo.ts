import type { EarnKind, EarnOrderState, EarnProductState, Paged } from '@bourse/protocol';
import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import { pageNewestFirst } from '../../http/paging.ts';
import type { EarnTables } from './tables.ts';

/** The only SQL on the earn_* tables. Functions taking `lock` hold the row for the caller's transaction. */
type Q = Db | Tx;
export type SettingRow = EarnTables['earn_setting'];
export type FundingRow = EarnTables['earn_funding'];
export type FundingRequestRow = EarnTables['earn_funding_request'];
export type ProductRow = EarnTables['earn_product'];
export type OrderRow = EarnTables['earn_order'];
export type AccrualRow = EarnTables['earn_accrual'];
export type RunRow = EarnTables['earn_accrual_run'];
export type QuoteRow = EarnTables['earn_quote'];

// ---- settings

export async function setting(q: Q, options: { lock?: boolean } = {}): Promise<SettingRow> {
  let query = q.selectFrom('earn_setting').selectAll().where('id', '=', 1);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirstOrThrow();
}

export async function updateSetting(q: Q, patch: Omit<SettingRow, 'id'>): Promise<void> {
  await q
    .updateTable('earn_setting')
    .set({ ...patch, vip_levels: JSON.stringify(patch.vip_levels) as never })
    .where('id', '=', 1)
    .execute();
}

// ---- funding accounts and requests

export async function insertFunding(q: Q, row: FundingRow): Promise<void> {
  await q
    .insertInto('earn_funding')
    .values({ ...row, source: JSON.stringify(row.source) as never })
    .execute();
}

export async function findFunding(q: Q, id: string): Promise<FundingRow | undefined> {
  return q.selectFrom('earn_funding').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function fundings(q: Q, ids?: readonly string[]): Promise<FundingRow[]> {
  let query = q.selectFrom('earn_funding').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
  if (ids) {
    if (ids.length === 0) return [];
    query = query.where('id', 'in', [...ids]);
  }
  return query.execute();
}

export async function insertFundingRequest(q: Q, row: FundingRequestRow): Promise<void> {
  await q.insertInto('earn_funding_request').values(row).execute();
}

export async function findFundingRequest(q: Q, id: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('earn_funding_request').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function decideFundingRequest(
  q: Q,
  id: string,
  patch: Pick<FundingRequestRow, 'state' | 'decided_by' | 'decided_at' | 'decision_reason' | 'entry_id'>,
): Promise<void> {
  await q.updateTable('earn_funding_request').set(patch).where('id', '=', id).execute();
}

export async function fundingRequests(
  q: Q,
  filter: { fundingId?: string; state?: FundingRequestRow['state'] },
  paging: { page: number; pageSize: number },
): Promise<Paged<FundingRequestRow>> {
  let query = q.selectFrom('earn_funding_request');
  if (filter.fundingId) query = query.where('funding_id', '=', filter.fundingId);
  if (filter.state) query = query.where('state', '=', filter.state);
  return pageNewestFirst(query, 'requested_at', paging, (rows) => rows);
}

/** Per funding account: what approved requests paid in (minor units). */
export async function fundedTotals(q: Q): Promise<Map<string, bigint>> {
  const rows = await q
    .selectFrom('earn_funding_request')
    .select(['funding_id', (eb) => eb.fn.sum<string>('amount_units').as('total')])
    .where('state', '=', 'approved')
    .groupBy('funding_id')
    .execute();
  return new Map(rows.map((r) => [r.funding_id, BigInt(r.total ?? '0')]));
}

// ---- products

export async function insertProduct(q: Q, row: ProductRow): Promise<void> {
  await q
    .insertInto('earn_product')
    .values({
      ...row,
      names: JSON.stringify(row.names) as never,
      descriptions: JSON.stringify(row.descriptions) as never,
      jurisdictions: JSON.stringify(row.jurisdictions) as never,
    })
    .execute();
}

export async function findProduct(q: Q, id: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('earn_product').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function products(
  q: Q,
  filter: { kind?: EarnKind; states?: readonly EarnProductState[] },
): Promise<ProductRow[]> {
  let query = q.selectFrom('earn_product').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.states) query = query.where('state', 'in', [...filter.states]);
  return query.execute();
}

export async function setProductState(q: Q, id: string, state: EarnProductState, at: Date): Promise<void> {
  await q.updateTable('earn_product').set({ state, updated_at: at }).where('id', '=', id).execute();
}

/** Adds `delta` (signed minor units) to the product's subscribed principal. */
export async function addSubscribed(q: Q, id: string, delta: bigint): Promise<void> {
  await q
    .updateTable('earn_product')
    .set({ subscribed_units: sql`subscribed_units + ${delta.toString()}::numeric` })
    .where('id', '=', id)
    .execute();
}

/** Per product: running orders, and rewards paid to customers for good (accrued, less forfeited). */
export async function productStats(
  q: Q,
  productIds: readonly string[],
): Promise<Map<string, { running: number; paid: bigint }>> {
  if (productIds.length === 0) return new Map();
  const rows = await q
    .selectFrom('earn_order')
    .select([
      'product_id',
      sql<string>`count(*) filter (where state = 'in_custody')`.as('running'),
      sql<string>`coalesce(sum(accrued_units - coalesce(rewards_forfeited_units, 0)), 0)`.as('paid'),
    ])
    .where('product_id', 'in', [...productIds])
    .groupBy('product_id')
    .execute();
  return new Map(rows.map((r) => [r.product_id, { running: Number(r.running), paid: BigInt(r.paid) }]));
}

// ---- orders

export async function insertOrder(q: Q, row: OrderRow): Promise<void> {
  await q.insertInto('earn_order').values(row).execute();
}

export async function findOrder(
  q: Q,
  id: string,
  options: { lock?: boolean; customerId?: string } = {},
): Promise<OrderRow | undefined> {
  let query = q.selectFrom('earn_order').selectAll().where('id', '=', id);
  if (options.customerId) query = query.where('customer_id', '=', options.customerId);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function updateOrder(q: Q, id: string, patch: Partial<Omit<OrderRow, 'id'>>): Promise<void> {
  await q.updateTable('earn_order').set(patch).where('id', '=', id).execute();
}

/** Principal the customer holds in the product's running orders. */
export async function heldInProduct(q: Q, productId: string, customerId: string): Promise<bigint> {
  const row = await q
    .selectFrom('earn_order')
    .select((eb) => eb.fn.sum<string>('amount_units').as('held'))
    .where('product_id', '=', productId)
    .where('customer_id', '=', customerId)
    .where('state', '=', 'in_custody')
    .executeTakeFirst();
  return BigInt(row?.held ?? '0');
}

export type OrderFilter = {
  customerId?: string;
  productId?: string;
  kind?: EarnKind;
  states?: readonly EarnOrderState[];
};

export async function ordersPage<T>(
  q: Q,
  filter: OrderFilter,
  paging: { page: number; pageSize: number },
  map: (rows: OrderRow[]) => T[] | Promise<T[]>,
): Promise<Paged<T>> {
  let query = q.selectFrom('earn_order');
  if (filter.customerId) query = query.where('customer_id', '=', filter.customerId);
  if (filter.productId) query = query.where('product_id', '=', filter.productId);
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.states) query = query.where('state', 'in', [...filter.states]);
  return pageNewestFirst(query, 'created_at', paging, map);
}

/** Orders with a day due at `now`, earliest first. */
export async function dueOrderIds(q: Q, now: Date, limit: number): Promise<string[]> {
  const rows = await q
    .selectFrom('earn_order')
    .select('id')
    .where('state', '=', 'in_custody')
    .where('next_accrual_at', '<=', now)
    .orderBy('next_accrual_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Whether any order is in custody (a cut-off then has a run to record). */
export async function anyRunning(q: Q): Promise<boolean> {
  const row = await q
    .selectFrom('earn_order')
    .select('id')
    .where('state', '=', 'in_custody')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Redemptions whose money is due at `now`. */
export async function arrivingOrderIds(q: Q, now: Date, limit: number): Promise<string[]> {
  const rows = await q
    .selectFrom('earn_order')
    .select('id')
    .where('state', '=', 'redeeming')
    .where('arrives_at', '<=', now)
    .orderBy('arrives_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Per currency over a customer's orders of one kind and book. */
export async function customerTotals(q: Q, customerId: string, kind: EarnKind, book: 'real' | 'demo') {
  return q
    .selectFrom('earn_order')
    .select([
      'currency',
      sql<string>`coalesce(sum(amount_units) filter (where state in ('in_custody', 'redeeming')), 0)`.as(
        'principal',
      ),
      sql<string>`coalesce(sum(accrued_units) filter (where state = 'in_custody'), 0)`.as('accrued'),
      sql<string>`coalesce(sum(accrued_units) filter (where state = 'completed'), 0)`.as('earned'),
      sql<string>`count(*) filter (where state = 'in_custody')`.as('running'),
    ])
    .where('customer_id', '=', customerId)
    .where('kind', '=', kind)
    .where('book', '=', book)
    .groupBy('currency')
    .orderBy('currency')
    .execute();
}

/** What a funding account's products returned to it: forfeited rewards and unused reserves. */
export async function returnedTotals(q: Q): Promise<Map<string, bigint>> {
  const { rows } = await sql<{ funding_id: string; returned: string }>`
    select p.funding_id,
           coalesce(sum(o.total_reward_units - o.accrued_units + coalesce(o.rewards_forfeited_units, 0)), 0)::text as returned
      from earn_order o join earn_product p on p.id = o.product_id
     where o.state in ('redeeming', 'redeemed') and o.book = 'real'
     group by p.funding_id`.execute(q);
  return new Map(rows.map((r) => [r.funding_id, BigInt(r.returned)]));
}

// ---- accruals and runs

export async function insertAccrual(q: Q, row: AccrualRow): Promise<void> {
  await q.insertInto('earn_accrual').values(row).execute();
}

export async function accrualsOf(q: Q, orderId: string): Promise<AccrualRow[]> {
  return q.selectFrom('earn_accrual').selectAll().where('order_id', '=', orderId).orderBy('day').execute();
}

/** Adds one order's day to the run of its cut-off (creating the run). */
export async function addToRun(
  q: Q,
  input: {
    id: string;
    cutoffAt: Date;
    now: Date;
    book: 'real' | 'demo';
    currency: string;
    amountUnits: bigint;
    matured: boolean;
  },
): Promise<void> {
  const real = input.book === 'real';
  const totals = real ? JSON.stringify({ [input.currency]: input.amountUnits.toString() }) : '{}';
  await sql`
    insert into earn_accrual_run (id, cutoff_at, orders, matured, totals, demo_orders, started_at)
    values (${input.id}, ${input.cutoffAt}, ${real ? 1 : 0}, ${input.matured ? 1 : 0}, ${totals}::jsonb,
            ${real ? 0 : 1}, ${input.now})
    on conflict (cutoff_at) do update set
      orders = earn_accrual_run.orders + excluded.orders,
      matured = earn_accrual_run.matured + excluded.matured,
      demo_orders = earn_accrual_run.demo_orders + excluded.demo_orders,
      finished_at = null,
      totals = earn_accrual_run.totals || (
        select coalesce(jsonb_object_agg(k, ((coalesce(earn_accrual_run.totals ->> k, '0'))::numeric
                                             + (excluded.totals ->> k)::numeric)::text), '{}'::jsonb)
          from jsonb_object_keys(excluded.totals) as k)`.execute(q);
}

/** Opens the run of a cut-off with nothing posted yet (so every cut-off has its row). */
export async function ensureRun(q: Q, id: string, cutoffAt: Date, now: Date): Promise<void> {
  await q
    .insertInto('earn_accrual_run')
    .values({
      id,
      cutoff_at: cutoffAt,
      orders: 0,
      matured: 0,
      totals: '{}' as never,
      demo_orders: 0,
      started_at: now,
      finished_at: null,
    })
    .onConflict((oc) => oc.column('cutoff_at').doNothing())
    .execute();
}

/** Marks finished every run up to `through` (the job found nothing left due for them). */
export async function finishRuns(q: Q, through: Date, now: Date): Promise<void> {
  await q
    .updateTable('earn_accrual_run')
    .set({ finished_at: now })
    .where('finished_at', 'is', null)
    .where('cutoff_at', '<=', through)
    .execute();
}

export async function runsPage(q: Q, paging: { page: number; pageSize: number }): Promise<Paged<RunRow>> {
  return pageNewestFirst(q.selectFrom('earn_accrual_run'), 'cutoff_at', paging, (rows) => rows);
}

// ---- quotes

export async function insertQuote(q: Q, row: QuoteRow): Promise<void> {
  await q.insertInto('earn_quote').values(row).execute();
}

export async function findQuote(q: Q, id: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('earn_quote').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function useQuote(q: Q, id: string, at: Date): Promise<void> {
  await q.updateTable('earn_quote').set({ used_at: at }).where('id', '=', id).execute();
}
