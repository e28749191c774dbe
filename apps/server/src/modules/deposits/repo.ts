import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import type { DepositsTables } from './tables.ts';

/**
 * The only SQL on the deposit tables (`deposits_*`) and the module's advisory locks. Every function
 * takes the database or the caller's transaction; row locks (`lock…`, `…ForUpdate`) only mean
 * something inside a transaction.
 */

type Q = Db | Tx;
type Tables = DepositsTables;

export type ChannelRow = Selectable<Tables['deposits_channel']>;
export type CryptoRow = Selectable<Tables['deposits_crypto']>;
export type BankRow = Selectable<Tables['deposits_bank']>;
export type Family = Tables['deposits_address']['family'];

// ---- channels -------------------------------------------------------------------------------------

export async function channelOf(q: Q, currency: string, chain: string): Promise<ChannelRow | undefined> {
  return q
    .selectFrom('deposits_channel')
    .selectAll()
    .where('currency', '=', currency)
    .where('chain', '=', chain)
    .executeTakeFirst();
}

export async function lockChannel(tx: Tx, currency: string, chain: string): Promise<ChannelRow | undefined> {
  return tx
    .selectFrom('deposits_channel')
    .selectAll()
    .where('currency', '=', currency)
    .where('chain', '=', chain)
    .forUpdate()
    .executeTakeFirst();
}

/** Every channel, in the operator's order. */
export async function listChannels(q: Q): Promise<ChannelRow[]> {
  return q.selectFrom('deposits_channel').selectAll().orderBy('sort').orderBy('currency').execute();
}

/** A currency's crypto channels (its deposit networks), in the operator's order. */
export async function cryptoChannelsOf(q: Q, currency: string): Promise<ChannelRow[]> {
  return q
    .selectFrom('deposits_channel')
    .selectAll()
    .where('currency', '=', currency)
    .where('kind', '=', 'crypto')
    .orderBy('sort')
    .execute();
}

export async function updateChannel(
  tx: Tx,
  key: { currency: string; chain: string },
  change: Updateable<Tables['deposits_channel']>,
): Promise<ChannelRow> {
  return tx
    .updateTable('deposits_channel')
    .set(change)
    .where('currency', '=', key.currency)
    .where('chain', '=', key.chain)
    .returningAll()
    .executeTakeFirstOrThrow();
}

// ---- addresses (the embedded provider's) ----------------------------------------------------------

/** The customer's child index, assigned from the sequence on first use and never reused. */
export async function childIndexOf(db: Db, customerId: string, now: Date): Promise<number> {
  await db
    .insertInto('deposits_key')
    .values({ customer_id: customerId, created_at: now })
    .onConflict((oc) => oc.column('customer_id').doNothing())
    .execute();
  const row = await db
    .selectFrom('deposits_key')
    .select('child_index')
    .where('customer_id', '=', customerId)
    .executeTakeFirstOrThrow();
  return row.child_index;
}

export async function addressOf(db: Db, customerId: string, family: Family): Promise<string | undefined> {
  const row = await db
    .selectFrom('deposits_address')
    .select('address')
    .where('customer_id', '=', customerId)
    .where('family', '=', family)
    .executeTakeFirst();
  return row?.address;
}

/** Records a handed-out address; a twin that recorded it first wins (same derivation, same row). */
export async function insertAddressIfMissing(
  db: Db,
  row: Insertable<Tables['deposits_address']>,
): Promise<void> {
  await db
    .insertInto('deposits_address')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function ownerOfAddress(db: Db, family: Family, addressKey: string): Promise<string | null> {
  const row = await db
    .selectFrom('deposits_address')
    .select('customer_id')
    .where('family', '=', family)
    .where('address_key', '=', addressKey)
    .executeTakeFirst();
  return row?.customer_id ?? null;
}

/** The number of addresses handed out (one per customer and family). */
export async function addressCount(db: Db): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*)::text as n from deposits_address`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

// ---- crypto deposits ------------------------------------------------------------------------------

/** Records an output once per (chain, txid, output_index); a replay inserts nothing. */
export async function insertCryptoOnce(tx: Tx, row: Insertable<Tables['deposits_crypto']>): Promise<void> {
  await tx
    .insertInto('deposits_crypto')
    .values(row)
    .onConflict((oc) => oc.columns(['chain', 'txid', 'output_index']).doNothing())
    .execute();
}

export async function lockCryptoByOutput(
  tx: Tx,
  key: { chain: string; txid: string; outputIndex: number },
): Promise<CryptoRow> {
  return tx
    .selectFrom('deposits_crypto')
    .selectAll()
    .where('chain', '=', key.chain)
    .where('txid', '=', key.txid)
    .where('output_index', '=', key.outputIndex)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function lockCrypto(tx: Tx, id: string): Promise<CryptoRow | undefined> {
  return tx.selectFrom('deposits_crypto').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** One more event about the output: its confirmations as now known. */
export async function recordCryptoEvent(
  tx: Tx,
  input: { id: string; confirmations: number; now: Date },
): Promise<void> {
  await tx
    .updateTable('deposits_crypto')
    .set({ confirmations: input.confirmations, events: sql`events + 1`, updated_at: input.now })
    .where('id', '=', input.id)
    .execute();
}

export async function updateCrypto(
  tx: Tx,
  id: string,
  change: Updateable<Tables['deposits_crypto']>,
): Promise<void> {
  await tx.updateTable('deposits_crypto').set(change).where('id', '=', id).execute();
}

/** Serializes the held deposits of one customer and currency (cumulative release). */
export async function lockHeld(tx: Tx, customerId: string, currency: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`deposits-held:${customerId}:${currency}`}))`.execute(tx);
}

export async function heldForUpdate(tx: Tx, customerId: string, currency: string): Promise<CryptoRow[]> {
  return tx
    .selectFrom('deposits_crypto')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('currency', '=', currency)
    .where('status', '=', 'held')
    .orderBy('id')
    .forUpdate()
    .execute();
}

// ---- bank deposits -------------------------------------------------------------------------------

export async function insertBankDeposit(tx: Tx, row: Insertable<Tables['deposits_bank']>): Promise<void> {
  await tx.insertInto('deposits_bank').values(row).execute();
}

/** A bank deposit's remittance proof (an uploads file id); undefined for an unknown deposit. */
export async function proofOf(q: Q, id: string): Promise<{ proof_id: string } | undefined> {
  return q.selectFrom('deposits_bank').select('proof_id').where('id', '=', id).executeTakeFirst();
}

export async function lockBankDeposit(tx: Tx, id: string): Promise<BankRow | undefined> {
  return tx.selectFrom('deposits_bank').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updateBankDeposit(
  tx: Tx,
  id: string,
  change: Updateable<Tables['deposits_bank']>,
): Promise<void> {
  await tx.updateTable('deposits_bank').set(change).where('id', '=', id).execute();
}

// ---- the staff queue ------------------------------------------------------------------------------

/** Rows a queue list shows at most, newest first. */
const QUEUE_ROWS_MAX = 200;

/** Crypto deposits, newest first: `open` only pending and held ones. */
export async function cryptoQueue(q: Q, open: boolean): Promise<CryptoRow[]> {
  let query = q.selectFrom('deposits_crypto').selectAll().orderBy('created_at', 'desc').limit(QUEUE_ROWS_MAX);
  if (open) query = query.where('status', 'in', ['pending', 'held']);
  return query.execute();
}

/** Bank deposits (without the proof), newest first: `open` only pending ones. */
export async function bankQueue(q: Q, open: boolean) {
  let query = q
    .selectFrom('deposits_bank')
    .select([
      'id',
      'customer_id',
      'currency',
      'amount_units',
      'reference',
      'proof_id',
      'status',
      'reject_reason',
      'decided_by',
      'decided_at',
      'created_at',
    ])
    .orderBy('created_at', 'desc')
    .limit(QUEUE_ROWS_MAX);
  if (open) query = query.where('status', '=', 'pending');
  return query.execute();
}

// ---- the customer's records -----------------------------------------------------------------------

export type RechargeFilter = {
  customerId: string;
  type?: string | null;
  currency?: string | null;
  fromMs: number | null;
  toMs: number | null;
  /** Wire statuses to keep (`credited`, `failed`, `pending`, `held`); null: all. */
  statuses: string[] | null;
  offset: number;
  limit: number;
};

/**
 * The customer's crypto and bank deposits as one list (bank statuses read as crypto's: confirmed →
 * credited, rejected → failed), filtered, newest first, one page and the total.
 */
export async function rechargeRecords(q: Q, f: RechargeFilter) {
  const crypto = q
    .selectFrom('deposits_crypto')
    .select([
      'id',
      'created_at',
      sql<string>`'crypto'`.as('type'),
      'currency',
      'amount_units',
      sql<string>`status`.as('status'),
      // The network and transaction hash: what the customer can look up on an explorer.
      sql<string>`chain || ' ' || txid`.as('detail'),
      sql<string | null>`null`.as('failure'),
    ])
    .where('customer_id', '=', f.customerId);
  const bank = q
    .selectFrom('deposits_bank')
    .select([
      'id',
      'created_at',
      sql<string>`'bank'`.as('type'),
      'currency',
      'amount_units',
      sql<string>`case status when 'pending' then 'pending' when 'confirmed' then 'credited' else 'failed' end`.as(
        'status',
      ),
      sql<string>`reference`.as('detail'),
      sql<string | null>`reject_reason`.as('failure'),
    ])
    .where('customer_id', '=', f.customerId);
  let all = q.selectFrom(crypto.unionAll(bank).as('d')).selectAll();
  if (f.type) all = all.where('type', '=', f.type);
  if (f.currency) all = all.where('currency', '=', f.currency);
  if (f.fromMs !== null) all = all.where('created_at', '>=', new Date(f.fromMs));
  if (f.toMs !== null) all = all.where('created_at', '<', new Date(f.toMs));
  if (f.statuses !== null) all = all.where('status', 'in', f.statuses);
  const [count, rows] = await Promise.all([
    all
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
    all.orderBy('created_at', 'desc').orderBy('id', 'desc').offset(f.offset).limit(f.limit).execute(),
  ]);
  return { total: Number(count.n), rows };
}

/**
 * Per customer and currency (one grouped query over both rails): credited crypto and confirmed bank
 * deposits in minor units, all time and since `since` — the back-office queues' customer context.
 */
export async function depositFlows(q: Q, ids: readonly string[], since: Date) {
  if (ids.length === 0) return [];
  const result = await sql<{
    customer_id: string;
    currency: string;
    total: string;
    n30: string;
    sum30: string;
  }>`
    select customer_id, currency, sum(amount)::text as total,
           count(*) filter (where created_at >= ${since})::text as n30,
           coalesce(sum(amount) filter (where created_at >= ${since}), 0)::text as sum30
    from (
      select customer_id, currency, amount_units as amount, created_at
        from deposits_crypto where status = 'credited' and customer_id in (${sql.join([...ids])})
      union all
      select customer_id, currency, amount_units as amount, created_at
        from deposits_bank where status = 'confirmed' and customer_id in (${sql.join([...ids])})
    ) d
    group by customer_id, currency
    order by customer_id, currency`.execute(q);
  return result.rows;
}
