import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import type { SupportTables } from './tables.ts';

/** The only SQL on the support tables (README.md, "Tables"). */

type Q = Db | Tx;
export type ConversationRow = Selectable<SupportTables['support_conversation']>;
export type MessageRow = Selectable<SupportTables['support_message']>;
export type AgentRow = Selectable<SupportTables['support_agent']>;
export type CannedRow = Selectable<SupportTables['support_canned']>;

export async function hours(q: Q): Promise<string | null> {
  const row = await q
    .selectFrom('support_settings')
    .select('hours')
    .where('id', '=', 'support')
    .executeTakeFirst();
  return row?.hours ?? null;
}

export async function setHours(q: Q, input: { hours: string; at: Date; by: string | null }): Promise<void> {
  await q
    .insertInto('support_settings')
    .values({ id: 'support', hours: input.hours, updated_at: input.at, updated_by: input.by })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({ hours: input.hours, updated_at: input.at, updated_by: input.by }),
    )
    .execute();
}

export async function insertConversation(q: Q, row: ConversationRow): Promise<void> {
  await q.insertInto('support_conversation').values(row).execute();
}

export async function findConversation(q: Q, id: string, options: { lock?: boolean } = {}) {
  let query = q.selectFrom('support_conversation').selectAll().where('id', '=', id);
  if (options.lock) query = query.forUpdate();
  return (await query.executeTakeFirst()) ?? null;
}

export async function updateConversation(
  q: Q,
  id: string,
  patch: Partial<Omit<ConversationRow, 'id' | 'customer_id'>>,
): Promise<ConversationRow> {
  return q
    .updateTable('support_conversation')
    .set(patch)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function conversationsOf(q: Q, customerId: string, limit: number) {
  return q
    .selectFrom('support_conversation')
    .selectAll()
    .where('customer_id', '=', customerId)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** A transaction-scoped lock per customer: their starts run one at a time (the open limit). */
export async function lockCustomer(tx: Tx, customerId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`support:${customerId}`}))`.execute(tx);
}

export async function unresolvedCount(q: Q, customerId: string): Promise<number> {
  const row = await q
    .selectFrom('support_conversation')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('customer_id', '=', customerId)
    .where('status', '<>', 'resolved')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type QueueFilter = {
  status?: 'open' | 'pending' | 'resolved';
  unassigned?: boolean;
  assignee?: string;
  notResolved?: boolean;
  limit: number;
  offset: number;
};

export async function queue(q: Q, f: QueueFilter) {
  let base = q.selectFrom('support_conversation');
  if (f.status) base = base.where('status', '=', f.status);
  if (f.notResolved) base = base.where('status', '<>', 'resolved');
  if (f.unassigned) base = base.where('assignee_id', 'is', null);
  if (f.assignee) base = base.where('assignee_id', '=', f.assignee);
  const [rows, total] = await Promise.all([
    base
      .selectAll()
      .orderBy('updated_at', f.status === 'resolved' ? 'desc' : 'asc')
      .orderBy('id')
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

export async function insertMessage(q: Q, row: MessageRow): Promise<void> {
  await q.insertInto('support_message').values(row).execute();
}

/** Messages after `after`; notes only when `withNotes` (staff). */
export async function messages(
  q: Q,
  input: { conversationId: string; after: number; limit: number; withNotes: boolean },
) {
  let query = q
    .selectFrom('support_message')
    .selectAll()
    .where('conversation_id', '=', input.conversationId)
    .where('seq', '>', input.after);
  if (!input.withNotes) query = query.where('kind', '<>', 'note');
  return query.orderBy('seq').limit(input.limit).execute();
}

export async function agentsByIds(q: Q, staffIds: readonly string[]): Promise<AgentRow[]> {
  if (staffIds.length === 0) return [];
  return q
    .selectFrom('support_agent')
    .selectAll()
    .where('staff_id', 'in', [...staffIds])
    .execute();
}

export async function agentByCode(q: Q, code: string): Promise<AgentRow | null> {
  return (
    (await q.selectFrom('support_agent').selectAll().where('code', '=', code).executeTakeFirst()) ?? null
  );
}

/** Inserts the agent unless it exists (a racing insert of the same staff member keeps the first). */
export async function ensureAgent(q: Q, row: AgentRow): Promise<AgentRow> {
  await q
    .insertInto('support_agent')
    .values(row)
    .onConflict((oc) => oc.column('staff_id').doNothing())
    .execute();
  return q
    .selectFrom('support_agent')
    .selectAll()
    .where('staff_id', '=', row.staff_id)
    .executeTakeFirstOrThrow();
}

export async function cannedList(q: Q): Promise<CannedRow[]> {
  return q
    .selectFrom('support_canned')
    .selectAll()
    .where('deleted_at', 'is', null)
    .orderBy('title')
    .execute();
}

export async function cannedCount(q: Q): Promise<number> {
  const row = await q
    .selectFrom('support_canned')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findCanned(q: Q, id: string): Promise<CannedRow | null> {
  return (
    (await q
      .selectFrom('support_canned')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()) ?? null
  );
}

export async function insertCanned(q: Q, row: CannedRow): Promise<void> {
  await q.insertInto('support_canned').values(row).execute();
}

export async function updateCanned(
  q: Q,
  id: string,
  patch: Partial<Omit<CannedRow, 'id'>>,
): Promise<CannedRow> {
  return q
    .updateTable('support_canned')
    .set(patch)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Minutes to the first staff reply and to resolution, of conversations started in [from, to). */
export async function durations(q: Q, input: { from: Date; to: Date }) {
  return q
    .selectFrom('support_conversation')
    .select([
      sql<number | null>`extract(epoch from (first_response_at - created_at)) / 60`.as('first_minutes'),
      sql<number | null>`extract(epoch from (resolved_at - created_at)) / 60`.as('resolve_minutes'),
    ])
    .where('created_at', '>=', input.from)
    .where('created_at', '<', input.to)
    .execute();
}
