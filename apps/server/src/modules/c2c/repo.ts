import type { C2cState } from '@bourse/protocol';
import type { Insertable, Selectable, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { Tx } from '../../db/database.ts';
import type { Q } from './context.ts';
import type {
  C2cAccountTable,
  C2cEventTable,
  C2cMerchantTable,
  C2cMessageTable,
  C2cOfferTable,
  C2cOrderTable,
} from './tables.ts';

/** The only SQL on the `c2c_*` tables. Functions taking `lock` need the caller's transaction. */

export type MerchantRow = Selectable<C2cMerchantTable>;
export type OfferRow = Selectable<C2cOfferTable>;
export type OrderRow = Selectable<C2cOrderTable>;
export type EventRow = Selectable<C2cEventTable>;
export type MessageRow = Selectable<C2cMessageTable>;
export type AccountRow = Selectable<C2cAccountTable>;

// ---- merchants

export async function findMerchant(q: Q, id: string, opts: { lock?: boolean } = {}) {
  let query = q.selectFrom('c2c_merchant').selectAll().where('id', '=', id);
  if (opts.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export const merchantOfCustomer = (q: Q, customerId: string) =>
  q.selectFrom('c2c_merchant').selectAll().where('customer_id', '=', customerId).executeTakeFirst();

export const merchants = (q: Q) =>
  q.selectFrom('c2c_merchant').selectAll().orderBy('created_at', 'desc').execute();

export const merchantsByIds = (q: Q, ids: readonly string[]) =>
  ids.length === 0
    ? Promise.resolve([] as MerchantRow[])
    : q.selectFrom('c2c_merchant').selectAll().where('id', 'in', ids).execute();

export async function insertMerchant(q: Q, row: Insertable<C2cMerchantTable>) {
  await q.insertInto('c2c_merchant').values(row).execute();
}

export async function updateMerchant(q: Q, id: string, patch: Updateable<C2cMerchantTable>) {
  await q.updateTable('c2c_merchant').set(patch).where('id', '=', id).execute();
}

/** Per merchant: orders finished, completed, and the mean minutes from "paid" to release of completed ones. */
export async function merchantStats(q: Q, merchantIds: readonly string[]) {
  if (merchantIds.length === 0) return [];
  return q
    .selectFrom('c2c_order')
    .select((eb) => [
      'merchant_id',
      eb.fn.countAll<string>().as('finished'),
      sql<string>`count(*) filter (where state = 'completed')`.as('completed'),
      sql<
        string | null
      >`avg(extract(epoch from (finished_at - paid_at)) / 60) filter (where state = 'completed' and outcome is null)`.as(
        'avg_release_minutes',
      ),
    ])
    .where('merchant_id', 'in', merchantIds)
    .where('state', 'in', ['completed', 'expired', 'cancelled', 'rejected'])
    .groupBy('merchant_id')
    .execute();
}

// ---- offers

export async function findOffer(q: Q, id: string, opts: { lock?: boolean } = {}) {
  let query = q.selectFrom('c2c_offer').selectAll().where('id', '=', id);
  if (opts.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

// A JS array would be sent as a PostgreSQL array: jsonb arrays go as JSON text.
const jsonMethods = <T extends { methods?: unknown }>(row: T): T =>
  row.methods === undefined ? row : { ...row, methods: JSON.stringify(row.methods) as never };

export async function insertOffer(q: Q, row: Insertable<C2cOfferTable>) {
  await q.insertInto('c2c_offer').values(jsonMethods(row)).execute();
}

export async function updateOffer(q: Q, id: string, patch: Updateable<C2cOfferTable>) {
  await q.updateTable('c2c_offer').set(jsonMethods(patch)).where('id', '=', id).execute();
}

/** Gives an order's amount back to its offer (cancelled, expired, decided for the seller). */
export async function returnToOffer(q: Q, offerId: string, units: bigint) {
  await q
    .updateTable('c2c_offer')
    .set({ sold_units: sql`sold_units - ${units.toString()}::numeric` })
    .where('id', '=', offerId)
    .execute();
}

export async function offers(
  q: Q,
  f: {
    side?: string;
    coin?: string;
    fiat?: string;
    book?: 'real' | 'demo';
    activeOnly: boolean;
    limit: number;
    offset: number;
  },
) {
  let query = q.selectFrom('c2c_offer').selectAll();
  if (f.book) query = query.where('book', '=', f.book);
  if (f.activeOnly) {
    query = query
      .where('state', '=', 'active')
      .where('merchant_id', 'in', q.selectFrom('c2c_merchant').select('id').where('state', '=', 'approved'));
  }
  if (f.side) query = query.where('side', '=', f.side as 'buy' | 'sell');
  if (f.coin) query = query.where('coin', '=', f.coin);
  if (f.fiat) query = query.where('fiat', '=', f.fiat);
  return query.orderBy('created_at', 'desc').orderBy('id').limit(f.limit).offset(f.offset).execute();
}

// ---- orders

export async function findOrder(q: Q, id: string, opts: { lock?: boolean } = {}) {
  let query = q.selectFrom('c2c_order').selectAll().where('id', '=', id);
  if (opts.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function insertOrder(q: Q, row: Insertable<C2cOrderTable>) {
  await q.insertInto('c2c_order').values(row).execute();
}

export async function updateOrder(q: Q, id: string, patch: Updateable<C2cOrderTable>) {
  await q.updateTable('c2c_order').set(patch).where('id', '=', id).execute();
}

const OPEN: C2cState[] = ['pending_match', 'matched', 'paid', 'disputed'];

/**
 * Serializes one customer's new orders for the rest of the transaction (a transaction-scoped
 * advisory lock on the customer), so the open-orders limit counted next cannot be raced past.
 * Taken before the offer's row lock: every order transaction locks in that order.
 */
export async function lockCustomerOrders(tx: Tx, customerId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`c2c:orders:${customerId}`}))`.execute(tx);
}

export async function openOrderCount(q: Q, customerId: string): Promise<number> {
  const r = await q
    .selectFrom('c2c_order')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('customer_id', '=', customerId)
    .where('state', 'in', OPEN)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function ordersPage(
  q: Q,
  f: {
    customerId?: string;
    merchantId?: string;
    state?: C2cState;
    live?: boolean;
    limit: number;
    offset: number;
  },
) {
  let query = q.selectFrom('c2c_order');
  if (f.customerId) query = query.where('customer_id', '=', f.customerId);
  if (f.merchantId) query = query.where('merchant_id', '=', f.merchantId);
  if (f.state) query = query.where('state', '=', f.state);
  else if (f.live) query = query.where('state', 'in', OPEN);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('created_at', 'desc').orderBy('id').limit(f.limit).offset(f.offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Ids of orders whose `deadline` has passed in `state`, oldest first. */
/** Demo-book orders of an operator desk waiting for it: paid (it receives) or matched (it pays). */
export async function deskWaiting(q: Q, limit: number): Promise<string[]> {
  const rows = await q
    .selectFrom('c2c_order')
    .select('id')
    .where('book', '=', 'demo')
    .where('state', 'in', ['matched', 'paid'])
    .where('merchant_id', 'in', q.selectFrom('c2c_merchant').select('id').where('is_operator', '=', true))
    .where((eb) =>
      eb.or([
        eb.and([eb('state', '=', 'paid'), eb('seller_id', '=', eb.ref('merchant_customer_id'))]),
        eb.and([eb('state', '=', 'matched'), eb('buyer_id', '=', eb.ref('merchant_customer_id'))]),
      ]),
    )
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function dueOrders(
  q: Q,
  input: { state: 'matched' | 'paid' | 'disputed'; now: Date; limit: number },
): Promise<string[]> {
  const column = input.state === 'matched' ? 'pay_by' : input.state === 'paid' ? 'confirm_by' : 'respond_by';
  const rows = await q
    .selectFrom('c2c_order')
    .select('id')
    .where('state', '=', input.state)
    .where(column, '<=', input.now)
    .orderBy(column)
    .limit(input.limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Orders whose pay (matched) or confirm (paid) deadline is within `before` and not yet reminded. */
export async function remindable(q: Q, input: { kind: 'pay' | 'confirm'; until: Date; limit: number }) {
  const pay = input.kind === 'pay';
  const rows = await q
    .selectFrom('c2c_order')
    .select('id')
    .where('state', '=', pay ? 'matched' : 'paid')
    .where(pay ? 'pay_by' : 'confirm_by', '<=', input.until)
    .where(pay ? 'pay_reminded_at' : 'confirm_reminded_at', 'is', null)
    .limit(input.limit)
    .execute();
  return rows.map((r) => r.id);
}

// ---- timeline and messages

export async function insertEvent(q: Q, row: Insertable<C2cEventTable>) {
  await q.insertInto('c2c_event').values(row).execute();
}

export const events = (q: Q, orderId: string) =>
  q.selectFrom('c2c_event').selectAll().where('order_id', '=', orderId).orderBy('seq').execute();

export async function insertMessage(q: Q, row: Insertable<C2cMessageTable>) {
  await q.insertInto('c2c_message').values(row).execute();
}

export const messages = (q: Q, orderId: string, after: number, limit: number) =>
  q
    .selectFrom('c2c_message')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(limit)
    .execute();

/** Whether `senderId` wrote or uploaded anything in the order since `since`. */
export async function actedSince(q: Q, orderId: string, senderId: string, since: Date): Promise<boolean> {
  const r = await q
    .selectFrom('c2c_message')
    .select('id')
    .where('order_id', '=', orderId)
    .where('sender_id', '=', senderId)
    .where('at', '>=', since)
    .executeTakeFirst();
  return r !== undefined;
}

// ---- collection accounts

export const accountsOf = (q: Q, customerId: string) =>
  q
    .selectFrom('c2c_account')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .execute();

export async function insertAccount(q: Q, row: Insertable<C2cAccountTable>) {
  await q.insertInto('c2c_account').values(row).execute();
}

export async function updateAccount(q: Q, id: string, patch: Updateable<C2cAccountTable>) {
  await q.updateTable('c2c_account').set(patch).where('id', '=', id).execute();
}
