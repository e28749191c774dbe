import type { Db } from '../../db/database.ts';

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
