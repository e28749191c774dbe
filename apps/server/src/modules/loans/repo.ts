import type { LoanProductState, LoanStatus, Paged } from '@bourse/protocol';
import { LOAN_OPEN_STATES } from '@bourse/protocol';
import type { Db, Tx } from '../../db/database.ts';
import { pageNewestFirst } from '../../http/paging.ts';
import type { LoansTables } from './tables.ts';

/** The only SQL on the loans_* tables. Functions taking `lock` hold the row for the caller's transaction. */
type Q = Db | Tx;
export type SettingRow = LoansTables['loans_setting'];
export type ScoreTableRow = LoansTables['loans_score_table'];
export type LenderRow = LoansTables['loans_lender'];
export type FundingRequestRow = LoansTables['loans_funding_request'];
export type ProductRow = LoansTables['loans_product'];
export type LoanRow = LoansTables['loans_loan'];
export type DayRow = LoansTables['loans_day'];
export type RepaymentRow = LoansTables['loans_repayment'];
export type ReviewRow = LoansTables['loans_score_review'];
type Paging = { page: number; pageSize: number };

const json = (value: unknown) => JSON.stringify(value) as never;

// ---- settings and the score table

export async function setting(q: Q, options: { lock?: boolean } = {}): Promise<SettingRow> {
  let query = q.selectFrom('loans_setting').selectAll().where('id', '=', 1);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirstOrThrow();
}

export async function updateSetting(q: Q, patch: Omit<SettingRow, 'id'>): Promise<void> {
  await q.updateTable('loans_setting').set(patch).where('id', '=', 1).execute();
}

/** The table in force: the newest version. */
export async function scoreTable(q: Q, options: { lock?: boolean } = {}): Promise<ScoreTableRow> {
  let query = q.selectFrom('loans_score_table').selectAll().orderBy('version', 'desc').limit(1);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirstOrThrow();
}

export async function insertScoreTable(q: Q, row: ScoreTableRow): Promise<void> {
  await q
    .insertInto('loans_score_table')
    .values({ ...row, bands: json(row.bands), limits: json(row.limits) })
    .execute();
}

// ---- lenders and their funding

export async function insertLender(q: Q, row: LenderRow): Promise<void> {
  await q
    .insertInto('loans_lender')
    .values({ ...row, source: json(row.source) })
    .execute();
}

export async function findLender(q: Q, id: string): Promise<LenderRow | undefined> {
  return q.selectFrom('loans_lender').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function lenders(q: Q, ids?: readonly string[]): Promise<LenderRow[]> {
  let query = q.selectFrom('loans_lender').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
  if (ids) {
    if (ids.length === 0) return [];
    query = query.where('id', 'in', [...ids]);
  }
  return query.execute();
}

export async function insertFundingRequest(q: Q, row: FundingRequestRow): Promise<void> {
  await q.insertInto('loans_funding_request').values(row).execute();
}

export async function findFundingRequest(q: Q, id: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('loans_funding_request').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function decideFundingRequest(
  q: Q,
  id: string,
  patch: Pick<FundingRequestRow, 'state' | 'decided_by' | 'decided_at' | 'decision_reason' | 'entry_id'>,
): Promise<void> {
  await q.updateTable('loans_funding_request').set(patch).where('id', '=', id).execute();
}

export async function fundingRequestsPage(
  q: Q,
  filter: { lenderId?: string; state?: FundingRequestRow['state'] },
  paging: Paging,
): Promise<Paged<FundingRequestRow>> {
  let query = q.selectFrom('loans_funding_request');
  if (filter.lenderId) query = query.where('lender_id', '=', filter.lenderId);
  if (filter.state) query = query.where('state', '=', filter.state);
  return pageNewestFirst(query, 'requested_at', paging, (rows) => rows);
}

/** Approved funding per lender (minor units). */
export async function fundedTotals(q: Q): Promise<Map<string, bigint>> {
  const rows = await q
    .selectFrom('loans_funding_request')
    .select(['lender_id', (eb) => eb.fn.sum<string>('amount_units').as('total')])
    .where('state', '=', 'approved')
    .groupBy('lender_id')
    .execute();
  return new Map(rows.map((r) => [r.lender_id, BigInt(r.total ?? '0')]));
}

// ---- products

export async function insertProduct(q: Q, row: ProductRow): Promise<void> {
  await q
    .insertInto('loans_product')
    .values({
      ...row,
      names: json(row.names),
      descriptions: json(row.descriptions),
      term_days: json(row.term_days),
    })
    .execute();
}

export async function findProduct(q: Q, id: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('loans_product').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function products(q: Q, states?: readonly LoanProductState[]): Promise<ProductRow[]> {
  let query = q.selectFrom('loans_product').selectAll();
  if (states) query = query.where('state', 'in', [...states]);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export async function setProductState(q: Q, id: string, state: LoanProductState, now: Date): Promise<void> {
  await q.updateTable('loans_product').set({ state, updated_at: now }).where('id', '=', id).execute();
}

// ---- loans (applications and loans)

export async function insertLoan(q: Q, row: LoanRow): Promise<void> {
  await q
    .insertInto('loans_loan')
    .values({
      ...row,
      quote: json(row.quote),
      caps: json(row.caps),
      proof_ids: json(row.proof_ids),
      loan_state: row.loan_state === null ? null : json(row.loan_state),
    })
    .execute();
}

export async function findLoan(
  q: Q,
  id: string,
  options: { lock?: boolean; customerId?: string } = {},
): Promise<LoanRow | undefined> {
  let query = q.selectFrom('loans_loan').selectAll().where('id', '=', id);
  if (options.customerId) query = query.where('customer_id', '=', options.customerId);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function updateLoan(q: Q, id: string, patch: Partial<Omit<LoanRow, 'id'>>): Promise<void> {
  const values: Record<string, unknown> = { ...patch };
  if (patch.loan_state !== undefined)
    values.loan_state = patch.loan_state === null ? null : json(patch.loan_state);
  await q
    .updateTable('loans_loan')
    .set(values as never)
    .where('id', '=', id)
    .execute();
}

/** The customer's application or loan in progress (at most one: a unique index). */
export async function openLoanOf(q: Q, customerId: string): Promise<LoanRow | undefined> {
  return q
    .selectFrom('loans_loan')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('state', 'in', [...LOAN_OPEN_STATES])
    .executeTakeFirst();
}

export async function loansOf(q: Q, customerId: string): Promise<LoanRow[]> {
  return q.selectFrom('loans_loan').selectAll().where('customer_id', '=', customerId).execute();
}

export async function loansPage<T>(
  q: Q,
  filter: { customerId?: string; states?: readonly LoanStatus[] },
  paging: Paging,
  map: (rows: LoanRow[]) => T[] | Promise<T[]>,
): Promise<Paged<T>> {
  let query = q.selectFrom('loans_loan');
  if (filter.customerId) query = query.where('customer_id', '=', filter.customerId);
  if (filter.states) query = query.where('state', 'in', [...filter.states]);
  return pageNewestFirst(query, 'created_at', paging, map);
}

/** The review queue: unreviewed applications, oldest first. */
export async function queue(q: Q, paging: Paging): Promise<{ total: number; rows: LoanRow[] }> {
  const base = q.selectFrom('loans_loan').where('state', '=', 'unreviewed');
  const counted = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .limit(paging.pageSize)
    .offset((paging.page - 1) * paging.pageSize)
    .execute();
  return { total: Number(counted.n), rows };
}

/** Loans with a loan-day due at `now` (each is then charged one day per transaction). */
export async function dueLoanIds(q: Q, now: Date, limit: number): Promise<string[]> {
  const rows = await q
    .selectFrom('loans_loan')
    .select('id')
    .where('next_day_at', '<=', now)
    .orderBy('next_day_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Running loans due within a day and not reminded yet (nor past their first overdue day). */
export async function remindable(q: Q, now: Date, limit: number): Promise<string[]> {
  const dayMs = 86_400_000;
  const rows = await q
    .selectFrom('loans_loan')
    .select('id')
    .where('state', 'in', ['disbursed', 'repaying'])
    .where('reminded_at', 'is', null)
    .where('due_at', '<=', new Date(now.getTime() + dayMs))
    .where('due_at', '>', new Date(now.getTime() - dayMs))
    .orderBy('due_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Marks a reminder sent; false when another run did (so each loan is reminded once). */
export async function markReminded(q: Q, id: string, now: Date): Promise<boolean> {
  const row = await q
    .updateTable('loans_loan')
    .set({ reminded_at: now })
    .where('id', '=', id)
    .where('reminded_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

// ---- loan-days and repayments

export async function insertDay(q: Q, row: DayRow): Promise<void> {
  await q.insertInto('loans_day').values(row).execute();
}

export async function daysOf(q: Q, loanId: string): Promise<DayRow[]> {
  return q.selectFrom('loans_day').selectAll().where('loan_id', '=', loanId).orderBy('day').execute();
}

export async function insertRepayment(q: Q, row: RepaymentRow): Promise<void> {
  await q.insertInto('loans_repayment').values(row).execute();
}

export async function findRepayment(q: Q, id: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('loans_repayment').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function updateRepayment(q: Q, id: string, patch: Partial<Omit<RepaymentRow, 'id'>>) {
  await q.updateTable('loans_repayment').set(patch).where('id', '=', id).execute();
}

export async function repaymentsOf(q: Q, loanId: string): Promise<RepaymentRow[]> {
  return q
    .selectFrom('loans_repayment')
    .selectAll()
    .where('loan_id', '=', loanId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function repaymentsPage(
  q: Q,
  filter: { state?: RepaymentRow['state'] },
  paging: Paging,
): Promise<Paged<RepaymentRow>> {
  let query = q.selectFrom('loans_repayment');
  if (filter.state) query = query.where('state', '=', filter.state);
  return pageNewestFirst(query, 'created_at', paging, (rows) => rows);
}

// ---- score reviews

export async function insertReview(q: Q, row: ReviewRow): Promise<void> {
  await q
    .insertInto('loans_score_review')
    .values({ ...row, breakdown: json(row.breakdown) })
    .execute();
}

export async function openReviewOf(q: Q, customerId: string): Promise<ReviewRow | undefined> {
  return q
    .selectFrom('loans_score_review')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('state', '=', 'open')
    .executeTakeFirst();
}

export async function findReview(q: Q, id: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('loans_score_review').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function closeReview(
  q: Q,
  id: string,
  patch: Pick<ReviewRow, 'closed_by' | 'closed_at' | 'closing_note'>,
): Promise<void> {
  await q
    .updateTable('loans_score_review')
    .set({ ...patch, state: 'closed' })
    .where('id', '=', id)
    .execute();
}

export async function reviewsPage(
  q: Q,
  filter: { state?: ReviewRow['state'] },
  paging: Paging,
): Promise<Paged<ReviewRow>> {
  let query = q.selectFrom('loans_score_review');
  if (filter.state) query = query.where('state', '=', filter.state);
  return pageNewestFirst(query, 'created_at', paging, (rows) => rows);
}
