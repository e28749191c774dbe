import { type RawBuilder, type Selectable, type SelectQueryBuilder, type StringReference, sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import type { Book, OrderState } from './order.ts';
import type { SpotTables } from './tables.ts';

/**
 * The only SQL on the spot_* tables. Each function takes the database or the caller's transaction
 * (`Q`); none opens a transaction of its own, so the caller decides what commits together.
 */
type Q = Db | Tx;

export type SpotMarketTableRow = SpotTables['spot_market'];
export type SpotOrderTableRow = SpotTables['spot_order'];
export type SpotTradeTableRow = SpotTables['spot_trade'];
/** A trade row as settlement writes it (its fees went to the market's own account: `fee_account` null). */
export type NewSpotTradeRow = Omit<SpotTradeTableRow, 'fee_account'>;
export type SpotJournalTableRow = SpotTables['spot_journal'];

const OPEN = ['unfilled', 'partially_filled'] as const;

// ---------------------------------------------------------------- rows ⇄ order state

export function orderRow(o: OrderState): SpotOrderTableRow {
  return {
    id: o.id,
    customer_id: o.customerId,
    book: o.book,
    symbol: o.symbol,
    client_oid: o.clientOid,
    side: o.side,
    type: o.type,
    tif: o.tif,
    post_only: o.postOnly,
    price_ticks: o.priceTicks === null ? null : o.priceTicks.toString(),
    freeze_price_ticks: o.freezePriceTicks === null ? null : o.freezePriceTicks.toString(),
    qty_lots: o.qtyLots.toString(),
    filled_lots: o.filledLots.toString(),
    filled_amount_units: o.filledAmount.toString(),
    fee_units: o.fee.toString(),
    frozen_units: o.frozen.toString(),
    frozen_currency: o.frozenCurrency,
    fee_rate_maker: o.makerRate,
    fee_rate_taker: o.takerRate,
    status: o.status,
    cancel_reason: o.cancelReason,
    seq: o.seq.toString(),
    created_at: o.createdAt,
    updated_at: o.updatedAt,
  };
}

export function orderFromRow(r: SpotOrderTableRow | Record<string, unknown>): OrderState {
  const row = r as SpotOrderTableRow;
  return {
    id: row.id,
    customerId: row.customer_id,
    symbol: row.symbol,
    book: row.book,
    clientOid: row.client_oid,
    side: row.side,
    type: row.type,
    tif: row.tif,
    postOnly: row.post_only,
    priceTicks: row.price_ticks === null ? null : BigInt(row.price_ticks),
    freezePriceTicks: row.freeze_price_ticks === null ? null : BigInt(row.freeze_price_ticks),
    qtyLots: BigInt(row.qty_lots),
    filledLots: BigInt(row.filled_lots),
    filledAmount: BigInt(row.filled_amount_units),
    fee: BigInt(row.fee_units),
    frozen: BigInt(row.frozen_units),
    frozenCurrency: row.frozen_currency,
    makerRate: String(row.fee_rate_maker),
    takerRate: String(row.fee_rate_taker),
    status: row.status,
    cancelReason: row.cancel_reason as OrderState['cancelReason'],
    seq: BigInt(row.seq),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

// ---------------------------------------------------------------- spot_market

export async function selectMarkets(q: Q) {
  return q.selectFrom('spot_market').selectAll().orderBy('symbol').execute();
}

export async function selectMarket(q: Q, symbol: string) {
  return q.selectFrom('spot_market').selectAll().where('symbol', '=', symbol).executeTakeFirstOrThrow();
}

/** Inserts a market unless its symbol exists; returns how many rows were added (0 or 1). */
export async function insertMarketIfAbsent(q: Q, row: SpotMarketTableRow): Promise<number> {
  const result = await q
    .insertInto('spot_market')
    .values(row)
    .onConflict((oc) => oc.column('symbol').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}

export async function insertMarket(q: Q, row: SpotMarketTableRow): Promise<void> {
  await q.insertInto('spot_market').values(row).execute();
}

export async function updateMarket(
  q: Q,
  symbol: string,
  change: Partial<Record<string, unknown>>,
  now: Date,
): Promise<void> {
  await q
    .updateTable('spot_market')
    .set({ ...change, updated_at: now })
    .where('symbol', '=', symbol)
    .execute();
}

// ---------------------------------------------------------------- spot_setting

export async function readSetting(q: Q, key: 'kill_switch' | 'market_maker'): Promise<unknown> {
  const row = await q.selectFrom('spot_setting').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** A setting's value as compared after reading it back (jsonb orders keys its own way): keys sorted. */
export function settingKey(value: unknown): string {
  if (!value || typeof value !== 'object') return 'null';
  return JSON.stringify(Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))));
}

export async function writeSetting(
  q: Q,
  key: 'kill_switch' | 'market_maker',
  value: unknown,
  now: Date,
): Promise<void> {
  await q
    .insertInto('spot_setting')
    .values({ key, value: JSON.stringify(value), updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
    .execute();
}

// ---------------------------------------------------------------- spot_order

/** A customer's order by id, else by client_oid. */
export async function findOrderRow(
  q: Q,
  customerId: string,
  key: { order_id?: string; client_oid?: string },
) {
  let query = q.selectFrom('spot_order').selectAll().where('customer_id', '=', customerId);
  query = key.order_id
    ? query.where('id', '=', key.order_id)
    : query.where('client_oid', '=', key.client_oid ?? '');
  return query.executeTakeFirst();
}

/** Ids of a customer's open orders (on one market when `symbol` is given). */
export async function openOrderIds(q: Q, customerId: string, symbol?: string): Promise<string[]> {
  let query = q
    .selectFrom('spot_order')
    .select('id')
    .where('customer_id', '=', customerId)
    .where('status', 'in', [...OPEN]);
  if (symbol) query = query.where('symbol', '=', symbol);
  return (await query.execute()).map((r) => r.id);
}

export type OrderFilter = {
  customerId: string;
  open: boolean;
  status?: string;
  symbol?: string;
  side?: string;
  /** Created in [from, to) (http/paging.ts `dateRangeOf`). */
  from?: Date | null;
  to?: Date | null;
};

/** A window of a list: a page, or an export's slice at any offset. */
type Window = { offset: number; limit: number };

/**
 * One window of a customer list, newest first (id breaks ties so windows stay stable), and how many
 * rows the filter matches (spot_order and spot_trade: both have `created_at` and `id`). The casts only
 * name what `count(*)` and `selectAll()` return, as http/paging.ts's `pageNewestFirst` does.
 */
async function newestFirst<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, window: Window) {
  const counted = await query
    .select((eb) => eb.fn.countAll().as('n'))
    .$castTo<{ n: string | number | bigint }>()
    .executeTakeFirstOrThrow();
  const rows = await query
    .selectAll()
    .$castTo<Selectable<DB[TB]>>()
    .orderBy('created_at' as StringReference<DB, TB>, 'desc')
    .orderBy('id' as StringReference<DB, TB>, 'desc')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { total: Number(counted.n), rows };
}

/** One window of a customer's orders, newest first, and how many match the filter. */
export async function orderRowsPage(q: Q, f: OrderFilter, window: Window) {
  let query = q.selectFrom('spot_order').where('customer_id', '=', f.customerId);
  query = f.open
    ? query.where('status', 'in', [...OPEN])
    : query.where('status', 'in', f.status ? [f.status as 'filled'] : ['filled', 'cancelled']);
  if (f.symbol) query = query.where('symbol', '=', f.symbol);
  if (f.side) query = query.where('side', '=', f.side as 'buy');
  if (f.from) query = query.where('created_at', '>=', f.from);
  if (f.to) query = query.where('created_at', '<', f.to);
  return newestFirst(query, window);
}

/** Every open order (the frozen check). */
export async function openOrderRows(q: Q) {
  return q
    .selectFrom('spot_order')
    .selectAll()
    .where('status', 'in', [...OPEN])
    .execute();
}

/** Every customer who ever placed a spot order. */
export async function orderCustomerIds(q: Q): Promise<string[]> {
  const rows = await q.selectFrom('spot_order').select('customer_id').distinct().execute();
  return rows.map((r) => r.customer_id);
}

/**
 * The (customer, client_oid) pairs already used, looked up by pairs so the unique index
 * `(customer_id, client_oid)` answers each one (a `client_oid in (…)` alone scanned every order).
 */
export async function takenClientOids(q: Q, pairs: ReadonlyArray<{ customerId: string; clientOid: string }>) {
  if (pairs.length === 0) return [];
  const { rows } = await sql<{ customer_id: string; client_oid: string }>`
    select o.customer_id, o.client_oid
      from unnest(${pairs.map((p) => p.customerId)}::text[], ${pairs.map((p) => p.clientOid)}::text[])
             as w(customer_id, client_oid)
      join spot_order o on o.customer_id = w.customer_id and o.client_oid = w.client_oid`.execute(q);
  return rows;
}

/**
 * A batch's new orders, its journal rows and its requests' idempotency claims (`claims`, a statement
 * of the http layer's: db/database.ts `embedClaims`) in one statement: the ids of the orders inserted
 * (one whose client_oid a twin took meanwhile is not; the caller then rolls the whole batch back) and
 * the claims recorded. The orders whose funds the batch's cancels released (`released`) hold nothing
 * from then on: their rows say so in the same statement, so the rows and the ledger agree at every
 * commit — the cancel itself is written by its settlement, in the book's next transaction. The prior
 * batch's settlement rows (`settled`) go in the same statement: the book's transaction is one round
 * trip shorter.
 */
export async function insertOrdersAndJournal(
  q: Q,
  input: {
    orders: OrderState[];
    journal: SpotJournalTableRow[];
    released?: readonly string[];
    claims?: RawBuilder<{ key_hash: string }> | null;
    /** The prior batch's settlement (its entries posted already in the same transaction): its rows go first. */
    settled?: SettledRows | null;
  },
): Promise<{ placed: Set<string>; claimed: string[] }> {
  const { orders, journal, released = [], claims, settled } = input;
  const parts: RawBuilder<unknown>[] = [];
  // A released order the settlement also writes gets its zero there (one statement, one update a row).
  const settledIds = new Set(settled?.orders.map((o) => o.id));
  const zeroed = released.filter((id) => !settledIds.has(id));
  if (settled) parts.push(settlementParts(settled, new Set(released)));
  if (journal.length > 0) parts.push(sql`journaled as (${q.insertInto('spot_journal').values(journal)})`);
  if (zeroed.length > 0)
    parts.push(
      sql`zeroed as (${q.updateTable('spot_order').set({ frozen_units: '0' }).where('id', 'in', zeroed)})`,
    );
  if (orders.length > 0)
    parts.push(
      sql`placed as (${q
        .insertInto('spot_order')
        .values(orders.map(orderRow))
        .onConflict((oc) => oc.columns(['customer_id', 'client_oid']).doNothing())
        .returning('id')})`,
    );
  if (claims) parts.push(sql`claimed as (${claims})`);
  if (parts.length === 0) return { placed: new Set(), claimed: [] };
  const none = sql`'{}'::text[]`;
  const { rows } = await sql<{ placed: string[]; claimed: string[] }>`
    with ${sql.join(parts)}
    select ${orders.length > 0 ? sql`(select coalesce(array_agg(id), '{}') from placed)` : none} as placed,
           ${claims ? sql`(select coalesce(array_agg(key_hash), '{}') from claimed)` : none} as claimed`.execute(
    q,
  );
  const row = rows[0];
  return { placed: new Set(row?.placed ?? []), claimed: row?.claimed ?? [] };
}

/** What recovery loads into a book: its open orders and every order journaled after the cursor. */
export async function orderRowsToRecover(q: Q, symbol: string, book: Book, settledSeq: number) {
  return q
    .selectFrom('spot_order')
    .selectAll()
    .where('symbol', '=', symbol)
    .where('book', '=', book)
    .where((eb) => eb.or([eb('status', 'in', [...OPEN]), eb('seq', '>', String(settledSeq))]))
    .execute();
}

// ---------------------------------------------------------------- spot_trade

export type FillFilter = {
  customerId: string;
  symbol?: string;
  orderId?: string;
  /** Created in [from, to) (http/paging.ts `dateRangeOf`). */
  from?: Date | null;
  to?: Date | null;
};

/** One window of a customer's fills (as maker or taker), newest first, and how many match. */
export async function tradeRowsPage(q: Q, f: FillFilter, window: Window) {
  const me = f.customerId;
  let query = q
    .selectFrom('spot_trade')
    .where((eb) => eb.or([eb('maker_customer_id', '=', me), eb('taker_customer_id', '=', me)]));
  if (f.symbol) query = query.where('symbol', '=', f.symbol);
  if (f.orderId) {
    const id = f.orderId;
    query = query.where((eb) => eb.or([eb('maker_order_id', '=', id), eb('taker_order_id', '=', id)]));
  }
  if (f.from) query = query.where('created_at', '>=', f.from);
  if (f.to) query = query.where('created_at', '<', f.to);
  return newestFirst(query, window);
}

/**
 * The trades an order made as the taker since `since` (its creation): what it filled on arrival,
 * oldest first. Through the taker's own index (customer, time), so a customer with a long history
 * costs no more than a new one; no count.
 */
export async function takerTradesOf(q: Q, customerId: string, orderId: string, since: Date) {
  return q
    .selectFrom('spot_trade')
    .selectAll()
    .where('taker_customer_id', '=', customerId)
    .where('created_at', '>=', since)
    .where('taker_order_id', '=', orderId)
    .orderBy('engine_trade_id')
    .execute();
}

/**
 * A settlement's rows in ONE statement: the trades (a repeat of an engine trade id does nothing),
 * what each touched order's row now holds, and the book's cursor.
 */
export async function writeSettlementRows(q: Q, s: SettledRows): Promise<void> {
  await sql`with ${settlementParts(s)} select 1`.execute(q);
}

/** What a settlement writes besides its ledger entries (settle.ts `settledRowsOf`). */
export type SettledRows = {
  symbol: string;
  book: Book;
  seq: number;
  trades: NewSpotTradeRow[];
  orders: OrderState[];
};

/**
 * A settlement's rows as the parts of one statement's `with`: its trades, the rows of the orders it
 * touched (`frozenZero`: orders whose funds the same statement's cancels released, which hold nothing
 * after it — one statement cannot update a row twice) and the book's cursor.
 */
function settlementParts(s: SettledRows, frozenZero: ReadonlySet<string> = new Set()): RawBuilder<unknown> {
  const t = s.trades;
  const o = s.orders;
  return sql`
    settled_trades as (
      insert into spot_trade (id, symbol, book, engine_trade_id, seq, maker_order_id, taker_order_id,
                              maker_customer_id, taker_customer_id, taker_side, price_ticks, qty_lots,
                              amount_units, maker_fee_units, taker_fee_units, entry_id, created_at)
      select * from unnest(${t.map((r) => r.id)}::text[], ${t.map((r) => r.symbol)}::text[],
                           ${t.map((r) => r.book)}::text[], ${t.map((r) => r.engine_trade_id)}::bigint[],
                           ${t.map((r) => r.seq)}::bigint[], ${t.map((r) => r.maker_order_id)}::text[],
                           ${t.map((r) => r.taker_order_id)}::text[], ${t.map((r) => r.maker_customer_id)}::text[],
                           ${t.map((r) => r.taker_customer_id)}::text[], ${t.map((r) => r.taker_side)}::text[],
                           ${t.map((r) => r.price_ticks)}::bigint[], ${t.map((r) => r.qty_lots)}::bigint[],
                           ${t.map((r) => r.amount_units)}::numeric[], ${t.map((r) => r.maker_fee_units)}::numeric[],
                           ${t.map((r) => r.taker_fee_units)}::numeric[], ${t.map((r) => r.entry_id)}::text[],
                           ${t.map((r) => r.created_at.toISOString())}::timestamptz[])
      on conflict (symbol, book, engine_trade_id) do nothing
    ), settled_orders as (
      update spot_order o set
        filled_lots = v.filled_lots::bigint, filled_amount_units = v.filled_amount::numeric, fee_units = v.fee::numeric,
        frozen_units = v.frozen::numeric, status = v.status, cancel_reason = v.cancel_reason, updated_at = v.updated_at::timestamptz
      from unnest(${o.map((r) => r.id)}::text[], ${o.map((r) => r.filledLots.toString())}::text[],
                  ${o.map((r) => r.filledAmount.toString())}::text[], ${o.map((r) => r.fee.toString())}::text[],
                  ${o.map((r) => (frozenZero.has(r.id) ? '0' : r.frozen.toString()))}::text[], ${o.map((r) => r.status)}::text[],
                  ${o.map((r) => r.cancelReason)}::text[], ${o.map((r) => r.updatedAt.toISOString())}::text[])
        as v(id, filled_lots, filled_amount, fee, frozen, status, cancel_reason, updated_at)
      where o.id = v.id
    ), settled_cursor as (
      insert into spot_cursor (symbol, book, settled_seq) values (${s.symbol}, ${s.book}, ${String(s.seq)})
      on conflict (symbol, book) do update set settled_seq = excluded.settled_seq
    )`;
}

/** A book's latest public prints, newest first. */
export async function latestTradeRows(q: Q, symbol: string, book: Book, limit: number) {
  return q
    .selectFrom('spot_trade')
    .select(['id', 'price_ticks', 'qty_lots', 'taker_side', 'created_at'])
    .where('symbol', '=', symbol)
    .where('book', '=', book)
    .orderBy('engine_trade_id', 'desc')
    .limit(limit)
    .execute();
}

// ---------------------------------------------------------------- spot_journal, spot_cursor, spot_snapshot

export async function appendJournal(q: Q, rows: SpotJournalTableRow[]): Promise<void> {
  if (rows.length === 0) return;
  await q.insertInto('spot_journal').values(rows).execute();
}

/** A book's journal after `afterSeq`, in seq order. */
export async function journalAfter(q: Q, symbol: string, book: Book, afterSeq: number) {
  return q
    .selectFrom('spot_journal')
    .select(['seq', 'command'])
    .where('symbol', '=', symbol)
    .where('book', '=', book)
    .where('seq', '>', String(afterSeq))
    .orderBy('seq')
    .execute();
}

/** The last settled seq of a book (0 before its first settlement). */
export async function settledSeqOf(q: Q, symbol: string, book: Book): Promise<number> {
  const cursor = await q
    .selectFrom('spot_cursor')
    .select('settled_seq')
    .where('symbol', '=', symbol)
    .where('book', '=', book)
    .executeTakeFirst();
  return cursor ? Number(cursor.settled_seq) : 0;
}

export async function setSettledSeq(q: Q, symbol: string, book: Book, seq: number): Promise<void> {
  await q
    .insertInto('spot_cursor')
    .values({ symbol, book, settled_seq: String(seq) })
    .onConflict((oc) => oc.columns(['symbol', 'book']).doUpdateSet({ settled_seq: String(seq) }))
    .execute();
}

/** The latest snapshot of a book at or below `maxSeq`. */
export async function latestSnapshot(q: Q, symbol: string, book: Book, maxSeq: number) {
  return q
    .selectFrom('spot_snapshot')
    .select(['seq', 'snapshot'])
    .where('symbol', '=', symbol)
    .where('book', '=', book)
    .where('seq', '<=', String(maxSeq))
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Writes a book's snapshot at `seq` (once) and drops its older ones. */
export async function replaceSnapshot(
  q: Q,
  s: { symbol: string; book: Book; seq: number; snapshot: unknown; now: Date },
): Promise<void> {
  await q
    .insertInto('spot_snapshot')
    .values({
      symbol: s.symbol,
      book: s.book,
      seq: String(s.seq),
      snapshot: JSON.stringify(s.snapshot),
      created_at: s.now,
    })
    .onConflict((oc) => oc.columns(['symbol', 'book', 'seq']).doNothing())
    .execute();
  await q
    .deleteFrom('spot_snapshot')
    .where('symbol', '=', s.symbol)
    .where('book', '=', s.book)
    .where('seq', '<', String(s.seq))
    .execute();
}

// ---- book leases (SPOT_LEASES=on, `lease.ts`). Expiry is always judged by the database's now().
/**
 * Takes a book whose lease is free or expired: a new epoch for `owner` (null: it is live). The row
 * is locked `for update` first, which waits for every transaction of the owner holding it through
 * the fence (`for key share`: its batch in flight), and is judged after that.
 */
export async function takeLease(db: Db, symbol: string, book: Book, owner: string, ttlMs: number) {
  return db.transaction().execute(async (tx) => {
    const current = await sql<{ free: boolean }>`
      select expires_at <= now() as free from spot_book_lease
      where symbol = ${symbol} and book = ${book} for update`.execute(tx);
    const row = current.rows[0];
    if (row && !row.free) return null;
    const r = row
      ? await sql<{ epoch: string }>`
          update spot_book_lease
          set owner = ${owner}, epoch = epoch + 1, expires_at = now() + ${ttlMs} * interval '1 millisecond'
          where symbol = ${symbol} and book = ${book}
          returning epoch`.execute(tx)
      : await sql<{ epoch: string }>`
          insert into spot_book_lease (symbol, book, owner, epoch, expires_at)
          values (${symbol}, ${book}, ${owner}, 1, now() + ${ttlMs} * interval '1 millisecond')
          on conflict (symbol, book) do nothing
          returning epoch`.execute(tx);
    const taken = r.rows[0];
    return taken ? Number(taken.epoch) : null;
  });
}

/**
 * Extends every lease `owner` still holds at its epoch, in one statement; returns the books renewed
 * (`symbol#book`; one missing was taken over). A plain update does not wait for the fence's
 * `for key share`, so a busy book's batches never delay its renewal.
 */
export async function renewLeases(
  q: Q,
  owner: string,
  held: ReadonlyArray<{ symbol: string; book: Book; epoch: number }>,
  ttlMs: number,
): Promise<Set<string>> {
  if (held.length === 0) return new Set();
  const r = await sql<{ symbol: string; book: Book }>`
    update spot_book_lease l set expires_at = now() + ${ttlMs} * interval '1 millisecond'
    from unnest(${held.map((h) => h.symbol)}::text[], ${held.map((h) => h.book)}::text[],
                ${held.map((h) => String(h.epoch))}::bigint[]) as v(symbol, book, epoch)
    where l.symbol = v.symbol and l.book = v.book and l.epoch = v.epoch and l.owner = ${owner}
    returning l.symbol, l.book`.execute(q);
  return new Set(r.rows.map((row) => `${row.symbol}#${row.book}`));
}

/**
 * The fence: true when `owner` holds `epoch` unexpired. The row stays locked `for key share` until
 * the transaction ends: a takeover (`for update`) waits for it, a renewal (a plain update) does not.
 */
export async function holdsLease(tx: Tx, symbol: string, book: Book, owner: string, epoch: number) {
  const r = await sql`
    select 1 from spot_book_lease
    where symbol = ${symbol} and book = ${book} and owner = ${owner} and epoch = ${epoch} and expires_at > now()
    for key share`.execute(tx);
  return r.rows.length === 1;
}

/** Gives a book up (a clean shutdown): the next process takes it at once. */
export async function releaseLease(q: Q, symbol: string, book: Book, owner: string, epoch: number) {
  await sql`
    update spot_book_lease set expires_at = now() - interval '1 millisecond'
    where symbol = ${symbol} and book = ${book} and owner = ${owner} and epoch = ${epoch}`.execute(q);
}

/** Every book's lease as the database sees it now. */
export async function leasesNow(q: Q) {
  const r = await sql<{ symbol: string; book: Book; owner: string; epoch: string; live: boolean }>`
    select symbol, book, owner, epoch, expires_at > now() as live from spot_book_lease`.execute(q);
  return r.rows;
}

/** Every book's settled cursor (followers compare it with their own seq). */
export async function settledCursors(q: Q) {
  return q.selectFrom('spot_cursor').select(['symbol', 'book', 'settled_seq']).execute();
}
