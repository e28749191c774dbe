import type { Paged } from '@bourse/protocol';
import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import { pageNewestFirst } from '../../http/paging.ts';
import type { ContractsTables } from './tables.ts';

/**
 * The only SQL on the contract tables (`contracts_*`) and the module's advisory locks. Every function
 * takes the database or the caller's transaction; row locks (`…ForUpdate`, `lock…`) only mean
 * something inside a transaction.
 */

type Q = Db | Tx;
type Book = 'real' | 'demo';
type Paging = { page: number; pageSize: number };

export type SettingRow = ContractsTables['contracts_setting'];
export type OrderRow = ContractsTables['contracts_order'];
export type PositionRow = ContractsTables['contracts_position'];
export type CloseRow = ContractsTables['contracts_close'];
export type FundingRow = ContractsTables['contracts_funding'];
export type CursorRow = ContractsTables['contracts_engine_cursor'];

// ---- locks ----------------------------------------------------------------------------------------

/** One writer per customer at a time for contract changes (request paths and the engine alike). */
export async function lockCustomer(tx: Tx, customerId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`contracts:customer:${customerId}`}))`.execute(tx);
}

/** Every draw on a book's insurance account takes this lock first, so its balance read stays true. */
export async function lockInsurance(tx: Tx, book: Book): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`contracts:insurance:${book}`}))`.execute(tx);
}

/** A transaction lock on any key (twins of one staff request queue on it). */
export async function lockKey(tx: Tx, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(tx);
}

/** Tries the risk engine's lock; false when another process holds it. */
export async function tryLockKey(tx: Tx, key: string): Promise<boolean> {
  const { rows } = await sql<{
    ok: boolean;
  }>`select pg_try_advisory_xact_lock(hashtext(${key})) as ok`.execute(tx);
  return rows[0]?.ok === true;
}

// ---- settings -------------------------------------------------------------------------------------

export async function loadSettings(q: Q, symbol?: string): Promise<SettingRow[]> {
  let query = q.selectFrom('contracts_setting').selectAll().orderBy('symbol');
  if (symbol !== undefined) query = query.where('symbol', '=', symbol);
  return query.execute();
}

/** Inserts the settings of instruments that have none; returns how many were inserted. */
export async function insertSettingsIfMissing(db: Db, rows: readonly SettingRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await db
    .insertInto('contracts_setting')
    .values([...rows])
    .onConflict((oc) => oc.column('symbol').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}

export async function updateSetting(
  tx: Tx,
  symbol: string,
  change: Partial<Omit<SettingRow, 'symbol' | 'created_at'>>,
): Promise<void> {
  await tx.updateTable('contracts_setting').set(change).where('symbol', '=', symbol).execute();
}

// ---- orders ---------------------------------------------------------------------------------------

export async function orderById(q: Q, id: string): Promise<OrderRow | undefined> {
  return q.selectFrom('contracts_order').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function lockOrder(tx: Tx, id: string): Promise<OrderRow | undefined> {
  return tx.selectFrom('contracts_order').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function orderByClientOid(
  q: Q,
  customerId: string,
  clientOid: string,
): Promise<OrderRow | undefined> {
  return q
    .selectFrom('contracts_order')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('client_oid', '=', clientOid)
    .executeTakeFirst();
}

export async function insertOrder(tx: Tx, order: OrderRow): Promise<void> {
  await tx.insertInto('contracts_order').values(order).execute();
}

/** Open positions plus pending orders of one customer on one instrument and book. */
export async function openAndPendingCount(
  tx: Tx,
  key: { customerId: string; symbol: string; book: Book },
): Promise<number> {
  const held = await tx
    .selectFrom('contracts_position')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('customer_id', '=', key.customerId)
    .where('symbol', '=', key.symbol)
    .where('book', '=', key.book)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  const pending = await tx
    .selectFrom('contracts_order')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('customer_id', '=', key.customerId)
    .where('symbol', '=', key.symbol)
    .where('book', '=', key.book)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(held.n) + Number(pending.n);
}

export async function markOrderCancelled(
  tx: Tx,
  input: { id: string; reason: string; now: Date },
): Promise<void> {
  await tx
    .updateTable('contracts_order')
    .set({ status: 'cancelled', cancel_reason: input.reason, updated_at: input.now })
    .where('id', '=', input.id)
    .execute();
}

export async function markOrderFilled(
  tx: Tx,
  input: { id: string; positionId: string; now: Date },
): Promise<void> {
  await tx
    .updateTable('contracts_order')
    .set({ status: 'filled', position_id: input.positionId, updated_at: input.now })
    .where('id', '=', input.id)
    .execute();
}

/** An instrument's pending orders, locked, by id. */
export async function pendingOrdersForUpdate(tx: Tx, symbol: string): Promise<OrderRow[]> {
  return tx
    .selectFrom('contracts_order')
    .selectAll()
    .where('symbol', '=', symbol)
    .where('status', '=', 'pending')
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function ordersPage(
  q: Q,
  filter: { customerId: string; book: Book; status: OrderRow['status']; symbol?: string },
  paging: Paging,
): Promise<Paged<OrderRow>> {
  let query = q
    .selectFrom('contracts_order')
    .where('customer_id', '=', filter.customerId)
    .where('book', '=', filter.book)
    .where('status', '=', filter.status);
  if (filter.symbol) query = query.where('symbol', '=', filter.symbol);
  return pageNewestFirst(query, 'created_at', paging, (rows) => rows);
}

// ---- positions ------------------------------------------------------------------------------------

export async function positionById(q: Q, id: string): Promise<PositionRow | undefined> {
  return q.selectFrom('contracts_position').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The position, locked; null when there is none. */
export async function lockPosition(tx: Tx, id: string): Promise<PositionRow | null> {
  const row = await tx
    .selectFrom('contracts_position')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row ?? null;
}

export async function insertPosition(tx: Tx, row: PositionRow): Promise<void> {
  await tx.insertInto('contracts_position').values(row).execute();
}

export async function updatePosition(
  tx: Tx,
  id: string,
  change: Partial<Omit<PositionRow, 'id' | 'customer_id' | 'book' | 'symbol'>>,
): Promise<void> {
  await tx.updateTable('contracts_position').set(change).where('id', '=', id).execute();
}

/** A customer's open positions on one book (optionally one instrument), newest first. */
export async function customerOpenPositions(
  q: Q,
  filter: { customerId: string; book: Book; symbol?: string },
): Promise<PositionRow[]> {
  let query = q
    .selectFrom('contracts_position')
    .selectAll()
    .where('customer_id', '=', filter.customerId)
    .where('book', '=', filter.book)
    .where('status', '=', 'open')
    .orderBy('opened_at', 'desc')
    .orderBy('id', 'desc');
  if (filter.symbol) query = query.where('symbol', '=', filter.symbol);
  return query.execute();
}

/** A customer's open positions on one book (optionally one instrument), oldest first: close-all's order. */
export async function customerOpenPositionIds(
  q: Q,
  filter: { customerId: string; book: Book; symbol?: string },
): Promise<Array<{ id: string; symbol: string }>> {
  let query = q
    .selectFrom('contracts_position')
    .select(['id', 'symbol'])
    .where('customer_id', '=', filter.customerId)
    .where('book', '=', filter.book)
    .where('status', '=', 'open')
    .orderBy('opened_at');
  if (filter.symbol) query = query.where('symbol', '=', filter.symbol);
  return query.execute();
}

/** An instrument's open positions (both books), locked, by id. */
export async function openPositionsForUpdate(tx: Tx, symbol: string): Promise<PositionRow[]> {
  return tx
    .selectFrom('contracts_position')
    .selectAll()
    .where('symbol', '=', symbol)
    .where('status', '=', 'open')
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** A book's open positions, by instrument (the back office's exposure). */
export async function openPositionsOfBook(q: Q, book: Book): Promise<PositionRow[]> {
  return q
    .selectFrom('contracts_position')
    .selectAll()
    .where('book', '=', book)
    .where('status', '=', 'open')
    .orderBy('symbol')
    .execute();
}

export async function historyPage(
  q: Q,
  filter: {
    customerId: string;
    book: Book;
    statuses: ReadonlyArray<PositionRow['status']>;
    symbol?: string;
    from?: Date;
    to?: Date;
  },
  paging: Paging,
): Promise<Paged<PositionRow>> {
  let query = q
    .selectFrom('contracts_position')
    .where('customer_id', '=', filter.customerId)
    .where('book', '=', filter.book)
    .where('status', 'in', [...filter.statuses]);
  if (filter.symbol) query = query.where('symbol', '=', filter.symbol);
  if (filter.from) query = query.where('closed_at', '>=', filter.from);
  if (filter.to) query = query.where('closed_at', '<', filter.to);
  return pageNewestFirst(query, 'closed_at', paging, (rows) => rows);
}

/** The back office's positions list: any customer, newest first. */
export async function positionsPage(
  q: Q,
  filter: { status: PositionRow['status']; book?: Book; symbol?: string; customerId?: string },
  paging: Paging,
): Promise<{ total: number; rows: PositionRow[] }> {
  let query = q.selectFrom('contracts_position').where('status', '=', filter.status);
  if (filter.book) query = query.where('book', '=', filter.book);
  if (filter.symbol) query = query.where('symbol', '=', filter.symbol);
  if (filter.customerId) query = query.where('customer_id', '=', filter.customerId);
  const total = Number((await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await query
    .selectAll()
    .orderBy('opened_at', 'desc')
    .orderBy('id', 'desc')
    .limit(paging.pageSize)
    .offset((paging.page - 1) * paging.pageSize)
    .execute();
  return { total, rows };
}

// ---- TP/SL (a position's or a pending order's) ----------------------------------------------------

export type LevelsTable = 'contracts_position' | 'contracts_order';

export async function levelsHolder(
  q: Q,
  table: LevelsTable,
  id: string,
): Promise<PositionRow | OrderRow | undefined> {
  return q.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
}

/** Sets TP/SL while the row is still in `status`; false when it no longer is. */
export async function updateLevels(
  tx: Tx,
  input: {
    table: LevelsTable;
    id: string;
    status: 'open' | 'pending';
    change: { tp_price: string | null; sl_price: string | null; updated_at: Date };
  },
): Promise<boolean> {
  const r = await tx
    .updateTable(input.table)
    .set(input.change)
    .where('id', '=', input.id)
    .where('status', '=', input.status as never)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function statusOf(tx: Tx, table: LevelsTable, id: string): Promise<string> {
  const row = await tx.selectFrom(table).select('status').where('id', '=', id).executeTakeFirstOrThrow();
  return row.status;
}

// ---- closes ---------------------------------------------------------------------------------------

export async function insertClose(tx: Tx, row: CloseRow): Promise<void> {
  await tx.insertInto('contracts_close').values(row).execute();
}

export async function closeById(q: Q, id: string): Promise<CloseRow> {
  return q.selectFrom('contracts_close').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function closesPage(
  q: Q,
  filter: { customerId: string; book: Book; positionId?: string; symbol?: string },
  paging: Paging,
): Promise<Paged<CloseRow>> {
  let query = q
    .selectFrom('contracts_close')
    .where('customer_id', '=', filter.customerId)
    .where('book', '=', filter.book);
  if (filter.positionId) query = query.where('position_id', '=', filter.positionId);
  if (filter.symbol) query = query.where('symbol', '=', filter.symbol);
  return pageNewestFirst(query, 'closed_at', paging, (rows) => rows);
}

// ---- funding --------------------------------------------------------------------------------------

/** Inserts a funding charge unless the position already has one at that time; false if it had. */
export async function insertFundingOnce(tx: Tx, row: FundingRow): Promise<boolean> {
  const inserted = await tx
    .insertInto('contracts_funding')
    .values(row)
    .onConflict((oc) => oc.columns(['position_id', 'funding_at']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
}

export async function setFundingEntry(tx: Tx, id: string, entryId: string): Promise<void> {
  await tx.updateTable('contracts_funding').set({ entry_id: entryId }).where('id', '=', id).execute();
}

/**
 * Whether any open position of the instrument, opened at or before `latest`, has no charge at or
 * after it. Lock-free: the caller locks the positions only when one does.
 */
export async function anyPositionOwing(tx: Tx, symbol: string, latest: Date): Promise<boolean> {
  const owing = await tx
    .selectFrom('contracts_position as p')
    .select('p.id')
    .where('p.symbol', '=', symbol)
    .where('p.status', '=', 'open')
    .where('p.opened_at', '<=', latest)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('contracts_funding as f')
            .select('f.id')
            .whereRef('f.position_id', '=', 'p.id')
            .where('f.funding_at', '>=', latest),
        ),
      ),
    )
    .limit(1)
    .executeTakeFirst();
  return owing !== undefined;
}

/** The instrument's open positions opened at or before `latest`, locked, each with its last funding time. */
export async function openPositionsWithLastFunding(
  tx: Tx,
  symbol: string,
  latest: Date,
): Promise<Array<PositionRow & { last_funding_at: Date | null }>> {
  const rows = await tx
    .selectFrom('contracts_position as p')
    .selectAll('p')
    .select((eb) =>
      eb
        .selectFrom('contracts_funding as f')
        .select((f) => f.fn.max('f.funding_at').as('last'))
        .whereRef('f.position_id', '=', 'p.id')
        .as('last_funding_at'),
    )
    .where('p.symbol', '=', symbol)
    .where('p.status', '=', 'open')
    .where('p.opened_at', '<=', latest)
    .orderBy('p.id')
    .forUpdate()
    .execute();
  return rows.map((r) => ({ ...r, last_funding_at: r.last_funding_at as Date | null }));
}

export async function fundingPage(
  q: Q,
  filter: { customerId: string; book: Book; positionId?: string; symbol?: string },
  paging: Paging,
): Promise<Paged<FundingRow>> {
  let query = q
    .selectFrom('contracts_funding')
    .where('customer_id', '=', filter.customerId)
    .where('book', '=', filter.book);
  if (filter.positionId) query = query.where('position_id', '=', filter.positionId);
  if (filter.symbol) query = query.where('symbol', '=', filter.symbol);
  return pageNewestFirst(query, 'funding_at', paging, (rows) => rows);
}

// ---- the risk engine's cursor ---------------------------------------------------------------------

export async function insertCursorIfMissing(q: Q, row: CursorRow): Promise<void> {
  await q
    .insertInto('contracts_engine_cursor')
    .values(row)
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

export async function lockCursor(tx: Tx, name: string): Promise<CursorRow | undefined> {
  return tx
    .selectFrom('contracts_engine_cursor')
    .selectAll()
    .where('name', '=', name)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateCursor(tx: Tx, name: string, change: Omit<CursorRow, 'name'>): Promise<void> {
  await tx.updateTable('contracts_engine_cursor').set(change).where('name', '=', name).execute();
}

export async function cursorSeq(q: Q, name: string): Promise<string | undefined> {
  const row = await q
    .selectFrom('contracts_engine_cursor')
    .select('seq')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.seq;
}
