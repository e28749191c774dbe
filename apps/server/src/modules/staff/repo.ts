import { type Selectable, sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import type { StaffTables } from './tables.ts';

/** The only SQL on the staff_* tables. Functions taking `Tx` lock what they read for the caller's transaction. */
type Q = Db | Tx;
export type MemberRow = StaffTables['staff_member'];
export type SessionRow = StaffTables['staff_session'];
export type ChallengeRow = StaffTables['staff_challenge'];
export type AuditRow = Selectable<StaffTables['staff_audit']>;
export type AdjustmentRow = Selectable<StaffTables['staff_adjustment']>;
export type LedgerReportRow = StaffTables['staff_ledger_report'];

/** Advisory lock keys of this module's transaction-scoped locks. */
const FIRST_ADMIN_LOCK_KEY = 0x57a4_b007;
const AUDIT_LOCK_KEY = 0x57a4_a0d1;

// ---- members

export async function findMember(
  q: Q,
  where: { id?: string; email?: string },
  options: { lock?: boolean } = {},
) {
  let query = q.selectFrom('staff_member').selectAll();
  if (where.id !== undefined) query = query.where('id', '=', where.id);
  if (where.email !== undefined) query = query.where('email', '=', where.email);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Whether any staff member exists. */
export async function anyMember(q: Q): Promise<boolean> {
  return (await q.selectFrom('staff_member').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Serializes creating the first administrator (several servers starting on one empty database). */
export async function lockFirstAdministrator(tx: Tx): Promise<void> {
  await sql`select pg_advisory_xact_lock(${FIRST_ADMIN_LOCK_KEY})`.execute(tx);
}

/** Throws the database's unique violation when the email is taken. */
export async function insertMember(q: Q, row: MemberRow): Promise<void> {
  await q.insertInto('staff_member').values(row).execute();
}

export async function updateMember(q: Q, id: string, patch: Partial<Omit<MemberRow, 'id'>>): Promise<void> {
  await q.updateTable('staff_member').set(patch).where('id', '=', id).execute();
}

/** Adds one failed login; returns the count now. */
export async function addFailedLogin(q: Q, id: string, at: Date): Promise<number> {
  const row = await q
    .updateTable('staff_member')
    .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1), updated_at: at }))
    .where('id', '=', id)
    .returning(['failed_logins'])
    .executeTakeFirstOrThrow();
  return row.failed_logins;
}

/**
 * Records an accepted TOTP step (with `patch`) only if it is later than the last one; false when
 * another login used this step or a later one first.
 */
export async function advanceTotpStep(
  q: Q,
  input: { id: string; step: string; patch: Partial<Omit<MemberRow, 'id' | 'totp_last_step'>> },
): Promise<boolean> {
  const moved = await q
    .updateTable('staff_member')
    .set({ ...input.patch, totp_last_step: input.step })
    .where('id', '=', input.id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', input.step)]))
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}

export async function listMembers(q: Q) {
  return q.selectFrom('staff_member').selectAll().orderBy('created_at', 'asc').execute();
}

export async function memberEmails(q: Q, ids: readonly string[]) {
  return q
    .selectFrom('staff_member')
    .select(['id', 'email'])
    .where('id', 'in', [...ids])
    .execute();
}

// ---- sessions and login challenges

export async function insertSession(q: Q, row: SessionRow): Promise<void> {
  await q.insertInto('staff_session').values(row).execute();
}

/** The session of a token hash with its member's roles and status. */
export async function findSessionByTokenHash(q: Q, tokenHash: string) {
  return q
    .selectFrom('staff_session as s')
    .innerJoin('staff_member as m', 'm.id', 's.staff_id')
    .select([
      's.id as session_id',
      's.staff_id',
      's.expires_at',
      's.last_seen_at',
      's.revoked_at',
      'm.roles',
      'm.status',
    ])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touchSession(q: Q, id: string, at: Date): Promise<void> {
  await q.updateTable('staff_session').set({ last_seen_at: at }).where('id', '=', id).execute();
}

/** Revokes one session unless it is revoked already. */
export async function revokeSession(q: Q, id: string, at: Date): Promise<void> {
  await q
    .updateTable('staff_session')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every live session of a staff member; returns how many. */
export async function revokeMemberSessions(q: Q, staffId: string, at: Date): Promise<number> {
  const result = await q
    .updateTable('staff_session')
    .set({ revoked_at: at })
    .where('staff_id', '=', staffId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function insertChallenge(q: Q, row: ChallengeRow): Promise<void> {
  await q.insertInto('staff_challenge').values(row).execute();
}

export async function findChallengeByTicketHash(q: Q, ticketHash: string) {
  return q.selectFrom('staff_challenge').selectAll().where('ticket_hash', '=', ticketHash).executeTakeFirst();
}

/** Marks a challenge used; false when it was used already. */
export async function consumeChallenge(q: Q, id: string, at: Date): Promise<boolean> {
  const used = await q
    .updateTable('staff_challenge')
    .set({ consumed_at: at })
    .where('id', '=', id)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

// ---- the audit log

/** Serializes audit appends until the transaction ends, so the chain follows commit order. */
export async function lockAuditAppends(tx: Tx): Promise<void> {
  await sql`select pg_advisory_xact_lock(${AUDIT_LOCK_KEY})`.execute(tx);
}

/** The newest record's seq and hash (undefined for an empty log). */
export async function lastAudit(q: Q) {
  return q
    .selectFrom('staff_audit')
    .select(['seq', 'hash'])
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertAudit(q: Q, row: StaffTables['staff_audit']): Promise<void> {
  await q.insertInto('staff_audit').values(row).execute();
}

/** Newest first, before `beforeSeq` when given. */
export async function listAudit(
  q: Q,
  filter: { beforeSeq?: number; limit: number; targetType?: string; targetId?: string; actorId?: string },
): Promise<AuditRow[]> {
  let query = q.selectFrom('staff_audit').selectAll().orderBy('seq', 'desc').limit(filter.limit);
  if (filter.beforeSeq !== undefined) query = query.where('seq', '<', String(filter.beforeSeq));
  if (filter.targetType) query = query.where('target_type', '=', filter.targetType);
  if (filter.targetId) query = query.where('target_id', '=', filter.targetId);
  if (filter.actorId) query = query.where('actor_id', '=', filter.actorId);
  return query.execute();
}

/** Up to `limit` records after `afterSeq`, oldest first. */
export async function auditAfter(q: Q, afterSeq: number, limit: number): Promise<AuditRow[]> {
  return q
    .selectFrom('staff_audit')
    .selectAll()
    .where('seq', '>', String(afterSeq))
    .orderBy('seq', 'asc')
    .limit(limit)
    .execute();
}

// ---- adjustments

/** `lock` holds the row for the caller's transaction. */
export async function findAdjustment(q: Q, id: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('staff_adjustment').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function insertAdjustment(q: Q, row: AdjustmentRow): Promise<void> {
  await q.insertInto('staff_adjustment').values(row).execute();
}

export async function updateAdjustment(
  q: Q,
  id: string,
  patch: Partial<Omit<AdjustmentRow, 'id'>>,
): Promise<void> {
  await q.updateTable('staff_adjustment').set(patch).where('id', '=', id).execute();
}

/** Newest first, filtered by status and customer when given. */
export async function listAdjustments(
  q: Q,
  filter: { status?: AdjustmentRow['status']; customerId?: string; limit: number },
): Promise<AdjustmentRow[]> {
  let query = q
    .selectFrom('staff_adjustment')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.customerId) query = query.where('customer_id', '=', filter.customerId);
  return query.execute();
}

/** A customer's newest adjustments (ordered by creation time only, as the detail screen always did). */
export async function customerAdjustments(q: Q, customerId: string, limit: number): Promise<AdjustmentRow[]> {
  return q
    .selectFrom('staff_adjustment')
    .selectAll()
    .where('customer_id', '=', customerId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

// ---- ledger verification reports

export async function insertLedgerReport(q: Q, row: LedgerReportRow): Promise<void> {
  await q.insertInto('staff_ledger_report').values(row).execute();
}

export async function latestLedgerReport(q: Q, source: LedgerReportRow['source']) {
  return q
    .selectFrom('staff_ledger_report')
    .selectAll()
    .where('source', '=', source)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
