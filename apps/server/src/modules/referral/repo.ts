import { sql } from 'kysely';
import type { Tx } from '../../db/database.ts';
import type { FeeCursor } from '../spot/index.ts';
import type { Q } from './context.ts';
import type { ReferralTables } from './tables.ts';

/** The only SQL on the referral_* tables. Functions taking `Tx` lock what they read for the caller. */
export type SettingsRow = ReferralTables['referral_settings'];
export type IncomeRow = ReferralTables['referral_income'];
export type FlagRow = ReferralTables['referral_flag'];

export async function settings(q: Q, options: { lock?: boolean } = {}): Promise<SettingsRow> {
  let query = q.selectFrom('referral_settings').selectAll().where('id', '=', 'referral');
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirstOrThrow();
}

export async function updateSettings(
  tx: Tx,
  row: Pick<SettingsRow, 'enabled' | 'depth' | 'shares_bps' | 'updated_at' | 'updated_by'>,
): Promise<void> {
  await tx
    .updateTable('referral_settings')
    .set({ ...row, shares_bps: sql<number[]>`${sql.val(row.shares_bps)}::integer[]` })
    .where('id', '=', 'referral')
    .execute();
}

/** The market's cursor, locked: the one job run that holds it advances it (concurrent runs wait). */
export async function hasCursor(q: Tx, symbol: string): Promise<boolean> {
  const row = await q
    .selectFrom('referral_cursor')
    .select('symbol')
    .where('symbol', '=', symbol)
    .executeTakeFirst();
  return row !== undefined;
}

export async function lockCursor(tx: Tx, symbol: string, now: Date): Promise<FeeCursor | null> {
  await tx
    .insertInto('referral_cursor')
    .values({ symbol, seq: '-1', engine_trade_id: '-1', updated_at: now })
    .onConflict((oc) => oc.column('symbol').doNothing())
    .execute();
  const row = await tx
    .selectFrom('referral_cursor')
    .select(['seq', 'engine_trade_id'])
    .where('symbol', '=', symbol)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return row.seq === '-1' ? null : { seq: row.seq, engineTradeId: row.engine_trade_id };
}

export async function advanceCursor(tx: Tx, symbol: string, to: FeeCursor, now: Date): Promise<void> {
  await tx
    .updateTable('referral_cursor')
    .set({ seq: to.seq, engine_trade_id: to.engineTradeId, updated_at: now })
    .where('symbol', '=', symbol)
    .execute();
}

export async function insertIncome(tx: Tx, row: IncomeRow): Promise<void> {
  await tx.insertInto('referral_income').values(row).execute();
}

export async function flagsOfPair(q: Q, inviterId: string, inviteeId: string): Promise<FlagRow[]> {
  return q
    .selectFrom('referral_flag')
    .selectAll()
    .where('inviter_id', '=', inviterId)
    .where('invitee_id', '=', inviteeId)
    .orderBy('flagged_at')
    .execute();
}

export async function insertFlag(tx: Tx, row: FlagRow): Promise<void> {
  await tx
    .insertInto('referral_flag')
    .values(row)
    .onConflict((oc) => oc.columns(['inviter_id', 'invitee_id', 'reason']).doNothing())
    .execute();
}

export async function flag(q: Q, id: string, options: { lock?: boolean } = {}): Promise<FlagRow | undefined> {
  let query = q.selectFrom('referral_flag').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function clearFlag(
  tx: Tx,
  id: string,
  input: { at: Date; by: string; reason: string },
): Promise<void> {
  await tx
    .updateTable('referral_flag')
    .set({ cleared_at: input.at, cleared_by: input.by, clear_reason: input.reason })
    .where('id', '=', id)
    .execute();
}

export async function flagsPage(
  q: Q,
  input: { state: 'open' | 'cleared' | 'all'; offset: number; limit: number },
): Promise<{ total: number; rows: FlagRow[] }> {
  let query = q.selectFrom('referral_flag');
  if (input.state === 'open') query = query.where('cleared_at', 'is', null);
  if (input.state === 'cleared') query = query.where('cleared_at', 'is not', null);
  const counted = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .selectAll()
    .orderBy('flagged_at', 'desc')
    .orderBy('id', 'desc')
    .limit(input.limit)
    .offset(input.offset)
    .execute();
  return { total: Number(counted.n), rows };
}

export async function incomePage(
  q: Q,
  input: {
    inviterId?: string;
    inviteeId?: string;
    status?: 'paid' | 'excluded';
    offset: number;
    limit: number;
  },
): Promise<{ total: number; rows: IncomeRow[] }> {
  let query = q.selectFrom('referral_income');
  if (input.inviterId) query = query.where('inviter_id', '=', input.inviterId);
  if (input.inviteeId) query = query.where('invitee_id', '=', input.inviteeId);
  if (input.status) query = query.where('status', '=', input.status);
  const counted = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(input.limit)
    .offset(input.offset)
    .execute();
  return { total: Number(counted.n), rows };
}

/** Income paid to one inviter, per level and currency. */
export async function incomeTotals(q: Q, inviterId: string) {
  return q
    .selectFrom('referral_income')
    .select(['level', 'fee_currency as currency', (eb) => eb.fn.sum<string>('amount_units').as('units')])
    .where('inviter_id', '=', inviterId)
    .where('status', '=', 'paid')
    .groupBy(['level', 'fee_currency'])
    .orderBy('level')
    .orderBy('fee_currency')
    .execute();
}

/** The programme's totals per status and currency, the open flags and the inviters paid. */
export async function programmeTotals(q: Q) {
  const [lines, flags, inviters] = await Promise.all([
    q
      .selectFrom('referral_income')
      .select([
        'status',
        'fee_currency as currency',
        (eb) => eb.fn.sum<string>('amount_units').as('units'),
        (eb) => eb.fn.countAll<string>().as('lines'),
      ])
      .groupBy(['status', 'fee_currency'])
      .orderBy('fee_currency')
      .execute(),
    q
      .selectFrom('referral_flag')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('cleared_at', 'is', null)
      .executeTakeFirstOrThrow(),
    q
      .selectFrom('referral_income')
      .select((eb) => eb.fn.count<string>('inviter_id').distinct().as('n'))
      .where('status', '=', 'paid')
      .executeTakeFirstOrThrow(),
  ]);
  return { lines, flagsOpen: Number(flags.n), inviters: Number(inviters.n) };
}
