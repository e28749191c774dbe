import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import type { AgreementsTables } from './tables.ts';

/** The only SQL on agreements_version and agreements_acceptance. */
export type VersionRow = AgreementsTables['agreements_version'];
export type AcceptanceRow = AgreementsTables['agreements_acceptance'];
type Q = Db | Tx;

/** Published versions of a kind in force at `now` (effective), newest first. */
export async function effectiveVersions(q: Q, kind: string, now: Date, limit: number): Promise<VersionRow[]> {
  return q
    .selectFrom('agreements_version')
    .selectAll()
    .where('kind', '=', kind)
    .where('status', '=', 'published')
    .where('effective_at', '<=', now)
    .orderBy('version', 'desc')
    .limit(limit)
    .execute();
}

/** The version in force at `now` of every kind that has one. */
export async function currentVersions(q: Q, now: Date): Promise<VersionRow[]> {
  return q
    .selectFrom('agreements_version')
    .selectAll()
    .distinctOn('kind')
    .where('status', '=', 'published')
    .where('effective_at', '<=', now)
    .orderBy('kind')
    .orderBy('version', 'desc')
    .execute();
}

export async function findVersion(
  q: Q,
  key: { kind: string; version: number },
  options: { forUpdate?: boolean } = {},
): Promise<VersionRow | null> {
  let query = q
    .selectFrom('agreements_version')
    .selectAll()
    .where('kind', '=', key.kind)
    .where('version', '=', key.version);
  if (options.forUpdate) query = query.forUpdate();
  return (await query.executeTakeFirst()) ?? null;
}

export async function allVersions(q: Q): Promise<VersionRow[]> {
  return q.selectFrom('agreements_version').selectAll().orderBy('kind').orderBy('version', 'desc').execute();
}

export async function findDraft(q: Tx, kind: string): Promise<VersionRow | null> {
  return (
    (await q
      .selectFrom('agreements_version')
      .selectAll()
      .where('kind', '=', kind)
      .where('status', '=', 'draft')
      .forUpdate()
      .executeTakeFirst()) ?? null
  );
}

/** The highest version of a kind (any status) and the latest published one's effective date. */
export async function kindHead(
  q: Tx,
  kind: string,
): Promise<{ maxVersion: number; lastEffective: Date | null }> {
  // Serialises drafts and publications of one kind (two staff members saving at once).
  await sql`select pg_advisory_xact_lock(hashtext(${`agreements:${kind}`}))`.execute(q);
  const [all, published] = await Promise.all([
    q
      .selectFrom('agreements_version')
      .select((eb) => eb.fn.max('version').as('max_version'))
      .where('kind', '=', kind)
      .executeTakeFirst(),
    q
      .selectFrom('agreements_version')
      .select((eb) => eb.fn.max('effective_at').as('last_effective'))
      .where('kind', '=', kind)
      .where('status', '=', 'published')
      .executeTakeFirst(),
  ]);
  return {
    maxVersion: Number(all?.max_version ?? 0),
    lastEffective: (published?.last_effective as Date | null | undefined) ?? null,
  };
}

export async function insertVersion(q: Q, row: VersionRow): Promise<void> {
  await q.insertInto('agreements_version').values(row).execute();
}

export async function updateVersion(
  q: Tx,
  key: { kind: string; version: number },
  patch: Partial<VersionRow>,
): Promise<void> {
  await q
    .updateTable('agreements_version')
    .set(patch)
    .where('kind', '=', key.kind)
    .where('version', '=', key.version)
    .execute();
}

/** Records an acceptance once; the first one stands. Returns the acceptance as stored. */
export async function insertAcceptance(q: Q, row: AcceptanceRow): Promise<AcceptanceRow> {
  await q
    .insertInto('agreements_acceptance')
    .values(row)
    .onConflict((oc) => oc.columns(['customer_id', 'kind', 'version']).doNothing())
    .execute();
  return q
    .selectFrom('agreements_acceptance')
    .selectAll()
    .where('customer_id', '=', row.customer_id)
    .where('kind', '=', row.kind)
    .where('version', '=', row.version)
    .executeTakeFirstOrThrow();
}

export async function acceptancesOf(q: Q, customerId: string): Promise<AcceptanceRow[]> {
  return q
    .selectFrom('agreements_acceptance')
    .selectAll()
    .where('customer_id', '=', customerId)
    .orderBy('accepted_at', 'desc')
    .execute();
}

/** Acceptances per (kind, version). */
export async function acceptanceCounts(q: Q): Promise<Map<string, number>> {
  const rows = await q
    .selectFrom('agreements_acceptance')
    .select(['kind', 'version', (eb) => eb.fn.countAll<string>().as('n')])
    .groupBy(['kind', 'version'])
    .execute();
  return new Map(rows.map((r) => [`${r.kind}:${r.version}`, Number(r.n)]));
}

export async function countVersions(q: Q, kind: string): Promise<number> {
  const row = await q
    .selectFrom('agreements_version')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
