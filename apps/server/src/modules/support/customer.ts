import {
  isLang,
  SUPPORT_LIMITS,
  SUPPORT_SAFETY_RULES,
  type SupportConversationData,
  type SupportInfoData,
  type SupportSendBody,
  type SupportStartBody,
  type VerifyStaffData,
} from '@bourse/protocol';
import { inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import { customerMessage, DEFAULT_HOURS, publishTo, type SupportDeps } from './context.ts';
import { type Hours, isStaffedAt, nextStaffedAt, parseHours } from './hours.ts';
import type { ConversationRow, MessageRow } from './repo.ts';
import * as repo from './repo.ts';

/**
 * The customer's side (README.md, "Conversations"): identity from the session only; a message is
 * numbered under the conversation's lock, an attachment claimed in the same transaction (once), a
 * resolved or pending conversation reopens on a customer message; outside staffed hours the message
 * is marked a ticket and the answer says when staff are next in.
 */

export const conversationData = (c: ConversationRow): SupportConversationData => ({
  id: c.id,
  subject: c.subject,
  status: c.status,
  ref_type: c.ref_type,
  ref_id: c.ref_id,
  created_at: c.created_at.getTime(),
  updated_at: c.updated_at.getTime(),
  last_seq: c.message_seq,
});

export async function currentHours(deps: SupportDeps): Promise<Hours> {
  const text = (await repo.hours(deps.db)) ?? DEFAULT_HOURS;
  const parsed = parseHours(text) ?? parseHours(DEFAULT_HOURS);
  if (!parsed) throw new Error('the default staffed hours do not parse');
  return parsed;
}

export async function info(deps: SupportDeps): Promise<SupportInfoData> {
  const hours = await currentHours(deps);
  const now = deps.clock.now().getTime();
  return {
    hours: hours.text,
    time_zone: hours.tz,
    open_now: isStaffedAt(hours, now),
    next_open_at: nextStaffedAt(hours, now),
    safety: SUPPORT_SAFETY_RULES,
  };
}

/** A customer's conversation, or NOT_FOUND (someone else's looks exactly like an unknown one). */
export async function ownConversation(
  q: Tx | SupportDeps['db'],
  id: string,
  customerId: string,
  lock = false,
) {
  const c = await repo.findConversation(q, id, { lock });
  if (!c || c.customer_id !== customerId) refuse('NOT_FOUND');
  return c;
}

async function claim(deps: SupportDeps, tx: Tx, input: { fileId: string; customerId: string; ref: string }) {
  const claimed = await deps.uploads.attach(tx, {
    fileId: input.fileId,
    customerId: input.customerId,
    purpose: 'support',
    ref: input.ref,
    retainUntil: await deps.retainUntil(deps.clock.now()),
  });
  if (!claimed) refuse('SUPPORT_FILE_UNKNOWN', { file_id: input.fileId });
}

async function checkRef(deps: SupportDeps, customerId: string, body: SupportStartBody) {
  if ((body.ref_type === undefined) !== (body.ref_id === undefined))
    refuse('FIELD_REQUIRED', { field: body.ref_type === undefined ? 'ref_type' : 'ref_id' });
  if (body.ref_type === 'c2c_order' && body.ref_id && deps.c2cOrderOfCustomer) {
    if (!(await deps.c2cOrderOfCustomer(customerId, body.ref_id)))
      refuse('SUPPORT_REF_UNKNOWN', { ref_id: body.ref_id });
  }
}

/** Appends a customer message under the lock; reopens the conversation; returns both. */
async function appendCustomer(
  deps: SupportDeps,
  tx: Tx,
  c: ConversationRow,
  input: { customerId: string; body: string | null; fileId: string | null },
) {
  if (c.message_seq >= SUPPORT_LIMITS.messagesPerConversationMax)
    refuse('SUPPORT_MESSAGES_TOO_MANY', { max: SUPPORT_LIMITS.messagesPerConversationMax });
  const now = deps.clock.now();
  const seq = c.message_seq + 1;
  if (input.fileId)
    await claim(deps, tx, {
      fileId: input.fileId,
      customerId: input.customerId,
      ref: `support:${c.id}:${seq}`,
    });
  const hours = await currentHours(deps);
  const row: MessageRow = {
    id: newId('sum', now.getTime()),
    conversation_id: c.id,
    seq,
    kind: 'customer',
    staff_id: null,
    body: input.body,
    file_id: input.fileId,
    out_of_hours: !isStaffedAt(hours, now.getTime()),
    at: now,
  };
  await repo.insertMessage(tx, row);
  const updated = await repo.updateConversation(tx, c.id, {
    message_seq: seq,
    updated_at: now,
    status: 'open',
    resolved_at: null,
  });
  return { conversation: updated, message: customerMessage(row, new Map()), reopened: c.status !== 'open' };
}

export async function start(deps: SupportDeps, auth: AuthContext, body: SupportStartBody) {
  const subject = body.subject.trim();
  const text = body.body.trim();
  if (subject === '') refuse('FIELD_REQUIRED', { field: 'subject' });
  if (text === '') refuse('FIELD_REQUIRED', { field: 'body' });
  await checkRef(deps, auth.customerId, body);
  const result = await inTransaction(deps.db, async (tx) => {
    // Serialises a customer's starts so the open limit holds under a race.
    await repo.lockCustomer(tx, auth.customerId);
    if ((await repo.unresolvedCount(tx, auth.customerId)) >= SUPPORT_LIMITS.openPerCustomerMax)
      refuse('SUPPORT_OPEN_LIMIT', { max: SUPPORT_LIMITS.openPerCustomerMax });
    const now = deps.clock.now();
    const c: ConversationRow = {
      id: newId('sup', now.getTime()),
      customer_id: auth.customerId,
      subject,
      ref_type: body.ref_type ?? null,
      ref_id: body.ref_id?.trim() ?? null,
      status: 'open',
      assignee_id: null,
      lang: body.lang && isLang(body.lang) ? body.lang : 'en',
      message_seq: 0,
      created_at: now,
      updated_at: now,
      first_response_at: null,
      resolved_at: null,
    };
    await repo.insertConversation(tx, c);
    return appendCustomer(deps, tx, c, {
      customerId: auth.customerId,
      body: text,
      fileId: body.file_id ?? null,
    });
  });
  return {
    conversation: conversationData(result.conversation),
    message: result.message,
    ...(await info(deps)),
  };
}

export async function send(deps: SupportDeps, auth: AuthContext, body: SupportSendBody) {
  const text = body.body?.trim() ?? '';
  if (text === '' && !body.file_id) refuse('SUPPORT_MESSAGE_EMPTY');
  const result = await inTransaction(deps.db, async (tx) => {
    const c = await ownConversation(tx, body.id, auth.customerId, true);
    return appendCustomer(deps, tx, c, {
      customerId: auth.customerId,
      body: text === '' ? null : text,
      fileId: body.file_id ?? null,
    });
  });
  // The customer's other tabs and devices see it too.
  await publishTo(deps, auth.customerId, {
    type: 'message',
    conversation_id: body.id,
    message: result.message,
  });
  if (result.reopened)
    await publishTo(deps, auth.customerId, { type: 'status', conversation_id: body.id, status: 'open' });
  return {
    conversation: conversationData(result.conversation),
    message: result.message,
    ...(await info(deps)),
  };
}

export async function messagesOf(deps: SupportDeps, auth: AuthContext, id: string, after: number) {
  await ownConversation(deps.db, id, auth.customerId);
  const rows = await repo.messages(deps.db, {
    conversationId: id,
    after,
    limit: SUPPORT_LIMITS.messagesPerConversationMax,
    withNotes: false,
  });
  const staffIds = [...new Set(rows.flatMap((m) => (m.staff_id ? [m.staff_id] : [])))];
  const agents = new Map((await repo.agentsByIds(deps.db, staffIds)).map((a) => [a.staff_id, a]));
  return rows.map((m) => customerMessage(m, agents));
}

export async function conversations(deps: SupportDeps, auth: AuthContext) {
  return (await repo.conversationsOf(deps.db, auth.customerId, SUPPORT_LIMITS.conversationsListMax)).map(
    conversationData,
  );
}

export async function fileLink(deps: SupportDeps, auth: AuthContext, q: { id: string; file_id: string }) {
  const c = await ownConversation(deps.db, q.id, auth.customerId);
  return deps.uploads.partyLink(auth.customerId, q.file_id, `support:${c.id}:`);
}

/** Whether a code is a current staff member's public code, and their display name. */
export async function verifyStaff(deps: SupportDeps, code: string): Promise<VerifyStaffData> {
  const normalised = code.trim().toUpperCase();
  const agent = /^[A-Z0-9-]{4,16}$/.test(normalised) ? await repo.agentByCode(deps.db, normalised) : null;
  const member = agent ? (await deps.staffMembers([agent.staff_id])).get(agent.staff_id) : undefined;
  if (!agent || !member?.active) return { code: normalised, valid: false, name: null };
  return { code: normalised, valid: true, name: agent.display_name };
}
