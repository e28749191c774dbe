import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import type { AccountsTables } from './tables.ts';

/** The only SQL on the accounts_* tables. Functions taking `Tx` lock what they read for the caller's transaction. */
export type CustomerRow = AccountsTables['accounts_customer'];
export type SessionRow = AccountsTables['accounts_session'];
export type CodeRow = AccountsTables['accounts_code'];
type Q = Db | Tx;

export type CustomerKey =
  | { id: string }
  | { email: string }
  | { phone: string }
  | { name: string }
  | { wallet: string }
  | { invitationCode: string };

export async function nextUid(q: Q): Promise<string> {
  const row = await sql<{ uid: string }>`select nextval('accounts_uid_seq')::text as uid`.execute(q);
  const uid = row.rows[0]?.uid;
  if (!uid) throw new Error('accounts_uid_seq returned nothing');
  return uid;
}

/** What the back office shows for each customer id: email, else phone, else uid (unknown ids are left out). */
export async function customerLabels(q: Q, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await q
    .selectFrom('accounts_customer')
    .select(['id', 'uid', 'email', 'phone'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.email ?? r.phone ?? r.uid]));
}

export async function insertCustomer(q: Q, row: CustomerRow): Promise<void> {
  await q.insertInto('accounts_customer').values(row).execute();
}

export async function findCustomer(q: Q, key: CustomerKey, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('accounts_customer').selectAll();
  if ('id' in key) query = query.where('id', '=', key.id);
  else if ('email' in key) query = query.where('email', '=', key.email);
  else if ('phone' in key) query = query.where('phone', '=', key.phone);
  else if ('name' in key) query = query.where(sql<string>`lower(name)`, '=', key.name.toLowerCase());
  else if ('wallet' in key) query = query.where('wallet_address', '=', key.wallet);
  else query = query.where('invitation_code', '=', key.invitationCode);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function updateCustomer(
  q: Q,
  id: string,
  patch: Partial<Omit<CustomerRow, 'id'>>,
): Promise<void> {
  await q.updateTable('accounts_customer').set(patch).where('id', '=', id).execute();
}

export async function insertSession(q: Q, row: SessionRow): Promise<void> {
  await q.insertInto('accounts_session').values(row).execute();
}

/** Of `ids`, the customers whose status is active. */
export async function activeCustomerIds(q: Q, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await q
    .selectFrom('accounts_customer')
    .select('id')
    .where('id', 'in', ids)
    .where('status', '=', 'active')
    .execute();
  return new Set(rows.map((r) => r.id));
}

export async function findSessionByTokenHash(q: Q, tokenHash: string) {
  return (await findSessionsByTokenHashes(q, [tokenHash]))[0];
}

/** Many sessions by their token hashes in one query: for each hash, its session or undefined. */
export async function findSessionsByTokenHashes(q: Q, tokenHashes: readonly string[]) {
  const rows = await sessionRows(q, [...new Set(tokenHashes)]);
  const byHash = new Map(rows.map((r) => [r.token_hash, r]));
  return tokenHashes.map((h) => byHash.get(h));
}

function sessionRows(q: Q, tokenHashes: string[]) {
  return q
    .selectFrom('accounts_session as s')
    .innerJoin('accounts_customer as c', 'c.id', 's.customer_id')
    .select([
      's.id as session_id',
      's.expires_at',
      's.revoked_at',
      's.revoked_reason',
      'c.id as customer_id',
      'c.is_demo',
      'c.demo_expires_at',
      'c.status',
      's.token_hash',
    ])
    .where('s.token_hash', 'in', tokenHashes)
    .execute();
}

/** What decides whether sessions still hold, for many at once (the websocket's periodic check). */
export async function sessionStates(q: Q, sessionIds: readonly string[]) {
  if (sessionIds.length === 0) return [];
  return (
    q
      .selectFrom('accounts_session as s')
      .innerJoin('accounts_customer as c', 'c.id', 's.customer_id')
      .select([
        's.id as session_id',
        's.expires_at',
        's.revoked_at',
        's.revoked_reason',
        'c.id as customer_id',
        'c.is_demo',
        'c.demo_expires_at',
        'c.status',
      ])
      // One array parameter however many sockets are open (an `in` list would hit the parameter limit).
      .where(sql<boolean>`s.id = any(${[...sessionIds]}::text[])`)
      .execute()
  );
}

export async function revokeSessions(
  q: Q,
  input: {
    customerId: string;
    reason: 'logout' | 'password_changed';
    at: Date;
    onlyId?: string;
    exceptId?: string;
  },
): Promise<number> {
  let query = q
    .updateTable('accounts_session')
    .set({ revoked_at: input.at, revoked_reason: input.reason })
    .where('customer_id', '=', input.customerId)
    .where('revoked_at', 'is', null);
  if (input.onlyId) query = query.where('id', '=', input.onlyId);
  if (input.exceptId) query = query.where('id', '!=', input.exceptId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function latestCode(q: Q, input: { target: string; scene: string; lock?: boolean }) {
  let query = q
    .selectFrom('accounts_code')
    .selectAll()
    .where('target', '=', input.target)
    .where('scene', '=', input.scene)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1);
  if (input.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function insertCode(q: Q, row: CodeRow): Promise<void> {
  await q.insertInto('accounts_code').values(row).execute();
}

/** A new code replaces any earlier unused one for the same target and scene. */
export async function supersedeCodes(
  q: Q,
  input: { target: string; scene: string; at: Date },
): Promise<void> {
  await q
    .updateTable('accounts_code')
    .set({ consumed_at: input.at })
    .where('target', '=', input.target)
    .where('scene', '=', input.scene)
    .where('consumed_at', 'is', null)
    .execute();
}

export async function updateCode(
  q: Q,
  id: string,
  patch: Partial<Pick<CodeRow, 'attempts' | 'consumed_at'>>,
) {
  await q.updateTable('accounts_code').set(patch).where('id', '=', id).execute();
}

export async function insertNonce(
  q: Q,
  row: { nonce: string; address: string; expiresAt: Date },
): Promise<void> {
  await q
    .insertInto('accounts_wallet_nonce')
    .values({ nonce: row.nonce, address: row.address, expires_at: row.expiresAt })
    .execute();
}

/** Consumes the nonce once: a replayed signature finds it used. */
export async function consumeNonce(
  q: Q,
  input: { nonce: string; address: string; at: Date },
): Promise<boolean> {
  const row = await q
    .updateTable('accounts_wallet_nonce')
    .set({ consumed_at: input.at })
    .where('nonce', '=', input.nonce)
    .where('address', '=', input.address)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', input.at)
    .returning('nonce')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * What the back-office queues show of a page of customers, in two queries whatever the page size:
 * the customer rows and each one's last login (sessions opened up to `now`).
 */
export async function customerBasics(q: Q, ids: readonly string[], now: Date) {
  if (ids.length === 0) return [];
  const [customers, logins] = await Promise.all([
    q
      .selectFrom('accounts_customer')
      .select(['id', 'uid', 'name', 'email', 'phone', 'status', 'created_at'])
      .where('id', 'in', [...ids])
      .execute(),
    q
      .selectFrom('accounts_session')
      .select(['customer_id', (eb) => eb.fn.max('created_at').as('last')])
      .where('customer_id', 'in', [...ids])
      .where('created_at', '<=', now)
      .groupBy('customer_id')
      .execute(),
  ]);
  const lastLogin = new Map(logins.map((r) => [r.customer_id, r.last as Date | null]));
  return customers.map((c) => ({ ...c, last_login: lastLogin.get(c.id) ?? null }));
}

/** Who customers are, for modules that show or check identity (verification): uid, country fixed at registration, label. */
export async function customerIdentities(q: Q, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return q
    .selectFrom('accounts_customer')
    .select(['id', 'uid', 'country', 'name', 'email', 'phone', 'is_demo'])
    .where('id', 'in', [...ids])
    .execute();
}
/**
 * Records a nationality where none is: one statement, so of two racing requests only the first sets
 * it. Answers the country now on record (the one set here, or the one that was already there).
 */
export async function fixCountry(q: Q, id: string, country: string, now: Date): Promise<string | null> {
  const set = await q
    .updateTable('accounts_customer')
    .set({ country, updated_at: now })
    .where('id', '=', id)
    .where('country', '=', '')
    .returning('country')
    .executeTakeFirst();
  if (set) return set.country;
  const row = await q
    .selectFrom('accounts_customer')
    .select('country')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.country ?? null;
}

// ---- The profile and security centre (profile.ts) ----

export type SecurityRow = AccountsTables['accounts_security'];

export async function findSecurity(q: Q, customerId: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('accounts_security').selectAll().where('customer_id', '=', customerId);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Creates the customer's security row when missing and returns it locked (call inside a transaction). */
export async function lockSecurity(q: Tx, customerId: string, now: Date): Promise<SecurityRow> {
  await q
    .insertInto('accounts_security')
    .values({
      customer_id: customerId,
      name_changed_at: null,
      answer1_hash: null,
      answer2_hash: null,
      answer3_hash: null,
      questions_set_at: null,
      phrase: null,
      phrase_set_at: null,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('customer_id').doNothing())
    .execute();
  return q
    .selectFrom('accounts_security')
    .selectAll()
    .where('customer_id', '=', customerId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function updateSecurity(
  q: Q,
  customerId: string,
  patch: Partial<Omit<SecurityRow, 'customer_id'>>,
): Promise<void> {
  await q.updateTable('accounts_security').set(patch).where('customer_id', '=', customerId).execute();
}

/** The phrase of the customer with this id, or of the one holding this email or phone. */
export async function phraseOf(q: Q, key: { customerId: string } | { recipient: string }) {
  let query = q
    .selectFrom('accounts_security as s')
    .innerJoin('accounts_customer as c', 'c.id', 's.customer_id')
    .select('s.phrase');
  query =
    'customerId' in key
      ? query.where('c.id', '=', key.customerId)
      : query.where((eb) => eb.or([eb('c.email', '=', key.recipient), eb('c.phone', '=', key.recipient)]));
  return (await query.executeTakeFirst())?.phrase ?? null;
}

export async function insertSecurityEvent(
  q: Q,
  row: AccountsTables['accounts_security_event'],
): Promise<void> {
  await q.insertInto('accounts_security_event').values(row).execute();
}

export async function securityEvents(q: Q, customerId: string, limit: number) {
  return q
    .selectFrom('accounts_security_event')
    .select(['kind', 'detail', 'ip', 'created_at'])
    .where('customer_id', '=', customerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** A customer's sessions that still hold at `now` (not revoked, not expired), newest first. */
export async function activeSessions(q: Q, customerId: string, now: Date) {
  return q
    .selectFrom('accounts_session')
    .select(['id', 'created_at', 'ip', 'user_agent'])
    .where('customer_id', '=', customerId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findSession(q: Q, input: { customerId: string; id: string }) {
  return q
    .selectFrom('accounts_session')
    .select(['id', 'created_at', 'expires_at', 'revoked_at', 'ip', 'user_agent'])
    .where('customer_id', '=', input.customerId)
    .where('id', '=', input.id)
    .executeTakeFirst();
}

export async function insertAnswerCheck(q: Q, row: AccountsTables['accounts_answer_check']): Promise<void> {
  await q.insertInto('accounts_answer_check').values(row).execute();
}

export async function answerChecksSince(q: Q, customerId: string, since: Date): Promise<number> {
  const row = await q
    .selectFrom('accounts_answer_check')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('customer_id', '=', customerId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The id of the customer with this public number (uid), or null: other modules' back-office filters. */
export async function customerIdByUid(q: Q, uid: string): Promise<string | null> {
  const row = await q.selectFrom('accounts_customer').select('id').where('uid', '=', uid).executeTakeFirst();
  return row?.id ?? null;
}
