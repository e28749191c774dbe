import type { JurisdictionProfileId, ProductClass, RiskRating, ScoringTable } from '@bourse/protocol';
import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import type { SuitabilityTables } from './tables.ts';

/** The only SQL on the suitability tables. */
type Q = Db | Tx;
export type VersionRow = SuitabilityTables['suitability_scoring_version'];
export type CapRow = SuitabilityTables['suitability_cap'];
export type AssessmentRow = SuitabilityTables['suitability_assessment'];

/** The scoring version in force (the newest). */
export async function currentVersion(q: Q): Promise<VersionRow> {
  return q
    .selectFrom('suitability_scoring_version')
    .selectAll()
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
}

export async function versions(q: Q): Promise<VersionRow[]> {
  return q.selectFrom('suitability_scoring_version').selectAll().orderBy('version', 'desc').execute();
}

/** Serialises edits of the scoring table (a lock on the newest version's row). */
export async function lockCurrentVersion(q: Tx): Promise<VersionRow> {
  return q
    .selectFrom('suitability_scoring_version')
    .selectAll()
    .orderBy('version', 'desc')
    .limit(1)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function insertVersion(
  q: Tx,
  row: { version: number; scoring: ScoringTable; created_at: Date; created_by: string; reason: string },
): Promise<void> {
  await q
    .insertInto('suitability_scoring_version')
    .values({ ...row, scoring: JSON.stringify(row.scoring) as never })
    .execute();
}

export async function caps(q: Q, profile?: JurisdictionProfileId, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('suitability_cap').selectAll();
  if (profile) query = query.where('profile', '=', profile);
  if (options.lock) query = query.forUpdate();
  return query.orderBy('profile').orderBy('rating').orderBy('product').execute();
}

export async function cap(
  q: Q,
  key: { profile: JurisdictionProfileId; rating: RiskRating; product: ProductClass },
): Promise<CapRow | undefined> {
  return q
    .selectFrom('suitability_cap')
    .selectAll()
    .where('profile', '=', key.profile)
    .where('rating', '=', key.rating)
    .where('product', '=', key.product)
    .executeTakeFirst();
}

export async function updateCap(
  q: Tx,
  key: { profile: JurisdictionProfileId; rating: RiskRating; product: ProductClass },
  patch: { max_leverage: number | null; max_amount: string; updated_at: Date; updated_by: string },
): Promise<void> {
  await q
    .updateTable('suitability_cap')
    .set(patch)
    .where('profile', '=', key.profile)
    .where('rating', '=', key.rating)
    .where('product', '=', key.product)
    .execute();
}

/** One customer's submissions run one at a time (a transaction-scoped advisory lock on the customer). */
export async function lockCustomer(q: Tx, customerId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('suitability'), hashtext(${customerId}))`.execute(q);
}

export async function latestAssessment(q: Q, customerId: string): Promise<AssessmentRow | undefined> {
  return q
    .selectFrom('suitability_assessment')
    .selectAll()
    .where('customer_id', '=', customerId)
    .orderBy('taken_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function assessments(q: Q, customerId: string, limit: number): Promise<AssessmentRow[]> {
  return q
    .selectFrom('suitability_assessment')
    .selectAll()
    .where('customer_id', '=', customerId)
    .orderBy('taken_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function insertAssessment(q: Tx, row: AssessmentRow): Promise<void> {
  await q
    .insertInto('suitability_assessment')
    .values({ ...row, answers: JSON.stringify(row.answers) as never })
    .execute();
}

/** How many customers currently hold each rating (their newest assessment). */
export async function ratingCounts(q: Q): Promise<{ rating: string; n: string }[]> {
  const { rows } = await sql<{ rating: string; n: string }>`
    select rating, count(*)::text as n from (
      select distinct on (customer_id) customer_id, rating from suitability_assessment
      order by customer_id, taken_at desc, id desc
    ) latest group by rating`.execute(q);
  return rows;
}
