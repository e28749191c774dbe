import type { Paged, SigninFundingState } from '@bourse/protocol';
import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import { pageNewestFirst } from '../../http/paging.ts';
import type { SigninTables } from './tables.ts';

/** The only SQL on the sign-in tables (README.md, "Tables"). */

type Q = Db | Tx;
export type SettingsRow = SigninTables['signin_settings'];
export type ClaimRow = SigninTables['signin_claim'];
export type FundingRow = SigninTables['signin_funding_request'];

// ---- settings

export async function settings(q: Q, options: { lock?: boolean } = {}): Promise<SettingsRow | undefined> {
  let query = q.selectFrom('signin_settings').selectAll().where('id', '=', 'signin');
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? { ...row, amount_units: row.amount_units.map(String) } : undefined;
}

export async function saveSettings(q: Q, row: SettingsRow): Promise<void> {
  const values = {
    ...row,
    amount_units: sql<string[]>`${sql.val(row.amount_units)}::numeric(38, 0)[]`,
  };
  await q
    .insertInto('signin_settings')
    .values(values)
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

// ---- claims

/** The customer's latest claim (by day). */
export async function lastClaim(q: Q, customerId: string): Promise<ClaimRow | undefined> {
  return q
    .selectFrom('signin_claim')
    .selectAll()
    .where('customer_id', '=', customerId)
    .orderBy('day', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Inserts today's claim unless one exists; false when it does. A concurrent insert of the same
 * (customer, day) waits for the other transaction and then does nothing: one claim per day.
 */
export async function insertClaim(q: Q, row: ClaimRow): Promise<boolean> {
  const inserted = await q
    .insertInto('signin_claim')
    .values(row)
    .onConflict((oc) => oc.columns(['customer_id', 'day']).doNothing())
    .returning('day')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function claimsPage(q: Q, paging: { page: number; pageSize: number }): Promise<Paged<ClaimRow>> {
  const counted = await q
    .selectFrom('signin_claim')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const items = await q
    .selectFrom('signin_claim')
    .selectAll()
    .orderBy('at', 'desc')
    .orderBy('customer_id')
    .limit(paging.pageSize)
    .offset((paging.page - 1) * paging.pageSize)
    .execute();
  return { total: Number(counted.n), page: paging.page, page_size: paging.pageSize, items };
}

/** Real-book rewards paid: total minor units and count. */
export async function paidTotals(q: Q): Promise<{ units: bigint; count: number }> {
  const row = await q
    .selectFrom('signin_claim')
    .select((eb) => [eb.fn.sum<string>('amount_units').as('units'), eb.fn.countAll<string>().as('n')])
    .where('book', '=', 'real')
    .executeTakeFirstOrThrow();
  return { units: BigInt(row.units ?? '0'), count: Number(row.n) };
}

// ---- funding requests

export async function insertFunding(q: Q, row: FundingRow): Promise<void> {
  await q.insertInto('signin_funding_request').values(row).execute();
}

export async function findFunding(q: Q, id: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('signin_funding_request').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function decideFunding(
  q: Q,
  id: string,
  patch: Pick<FundingRow, 'state' | 'decided_by' | 'decided_at' | 'decision_reason' | 'entry_id'>,
): Promise<void> {
  await q.updateTable('signin_funding_request').set(patch).where('id', '=', id).execute();
}

export async function fundingPage(
  q: Q,
  filter: { state?: SigninFundingState },
  paging: { page: number; pageSize: number },
): Promise<Paged<FundingRow>> {
  let query = q.selectFrom('signin_funding_request');
  if (filter.state) query = query.where('state', '=', filter.state);
  return pageNewestFirst(query, 'requested_at', paging, (rows) => rows);
}

export async function fundingTotals(q: Q): Promise<{ approvedUnits: bigint; pending: number }> {
  const row = await q
    .selectFrom('signin_funding_request')
    .select((eb) => [
      eb.fn
        .sum<string>(eb.case().when('state', '=', 'approved').then(eb.ref('amount_units')).end())
        .as('approved'),
      eb.fn.count<string>(eb.case().when('state', '=', 'pending').then(1).end()).as('pending'),
    ])
    .executeTakeFirstOrThrow();
  return { approvedUnits: BigInt(row.approved ?? '0'), pending: Number(row.pending) };
}
