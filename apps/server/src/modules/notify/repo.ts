import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { NotifyTables } from './tables.ts';

/** The only SQL on notify_outbox. */
export async function insertOutbox(db: Db, row: Insertable<NotifyTables['notify_outbox']>): Promise<void> {
  // The id is the message's: a retried send that raced its first try files one row.
  await db
    .insertInto('notify_outbox')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** Whether a message with this id was filed (a retried send). */
export async function outboxHas(db: Db, id: string): Promise<boolean> {
  return (
    (await db.selectFrom('notify_outbox').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
  );
}

/** A recipient's latest messages, newest first. */
export function latestFor(db: Db, recipient: string, limit: number) {
  return db
    .selectFrom('notify_outbox')
    .select(['subject', 'body', 'created_at'])
    .where('recipient', '=', recipient)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The outbox, newest first, for the back office's read-only list. */
export async function listOutbox(db: Db, input: { beforeId?: string; limit: number }) {
  let query = db
    .selectFrom('notify_outbox')
    .select(['id', 'channel', 'recipient', 'subject', 'body', 'delivery', 'created_at'])
    .orderBy('id', 'desc')
    .limit(input.limit);
  if (input.beforeId) query = query.where('id', '<', input.beforeId);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    recipient: r.recipient,
    subject: r.subject,
    body: r.body,
    delivery: r.delivery,
    created_at: r.created_at.getTime(),
  }));
}
