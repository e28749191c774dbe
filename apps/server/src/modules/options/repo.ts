import type { DerivativesBook, Paged } from '@bourse/protocol';
import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import { pageNewestFirst } from '../../http/paging.ts';
import type { OptionsTables } from './tables.ts';

/** The only SQL on the options_* tables. Functions taking `Tx` lock what they read for the caller's transaction. */
type Q = Db | Tx;
export type OrderRow = OptionsTables['options_order'];
export type SettingRow = OptionsTables['options_setting'];

/** What settlement reads of an order that is due. */
export type Due = Pick<
  OrderRow,
  | 'id'
  | 'customer_id'
  | 'book'
  | 'instrument_id'
  | 'direction'
  | 'stake_units'
  | 'payout_rate'
  | 'open_price'
  | 'expires_at'
>;

const DUE_COLUMNS = [
  'id',
  'customer_id',
  'book',
  'instrument_id',
  'direction',
  'stake_units',
  'payout_rate',
  'open_price',
  'expires_at',
] as const;

/** Where a settlement page starts: after this (expires_at, id), in that order. */
export type DueCursor = { at: Date; id: string } | null;

// ---- settings

/** Inserts the settings rows that do not exist yet; returns how many were inserted. */
export async function insertMissingSettings(q: Q, rows: readonly SettingRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const r = await q
    .insertInto('options_setting')
    .values([...rows])
    .onConflict((oc) => oc.column('symbol').doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0n);
}

export async function findSetting(q: Q, symbol: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('options_setting').selectAll().where('symbol', '=', symbol);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Every settings row (or the one of `symbol`), by symbol. */
export async function listSettings(q: Q, symbol?: string) {
  let query = q.selectFrom('options_setting').selectAll().orderBy('symbol');
  if (symbol) query = query.where('symbol', '=', symbol);
  return query.execute();
}

/** Inserts the symbol's settings or updates every setting of the existing row; returns the row saved. */
export async function upsertSetting(q: Q, row: SettingRow): Promise<SettingRow> {
  return q
    .insertInto('options_setting')
    .values(row)
    .onConflict((oc) =>
      oc.column('symbol').doUpdateSet({
        enabled: row.enabled,
        min_stake_units: row.min_stake_units,
        max_stake_units: row.max_stake_units,
        durations: row.durations,
        updated_at: row.updated_at,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

// ---- orders

/** Serializes one customer's buys for the rest of the transaction (advisory lock). */
export async function lockCustomerBuys(tx: Tx, customerId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`options:${customerId}`}, 0))`.execute(tx);
}

export async function findOrderByClientOid(q: Q, customerId: string, clientOid: string) {
  return q
    .selectFrom('options_order')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('client_oid', '=', clientOid)
    .executeTakeFirst();
}

/** The order `id`, only if it is `customerId`'s when one is given (null: any customer's). */
export async function findOrder(q: Q, id: string, customerId: string | null) {
  let query = q.selectFrom('options_order').selectAll().where('id', '=', id);
  if (customerId !== null) query = query.where('customer_id', '=', customerId);
  return query.executeTakeFirst();
}

export async function countOpenOrders(q: Q, customerId: string): Promise<number> {
  const open = await q
    .selectFrom('options_order')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('customer_id', '=', customerId)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  return Number(open.n);
}

export async function insertOrder(q: Q, row: OrderRow): Promise<void> {
  await q.insertInto('options_order').values(row).execute();
}

export type OrderFilter = {
  customerId?: string;
  book?: DerivativesBook;
  symbol?: string;
  status?: 'open' | 'settled';
  /** Opened at or after. */
  from: Date | null;
  /** Opened before. */
  to: Date | null;
};

/** One page of orders matching `filter`, newest opened first, with the total count. */
export function ordersPage<T>(
  q: Q,
  filter: OrderFilter,
  paging: { page: number; pageSize: number },
  map: (rows: OrderRow[]) => T[] | Promise<T[]>,
): Promise<Paged<T>> {
  let query = q.selectFrom('options_order');
  if (filter.customerId) query = query.where('customer_id', '=', filter.customerId);
  if (filter.book) query = query.where('book', '=', filter.book);
  if (filter.symbol) query = query.where('symbol', '=', filter.symbol);
  if (filter.status === 'open') query = query.where('status', '=', 'open');
  if (filter.status === 'settled') query = query.where('status', '<>', 'open');
  if (filter.from) query = query.where('opened_at', '>=', filter.from);
  if (filter.to) query = query.where('opened_at', '<', filter.to);
  return pageNewestFirst(query, 'opened_at', paging, map);
}

/** Open orders of a book per symbol: count, stakes up and down, and the most the house could pay (minor units as text). */
export async function openExposure(q: Q, book: DerivativesBook) {
  const rows = await sql<{ symbol: string; n: string; up: string; down: string; max_payout: string }>`
    select symbol, count(*)::text as n,
      coalesce(sum(stake_units) filter (where direction = 'up'), 0)::text as up,
      coalesce(sum(stake_units) filter (where direction = 'down'), 0)::text as down,
      coalesce(sum(floor(stake_units * payout_rate)), 0)::text as max_payout
    from options_order where status = 'open' and book = ${book}
    group by symbol order by symbol`.execute(q);
  return rows.rows;
}

// ---- settlement

/** Open orders of the given instruments that expired before that instrument's newest tick time. */
export async function dueOnTicks(
  tx: Tx,
  input: { instrumentIds: string[]; ats: Date[]; after: DueCursor; limit: number },
): Promise<Due[]> {
  const { instrumentIds, ats, after, limit } = input;
  const rows = await sql<Due>`
    select ${sql.join(DUE_COLUMNS.map((c) => sql.ref(`o.${c}`)))}
    from options_order o
    join unnest(${instrumentIds}::text[], ${ats}::timestamptz[]) as r(instrument_id, at)
      on r.instrument_id = o.instrument_id
    where o.status = 'open' and o.expires_at < r.at
      ${after ? sql`and (o.expires_at, o.id) > (${after.at}, ${after.id})` : sql``}
    order by o.expires_at, o.id
    limit ${limit}`.execute(tx);
  return rows.rows;
}

/** Open orders that expired at or before `cutoff`. */
export async function dueByTime(
  tx: Tx,
  input: { cutoff: Date; after: DueCursor; limit: number },
): Promise<Due[]> {
  const { cutoff, after, limit } = input;
  let q = tx
    .selectFrom('options_order')
    .select(DUE_COLUMNS)
    .where('status', '=', 'open')
    .where('expires_at', '<=', cutoff);
  if (after) q = q.where(sql<boolean>`(expires_at, id) > (${after.at}, ${after.id})`);
  return q.orderBy('expires_at').orderBy('id').limit(limit).execute();
}

/** Column arrays, one element per order to settle (numbers as decimal text). */
export type Settlements = {
  ids: string[];
  statuses: string[];
  prices: string[];
  sources: string[];
  ats: Date[];
  seqs: string[];
  payouts: string[];
  profits: string[];
};

/** Settles the orders still open among `s.ids` (one statement); returns the ids it changed. */
export async function settleOpenOrders(tx: Tx, s: Settlements, now: Date): Promise<string[]> {
  const updated = await sql<{ id: string }>`
    update options_order o set
      status = s.status, settlement_price = s.price::numeric, settlement_price_source = s.source,
      settlement_price_at = s.at, settlement_tick_seq = s.seq::bigint, payout_units = s.payout::numeric,
      profit_units = s.profit::numeric, settled_at = ${now}
    from unnest(${s.ids}::text[], ${s.statuses}::text[], ${s.prices}::text[], ${s.sources}::text[],
                ${s.ats}::timestamptz[], ${s.seqs}::text[], ${s.payouts}::text[], ${s.profits}::text[])
      as s(id, status, price, source, at, seq, payout, profit)
    where o.id = s.id and o.status = 'open'
    returning o.id`.execute(tx);
  return updated.rows.map((r) => r.id);
}
