import type {
  JurisdictionProfileId,
  RequiredTier,
  VerificationFeature,
  VerificationTier,
} from '@bourse/protocol';
import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import type { DocumentStatus, SubmissionState, VerificationTables } from './tables.ts';

/** The only SQL on the verification_* tables. */
type Q = Db | Tx;
export type SubmissionRow = Selectable<VerificationTables['verification_submission']>;
export type DocumentRow = Selectable<VerificationTables['verification_document']>;
export type TierRow = Selectable<VerificationTables['verification_tier']>;

// ---- where customers stand

export async function tierRows(q: Q, customerIds: readonly string[]): Promise<TierRow[]> {
  if (customerIds.length === 0) return [];
  return q
    .selectFrom('verification_tier')
    .selectAll()
    .where('customer_id', 'in', [...customerIds])
    .execute();
}

/** The customer's row of a tier, locked for the caller's transaction (their submissions serialize on it). */
export async function lockTier(tx: Tx, customerId: string, tier: VerificationTier) {
  return tx
    .selectFrom('verification_tier')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('tier', '=', tier)
    .forUpdate()
    .executeTakeFirst();
}

export async function upsertTier(q: Q, row: TierRow): Promise<void> {
  await q
    .insertInto('verification_tier')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['customer_id', 'tier']).doUpdateSet({
        state: row.state,
        submission_id: row.submission_id,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

/** Serializes one customer's submissions of one tier, including the very first (no row to lock yet). */
export async function lockCustomerTier(tx: Tx, customerId: string, tier: VerificationTier): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`kyc|${customerId}|${tier}`}))`.execute(tx);
}

// ---- submissions and documents

export async function insertSubmission(
  tx: Tx,
  row: Insertable<VerificationTables['verification_submission']>,
): Promise<void> {
  await tx.insertInto('verification_submission').values(row).execute();
}

export async function insertDocuments(
  tx: Tx,
  rows: Insertable<VerificationTables['verification_document']>[],
): Promise<void> {
  if (rows.length > 0) await tx.insertInto('verification_document').values(rows).execute();
}

export async function findSubmission(q: Q, id: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('verification_submission').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function submissionsById(q: Q, ids: readonly string[]): Promise<SubmissionRow[]> {
  if (ids.length === 0) return [];
  return q
    .selectFrom('verification_submission')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

export async function documentsOf(q: Q, submissionIds: readonly string[]): Promise<DocumentRow[]> {
  if (submissionIds.length === 0) return [];
  return q
    .selectFrom('verification_document')
    .selectAll()
    .where('submission_id', 'in', [...submissionIds])
    .orderBy('submission_id')
    .orderBy('slot')
    .execute();
}

export async function updateSubmission(
  tx: Tx,
  id: string,
  patch: Partial<Omit<SubmissionRow, 'id' | 'customer_id' | 'tier' | 'data'>>,
): Promise<void> {
  await tx.updateTable('verification_submission').set(patch).where('id', '=', id).execute();
}

export async function updateDocument(
  tx: Tx,
  key: { submissionId: string; slot: string },
  patch: { status: DocumentStatus; reason_code: DocumentRow['reason_code']; note: string },
): Promise<void> {
  await tx
    .updateTable('verification_document')
    .set(patch)
    .where('submission_id', '=', key.submissionId)
    .where('slot', '=', key.slot as DocumentRow['slot'])
    .execute();
}

/** A customer's submissions of a tier, newest first. */
export async function historyOf(q: Q, customerId: string, tier: VerificationTier): Promise<SubmissionRow[]> {
  return q
    .selectFrom('verification_submission')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('tier', '=', tier)
    .orderBy('submitted_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Submissions under review, oldest first. */
export async function queue(
  q: Q,
  filter: { tier?: VerificationTier },
  page: { offset: number; limit: number },
): Promise<{ rows: SubmissionRow[]; total: number }> {
  let base = q.selectFrom('verification_submission').where('state', '=', 'under_review');
  if (filter.tier) base = base.where('tier', '=', filter.tier);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('submitted_at').orderBy('id').offset(page.offset).limit(page.limit).execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Other customers' primary submissions with one of these ID hashes (any state). */
export async function sameIdHash(q: Q, hashes: readonly string[]) {
  if (hashes.length === 0) return [];
  return q
    .selectFrom('verification_submission')
    .select(['id_hash', 'customer_id', 'state'])
    .where('id_hash', 'in', [...hashes])
    .distinct()
    .execute();
}

/** The customer (other than `customerId`) holding this ID number approved, if any. */
export async function approvedHolder(q: Q, idHash: string, customerId: string): Promise<string | null> {
  const row = await q
    .selectFrom('verification_submission')
    .select('customer_id')
    .where('id_hash', '=', idHash)
    .where('tier', '=', 'primary')
    .where('state', '=', 'approved')
    .where('customer_id', '!=', customerId)
    .executeTakeFirst();
  return row?.customer_id ?? null;
}

/** Earlier real names of customers' primary submissions (for the name_changed flag). */
export async function primaryNames(q: Q, customerIds: readonly string[]) {
  if (customerIds.length === 0) return [];
  return q
    .selectFrom('verification_submission')
    .select(['id', 'customer_id', 'real_name', 'round'])
    .where('customer_id', 'in', [...customerIds])
    .where('tier', '=', 'primary')
    .orderBy('round')
    .execute();
}

/** The approved primary submission of each customer (verified names). */
export async function approvedPrimary(q: Q, customerIds: readonly string[]) {
  if (customerIds.length === 0) return [];
  return q
    .selectFrom('verification_submission')
    .select(['customer_id', 'real_name'])
    .where('customer_id', 'in', [...customerIds])
    .where('tier', '=', 'primary')
    .where('state', '=', 'approved')
    .execute();
}

// ---- operator data

export async function featureRules(q: Q) {
  return q
    .selectFrom('verification_feature_rule')
    .selectAll()
    .orderBy('profile')
    .orderBy('feature')
    .execute();
}

export async function featureRule(
  q: Q,
  profile: JurisdictionProfileId,
  feature: VerificationFeature,
): Promise<RequiredTier | null> {
  const row = await q
    .selectFrom('verification_feature_rule')
    .select('tier')
    .where('profile', '=', profile)
    .where('feature', '=', feature)
    .executeTakeFirst();
  return row?.tier ?? null;
}

export async function setFeatureRule(
  tx: Tx,
  row: {
    profile: JurisdictionProfileId;
    feature: VerificationFeature;
    tier: RequiredTier;
    at: Date;
    by: string;
  },
): Promise<void> {
  await tx
    .insertInto('verification_feature_rule')
    .values({
      profile: row.profile,
      feature: row.feature,
      tier: row.tier,
      updated_at: row.at,
      updated_by: row.by,
    })
    .onConflict((oc) =>
      oc
        .columns(['profile', 'feature'])
        .doUpdateSet({ tier: row.tier, updated_at: row.at, updated_by: row.by }),
    )
    .execute();
}

export async function profiles(q: Q, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('verification_profile').selectAll().orderBy('profile');
  if (options.lock) query = query.forUpdate();
  return query.execute();
}

export async function retentionDays(q: Q, profile: JurisdictionProfileId): Promise<number> {
  const row = await q
    .selectFrom('verification_profile')
    .select('document_retention_days')
    .where('profile', '=', profile)
    .executeTakeFirstOrThrow();
  return row.document_retention_days;
}

export async function setRetentionDays(
  tx: Tx,
  row: { profile: JurisdictionProfileId; days: number; at: Date; by: string },
): Promise<void> {
  await tx
    .updateTable('verification_profile')
    .set({ document_retention_days: row.days, updated_at: row.at, updated_by: row.by })
    .where('profile', '=', row.profile)
    .execute();
}

export async function setting(q: Q, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('verification_setting').selectAll().where('id', '=', 1);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirstOrThrow();
}

export async function updateSetting(tx: Tx, patch: { four_eyes_advanced: boolean; at: Date; by: string }) {
  await tx
    .updateTable('verification_setting')
    .set({ four_eyes_advanced: patch.four_eyes_advanced, updated_at: patch.at, updated_by: patch.by })
    .where('id', '=', 1)
    .execute();
}

export type { SubmissionState };
