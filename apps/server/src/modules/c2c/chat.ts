import { C2C_LIMITS, type C2cMessageData, type C2cSendMessageBody } from '@bourse/protocol';
import { inTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { newId } from '../../lib/ids.ts';
import { claimUpload } from './acting.ts';
import type { C2cDeps } from './context.ts';
import { publishMessage } from './notices.ts';
import type { MessageRow } from './repo.ts';
import * as repo from './repo.ts';
import { partyOf, partyOrder } from './transition.ts';

/**
 * Order chat (README.md, "Chat"): the two parties write (text, an attachment from the upload
 * pipeline, or both) and staff join once the order is disputed; messages are numbered per order
 * (`seq`, under the order's lock), kept with it, and delivered live on both parties' private
 * channels after the commit.
 */

export const messageData = (m: MessageRow): C2cMessageData => ({
  seq: m.seq,
  from: m.sender,
  kind: m.kind,
  body: m.body,
  file_id: m.file_id,
  at: m.at.getTime(),
});

export async function messagesOf(deps: C2cDeps, auth: AuthContext, orderId: string, after: number) {
  await partyOrder(deps.db, orderId, auth.customerId);
  return (await repo.messages(deps.db, orderId, after, C2C_LIMITS.messagesPerOrderMax)).map(messageData);
}

export async function sendMessage(deps: C2cDeps, auth: AuthContext, body: C2cSendMessageBody) {
  const text = body.body?.trim() ?? '';
  if (text === '' && !body.file_id) refuse('C2C_MESSAGE_EMPTY');
  const { order, message } = await inTransaction(deps.db, async (tx) => {
    const o = await partyOrder(tx, body.order_id, auth.customerId, true);
    if (o.message_seq >= C2C_LIMITS.messagesPerOrderMax)
      refuse('C2C_MESSAGES_TOO_MANY', { max: C2C_LIMITS.messagesPerOrderMax });
    if (body.file_id)
      await claimUpload(deps, tx, {
        fileId: body.file_id,
        customerId: auth.customerId,
        ref: `c2c:${o.id}:chat`,
      });
    const row: MessageRow = {
      id: newId('cms', deps.clock.now().getTime()),
      order_id: o.id,
      seq: o.message_seq + 1,
      sender: partyOf(o, auth.customerId) === 'merchant' ? 'merchant' : 'customer',
      sender_id: auth.customerId,
      kind: o.state === 'disputed' && body.file_id ? 'evidence' : 'text',
      body: text === '' ? null : text,
      file_id: body.file_id ?? null,
      at: deps.clock.now(),
    };
    await repo.insertMessage(tx, row);
    await repo.updateOrder(tx, o.id, { message_seq: row.seq });
    return { order: o, message: messageData(row) };
  });
  await publishMessage(deps, order, message);
  return message;
}

/** Staff write in a disputed order's chat (audited); before a dispute the chat is the parties' own. */
export async function staffMessage(deps: C2cDeps, staff: StaffContext, orderId: string, text: string) {
  const { order, message } = await inTransaction(deps.db, async (tx) => {
    const o = await repo.findOrder(tx, orderId, { lock: true });
    if (!o) refuse('NOT_FOUND');
    if (o.state !== 'disputed') refuse('C2C_ORDER_STATE', { state: o.state, action: 'staff_message' });
    const row: MessageRow = {
      id: newId('cms', deps.clock.now().getTime()),
      order_id: o.id,
      seq: o.message_seq + 1,
      sender: 'staff',
      sender_id: staff.staffId,
      kind: 'text',
      body: text.trim(),
      file_id: null,
      at: deps.clock.now(),
    };
    await repo.insertMessage(tx, row);
    await repo.updateOrder(tx, o.id, { message_seq: row.seq });
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'c2c.order.staff_message',
      targetType: 'c2c_order',
      targetId: o.id,
      after: { seq: row.seq },
    });
    return { order: o, message: messageData(row) };
  });
  await publishMessage(deps, order, message);
  return message;
}
