import type { AddressInfo } from 'node:net';
import { INBOX_CHANNELS } from '@bourse/protocol';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Answer, call, registerByEmail, startTestApp, type TestApp } from '../../../test/harness.ts';
import { inTransaction } from '../../db/database.ts';
import { connectClient, type Received } from '../market/fixtures/ws-client.ts';
import { createNotifier, type Message, type Notifier } from '../notify/index.ts';
import { adminCall, type StaffLogin, staffSession } from '../staff/testing.ts';

const HOUR = 3_600_000;
let t: TestApp;
let notifier: Notifier;
let staff: StaffLogin;
let url: string;
let n = 0;

type Who = { token: string; uid: string; id: string; email: string };

async function customer(): Promise<Who> {
  n += 1;
  const email = `inbox${n}-${process.pid}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  const { token, uid } = await registerByEmail(t, email);
  const row = await t.db
    .selectFrom('accounts_customer')
    .select('id')
    .where('uid', '=', uid)
    .executeTakeFirstOrThrow();
  return { token, uid, id: row.id, email };
}

const get = (c: Who, name: string, fields: Record<string, string> = {}): Promise<Answer> =>
  call(t.app, { method: 'GET', call: name, fields, headers: { token: c.token } });
const post = (c: Who, name: string, fields: Record<string, string> = {}): Promise<Answer> =>
  call(t.app, { call: name, fields, headers: { token: c.token } });
const admin = (path: string, fields: Record<string, string> = {}, method: 'GET' | 'POST' = 'POST') =>
  adminCall(t.app, { method, call: path, token: staff.token, fields });

const message = (c: Who, extra: Partial<Message> = {}): Message => ({
  channel: 'email',
  recipient: c.email,
  customerId: c.id,
  subject: 'Withdrawal approved',
  body: 'Your withdrawal of 10 USDT was approved.',
  kind: 'withdrawal',
  ...extra,
});

const outboxTo = (email: string) =>
  t.db.selectFrom('notify_outbox').select(['id', 'subject']).where('recipient', '=', email).execute();
const inboxOf = (customerId: string) =>
  t.db.selectFrom('inbox_message').selectAll().where('customer_id', '=', customerId).orderBy('id').execute();

const texts = {
  title_en: 'Maintenance tonight',
  title_zh: '今晚维护',
  title_ft: '今晚維護',
  body_en: 'Trading pauses at 02:00.',
  body_zh: '交易于 02:00 暂停。',
  body_ft: '交易於 02:00 暫停。',
};

async function announcement(fields: Record<string, string> = {}): Promise<string> {
  const created = await admin('notices', { ...texts, ...fields });
  expect(created).toMatchObject({ code: 1, data: { state: 'draft' } });
  return created.data.id as string;
}

beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
  notifier = await createNotifier({
    db: t.db,
    log: pino({ level: 'silent' }),
    clock: t.clock,
    smtp: null,
    inbox: t.app.inbox.service.port,
  });
  await t.app.market.step();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
});
afterAll(async () => t.close());
// A staff session each test: the scheduled-announcement test steps the clock past a session's life.
beforeEach(async () => {
  staff = await staffSession(t, ['content']);
});

describe('every notify message also lands in the inbox, exactly once', () => {
  it('files title, body, kind, link and time in the customer’s inbox; a retried id files nothing twice', async () => {
    const c = await customer();
    const id = notifier.newId();
    await notifier.send(message(c, { link: '/withdrawRecord' }), { id });
    await notifier.send(message(c, { link: '/withdrawRecord' }), { id });
    expect(await inboxOf(c.id)).toMatchObject([
      {
        id,
        kind: 'withdrawal',
        title: 'Withdrawal approved',
        body: 'Your withdrawal of 10 USDT was approved.',
        link: '/withdrawRecord',
        read_at: null,
        created_at: t.clock.now(),
      },
    ]);
    expect((await outboxTo(c.email)).filter((r) => r.id === id)).toHaveLength(1);
    const page = await get(c, 'getNotices', { kind: 'message' });
    expect(page).toMatchObject({ code: 1, data: { total: 1, page: 1, page_size: 20 } });
    expect(page.data.items[0]).toMatchObject({ id, source: 'message', kind: 'withdrawal', read: false });
  });

  it('in the caller’s transaction: rolled back, nothing; committed then sent with the same id, one row and one e-mail', async () => {
    const c = await customer();
    const lost = notifier.newId();
    await expect(
      inTransaction(t.db, async (tx) => {
        await notifier.send(message(c), { id: lost, tx });
        throw new Error('the caller’s change failed');
      }),
    ).rejects.toThrow('failed');
    expect(await inboxOf(c.id)).toEqual([]);
    const id = notifier.newId();
    await inTransaction(t.db, (tx) => notifier.send(message(c), { id, tx }));
    expect(await inboxOf(c.id)).toHaveLength(1);
    expect((await outboxTo(c.email)).some((r) => r.id === id)).toBe(false);
    await notifier.send(message(c), { id });
    expect(await inboxOf(c.id)).toHaveLength(1);
    expect((await outboxTo(c.email)).filter((r) => r.id === id)).toHaveLength(1);
  });

  it('a message naming no customer is filed for the holder of the address; codes and strangers are not filed', async () => {
    const c = await customer();
    const before = (await inboxOf(c.id)).length;
    await notifier.send({ ...message(c), customerId: undefined, kind: 'security' } as Message);
    await notifier.send(message(c, { code: '123456', body: 'Your code is 123456' }));
    await notifier.send({ channel: 'email', recipient: 'nobody-here@example.com', subject: 'S', body: 'B' });
    const rows = await inboxOf(c.id);
    expect(rows.length - before).toBe(1);
    expect(rows.at(-1)).toMatchObject({ kind: 'security' });
    expect(JSON.stringify(rows)).not.toContain('123456');
  });

  it('the real wiring: a notice from accounts (someone registers with my address) reaches my inbox as security', async () => {
    const c = await customer();
    t.clock.advance(120_000);
    const sent = await call(t.app, {
      method: 'GET',
      call: 'getCode',
      fields: { account: c.email, scene: 'register' },
    });
    expect(sent.code).toBe(1);
    const mine = await get(c, 'getNotices');
    expect(
      mine.data.items.filter((i: { kind: string }) => i.kind === 'security').length,
    ).toBeGreaterThanOrEqual(1);
  });
});

describe('announcements, read state and unread counts', () => {
  it('staff write in three languages and publish with a reason (audited); each customer reads in their language with their own read state', async () => {
    const [a, b] = [await customer(), await customer()];
    const id = await announcement({ link: '/market' });
    expect(
      (await get(a, 'getNotices', { kind: 'announcement' })).data.items.map((i: { id: string }) => i.id),
    ).not.toContain(id);
    expect(await admin(`notices/${id}/publish`, { reason: 'planned maintenance' })).toMatchObject({
      code: 1,
      data: { state: 'published', publish_at: t.clock.now().getTime() },
    });
    const zh = await get(a, 'getNotices', { kind: 'announcement', lang: 'zh' });
    expect(zh.data.items[0]).toMatchObject({
      id,
      title: '今晚维护',
      body: '交易于 02:00 暂停。',
      read: false,
      link: '/market',
    });
    const ft = await get(b, 'getNotices', { kind: 'announcement', lang: 'ft' });
    expect(ft.data.items[0]).toMatchObject({ id, title: '今晚維護' });
    const aBefore = (await get(a, 'getUnreadCount')).data.unread;
    const bBefore = (await get(b, 'getUnreadCount')).data.unread;
    expect(await post(a, 'readNotice', { id })).toMatchObject({ code: 1, data: { unread: aBefore - 1 } });
    expect(await post(a, 'readNotice', { id })).toMatchObject({ code: 1, data: { unread: aBefore - 1 } });
    expect((await get(b, 'getUnreadCount')).data.unread).toBe(bBefore);
    expect((await get(a, 'getNotices', { kind: 'announcement' })).data.items[0]).toMatchObject({
      id,
      read: true,
    });
    expect(
      await t.db
        .selectFrom('inbox_announcement_read')
        .select('customer_id')
        .where('announcement_id', '=', id)
        .execute(),
    ).toEqual([{ customer_id: a.id }]);
    const audit = await t.db
      .selectFrom('staff_audit')
      .select(['action', 'reason'])
      .where('target_id', '=', id)
      .orderBy('seq')
      .execute();
    expect(audit).toEqual([
      { action: 'notice.create', reason: null },
      { action: 'notice.publish', reason: 'planned maintenance' },
    ]);
    expect(await admin(`notices/${id}/unpublish`, { reason: 'over' })).toMatchObject({
      code: 1,
      data: { state: 'unpublished' },
    });
    expect(
      (await get(b, 'getNotices', { kind: 'announcement' })).data.items.map((i: { id: string }) => i.id),
    ).not.toContain(id);
  });

  it('unread counts messages and announcements; read all is idempotent and later notices are unread again', async () => {
    const c = await customer();
    await post(c, 'readAllNotices');
    expect(await get(c, 'getUnreadCount')).toMatchObject({ code: 1, data: { unread: 0 } });
    t.clock.advance(1_000);
    await notifier.send(message(c, { kind: 'loan', subject: 'Loan paid out' }));
    await notifier.send(message(c, { kind: 'c2c', subject: 'Order completed' }));
    const id = await announcement();
    await admin(`notices/${id}/publish`, { reason: 'news' });
    expect((await get(c, 'getUnreadCount')).data.unread).toBe(3);
    const all = await get(c, 'getNotices');
    expect(
      all.data.items
        .slice(0, 3)
        .map((i: { title: string }) => i.title)
        .sort(),
    ).toEqual(['Loan paid out', 'Maintenance tonight', 'Order completed'].sort());
    const loan = all.data.items.find((i: { title: string }) => i.title === 'Loan paid out');
    expect(await post(c, 'readNotice', { id: loan.id })).toMatchObject({ data: { unread: 2 } });
    expect(await post(c, 'readAllNotices')).toMatchObject({ code: 1, data: { unread: 0 } });
    expect(await post(c, 'readAllNotices')).toMatchObject({ code: 1, data: { unread: 0 } });
    t.clock.advance(1_000);
    await notifier.send(message(c, { kind: 'verification', subject: 'Verified' }));
    expect((await get(c, 'getUnreadCount')).data.unread).toBe(1);
    // Another customer's message is not mine to read.
    const other = await customer();
    expect(await post(other, 'readNotice', { id: loan.id })).toMatchObject({ reason: 'NOT_FOUND' });
  });

  it('a scheduled announcement appears only when the stepped clock reaches it; its live event goes once', async () => {
    const c = await customer();
    const id = await announcement();
    const at = t.clock.now().getTime() + HOUR;
    expect(
      await admin(`notices/${id}/publish`, { reason: 'scheduled', publish_at: String(at) }),
    ).toMatchObject({
      data: { state: 'published', publish_at: at },
    });
    const ids = async () =>
      (await get(c, 'getNotices', { kind: 'announcement' })).data.items.map((i: { id: string }) => i.id);
    expect(await ids()).not.toContain(id);
    expect(await t.app.inbox.job.runOnce()).toBe(0);
    t.clock.advance(HOUR - 1);
    expect(await ids()).not.toContain(id);
    t.clock.advance(1);
    expect(await ids()).toContain(id);
    expect(await t.app.inbox.job.runOnce()).toBe(1);
    expect(await t.app.inbox.job.runOnce()).toBe(0);
  });

  it('a draft or a scheduled announcement is edited with a reason (audited); one customers have seen is not', async () => {
    const c = await customer();
    const id = await announcement();
    const edited = {
      ...texts,
      title_en: 'Maintenance moved',
      body_zh: '交易于 03:00 暂停。',
      reason: 'new time',
    };
    expect(await admin(`notices/${id}/update`, { ...edited, reason: '' })).toMatchObject({
      reason: 'FIELD_REQUIRED',
    });
    expect(await admin(`notices/${id}/update`, { ...edited, title_ft: ' ' })).toMatchObject({
      reason: 'FIELD_REQUIRED',
    });
    expect(await admin(`notices/${id}/update`, edited)).toMatchObject({
      code: 1,
      data: { state: 'draft', title_en: 'Maintenance moved', body_zh: '交易于 03:00 暂停。' },
    });
    const audit = await t.db
      .selectFrom('staff_audit')
      .selectAll()
      .where('action', '=', 'notice.update')
      .where('target_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(audit.reason).toBe('new time');
    expect(audit.before).toMatchObject({ title_en: 'Maintenance tonight' });
    expect(audit.after).toMatchObject({ title_en: 'Maintenance moved' });
    // Scheduled for later: still unseen, still editable.
    const at = t.clock.now().getTime() + 60_000; // within the staff session's idle time
    await admin(`notices/${id}/publish`, { reason: 'scheduled', publish_at: String(at) });
    expect(
      await admin(`notices/${id}/update`, { ...edited, title_en: 'Maintenance at 03:00' }),
    ).toMatchObject({
      code: 1,
    });
    // Live: customers read it; its words are not rewritten under them.
    t.clock.advance(60_000);
    const shown = (await get(c, 'getNotices', { kind: 'announcement' })).data.items.find(
      (i: { id: string }) => i.id === id,
    );
    expect(shown.title).toBe('Maintenance at 03:00');
    expect(await admin(`notices/${id}/update`, { ...edited, title_en: 'Rewritten' })).toMatchObject({
      reason: 'NOTICE_NOT_EDITABLE',
    });
    await admin(`notices/${id}/unpublish`, { reason: 'over' });
    expect(await admin(`notices/${id}/update`, { ...edited, title_en: 'Rewritten' })).toMatchObject({
      reason: 'NOTICE_NOT_EDITABLE',
    });
    expect(await admin('notices/ann_missing/update', edited)).toMatchObject({ reason: 'NOT_FOUND' });
  });
});

describe('e-mail preferences', () => {
  it('a kind turned off goes to the inbox only; security kinds always go and cannot be turned off', async () => {
    const c = await customer();
    const prefs = await get(c, 'getNoticePrefs');
    expect(prefs.data.items.find((i: { kind: string }) => i.kind === 'withdrawal')).toEqual({
      kind: 'withdrawal',
      email: true,
      locked: true,
    });
    expect(prefs.data.items.find((i: { kind: string }) => i.kind === 'loan')).toEqual({
      kind: 'loan',
      email: true,
      locked: false,
    });
    const set = await post(c, 'setNoticePrefs', { kind: 'loan', email: '0' });
    expect(set.code).toBe(1);
    expect(set.data.items.find((i: { kind: string }) => i.kind === 'loan')).toMatchObject({ email: false });
    const before = (await outboxTo(c.email)).length;
    await notifier.send(message(c, { kind: 'loan', subject: 'Loan due tomorrow' }));
    expect((await outboxTo(c.email)).length).toBe(before);
    expect((await inboxOf(c.id)).some((r) => r.title === 'Loan due tomorrow')).toBe(true);
    await notifier.send(message(c, { kind: 'withdrawal', subject: 'Withdrawal sent' }));
    expect((await outboxTo(c.email)).length).toBe(before + 1);
    const locked = await post(c, 'setNoticePrefs', { kind: 'withdrawal', email: '0' });
    expect(locked).toMatchObject({ reason: 'NOTICE_KIND_LOCKED', params: { kind: 'withdrawal' } });
    const unknown = await post(c, 'setNoticePrefs', { kind: 'bogus', email: '1' });
    expect(unknown).toMatchObject({ reason: 'BAD_INPUT', params: { field: 'kind' } });
    expect(await post(c, 'setNoticePrefs', { kind: 'loan', email: 'maybe' })).toMatchObject({
      params: { field: 'email' },
    });
    // Turned back on, the e-mail goes again.
    await post(c, 'setNoticePrefs', { kind: 'loan', email: '1' });
    await notifier.send(message(c, { kind: 'loan', subject: 'Loan due today' }));
    expect((await outboxTo(c.email)).length).toBe(before + 2);
  });
});

describe('live over the websocket', () => {
  it('a new notice reaches its customer’s private channel only; an announcement goes out on the public channel', async () => {
    const [a, b] = [await customer(), await customer()];
    const open = async (who: Who) => {
      const socket = await connectClient(url);
      socket.send({ main_type: 4, token: who.token });
      await socket.next((m: Received) => m.main_type === 4);
      socket.send({ main_type: 2, channel: `${INBOX_CHANNELS.private}${who.uid}` });
      await socket.next(
        (m: Received) => m.channel === `${INBOX_CHANNELS.private}${who.uid}` && m.snapshot === true,
      );
      return socket;
    };
    const [sa, sb] = [await open(a), await open(b)];
    sb.send({ main_type: 2, channel: `${INBOX_CHANNELS.private}${a.uid}` });
    expect(await sb.next((m: Received) => m.channel === `${INBOX_CHANNELS.private}${a.uid}`)).toMatchObject({
      reason: 'FORBIDDEN',
    });
    sb.send({ main_type: 2, channel: INBOX_CHANNELS.public });
    await sb.next((m: Received) => m.channel === INBOX_CHANNELS.public && m.snapshot === true);

    await notifier.send(message(a, { subject: 'Live one' }));
    const got = await sa.next(
      (m: Received) => m.channel === `${INBOX_CHANNELS.private}${a.uid}` && !m.snapshot,
    );
    expect(got.data).toMatchObject({
      type: 'notice',
      unread: (await get(a, 'getUnreadCount')).data.unread,
      notice: { title: 'Live one' },
    });
    const id = await announcement();
    await admin(`notices/${id}/publish`, { reason: 'live' });
    expect(await sb.next((m: Received) => m.channel === INBOX_CHANNELS.public && !m.snapshot)).toMatchObject({
      data: { type: 'announcement', id },
    });
    expect(
      sb.pending().filter((m) => m.channel === `${INBOX_CHANNELS.private}${b.uid}` && !m.snapshot),
    ).toEqual([]);
    await sa.close();
    await sb.close();
  });
});

describe('bad input is refused by field, never a 500', () => {
  it('customer calls', async () => {
    const c = await customer();
    const answers = [
      await get(c, 'getNotices', { page_size: '0' }),
      await get(c, 'getNotices', { page_size: '500' }),
      await get(c, 'getNotices', { kind: 'bogus' }),
      await post(c, 'readNotice', { id: 'ann_nothing' }),
      await post(c, 'readNotice', {}),
      await call(t.app, { method: 'GET', call: 'getUnreadCount' }),
    ];
    expect(answers.map((a) => a.reason)).toEqual([
      'BAD_INPUT',
      'LIMIT_TOO_LARGE',
      expect.any(String),
      'NOT_FOUND',
      'FIELD_REQUIRED',
      'LOGIN_REQUIRED',
    ]);
    expect(answers[0]?.params).toEqual({ field: 'page_size' });
    expect(answers[2]?.params).toMatchObject({ field: 'kind' });
    expect(answers.every((a) => a.status < 500)).toBe(true);
  });

  it('staff calls', async () => {
    const missing = await admin('notices', { ...texts, title_zh: '  ' });
    expect(missing).toMatchObject({ reason: 'FIELD_REQUIRED', params: { field: 'title_zh' } });
    const link = await admin('notices', { ...texts, link: 'javascript:alert(1)' });
    expect(link).toMatchObject({ reason: 'BAD_INPUT', params: { field: 'link' } });
    const id = await announcement();
    expect(await admin(`notices/${id}/publish`, { reason: '' })).toMatchObject({
      reason: 'FIELD_REQUIRED',
      params: { field: 'reason' },
    });
    expect(
      await admin(`notices/${id}/publish`, {
        reason: 'far',
        publish_at: String(t.clock.now().getTime() + 400 * 24 * HOUR),
      }),
    ).toMatchObject({
      reason: 'BAD_INPUT',
      params: { field: 'publish_at' },
    });
    expect(await admin('notices/ann_nothing/publish', { reason: 'x' })).toMatchObject({
      reason: 'NOT_FOUND',
    });
    const customerStaff = await staffSession(t, ['support']);
    const forbidden = await adminCall(t.app, { call: 'notices', token: customerStaff.token, fields: texts });
    expect(forbidden.status).toBeLessThan(500);
    expect(forbidden.code).not.toBe(1);
    const list = await admin('notices', {}, 'GET');
    expect(list).toMatchObject({ code: 1 });
    expect(list.data.total).toBeGreaterThan(0);
  });
});
