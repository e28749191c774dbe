import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import { integerArray, textArray } from '../../db/pgarray.ts';
import { type Book, type Bucket, LEDGER_LIMITS } from './model.ts';

/**
 * The only SQL on the ledger_* tables. Functions named `lock…` take row locks for the caller's
 * transaction; everything else reads or writes without locking. Amounts cross this boundary as
 * bigint and travel to PostgreSQL as decimal strings — never as JS numbers. The posting path sends
 * each column as one array literal (`db/pgarray.ts`), not a JS array the driver escapes element by element.
 *
 * A statement that writes must start with `insert`, `update`, `delete` or `with`, and one that only
 * reads or locks must not start with `with`: inside an idempotent request, `inTransaction`
 * (db/database.ts) commits the request's claim exactly when a statement of the first kind ran — a
 * read taken for a write would record a refused or replayed request as applied.
 */
type Q = Db | Tx;

export async function findOwners(q: Q, customerIds: readonly string[]): Promise<Map<string, Book>> {
  if (customerIds.length === 0) return new Map();
  const rows = await q
    .selectFrom('ledger_owner')
    .select(['customer_id', 'book'])
    .where('customer_id', 'in', customerIds)
    .execute();
  return new Map(rows.map((r) => [r.customer_id, r.book]));
}

export async function insertOwners(
  q: Q,
  rows: ReadonlyArray<{ customerId: string; book: Book }>,
  at: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await q
    .insertInto('ledger_owner')
    .values(rows.map((r) => ({ customer_id: r.customerId, book: r.book, created_at: at })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export type AccountIdentity = {
  book: Book;
  customerId: string | null;
  platformCode: string | null;
  accountType: string;
  currency: string;
};

export type AccountIdRow = AccountIdentity & { id: string };

/** Ids of the accounts that exist among `wanted` (customer and platform ones alike). */
export async function findAccountIds(q: Q, wanted: readonly AccountIdentity[]): Promise<AccountIdRow[]> {
  const customers = wanted.filter((w) => w.customerId !== null);
  const platforms = wanted.filter((w) => w.platformCode !== null);
  const found: AccountIdRow[] = [];
  if (customers.length > 0) {
    const rows = await sql<{
      id: string;
      customer_id: string;
      book: Book;
      account_type: string;
      currency: string;
    }>`
      select a.id, a.customer_id, a.book, a.account_type, a.currency
      from ledger_account a
      join unnest(${textArray(customers.map((c) => c.customerId))}::text[],
                  ${textArray(customers.map((c) => c.book))}::text[],
                  ${textArray(customers.map((c) => c.accountType))}::text[],
                  ${textArray(customers.map((c) => c.currency))}::text[])
        as k(customer_id, book, account_type, currency)
        on a.customer_id = k.customer_id and a.book = k.book
       and a.account_type = k.account_type and a.currency = k.currency`.execute(q);
    for (const r of rows.rows) {
      found.push({
        id: r.id,
        book: r.book,
        customerId: r.customer_id,
        platformCode: null,
        accountType: r.account_type,
        currency: r.currency,
      });
    }
  }
  if (platforms.length > 0) {
    const rows = await sql<{ id: string; platform_code: string; book: Book; currency: string }>`
      select a.id, a.platform_code, a.book, a.currency
      from ledger_account a
      join unnest(${textArray(platforms.map((p) => p.platformCode))}::text[],
                  ${textArray(platforms.map((p) => p.book))}::text[],
                  ${textArray(platforms.map((p) => p.currency))}::text[]) as k(platform_code, book, currency)
        on a.platform_code = k.platform_code and a.book = k.book and a.currency = k.currency`.execute(q);
    for (const r of rows.rows) {
      found.push({
        id: r.id,
        book: r.book,
        customerId: null,
        platformCode: r.platform_code,
        accountType: 'platform',
        currency: r.currency,
      });
    }
  }
  return found;
}

/** Opens accounts at zero; an account opened meanwhile by another transaction is left as it is. */
export async function insertAccounts(
  q: Q,
  rows: ReadonlyArray<AccountIdRow & { allowNegative: boolean }>,
  at: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await q
    .insertInto('ledger_account')
    .values(
      rows.map((r) => ({
        id: r.id,
        book: r.book,
        customer_id: r.customerId,
        platform_code: r.platformCode,
        account_type: r.accountType,
        currency: r.currency,
        available: '0',
        frozen: '0',
        allow_negative: r.allowNegative,
        created_at: at,
        updated_at: at,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * Locks accounts a concurrent entry opened after this transaction locked its own (out of id order),
 * without waiting: PostgreSQL answers 55P03 when another transaction holds one, and the caller
 * retries with the accounts looked up again — instead of waiting on a cycle for the deadlock detector.
 */
export async function lockLateAccounts(tx: Tx, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`select id from ledger_account where id = any(${textArray(ids)}::text[]) order by id for no key update nowait`.execute(
    tx,
  );
}

export type LockedAccount = {
  id: string;
  currency: string;
  availableUnits: bigint;
  frozenUnits: bigint;
  allowNegative: boolean;
};

/** The first key of the ledger's advisory locks ('LDGR'), so they never collide with another module's. */
const IDEMPOTENCY_LOCK_CLASS = 0x4c444752;

/**
 * Serializes transactions that post the same idempotency keys (transaction-scoped advisory locks,
 * taken in one order): a twin waits until the first commits, then finds its entry and replays it.
 */
export async function lockIdempotencyKeys(tx: Tx, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await sql`
    select count(pg_advisory_xact_lock(${IDEMPOTENCY_LOCK_CLASS}::int4, s.h))
      from (select distinct hashtext(k) as h from unnest(${textArray(keys)}::text[]) as k order by h) s`.execute(
    tx,
  );
}

export type EntryRow = {
  id: string;
  book: Book;
  reason: string;
  referenceType: string;
  referenceId: string;
  idempotencyKey: string;
  fingerprint: string;
  reversesEntryId: string | null;
  actorId: string | null;
  memo: string | null;
  createdAt: Date;
};

const ENTRY_COLUMNS = [
  'id',
  'book',
  'reason',
  'reference_type',
  'reference_id',
  'idempotency_key',
  'fingerprint',
  'reverses_entry_id',
  'actor_id',
  'memo',
  'created_at',
] as const;

type EntryDbRow = {
  id: string;
  book: Book;
  reason: string;
  reference_type: string;
  reference_id: string;
  idempotency_key: string;
  fingerprint: string;
  reverses_entry_id: string | null;
  actor_id: string | null;
  memo: string | null;
  created_at: Date;
};

function toEntryRow(r: EntryDbRow): EntryRow {
  return {
    id: r.id,
    book: r.book,
    reason: r.reason,
    referenceType: r.reference_type,
    referenceId: r.reference_id,
    idempotencyKey: r.idempotency_key,
    fingerprint: r.fingerprint,
    reversesEntryId: r.reverses_entry_id,
    actorId: r.actor_id,
    memo: r.memo,
    createdAt: r.created_at,
  };
}

export async function findEntriesByKeys(q: Q, keys: readonly string[]): Promise<EntryRow[]> {
  if (keys.length === 0) return [];
  const rows = await q
    .selectFrom('ledger_entry')
    .select(ENTRY_COLUMNS)
    .where('idempotency_key', '=', sql<string>`any(${keys}::text[])`)
    .execute();
  return rows.map(toEntryRow);
}

/**
 * ONE statement for the posting path: locks the accounts `ids` FOR NO KEY UPDATE in id order — every
 * ledger transaction takes its locks in this one order, so two of them never wait on each other in a
 * cycle — returning their balances, and reads the entries already posted under `keys` (as
 * `findEntriesByKeys`). NO KEY UPDATE, not UPDATE: a balance change never touches a key (the lock
 * that says so; it once kept the postings' foreign-key checks, which took KEY SHARE locks on these
 * rows, from deadlocking bursts of transfers on one account — a statement trigger checks postings now).
 *
 * The key look-up sees what committed before this statement began — after the caller's
 * `lockIdempotencyKeys`, so a twin posting one of these keys has committed (and is found) or waits
 * behind us; no entry is written under a key without that advisory lock. Reversals are NOT looked up
 * here: a reversal of the same entry under another key is serialized only by the account locks this
 * statement may wait for, so `findReversals` runs after it, on a snapshot taken once they are held.
 * It starts with `select`: it writes nothing (see the header on `with`).
 */
export async function lockAccountsAndFindEntries(
  tx: Tx,
  ids: readonly string[],
  keys: readonly string[],
): Promise<{ accounts: LockedAccount[]; entries: EntryRow[] }> {
  const { rows } = await sql<{
    kind: 'a' | 'e';
    id: string;
    currency: string | null;
    available: string | null;
    frozen: string | null;
    allow_negative: boolean | null;
    book: Book | null;
    reason: string | null;
    reference_type: string | null;
    reference_id: string | null;
    idempotency_key: string | null;
    fingerprint: string | null;
    reverses_entry_id: string | null;
    actor_id: string | null;
    memo: string | null;
    created_at: Date | null;
  }>`
    select 'a' as kind, a.id, a.currency, a.available, a.frozen, a.allow_negative,
           null::text as book, null::text as reason, null::text as reference_type, null::text as reference_id,
           null::text as idempotency_key, null::text as fingerprint, null::text as reverses_entry_id,
           null::text as actor_id, null::text as memo, null::timestamptz as created_at
      from (select id, currency, available, frozen, allow_negative from ledger_account
             where id = any(${textArray(ids)}::text[]) order by id for no key update) a
    union all
    select 'e', e.id, null, null, null, null, e.book, e.reason, e.reference_type, e.reference_id,
           e.idempotency_key, e.fingerprint, e.reverses_entry_id, e.actor_id, e.memo, e.created_at
      from ledger_entry e
     where e.idempotency_key = any(${textArray(keys)}::text[])`.execute(tx);
  const accounts: LockedAccount[] = [];
  const entries: EntryRow[] = [];
  for (const r of rows) {
    if (r.kind === 'a') {
      accounts.push({
        id: r.id,
        currency: r.currency ?? '',
        availableUnits: BigInt(r.available ?? ''),
        frozenUnits: BigInt(r.frozen ?? ''),
        allowNegative: r.allow_negative === true,
      });
    } else {
      entries.push(
        toEntryRow({
          id: r.id,
          book: r.book as Book,
          reason: r.reason ?? '',
          reference_type: r.reference_type ?? '',
          reference_id: r.reference_id ?? '',
          idempotency_key: r.idempotency_key ?? '',
          fingerprint: r.fingerprint ?? '',
          reverses_entry_id: r.reverses_entry_id,
          actor_id: r.actor_id,
          memo: r.memo,
          created_at: r.created_at as Date,
        }),
      );
    }
  }
  return { accounts, entries };
}

/** Entries that reverse any of `entryIds`. */
export async function findReversals(q: Q, entryIds: readonly string[]): Promise<EntryRow[]> {
  if (entryIds.length === 0) return [];
  const rows = await q
    .selectFrom('ledger_entry')
    .select(ENTRY_COLUMNS)
    .where('reverses_entry_id', 'in', entryIds)
    .execute();
  return rows.map(toEntryRow);
}

export async function findEntry(q: Q, id: string): Promise<EntryRow | undefined> {
  const row = await q
    .selectFrom('ledger_entry')
    .select(ENTRY_COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toEntryRow(row) : undefined;
}

export type PostingRow = {
  accountId: string;
  book: Book;
  customerId: string | null;
  platformCode: string | null;
  accountType: string;
  currency: string;
  bucket: Bucket;
  amountUnits: bigint;
};

export async function findPostings(q: Q, entryId: string): Promise<PostingRow[]> {
  const rows = await q
    .selectFrom('ledger_posting as p')
    .innerJoin('ledger_account as a', 'a.id', 'p.account_id')
    .select([
      'p.account_id',
      'p.book',
      'a.customer_id',
      'a.platform_code',
      'a.account_type',
      'p.currency',
      'p.bucket',
      'p.amount',
    ])
    .where('p.entry_id', '=', entryId)
    .orderBy('p.id')
    .execute();
  return rows.map((r) => ({
    accountId: r.account_id,
    book: r.book,
    customerId: r.customer_id,
    platformCode: r.platform_code,
    accountType: r.account_type,
    currency: r.currency,
    bucket: r.bucket,
    amountUnits: BigInt(r.amount),
  }));
}

export type NewEntry = Omit<EntryRow, 'createdAt'> & {
  createdAt: Date;
  postings: ReadonlyArray<{ accountId: string; currency: string; bucket: Bucket; amountUnits: bigint }>;
};

/**
 * Writes entries, their postings and the balance changes they make in ONE statement whatever the
 * number of entries (three data-modifying parts of one `with`), which is where batching gets its
 * throughput. Each column travels as one array literal. The postings' references to their entries
 * and accounts are checked once, at the end of the statement, when the entries are in (a trigger). The caller holds the account
 * locks; every entry is created at `at`.
 */
export async function writeEntries(tx: Tx, entries: readonly NewEntry[], at: Date): Promise<void> {
  if (entries.length === 0) return;
  const n = entries.length;
  const ids = new Array<string>(n);
  const entryBooks = new Array<string>(n);
  const reasons = new Array<string>(n);
  const referenceTypes = new Array<string>(n);
  const referenceIds = new Array<string>(n);
  const keys = new Array<string>(n);
  const fingerprints = new Array<string>(n);
  const reverses = new Array<string | null>(n);
  const actors = new Array<string | null>(n);
  const memos = new Array<string | null>(n);

  const entryIds: string[] = [];
  const accountIds: string[] = [];
  const books: string[] = [];
  const currencies: string[] = [];
  const buckets: string[] = [];
  const amounts: bigint[] = [];
  const deltas = new Map<string, { available: bigint; frozen: bigint; entries: number }>();
  for (let i = 0; i < n; i++) {
    const e = entries[i]!;
    if (e.createdAt.getTime() !== at.getTime())
      throw new Error('writeEntries: every entry is created at `at`');
    ids[i] = e.id;
    entryBooks[i] = e.book;
    reasons[i] = e.reason;
    referenceTypes[i] = e.referenceType;
    referenceIds[i] = e.referenceId;
    keys[i] = e.idempotencyKey;
    fingerprints[i] = e.fingerprint;
    reverses[i] = e.reversesEntryId;
    actors[i] = e.actorId;
    memos[i] = e.memo;
    const touched = new Set<string>();
    for (const p of e.postings) {
      entryIds.push(e.id);
      accountIds.push(p.accountId);
      books.push(e.book);
      currencies.push(p.currency);
      buckets.push(p.bucket);
      amounts.push(p.amountUnits);
      let d = deltas.get(p.accountId);
      if (d === undefined) {
        d = { available: 0n, frozen: 0n, entries: 0 };
        deltas.set(p.accountId, d);
      }
      d[p.bucket] += p.amountUnits;
      if (!touched.has(p.accountId)) {
        d.entries += 1;
        touched.add(p.accountId);
      }
    }
  }
  const changed = [...deltas.keys()].sort();
  await sql`
    with entries as (
      insert into ledger_entry (id, book, reason, reference_type, reference_id, idempotency_key, fingerprint,
                                reverses_entry_id, actor_id, memo, created_at)
      select e.*, ${at}::timestamptz
        from unnest(${textArray(ids)}::text[], ${textArray(entryBooks)}::text[], ${textArray(reasons)}::text[],
                    ${textArray(referenceTypes)}::text[], ${textArray(referenceIds)}::text[],
                    ${textArray(keys)}::text[], ${textArray(fingerprints)}::text[],
                    ${textArray(reverses)}::text[], ${textArray(actors)}::text[], ${textArray(memos)}::text[])
          as e(id, book, reason, reference_type, reference_id, idempotency_key, fingerprint,
               reverses_entry_id, actor_id, memo)
    ), postings as (
      insert into ledger_posting (entry_id, account_id, book, currency, bucket, amount)
      select * from unnest(${textArray(entryIds)}::text[], ${textArray(accountIds)}::text[],
                           ${textArray(books)}::text[], ${textArray(currencies)}::text[],
                           ${textArray(buckets)}::text[], ${integerArray(amounts)}::numeric[])
    ), balances as (
      update ledger_account a
         set available = a.available + d.available,
             frozen = a.frozen + d.frozen,
             version = a.version + d.entries,
             updated_at = ${at}::timestamptz
        from unnest(${textArray(changed)}::text[],
                    ${integerArray(changed.map((id) => deltas.get(id)!.available))}::numeric[],
                    ${integerArray(changed.map((id) => deltas.get(id)!.frozen))}::numeric[],
                    ${integerArray(changed.map((id) => deltas.get(id)!.entries))}::int8[])
          as d(id, available, frozen, entries)
       where a.id = d.id
    )
    select 1`.execute(tx);
}

export type BalanceRow = {
  accountId: string;
  book: Book;
  accountType: string;
  currency: string;
  availableUnits: bigint;
  frozenUnits: bigint;
  version: bigint;
};

export async function customerBalances(
  q: Q,
  input: { customerId: string; accountType?: string; currency?: string; lock?: boolean },
): Promise<BalanceRow[]> {
  let query = q
    .selectFrom('ledger_account')
    .select(['id', 'book', 'account_type', 'currency', 'available', 'frozen', 'version'])
    .where('customer_id', '=', input.customerId)
    .orderBy('id');
  if (input.accountType !== undefined) query = query.where('account_type', '=', input.accountType);
  if (input.currency !== undefined) query = query.where('currency', '=', input.currency);
  if (input.lock) query = query.forNoKeyUpdate();
  const rows = await query.execute();
  return rows.map((r) => ({
    accountId: r.id,
    book: r.book,
    accountType: r.account_type,
    currency: r.currency,
    availableUnits: BigInt(r.available),
    frozenUnits: BigInt(r.frozen),
    version: BigInt(r.version),
  }));
}

export async function platformBalances(
  q: Q,
  input: { book: Book; platformCode?: string },
): Promise<Array<BalanceRow & { platformCode: string }>> {
  let query = q
    .selectFrom('ledger_account')
    .select(['id', 'book', 'platform_code', 'account_type', 'currency', 'available', 'frozen', 'version'])
    .where('platform_code', 'is not', null)
    .where('book', '=', input.book)
    .orderBy('platform_code')
    .orderBy('currency');
  if (input.platformCode !== undefined) query = query.where('platform_code', '=', input.platformCode);
  const rows = await query.execute();
  return rows.map((r) => ({
    accountId: r.id,
    book: r.book,
    platformCode: r.platform_code ?? '',
    accountType: r.account_type,
    currency: r.currency,
    availableUnits: BigInt(r.available),
    frozenUnits: BigInt(r.frozen),
    version: BigInt(r.version),
  }));
}

// ---- verification -------------------------------------------------------------------------------

export type BookCurrencyTotal = {
  book: Book;
  currency: string;
  postedUnits: bigint;
  balanceUnits: bigint;
  accounts: number;
};

/** Per book and currency: the sum of all postings and the sum of all balances (both must be zero). */
export async function bookCurrencyTotals(q: Q): Promise<BookCurrencyTotal[]> {
  const rows = await sql<{ book: Book; currency: string; posted: string; balance: string; accounts: string }>`
    with posted as (
      select book, currency, sum(amount) as posted from ledger_posting group by book, currency
    ), balances as (
      select book, currency, sum(available + frozen) as balance, count(*) as accounts
        from ledger_account group by book, currency
    )
    select coalesce(p.book, b.book) as book, coalesce(p.currency, b.currency) as currency,
           coalesce(p.posted, 0)::text as posted, coalesce(b.balance, 0)::text as balance,
           coalesce(b.accounts, 0)::text as accounts
      from posted p full join balances b on b.book = p.book and b.currency = p.currency
     order by 1, 2`.execute(q);
  return rows.rows.map((r) => ({
    book: r.book,
    currency: r.currency,
    postedUnits: BigInt(r.posted),
    balanceUnits: BigInt(r.balance),
    accounts: Number(r.accounts),
  }));
}

/** Entries whose postings do not sum to zero in some currency, or that have fewer than two postings. */
export async function unbalancedEntries(
  q: Q,
  limit: number,
): Promise<Array<{ entryId: string; currency: string | null; sumUnits: bigint; postings: number }>> {
  const rows = await sql<{ entry_id: string; currency: string | null; total: string; postings: string }>`
    select entry_id, currency, sum(amount)::text as total, count(*)::text as postings
      from ledger_posting group by entry_id, currency having sum(amount) <> 0
    union all
    select e.id, null, '0', count(p.id)::text
      from ledger_entry e left join ledger_posting p on p.entry_id = e.id
     group by e.id having count(p.id) < 2
     limit ${limit}`.execute(q);
  return rows.rows.map((r) => ({
    entryId: r.entry_id,
    currency: r.currency,
    sumUnits: BigInt(r.total),
    postings: Number(r.postings),
  }));
}

export type AccountMismatchRow = {
  accountId: string;
  book: Book;
  currency: string;
  availableUnits: bigint;
  frozenUnits: bigint;
  postedAvailableUnits: bigint;
  postedFrozenUnits: bigint;
  customerId: string | null;
  allowNegative: boolean;
};

/** Accounts whose balances differ from the sum of their postings, or that are below zero unlawfully. */
export async function accountMismatches(q: Q, limit: number): Promise<AccountMismatchRow[]> {
  const rows = await sql<{
    id: string;
    book: Book;
    currency: string;
    available: string;
    frozen: string;
    posted_available: string;
    posted_frozen: string;
    customer_id: string | null;
    allow_negative: boolean;
  }>`
    select a.id, a.book, a.currency, a.available::text, a.frozen::text,
           coalesce(p.available, 0)::text as posted_available, coalesce(p.frozen, 0)::text as posted_frozen,
           a.customer_id, a.allow_negative
      from ledger_account a
      left join (
        select account_id,
               sum(amount) filter (where bucket = 'available') as available,
               sum(amount) filter (where bucket = 'frozen') as frozen
          from ledger_posting group by account_id
      ) p on p.account_id = a.id
     where a.available <> coalesce(p.available, 0)
        or a.frozen <> coalesce(p.frozen, 0)
        or a.frozen < 0
        or (a.available < 0 and (not a.allow_negative or a.customer_id is not null))
     order by a.id
     limit ${limit}`.execute(q);
  return rows.rows.map((r) => ({
    accountId: r.id,
    book: r.book,
    currency: r.currency,
    availableUnits: BigInt(r.available),
    frozenUnits: BigInt(r.frozen),
    postedAvailableUnits: BigInt(r.posted_available),
    postedFrozenUnits: BigInt(r.posted_frozen),
    customerId: r.customer_id,
    allowNegative: r.allow_negative,
  }));
}

/** Postings whose book differs from their entry's or account's (foreign keys forbid it; we still look). */
export async function crossBookPostings(
  q: Q,
  limit: number,
): Promise<Array<{ entryId: string; accountId: string }>> {
  const rows = await sql<{ entry_id: string; account_id: string }>`
    select p.entry_id, p.account_id
      from ledger_posting p
      join ledger_entry e on e.id = p.entry_id
      join ledger_account a on a.id = p.account_id
     where p.book <> e.book or p.book <> a.book or p.currency <> a.currency
     limit ${limit}`.execute(q);
  return rows.rows.map((r) => ({ entryId: r.entry_id, accountId: r.account_id }));
}

export async function journalCounts(q: Q): Promise<{ entries: number; postings: number; accounts: number }> {
  const row = await sql<{ entries: string; postings: string; accounts: string }>`
    select (select count(*) from ledger_entry)::text as entries,
           (select count(*) from ledger_posting)::text as postings,
           (select count(*) from ledger_account)::text as accounts`.execute(q);
  const r = row.rows[0];
  if (!r) throw new Error('journal counts returned nothing');
  return { entries: Number(r.entries), postings: Number(r.postings), accounts: Number(r.accounts) };
}

export type CustomerJournalRow = {
  entryId: string;
  seq: string;
  reason: string;
  referenceType: string;
  referenceId: string;
  memo: string | null;
  createdAt: Date;
  accountType: string;
  currency: string;
  bucket: Bucket;
  amountUnits: bigint;
};

/** A customer's postings with their entries, newest entries first (the back office's journal view). */
export async function customerJournal(
  q: Q,
  input: { customerId: string; limit: number },
): Promise<CustomerJournalRow[]> {
  const rows = await sql<{
    entry_id: string;
    seq: string;
    reason: string;
    reference_type: string;
    reference_id: string;
    memo: string | null;
    created_at: Date;
    account_type: string;
    currency: string;
    bucket: Bucket;
    amount: string;
  }>`
    with recent as (
      select distinct e.id, e.seq
      from ledger_posting p
      join ledger_account a on a.id = p.account_id
      join ledger_entry e on e.id = p.entry_id
      where a.customer_id = ${input.customerId}
      order by e.seq desc
      limit ${input.limit}
    )
    select e.id as entry_id, e.seq, e.reason, e.reference_type, e.reference_id, e.memo, e.created_at,
           a.account_type, p.currency, p.bucket, p.amount
    from recent r
    join ledger_entry e on e.id = r.id
    join ledger_posting p on p.entry_id = e.id
    join ledger_account a on a.id = p.account_id and a.customer_id = ${input.customerId}
    order by e.seq desc, p.id`.execute(q);
  return rows.rows.map((r) => ({
    entryId: r.entry_id,
    seq: String(r.seq),
    reason: r.reason,
    referenceType: r.reference_type,
    referenceId: r.reference_id,
    memo: r.memo,
    createdAt: r.created_at,
    accountType: r.account_type,
    currency: r.currency,
    bucket: r.bucket,
    amountUnits: BigInt(r.amount),
  }));
}

// ---- reads for other modules (read-only, no locks; the caller's Db or Tx) -----------------------

/** Which of a customer's postings a journal read covers: one book, optionally some reasons or references. */
export type JournalScope = {
  customerId: string;
  book: Book;
  /** Only entries whose reason starts with one of these (none: every entry). */
  reasonPrefixes?: readonly string[];
  /** Only entries referencing these business objects' types (e.g. `withdrawal`). */
  referenceTypes?: readonly string[];
  /**
   * Leave out rows whose net change is zero: pure moves between the available and frozen buckets
   * (an order's freeze and release), which belong to the business row that consumes them.
   */
  hideBucketMoves?: boolean;
};

export type JournalPageQuery = JournalScope & {
  /** Exact entry reason; empty or absent: any. */
  reason?: string;
  currency?: string;
  accountType?: string;
  /** Entries created at or after (inclusive). */
  from?: Date;
  /** Entries created before (exclusive). */
  to?: Date;
  offset: number;
  limit: number;
};

/** One (entry, account type, currency) of a customer: the net change and the frozen bucket's change. */
export type JournalPageRow = {
  entryId: string;
  createdAt: Date;
  reason: string;
  referenceType: string;
  referenceId: string;
  accountType: string;
  currency: string;
  /** available + frozen */
  netUnits: bigint;
  frozenUnits: bigint;
};

function journalScopeWhere(input: JournalScope) {
  const where = [sql`a.customer_id = ${input.customerId}`, sql`a.book = ${input.book}`];
  if (input.reasonPrefixes && input.reasonPrefixes.length > 0) {
    where.push(
      sql`(${sql.join(
        input.reasonPrefixes.map((p) => sql`e.reason like ${`${p}%`}`),
        sql` or `,
      )})`,
    );
  }
  if (input.referenceTypes && input.referenceTypes.length > 0) {
    where.push(sql`e.reference_type in (${sql.join(input.referenceTypes.map((t) => sql`${t}`))})`);
  }
  return where;
}

/**
 * A customer's postings grouped per (entry, account type, currency), newest entry first (then
 * account type, currency), one page of them and the count of all that match.
 */
/** The journal rows of a scope (one per entry × account type × currency) as a subquery. */
function journalGrouped(input: Omit<JournalPageQuery, 'offset' | 'limit'>) {
  const where = journalScopeWhere(input);
  if (input.reason) where.push(sql`e.reason = ${input.reason}`);
  if (input.currency) where.push(sql`p.currency = ${input.currency}`);
  if (input.accountType) where.push(sql`a.account_type = ${input.accountType}`);
  if (input.from !== undefined) where.push(sql`e.created_at >= ${input.from}`);
  if (input.to !== undefined) where.push(sql`e.created_at < ${input.to}`);
  return sql`
    select e.id as entry_id, e.seq, e.created_at, e.reason, e.reference_type, e.reference_id,
           a.account_type, p.currency,
           coalesce(sum(p.amount), 0)::text as net,
           coalesce(sum(p.amount) filter (where p.bucket = 'frozen'), 0)::text as frozen
      from ledger_posting p
      join ledger_account a on a.id = p.account_id
      join ledger_entry e on e.id = p.entry_id
     where ${sql.join(where, sql` and `)}
     group by e.id, e.seq, e.created_at, e.reason, e.reference_type, e.reference_id, a.account_type, p.currency
     ${input.hideBucketMoves ? sql`having coalesce(sum(p.amount), 0) <> 0` : sql``}`;
}

/**
 * Σ |net| over the scope's journal rows, in one query: e.g. a customer's traded volume (the USDT side
 * of `spot.trade` entries) over a window — what `customerJournalPage` would list, summed.
 */
export async function customerJournalVolume(
  q: Q,
  input: Omit<JournalPageQuery, 'offset' | 'limit'>,
): Promise<bigint> {
  const { rows } = await sql<{ volume: string }>`
    select coalesce(sum(abs(g.net::numeric)), 0)::text as volume from (${journalGrouped(input)}) g`.execute(
    q,
  );
  return BigInt(rows[0]?.volume ?? '0');
}

export async function customerJournalPage(
  q: Q,
  input: JournalPageQuery,
): Promise<{ total: number; rows: JournalPageRow[] }> {
  const grouped = journalGrouped(input);
  const [count, page] = await Promise.all([
    sql<{ n: string }>`select count(*)::text as n from (${grouped}) g`.execute(q),
    sql<{
      entry_id: string;
      created_at: Date;
      reason: string;
      reference_type: string;
      reference_id: string;
      account_type: string;
      currency: string;
      net: string;
      frozen: string;
    }>`${grouped} order by e.seq desc, a.account_type, p.currency offset ${input.offset} limit ${input.limit}`.execute(
      q,
    ),
  ]);
  return {
    total: Number(count.rows[0]?.n ?? 0),
    rows: page.rows.map((r) => ({
      entryId: r.entry_id,
      createdAt: r.created_at,
      reason: r.reason,
      referenceType: r.reference_type,
      referenceId: r.reference_id,
      accountType: r.account_type,
      currency: r.currency,
      netUnits: BigInt(r.net),
      frozenUnits: BigInt(r.frozen),
    })),
  };
}

/** The distinct entry reasons among a customer's postings in the scope, sorted. */
export async function customerJournalReasons(q: Q, input: JournalScope): Promise<string[]> {
  const where = sql.join(journalScopeWhere(input), sql` and `);
  const { rows } = input.hideBucketMoves
    ? await sql<{ reason: string }>`
    select distinct g.reason from (
      select e.reason from ledger_posting p
        join ledger_account a on a.id = p.account_id
        join ledger_entry e on e.id = p.entry_id
       where ${where}
       group by e.id, e.reason, a.account_type, p.currency
      having coalesce(sum(p.amount), 0) <> 0) g order by g.reason`.execute(q)
    : await sql<{ reason: string }>`
    select distinct e.reason from ledger_posting p
      join ledger_account a on a.id = p.account_id
      join ledger_entry e on e.id = p.entry_id
     where ${where} order by e.reason`.execute(q);
  return rows.map((r) => r.reason);
}

export type CustomerTotalRow = { customerId: string; currency: string; units: bigint };

/**
 * Every customer's balance per currency in one book: available + frozen summed over account types,
 * ordered by currency, then customer. Consistent only inside one snapshot (REPEATABLE READ).
 */
export async function customerTotals(q: Q, input: { book: Book }): Promise<CustomerTotalRow[]> {
  const { rows } = await sql<{ customer_id: string; currency: string; units: string }>`
    select customer_id, currency, sum(available + frozen)::text as units
      from ledger_account
     where book = ${input.book} and customer_id is not null
     group by customer_id, currency
     order by currency, customer_id`.execute(q);
  return rows.map((r) => ({ customerId: r.customer_id, currency: r.currency, units: BigInt(r.units) }));
}

/**
 * A real-book customer's turnover in one currency (the withdrawal turnover rule's figures):
 * `depositedUnits`, the sum of their positive postings in entries that post to `deposits_clearing`;
 * `consumedUnits`, minus the sum of their negative postings in entries that do not reference a
 * `withdrawal` and post to some platform account other than `deposits_clearing`,
 * `withdrawals_clearing`, `adjustments` and `custody_pool` — value that left them to the platform
 * (trading, fees, products), not withdrawals, deposits, staff adjustments, freezes or transfers
 * between their own accounts; `promotionalUnits`, the sum of their positive postings in entries whose
 * reason is one of `promotionalReasons` (the withdrawal module's set; none: 0).
 */
export async function customerTurnover(
  q: Q,
  input: { customerId: string; currency: string; promotionalReasons?: readonly string[] },
): Promise<{ depositedUnits: bigint; consumedUnits: bigint; promotionalUnits: bigint }> {
  const promo = input.promotionalReasons ?? [];
  const promoReasons = promo.length > 0 ? sql.join(promo.map((r) => sql`${r}`)) : sql`null`;
  const result = await sql<{ deposited: string | null; consumed: string | null; promotional: string | null }>`
    with mine as (
      select p.entry_id, p.amount
      from ledger_posting p
      join ledger_account a on a.id = p.account_id
      where a.customer_id = ${input.customerId} and a.book = 'real' and p.currency = ${input.currency}
    ),
    platform as (
      select p.entry_id, a.platform_code
      from ledger_posting p
      join ledger_account a on a.id = p.account_id
      where a.platform_code is not null and p.entry_id in (select entry_id from mine)
    )
    select
      (select sum(amount) from mine where amount > 0 and entry_id in
        (select entry_id from platform where platform_code = 'deposits_clearing')) as deposited,
      (select -sum(m.amount) from mine m join ledger_entry e on e.id = m.entry_id
        where m.amount < 0 and e.reference_type <> 'withdrawal'
          -- earn moves the customer's own money into and out of their earn account: not consumed
          -- (a principal penalty is)
          and (e.reason not like 'earn.%' or e.reason = 'earn.penalty') and m.entry_id in
        (select entry_id from platform where platform_code not in
          ('deposits_clearing', 'withdrawals_clearing', 'adjustments', 'custody_pool'))) as consumed,
      (select sum(m.amount) from mine m join ledger_entry e on e.id = m.entry_id
        where m.amount > 0 and e.reason in (${promoReasons})) as promotional
  `.execute(q);
  const row = result.rows[0];
  return {
    depositedUnits: BigInt(row?.deposited ?? '0'),
    consumedUnits: BigInt(row?.consumed ?? '0'),
    promotionalUnits: BigInt(row?.promotional ?? '0'),
  };
}

/** The id of the entry posted under an idempotency key, or null when none was. */
export type PlatformMovementRow = {
  entryId: string;
  reason: string;
  referenceType: string;
  referenceId: string;
  idempotencyKey: string;
  memo: string | null;
  createdAt: Date;
  /** Signed net of the entry's postings to this platform account (available + frozen). */
  amountUnits: bigint;
};

/**
 * The latest entries moving one platform account (one book, one currency), newest (seq) first:
 * one row per entry with its net amount on that account. `idempotencyKey` narrows it to one entry.
 */
export async function platformMovements(
  q: Q,
  input: {
    book: Book;
    platform: string;
    currency: string;
    limit: number;
    idempotencyKey?: string;
  },
): Promise<PlatformMovementRow[]> {
  let query = q
    .selectFrom('ledger_posting as p')
    .innerJoin('ledger_account as a', 'a.id', 'p.account_id')
    .innerJoin('ledger_entry as e', 'e.id', 'p.entry_id')
    .select((eb) => [
      'e.id',
      'e.seq',
      'e.reason',
      'e.reference_type',
      'e.reference_id',
      'e.idempotency_key',
      'e.memo',
      'e.created_at',
      eb.fn.sum<string>('p.amount').as('amount'),
    ])
    .where('a.platform_code', '=', input.platform)
    .where('a.book', '=', input.book)
    .where('a.currency', '=', input.currency)
    .groupBy(['e.id', 'e.seq'])
    .orderBy('e.seq', 'desc')
    .limit(Math.max(1, Math.min(input.limit, LEDGER_LIMITS.platformMovementsMax)));
  if (input.idempotencyKey !== undefined) query = query.where('e.idempotency_key', '=', input.idempotencyKey);
  const rows = await query.execute();
  return rows.map((r) => ({
    entryId: r.id,
    reason: r.reason,
    referenceType: r.reference_type,
    referenceId: r.reference_id,
    idempotencyKey: r.idempotency_key,
    memo: r.memo,
    createdAt: r.created_at,
    amountUnits: BigInt(r.amount),
  }));
}

export async function entryIdByKey(q: Q, idempotencyKey: string): Promise<string | null> {
  const row = await q
    .selectFrom('ledger_entry')
    .select('id')
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
  return row?.id ?? null;
}
