import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { type Customer, customer } from '../assets/testing.ts';
import { connectClient, type Received } from '../market/fixtures/ws-client.ts';
import { type StaffLogin, staffSession } from '../staff/testing.ts';
import { photo, uploadDocument } from '../uploads/testing.ts';
import {
  MONDAY_STAFFED,
  NEXT_MONDAY_OPEN,
  SATURDAY_CLOSED,
  sget,
  spost,
  staffGet,
  staffPost,
  started,
} from './testing.ts';

/**
 * Customer service over HTTP on a real PostgreSQL, the clock stepped (never the wall clock): start,
 * reply, notes never visible to the customer, out-of-hours tickets with the next staffed time,
 * first-response and resolution times, reopening, staff codes, live delivery to the right customer
 * only, attachments claimed once, permissions and bad input.
 */

let t: TestApp;
let agent: StaffLogin;
let url: string;
beforeAll(async () => {
  // Staff sessions outlive the stepped clock (an hour here, a week there).
  t = await startTestApp({
    sessionTtlDays: 365,
    staffSessionIdleMinutes: 24 * 60,
    staffSessionMaxHours: 24 * 30,
  });
  t.clock.set(MONDAY_STAFFED);
  agent = await staffSession(t, ['support']);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
});
afterAll(async () => t.close());

async function uploaded(c: Customer, purpose = 'support'): Promise<string> {
  const bytes = await photo('jpeg', { seed: Math.floor(Math.random() * 1e9) });
  const a = await uploadDocument(t, {
    token: c.token,
    purpose,
    file: { filename: 'x.jpg', type: 'image/jpeg', bytes },
  });
  if (a.code !== 1) throw new Error(`upload: ${a.reason}`);
  return a.data.file_id as string;
}

describe('customer service', () => {
  it('start, staff reply with name and code, notes never reach the customer, status and times', async () => {
    t.clock.set(MONDAY_STAFFED);
    const c = await customer(t, 'sup');
    const id = await started(t, c);
    const mine = await sget(t, c, 'supportConversations');
    expect(mine.data).toMatchObject([{ id, status: 'open', subject: 'Deposit missing', last_seq: 1 }]);

    const queue = await staffGet(t, agent, 'queue', { queue: 'unassigned' });
    expect(queue.data.items.map((i: { id: string }) => i.id)).toContain(id);

    t.clock.advance(12 * 60_000);
    expect(
      (
        await staffPost(t, agent, `conversations/${id}/note`, {
          body: 'Customer sounds upset; check bank batch',
        })
      ).code,
    ).toBe(1);
    const reply = await staffPost(t, agent, `conversations/${id}/reply`, { body: 'Checking it now' });
    expect(reply.code).toBe(1);
    expect(reply.data.staff.code).toMatch(/^BS-[A-Z0-9]{6}$/);

    const seen = await sget(t, c, 'supportMessages', { id, after: '0' });
    expect(seen.data.map((m: { from: string }) => m.from)).toEqual(['customer', 'staff']);
    expect(JSON.stringify(seen.data)).not.toContain('upset');
    expect(seen.data[1]).toMatchObject({
      seq: 3,
      body: 'Checking it now',
      staff: { code: reply.data.staff.code },
    });

    const detail = await staffGet(t, agent, `conversations/${id}`);
    expect(detail.data.messages.map((m: { from: string }) => m.from)).toEqual(['customer', 'note', 'staff']);
    expect(detail.data).toMatchObject({ status: 'pending', assignee_id: agent.staffId });
    expect(detail.data.first_response_at - detail.data.created_at).toBe(12 * 60_000);

    t.clock.advance(48 * 60_000);
    const resolved = await staffPost(t, agent, `conversations/${id}/status`, { status: 'resolved' });
    expect(resolved.data).toMatchObject({ status: 'resolved' });
    expect(resolved.data.resolved_at - resolved.data.created_at).toBe(60 * 60_000);

    // A new customer message reopens it.
    const again = await spost(t, c, 'supportSend', { id, body: 'It is still missing' });
    expect(again.data.conversation).toMatchObject({ status: 'open' });
    expect((await staffGet(t, agent, `conversations/${id}`)).data.resolved_at).toBeNull();

    const metrics = await staffGet(t, agent, 'metrics', { days: '7' });
    expect(metrics.data).toMatchObject({
      answered: expect.any(Number),
      first_response_median_minutes: expect.any(Number),
    });
  });

  it('out of hours: the message is a ticket and the customer is told the next staffed time', async () => {
    t.clock.set(SATURDAY_CLOSED);
    const c = await customer(t, 'sup');
    const info = await sget(t, null, 'supportInfo');
    expect(info.data).toMatchObject({
      hours: 'Asia/Hong_Kong Mon-Fri 09:00-18:00',
      open_now: false,
      next_open_at: NEXT_MONDAY_OPEN.getTime(),
    });
    expect(info.data.safety).toEqual(['password', 'codes', 'transfers', 'outside_apps']);
    const a = await spost(t, c, 'supportStart', { subject: 'Weekend', body: 'Hello?' });
    expect(a.data).toMatchObject({ open_now: false, next_open_at: NEXT_MONDAY_OPEN.getTime() });
    expect(a.data.message.out_of_hours).toBe(true);
    t.clock.set(NEXT_MONDAY_OPEN);
    const later = await spost(t, c, 'supportSend', { id: a.data.conversation.id, body: 'Back?' });
    expect(later.data).toMatchObject({
      open_now: true,
      next_open_at: null,
      message: { out_of_hours: false },
    });
    t.clock.set(new Date(NEXT_MONDAY_OPEN.getTime() - 60_000));
    expect((await sget(t, null, 'supportInfo')).data.next_open_at).toBe(NEXT_MONDAY_OPEN.getTime());
    t.clock.set(MONDAY_STAFFED);
  });

  it('staff codes: a current member is verified with their display name; a disabled one or a made-up code is not', async () => {
    const other = await staffSession(t, ['support']);
    const me = await staffGet(t, other, 'me');
    expect(me.data.code).toMatch(/^BS-/);
    const ok = await sget(t, null, 'verifyStaff', { code: me.data.code.toLowerCase() });
    expect(ok.data).toMatchObject({ valid: true, name: me.data.name });
    expect((await sget(t, null, 'verifyStaff', { code: 'BS-NOPE22' })).data).toMatchObject({
      valid: false,
      name: null,
    });
    expect((await sget(t, null, 'verifyStaff', { code: '<script>' })).data.valid).toBe(false);
    const admin = await staffSession(t, ['administrator']);
    await t.app.staffService.setStatus(
      { staffId: admin.staffId, sessionId: 'x', roles: ['administrator'] },
      { staffId: other.staffId, status: 'disabled', reason: 'left the company' },
    );
    expect((await sget(t, null, 'verifyStaff', { code: me.data.code })).data.valid).toBe(false);
  });

  it('live: a staff reply and a status change reach the owner’s private channel and no one else’s', async () => {
    const c = await customer(t, 'sup');
    const other = await customer(t, 'sup');
    const id = await started(t, c);
    const client = await connectClient(url);
    const spy = await connectClient(url);
    try {
      client.send({ main_type: 4, token: c.token });
      await client.next((m) => m.main_type === 4);
      spy.send({ main_type: 4, token: other.token });
      await spy.next((m) => m.main_type === 4);
      spy.send({ main_type: 2, channel: `support_private:${c.uid}` });
      expect(await spy.next((m) => m.main_type === 2)).toMatchObject({ reason: 'FORBIDDEN' });
      spy.send({ main_type: 2, channel: `support_private:${other.uid}` });
      await spy.next((m: Received) => m.channel === `support_private:${other.uid}`);
      client.send({ main_type: 2, channel: `support_private:${c.uid}` });
      await client.next((m: Received) => m.channel === `support_private:${c.uid}` && m.snapshot === true);
      await staffPost(t, agent, `conversations/${id}/note`, { body: 'internal only' });
      await staffPost(t, agent, `conversations/${id}/reply`, { body: 'Live hello' });
      const live = await client.next((m: Received) => m.channel === `support_private:${c.uid}`);
      expect(live.data).toMatchObject({
        type: 'message',
        conversation_id: id,
        message: { from: 'staff', body: 'Live hello' },
      });
      const status = await client.next((m: Received) => m.channel === `support_private:${c.uid}`);
      expect(status.data).toMatchObject({ type: 'status', status: 'pending' });
      await staffPost(t, agent, `conversations/${id}/status`, { status: 'resolved' });
      expect(
        (await client.next((m: Received) => m.channel === `support_private:${c.uid}`)).data,
      ).toMatchObject({
        type: 'status',
        status: 'resolved',
      });
      // The other customer's channel got nothing of it (its next event is a reply of their own).
      const theirs = await started(t, other);
      await staffPost(t, agent, `conversations/${theirs}/reply`, { body: 'For the other one' });
      const next = await spy.next((m: Received) => m.channel === `support_private:${other.uid}`);
      expect(next.data).toMatchObject({ conversation_id: theirs, message: { body: 'For the other one' } });
    } finally {
      await client.close();
      await spy.close();
    }
  });

  it('attachments: claimed once, only the customer’s own support upload, links for the owner and audited for staff', async () => {
    const c = await customer(t, 'sup');
    const other = await customer(t, 'sup');
    const id = await started(t, c);
    const fileId = await uploaded(c);
    const sent = await spost(t, c, 'supportSend', { id, file_id: fileId });
    expect(sent.data.message).toMatchObject({ file_id: fileId, body: null });
    const twice = await spost(t, c, 'supportSend', { id, file_id: fileId });
    expect(twice).toMatchObject({ code: 0, reason: 'SUPPORT_FILE_UNKNOWN', params: { file_id: fileId } });
    const foreign = await uploaded(other);
    expect((await spost(t, c, 'supportSend', { id, file_id: foreign })).reason).toBe('SUPPORT_FILE_UNKNOWN');
    const wrongPurpose = await uploaded(c, 'verification');
    expect((await spost(t, c, 'supportSend', { id, file_id: wrongPurpose })).reason).toBe(
      'SUPPORT_FILE_UNKNOWN',
    );
    expect((await sget(t, c, 'supportFileLink', { id, file_id: fileId })).data.url).toContain(
      `/api/files/${fileId}`,
    );
    expect((await sget(t, other, 'supportFileLink', { id, file_id: fileId })).reason).toBe('NOT_FOUND');
    const detail = await staffGet(t, agent, `conversations/${id}`);
    expect(detail.data.messages.find((m: { file_id: string | null }) => m.file_id === fileId).url).toContain(
      '/api/files/',
    );
    const audit = await t.db
      .selectFrom('staff_audit')
      .select('action')
      .where('target_id', '=', fileId)
      .execute();
    expect(audit.map((a) => a.action)).toContain('document.view');
  });

  it('a linked C2C order must be the customer’s; another customer’s conversation is NOT_FOUND', async () => {
    const c = await customer(t, 'sup');
    const other = await customer(t, 'sup');
    const refused = await spost(t, c, 'supportStart', {
      subject: 'Order',
      body: 'Help',
      ref_type: 'c2c_order',
      ref_id: 'cod_nope',
    });
    expect(refused).toMatchObject({ code: 0, reason: 'SUPPORT_REF_UNKNOWN', params: { ref_id: 'cod_nope' } });
    const free = await spost(t, c, 'supportStart', {
      subject: 'Case',
      body: 'Help',
      ref_type: 'other',
      ref_id: 'case 42',
    });
    expect(free.data.conversation).toMatchObject({ ref_type: 'other', ref_id: 'case 42' });
    const id = free.data.conversation.id;
    expect((await sget(t, other, 'supportMessages', { id })).reason).toBe('NOT_FOUND');
    expect((await spost(t, other, 'supportSend', { id, body: 'hijack' })).reason).toBe('NOT_FOUND');
  });

  it('permissions: reading needs support.read, changing support.write; customers never reach staff calls', async () => {
    const c = await customer(t, 'sup');
    const id = await started(t, c);
    const finance = await staffSession(t, ['finance']);
    expect((await staffGet(t, finance, 'queue')).reason).toBe('FORBIDDEN');
    expect((await staffPost(t, finance, `conversations/${id}/reply`, { body: 'x' })).reason).toBe(
      'FORBIDDEN',
    );
    const anonymous = await staffGet(t, { ...finance, token: '' }, 'queue');
    expect(anonymous.reason).toBe('LOGIN_REQUIRED');
    expect((await sget(t, null, 'supportConversations')).reason).toBe('LOGIN_REQUIRED');
  });

  it('bad input is refused by field, never a 500; limits are named', async () => {
    const c = await customer(t, 'sup');
    const cases: Array<[string, Record<string, string>, string, string | undefined]> = [
      ['supportStart', { subject: '', body: 'x' }, 'FIELD_REQUIRED', 'subject'],
      ['supportStart', { subject: 'x'.repeat(121), body: 'x' }, 'FIELD_TOO_LONG', 'subject'],
      ['supportStart', { subject: 'x', body: '   ' }, 'FIELD_REQUIRED', 'body'],
      ['supportStart', { subject: 'x', body: 'y', ref_type: 'bank' }, 'BAD_INPUT', 'ref_type'],
      ['supportStart', { subject: 'x', body: 'y', ref_id: 'cod_1' }, 'FIELD_REQUIRED', 'ref_type'],
      ['supportStart', { subject: 'x', body: 'y', customer_id: 'usr_1' }, 'UNKNOWN_FIELD', 'customer_id'],
      ['supportSend', { id: 'sup_x' }, 'SUPPORT_MESSAGE_EMPTY', undefined],
      ['supportSend', { id: 'sup_x', body: 'hi' }, 'NOT_FOUND', undefined],
      ['supportSend', { id: 'sup_x', file_id: '../etc' }, 'BAD_INPUT', 'file_id'],
    ];
    for (const [name, fields, reason, field] of cases) {
      const a = await spost(t, c, name, fields);
      expect(a.status, `${name} ${JSON.stringify(fields)}`).toBeLessThan(500);
      expect({ reason: a.reason, field: a.params?.field }).toEqual({ reason, field });
    }
    expect((await sget(t, c, 'supportMessages', { id: 'sup_x', after: '-1' })).reason).toBe('BAD_INPUT');
    const badStatus = await staffPost(t, agent, 'conversations/sup_x/status', { status: 'closed' });
    expect(badStatus.status).toBeLessThan(500);
    expect(badStatus.reason).toBe('BAD_INPUT');
    expect((await staffPost(t, agent, 'conversations/sup_x/reply', { body: 'hi' })).reason).toBe('NOT_FOUND');
    expect(
      (await staffPost(t, agent, 'hours', { hours: 'Mars/Olympus Mon-Fri 09:00-18:00' })).params,
    ).toEqual({ field: 'hours' });
    expect((await staffGet(t, agent, 'metrics', { days: '0' })).params).toEqual({ field: 'days' });
    for (let i = 0; i < 5; i++) await started(t, c);
    expect(await spost(t, c, 'supportStart', { subject: 'x', body: 'y' })).toMatchObject({
      reason: 'SUPPORT_OPEN_LIMIT',
      params: { max: 5 },
    });
  });

  it('canned replies in three languages: created, listed, changed, removed (audited)', async () => {
    const a = await staffPost(t, agent, 'canned', {
      title: 'Hi',
      body_en: 'Hello',
      body_zh: '你好',
      body_ft: '你好',
    });
    expect(a.data).toMatchObject({ title: 'Hi', body_zh: '你好' });
    const changed = await staffPost(t, agent, `canned/${a.data.id}`, {
      title: 'Hi',
      body_en: 'Hello!',
      body_zh: '你好！',
      body_ft: '你好！',
    });
    expect(changed.data.body_en).toBe('Hello!');
    expect((await staffGet(t, agent, 'canned')).data.map((r: { id: string }) => r.id)).toContain(a.data.id);
    await staffPost(t, agent, `canned/${a.data.id}/delete`);
    expect((await staffGet(t, agent, 'canned')).data.map((r: { id: string }) => r.id)).not.toContain(
      a.data.id,
    );
    expect(
      (await staffPost(t, agent, 'canned', { title: 'x', body_en: ' ', body_zh: 'y', body_ft: 'y' })).params,
    ).toEqual({
      field: 'body_en',
    });
  });

  it('demo content: the default staffed hours and three canned replies in three languages, once', async () => {
    await t.app.support.seedDemo();
    await t.app.support.seedDemo();
    const canned = (await staffGet(t, agent, 'canned')).data as Array<{
      title: string;
      body_zh: string;
      body_ft: string;
    }>;
    expect(canned.map((c) => c.title).sort()).toEqual(['Greeting', 'Resolved', 'Safety reminder']);
    expect(canned.every((c) => c.body_zh !== '' && c.body_ft !== '' && c.body_zh !== c.body_ft)).toBe(true);
    expect((await staffGet(t, agent, 'hours')).data.hours).toBe('Asia/Hong_Kong Mon-Fri 09:00-18:00');
  });
});
