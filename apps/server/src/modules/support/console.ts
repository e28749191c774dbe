import { randomBytes } from 'node:crypto';
import {
  type AdminSupportCannedBody,
  type AdminSupportCannedData,
  type AdminSupportConversationData,
  type AdminSupportDetailData,
  type AdminSupportMessageData,
  type AdminSupportMetricsData,
  type AdminSupportQueueQuery,
  type Paged,
  SUPPORT_LIMITS,
  type SupportStatus,
} from '@bourse/protocol';
import { inTransaction, type Tx } from '../../db/database.ts';
import { pageOf } from '../../http/paging.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { newId } from '../../lib/ids.ts';
import {
  customerMessage,
  METRICS_DAYS_DEFAULT,
  median,
  publishTo,
  QUEUE_PAGE_DEFAULT,
  type SupportDeps,
} from './context.ts';
import { conversationData } from './customer.ts';
import { parseHours } from './hours.ts';
import type { AgentRow, CannedRow, ConversationRow, MessageRow } from './repo.ts';
import * as repo from './repo.ts';

/**
 * The staff console (README.md, "Staff console"): queues, take and assign, replies (the first one
 * stamps the first-response time; a reply moves an open conversation to `pending`, waiting for the
 * customer), internal notes (never sent or shown to the customer), status, canned replies and the
 * metrics. Every change is audited in its transaction; replies and status go live to the customer
 * after the commit.
 */

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const DAY_MS = 86_400_000;

function newStaffCode(): string {
  const bytes = randomBytes(6);
  return `BS-${[...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('')}`;
}

/** The staff member's public identity in support, created on first use from their staff name. */
async function agentOf(deps: SupportDeps, tx: Tx, staffId: string): Promise<AgentRow> {
  const [existing] = await repo.agentsByIds(tx, [staffId]);
  if (existing) return existing;
  const member = (await deps.staffMembers([staffId])).get(staffId);
  return repo.ensureAgent(tx, {
    staff_id: staffId,
    code: newStaffCode(),
    display_name: (member?.name ?? 'Staff').slice(0, 60) || 'Staff',
    created_at: deps.clock.now(),
  });
}

async function lockedConversation(tx: Tx, id: string): Promise<ConversationRow> {
  const c = await repo.findConversation(tx, id, { lock: true });
  if (!c) refuse('NOT_FOUND');
  return c;
}

async function adminViews(
  deps: SupportDeps,
  rows: ConversationRow[],
): Promise<AdminSupportConversationData[]> {
  const uids = (await deps.customerUids?.(rows.map((r) => r.customer_id))) ?? new Map<string, string>();
  const assignees = [...new Set(rows.flatMap((r) => (r.assignee_id ? [r.assignee_id] : [])))];
  const names = await deps.staffMembers(assignees);
  return rows.map((c) => ({
    ...conversationData(c),
    customer_uid: uids.get(c.customer_id) ?? null,
    customer_lang: c.lang,
    assignee_id: c.assignee_id,
    assignee_name: c.assignee_id ? (names.get(c.assignee_id)?.name ?? null) : null,
    first_response_at: c.first_response_at?.getTime() ?? null,
    resolved_at: c.resolved_at?.getTime() ?? null,
  }));
}

export async function queue(
  deps: SupportDeps,
  staff: StaffContext,
  q: AdminSupportQueueQuery,
): Promise<Paged<AdminSupportConversationData>> {
  const { page, pageSize } = pageOf(q, {
    pageSizeDefault: QUEUE_PAGE_DEFAULT,
    pageSizeMax: SUPPORT_LIMITS.pageSizeMax,
  });
  const which = q.queue ?? 'unassigned';
  const filter: repo.QueueFilter = { limit: pageSize, offset: (page - 1) * pageSize };
  if (which === 'unassigned') Object.assign(filter, { unassigned: true, notResolved: true });
  else if (which === 'mine') Object.assign(filter, { assignee: staff.staffId, notResolved: true });
  else filter.status = which;
  const { rows, total } = await repo.queue(deps.db, filter);
  return { total, page, page_size: pageSize, items: await adminViews(deps, rows) };
}

export async function detail(
  deps: SupportDeps,
  staff: StaffContext,
  id: string,
): Promise<AdminSupportDetailData> {
  const c = await repo.findConversation(deps.db, id);
  if (!c) refuse('NOT_FOUND');
  const rows = await repo.messages(deps.db, {
    conversationId: id,
    after: 0,
    limit: SUPPORT_LIMITS.messagesPerConversationMax,
    withNotes: true,
  });
  const staffIds = [...new Set(rows.flatMap((m) => (m.staff_id ? [m.staff_id] : [])))];
  const agents = new Map((await repo.agentsByIds(deps.db, staffIds)).map((a) => [a.staff_id, a]));
  const files = rows.flatMap((m) => (m.file_id ? [m.file_id] : []));
  const links = files.length
    ? await deps.uploads.staffLinks(staff.staffId, files, {
        about: `support conversation ${id}`,
        purposes: ['support'],
      })
    : new Map();
  const messages: AdminSupportMessageData[] = rows.map((m) => ({
    ...customerMessage(m, agents),
    from: m.kind,
    staff_id: m.staff_id,
    url: m.file_id ? (links.get(m.file_id)?.url ?? null) : null,
  }));
  const [view] = await adminViews(deps, [c]);
  return { ...(view as AdminSupportConversationData), messages };
}

export async function assign(deps: SupportDeps, staff: StaffContext, id: string, to: string | undefined) {
  const target = to ?? staff.staffId;
  if (to !== undefined && !(await deps.staffMembers([to])).get(to)?.active)
    refuse('BAD_INPUT', { field: 'staff_id' });
  const c = await inTransaction(deps.db, async (tx) => {
    const before = await lockedConversation(tx, id);
    const after = await repo.updateConversation(tx, id, { assignee_id: target });
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'support.assign',
      targetType: 'support_conversation',
      targetId: id,
      before: { assignee_id: before.assignee_id },
      after: { assignee_id: target },
    });
    return after;
  });
  return (await adminViews(deps, [c]))[0] as AdminSupportConversationData;
}

async function appendStaff(
  deps: SupportDeps,
  staff: StaffContext,
  input: { id: string; body: string; kind: 'staff' | 'note' },
) {
  return inTransaction(deps.db, async (tx) => {
    const c = await lockedConversation(tx, input.id);
    if (c.message_seq >= SUPPORT_LIMITS.messagesPerConversationMax)
      refuse('SUPPORT_MESSAGES_TOO_MANY', { max: SUPPORT_LIMITS.messagesPerConversationMax });
    const now = deps.clock.now();
    const agent = input.kind === 'staff' ? await agentOf(deps, tx, staff.staffId) : null;
    const row: MessageRow = {
      id: newId('sum', now.getTime()),
      conversation_id: c.id,
      seq: c.message_seq + 1,
      kind: input.kind,
      staff_id: staff.staffId,
      body: input.body.trim(),
      file_id: null,
      out_of_hours: false,
      at: now,
    };
    if (row.body === '') refuse('FIELD_REQUIRED', { field: 'body' });
    await repo.insertMessage(tx, row);
    const reply = input.kind === 'staff';
    const updated = await repo.updateConversation(tx, c.id, {
      message_seq: row.seq,
      ...(reply
        ? {
            updated_at: now,
            first_response_at: c.first_response_at ?? now,
            assignee_id: c.assignee_id ?? staff.staffId,
            ...(c.status === 'open' ? { status: 'pending' as const } : {}),
          }
        : {}),
    });
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: reply ? 'support.reply' : 'support.note',
      targetType: 'support_conversation',
      targetId: c.id,
      after: { seq: row.seq, status: updated.status },
    });
    const agents = new Map<string, AgentRow>(agent ? [[agent.staff_id, agent]] : []);
    return { before: c, conversation: updated, message: customerMessage(row, agents) };
  });
}

export async function reply(deps: SupportDeps, staff: StaffContext, id: string, body: string) {
  const r = await appendStaff(deps, staff, { id, body, kind: 'staff' });
  const customerId = r.conversation.customer_id;
  await publishTo(deps, customerId, { type: 'message', conversation_id: id, message: r.message });
  if (r.before.status !== r.conversation.status)
    await publishTo(deps, customerId, { type: 'status', conversation_id: id, status: r.conversation.status });
  return r.message;
}

/** An internal note: stored and audited, never published and never in the customer's calls. */
export async function note(deps: SupportDeps, staff: StaffContext, id: string, body: string) {
  const r = await appendStaff(deps, staff, { id, body, kind: 'note' });
  return { seq: r.message.seq, at: r.message.at };
}

export async function setStatus(deps: SupportDeps, staff: StaffContext, id: string, status: SupportStatus) {
  const c = await inTransaction(deps.db, async (tx) => {
    const before = await lockedConversation(tx, id);
    const now = deps.clock.now();
    const after = await repo.updateConversation(tx, id, {
      status,
      updated_at: now,
      resolved_at: status === 'resolved' ? (before.status === 'resolved' ? before.resolved_at : now) : null,
    });
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'support.status',
      targetType: 'support_conversation',
      targetId: id,
      before: { status: before.status },
      after: { status },
    });
    return after;
  });
  await publishTo(deps, c.customer_id, { type: 'status', conversation_id: id, status: c.status });
  return (await adminViews(deps, [c]))[0] as AdminSupportConversationData;
}

export const cannedData = (r: CannedRow): AdminSupportCannedData => ({
  id: r.id,
  title: r.title,
  body_en: r.body_en,
  body_zh: r.body_zh,
  body_ft: r.body_ft,
  updated_at: r.updated_at.getTime(),
});

function cannedFields(body: AdminSupportCannedBody) {
  const fields = {
    title: body.title.trim(),
    body_en: body.body_en.trim(),
    body_zh: body.body_zh.trim(),
    body_ft: body.body_ft.trim(),
  };
  for (const [field, value] of Object.entries(fields)) if (value === '') refuse('FIELD_REQUIRED', { field });
  return fields;
}

export async function saveCanned(
  deps: SupportDeps,
  staff: StaffContext,
  input: { id: string | null; body: AdminSupportCannedBody },
) {
  const fields = cannedFields(input.body);
  const row = await inTransaction(deps.db, async (tx) => {
    const now = deps.clock.now();
    const before = input.id ? await repo.findCanned(tx, input.id) : null;
    if (input.id && !before) refuse('NOT_FOUND');
    let saved: CannedRow;
    if (before)
      saved = await repo.updateCanned(tx, before.id, {
        ...fields,
        updated_at: now,
        updated_by: staff.staffId,
      });
    else {
      if ((await repo.cannedCount(tx)) >= SUPPORT_LIMITS.cannedRepliesMax)
        refuse('LIMIT_TOO_LARGE', { field: 'canned', max: SUPPORT_LIMITS.cannedRepliesMax });
      saved = {
        id: newId('scr', now.getTime()),
        ...fields,
        deleted_at: null,
        updated_at: now,
        updated_by: staff.staffId,
      };
      await repo.insertCanned(tx, saved);
    }
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: before ? 'support.canned.update' : 'support.canned.create',
      targetType: 'support_canned',
      targetId: saved.id,
      before: before ? cannedData(before) : undefined,
      after: cannedData(saved),
    });
    return saved;
  });
  return cannedData(row);
}

export async function deleteCanned(deps: SupportDeps, staff: StaffContext, id: string) {
  await inTransaction(deps.db, async (tx) => {
    const before = await repo.findCanned(tx, id);
    if (!before) refuse('NOT_FOUND');
    await repo.updateCanned(tx, id, { deleted_at: deps.clock.now(), updated_by: staff.staffId });
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'support.canned.delete',
      targetType: 'support_canned',
      targetId: id,
      before: cannedData(before),
    });
  });
  return { id };
}

export async function metrics(
  deps: SupportDeps,
  daysText: string | undefined,
): Promise<AdminSupportMetricsData> {
  const days = Number(daysText ?? METRICS_DAYS_DEFAULT);
  if (!Number.isSafeInteger(days) || days < 1 || days > SUPPORT_LIMITS.metricsDaysMax)
    refuse('BAD_INPUT', { field: 'days' });
  const to = deps.clock.now();
  const from = new Date(to.getTime() - days * DAY_MS);
  const rows = await repo.durations(deps.db, { from, to });
  const first = rows.flatMap((r) => (r.first_minutes === null ? [] : [Number(r.first_minutes)]));
  const resolved = rows.flatMap((r) => (r.resolve_minutes === null ? [] : [Number(r.resolve_minutes)]));
  return {
    days,
    from: from.getTime(),
    to: to.getTime(),
    conversations: rows.length,
    answered: first.length,
    resolved: resolved.length,
    first_response_median_minutes: median(first),
    resolution_median_minutes: median(resolved),
  };
}

export async function setHours(deps: SupportDeps, staff: StaffContext, text: string) {
  const parsed = parseHours(text);
  if (!parsed) refuse('BAD_INPUT', { field: 'hours' });
  await inTransaction(deps.db, async (tx) => {
    const before = await repo.hours(tx);
    await repo.setHours(tx, { hours: parsed.text, at: deps.clock.now(), by: staff.staffId });
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'support.hours',
      targetType: 'support_settings',
      targetId: 'support',
      before: { hours: before },
      after: { hours: parsed.text },
    });
  });
}

/** The caller's own public identity (code and display name), created on first use. */
export async function me(deps: SupportDeps, staff: StaffContext) {
  const agent = await inTransaction(deps.db, (tx) => agentOf(deps, tx, staff.staffId));
  return { staff_id: agent.staff_id, code: agent.code, name: agent.display_name };
}
