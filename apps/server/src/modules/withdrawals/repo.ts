import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import { customerTurnover } from '../ledger/index.ts';
import { PROMOTIONAL_REASONS } from './policy.ts';
import type { WithdrawalStatus, WithdrawalsTables } from './tables.ts';

/** The only SQL on the withdrawals tables (and the one read-only turnover query on the ledger's). */
type Q = Db | Tx;
export type WithdrawalRow = WithdrawalsTables['withdrawals_withdrawal'];
export type AddressRow = WithdrawalsTables['withdrawals_address'];
export type PayeeRow = WithdrawalsTables['withdrawals_payee'];
export type TradePasswordRow = WithdrawalsTables['withdrawals_trade_password'];

export async function findTradePassword(q: Q, customerId: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('withdrawals_trade_password').selectAll().where('customer_id', '=', customerId);
  if (options.lock) query = query.forUpdate();
  return (await query.executeTakeFirst()) ?? null;
}

export async function insertTradePassword(q: Q, row: TradePasswordRow): Promise<boolean> {
  const result = await q
    .insertInto('withdrawals_trade_password')
    .values(row)
    .onConflict((oc) => oc.column('customer_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

export async function updateTradePassword(
  q: Q,
  customerId: string,
  patch: Partial<Omit<TradePasswordRow, 'customer_id' | 'created_at'>>,
) {
  await q
    .updateTable('withdrawals_trade_password')
    .set(patch)
    .where('customer_id', '=', customerId)
    .execute();
}

/**
 * Reserves one trade-password check before the (slow) password check, atomically: counted as a
 * failure up front (a right password clears it, `clearTradePasswordFailures`). Nothing comes back
 * while the row is locked, or while `max` attempts are counted and unresolved, or when there is no
 * row: concurrent guesses never get more than `max` checks. A lock that ended starts a fresh count,
 * and so do `max` reservations left unresolved since `staleBefore` (a process that died mid-check:
 * they served a lock's time). The stored hash comes back to check against.
 */
export async function reserveTradePasswordAttempt(
  q: Q,
  input: { customerId: string; now: Date; max: number; staleBefore: Date },
): Promise<{ failed_count: number; password_hash: string } | null> {
  const { now, max } = input;
  const fresh = sql<boolean>`(locked_until <= ${now} or (locked_until is null and failed_count >= ${max} and updated_at <= ${input.staleBefore}))`;
  const row = await q
    .updateTable('withdrawals_trade_password')
    .set({
      failed_count: sql<number>`case when ${fresh} then 1 else failed_count + 1 end`,
      locked_until: null,
      updated_at: now,
    })
    .where('customer_id', '=', input.customerId)
    .where(sql<boolean>`(${fresh} or (locked_until is null and failed_count < ${max}))`)
    .returning(['failed_count', 'password_hash'])
    .executeTakeFirst();
  return row ?? null;
}

/** After a wrong trade password: locked until `lockUntil` once `max` attempts are counted. */
export async function lockTradePasswordIfFull(
  q: Q,
  input: { customerId: string; now: Date; max: number; lockUntil: Date },
): Promise<void> {
  await q
    .updateTable('withdrawals_trade_password')
    .set({ locked_until: input.lockUntil, updated_at: input.now })
    .where('customer_id', '=', input.customerId)
    .where('failed_count', '>=', input.max)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', input.now)]))
    .execute();
}

/** After a right trade password: the failure count (reservations included) and any lock cleared. */
export async function clearTradePasswordFailures(q: Q, customerId: string, now: Date): Promise<void> {
  await q
    .updateTable('withdrawals_trade_password')
    .set({ failed_count: 0, locked_until: null, updated_at: now })
    .where('customer_id', '=', customerId)
    .where((eb) => eb.or([eb('failed_count', '>', 0), eb('locked_until', 'is not', null)]))
    .execute();
}

export async function findGoogle(q: Q, customerId: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('withdrawals_google').selectAll().where('customer_id', '=', customerId);
  if (options.lock) query = query.forUpdate();
  return (await query.executeTakeFirst()) ?? null;
}

export async function upsertGooglePending(q: Q, row: WithdrawalsTables['withdrawals_google']) {
  await q
    .insertInto('withdrawals_google')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('customer_id')
        .doUpdateSet({ secret_sealed: row.secret_sealed, created_at: row.created_at, last_step: null })
        .where('withdrawals_google.enabled_at', 'is', null),
    )
    .execute();
}

export async function updateGoogle(
  q: Q,
  customerId: string,
  patch: { enabled_at?: Date | null; last_step?: string | null },
) {
  await q.updateTable('withdrawals_google').set(patch).where('customer_id', '=', customerId).execute();
}

export async function deleteGoogle(q: Q, customerId: string) {
  await q.deleteFrom('withdrawals_google').where('customer_id', '=', customerId).execute();
}

export async function listAddresses(q: Q, customerId: string, currency?: string) {
  let query = q.selectFrom('withdrawals_address').selectAll().where('customer_id', '=', customerId);
  if (currency) query = query.where('currency', '=', currency);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export async function countAddresses(q: Q, customerId: string): Promise<number> {
  const row = await q
    .selectFrom('withdrawals_address')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('customer_id', '=', customerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertAddress(q: Q, row: AddressRow) {
  await q.insertInto('withdrawals_address').values(row).execute();
}

export async function findAddress(q: Q, customerId: string, id: string) {
  return (
    (await q
      .selectFrom('withdrawals_address')
      .selectAll()
      .where('customer_id', '=', customerId)
      .where('id', '=', id)
      .executeTakeFirst()) ?? null
  );
}

export async function deleteAddress(q: Q, customerId: string, id: string): Promise<boolean> {
  const result = await q
    .deleteFrom('withdrawals_address')
    .where('customer_id', '=', customerId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function listPayees(q: Q, customerId: string, kind: 'bank' | 'wallet') {
  return q
    .selectFrom('withdrawals_payee')
    .selectAll()
    .where('customer_id', '=', customerId)
    .where('kind', '=', kind)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function insertPayee(q: Q, row: PayeeRow) {
  await q.insertInto('withdrawals_payee').values(row).execute();
}

export async function findPayee(q: Q, customerId: string, id: string) {
  return (
    (await q
      .selectFrom('withdrawals_payee')
      .selectAll()
      .where('customer_id', '=', customerId)
      .where('id', '=', id)
      .executeTakeFirst()) ?? null
  );
}

export async function deletePayee(q: Q, customerId: string, id: string): Promise<boolean> {
  const result = await q
    .deleteFrom('withdrawals_payee')
    .where('customer_id', '=', customerId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function listRules(q: Q) {
  return q.selectFrom('withdrawals_rule').selectAll().orderBy('position').execute();
}

export async function findRule(q: Q, code: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('withdrawals_rule').selectAll().where('code', '=', code);
  if (options.lock) query = query.forUpdate();
  return (await query.executeTakeFirst()) ?? null;
}

/** Locks the named rules (in code order, so two callers never wait on each other) and returns them. */
export async function lockRules(q: Q, codes: readonly string[]) {
  const rows = await q
    .selectFrom('withdrawals_rule')
    .selectAll()
    .where('code', 'in', [...new Set(codes)])
    .orderBy('code')
    .forUpdate()
    .execute();
  return new Map(rows.map((r) => [r.code, r]));
}

export async function updateRule(
  q: Q,
  code: string,
  patch: { enabled: boolean; params: Record<string, unknown>; updated_at: Date; updated_by: string | null },
) {
  await q
    .updateTable('withdrawals_rule')
    .set({ ...patch, params: JSON.stringify(patch.params) })
    .where('code', '=', code)
    .execute();
}

export async function countToday(q: Q, customerId: string, day: string): Promise<number> {
  const row = await q
    .selectFrom('withdrawals_withdrawal')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('customer_id', '=', customerId)
    .where('policy_day', '=', day)
    .where('status', 'not in', ['cancelled', 'rejected'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertWithdrawal(q: Q, row: WithdrawalRow) {
  await q.insertInto('withdrawals_withdrawal').values(row).execute();
}

export async function findWithdrawal(
  q: Q,
  id: string,
  options: { customerId?: string; lock?: boolean } = {},
): Promise<WithdrawalRow | null> {
  let query = q.selectFrom('withdrawals_withdrawal').selectAll().where('id', '=', id);
  if (options.customerId) query = query.where('customer_id', '=', options.customerId);
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? { ...row, policy_day: dayText(row.policy_day) } : null;
}

function dayText(value: unknown): string {
  return value instanceof Date ? value.toISOString().slice(0, 10) : String(value);
}

export async function updateWithdrawal(q: Q, id: string, patch: Partial<WithdrawalRow>) {
  await q.updateTable('withdrawals_withdrawal').set(patch).where('id', '=', id).execute();
}

export type WithdrawalFilter = {
  customerId?: string;
  statuses?: readonly WithdrawalStatus[];
  method?: 'address' | 'bank';
  currency?: string;
  from?: Date;
  to?: Date;
};

function filtered(q: Q, f: WithdrawalFilter) {
  let query = q.selectFrom('withdrawals_withdrawal');
  if (f.customerId) query = query.where('customer_id', '=', f.customerId);
  if (f.statuses && f.statuses.length > 0) query = query.where('status', 'in', [...f.statuses]);
  if (f.method) query = query.where('method', '=', f.method);
  if (f.currency) query = query.where('currency', '=', f.currency);
  if (f.from) query = query.where('created_at', '>=', f.from);
  if (f.to) query = query.where('created_at', '<', f.to);
  return query;
}

export async function listWithdrawals(q: Q, f: WithdrawalFilter, page: { offset: number; limit: number }) {
  const [rows, total] = await Promise.all([
    filtered(q, f)
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    filtered(q, f)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => ({ ...r, policy_day: dayText(r.policy_day) })), total: Number(total.n) };
}

export async function insertPayout(q: Q, row: WithdrawalsTables['withdrawals_payout']) {
  await q.insertInto('withdrawals_payout').values(row).execute();
}

/**
 * The turnover rule's figures, read through the ledger (`customerTurnover`, in the caller's
 * transaction): the promotional credit the customer received (entries whose reason is in
 * `PROMOTIONAL_REASONS` — the only funds the rule may hold), and what they consumed — value that
 * left their accounts to the platform (trading, fees, products), not counting withdrawals,
 * deposits, staff adjustments, freezes or transfers between their own accounts.
 */
export async function turnoverFigures(
  q: Q,
  input: { customerId: string; currency: string },
): Promise<{ promotional: bigint; consumed: bigint }> {
  const figures = await customerTurnover(q, { ...input, promotionalReasons: PROMOTIONAL_REASONS });
  return { promotional: figures.promotionalUnits, consumed: figures.consumedUnits };
}

/** Simulated-chain broadcasts whose confirmation instant has come, oldest first. */
export async function duePayouts(q: Q, now: Date, limit: number) {
  return q
    .selectFrom('withdrawals_payout')
    .select(['id', 'withdrawal_id', 'tx_hash'])
    .where('status', '=', 'broadcast')
    .where('confirm_at', '<=', now)
    .orderBy('confirm_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function findPayout(q: Q, withdrawalId: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('withdrawals_payout').selectAll().where('withdrawal_id', '=', withdrawalId);
  if (options.lock) query = query.forUpdate();
  return (await query.executeTakeFirst()) ?? null;
}

export async function updatePayout(
  q: Q,
  id: string,
  patch: { status: 'confirmed' | 'failed'; settled_at: Date },
) {
  await q.updateTable('withdrawals_payout').set(patch).where('id', '=', id).execute();
}

/**
 * The destination history of a page of withdrawals in one query: per row, the same customer's
 * earlier withdrawals to the same destination that were paid or are being paid (a card: the same
 * saved card; an address: the same address on the same chain), the first of them, and how many
 * other customers withdrew to that address (cards are sealed per customer: not compared).
 */
export async function destinationHistories(q: Q, ids: readonly string[]) {
  if (ids.length === 0)
    return new Map<string, { used_before: number; first_used_at: number | null; other_customers: number }>();
  const result = await sql<{ id: string; used_before: string; first_used: Date | null; others: string }>`
    select w.id,
           count(p.id) filter (where p.customer_id = w.customer_id and p.created_at < w.created_at
                               and p.status in ('processing', 'completed'))::text as used_before,
           min(p.created_at) filter (where p.customer_id = w.customer_id and p.created_at < w.created_at
                                     and p.status in ('processing', 'completed')) as first_used,
           count(distinct p.customer_id) filter (where p.customer_id <> w.customer_id)::text as others
    from withdrawals_withdrawal w
    left join withdrawals_withdrawal p on p.id <> w.id and p.method = w.method and (
      (w.method = 'address' and p.chain = w.chain and p.destination = w.destination)
      or (w.method = 'bank' and p.customer_id = w.customer_id and p.destination_id = w.destination_id))
    where w.id in (${sql.join([...ids])})
    group by w.id`.execute(q);
  return new Map(
    result.rows.map((r) => [
      r.id,
      {
        used_before: Number(r.used_before),
        first_used_at: r.first_used ? new Date(r.first_used).getTime() : null,
        other_customers: Number(r.others),
      },
    ]),
  );
}

/**
 * Per customer and currency (one grouped query): withdrawals paid or being paid (pending,
 * processing, completed) in minor units all time and since `since`, and how many completed — the
 * back-office queues' customer context.
 */
export async function withdrawalFlows(q: Q, ids: readonly string[], since: Date) {
  if (ids.length === 0) return [];
  const result = await sql<{
    customer_id: string;
    currency: string;
    total: string;
    completed: string;
    n30: string;
    sum30: string;
  }>`
    select customer_id, currency,
           coalesce(sum(amount) filter (where status in ('pending', 'processing', 'completed')), 0)::text
             as total,
           count(*) filter (where status = 'completed')::text as completed,
           count(*) filter (where created_at >= ${since}
                            and status in ('pending', 'processing', 'completed'))::text as n30,
           coalesce(sum(amount) filter (where created_at >= ${since}
                            and status in ('pending', 'processing', 'completed')), 0)::text as sum30
    from withdrawals_withdrawal
    where customer_id in (${sql.join([...ids])})
    group by customer_id, currency
    order by customer_id, currency`.execute(q);
  return result.rows;
}
