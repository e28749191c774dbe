import type { AddressInfo } from 'node:net';
import { translate } from '@bourse/i18n';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  call,
  outboxCode,
  registerByEmail,
  startTestApp,
  type TestApp,
} from '../../../test/harness.ts';
import { testLogger } from '../../../test/logwatch.ts';
import { connectClient, type Received } from '../market/fixtures/ws-client.ts';
import { createNotifier } from '../notify/index.ts';
import { adminCall, staffSession } from '../staff/testing.ts';
import { addAddress, fund, setRule, TRADE_PASSWORD, withdraw } from '../withdrawals/testing.ts';
import { createProfile, profileText } from './profile.ts';

/**
 * The profile and security centre (issue 15, point 5), through the HTTP API against a real
 * PostgreSQL: account name, binding and changing phone and e-mail with codes to the old and the new
 * contact, security questions (hashed; the staff check audited and rate-limited), the anti-phishing
 * phrase in every message, signed-in devices with revoke (the session and its socket end), and the
 * security score.
 */

const PASSWORD = 'secret123';
const DAY = 86_400_000;
let t: TestApp;
let n = 0;

beforeAll(async () => {
  // The websocket's periodic session check is an hour apart: only the revoke event can end a socket here.
  t = await startTestApp({ feedTickMs: 0, wsSessionCheckMs: 3_600_000 });
});
afterAll(async () => t?.close());

type Customer = { email: string; token: string; uid: string; id: string };

function unique(prefix: string): string {
  n += 1;
  return `${prefix}${n}-${process.pid}-${Math.random().toString(36).slice(2, 7)}`;
}

async function customer(): Promise<Customer> {
  const email = `${unique('pr')}@example.com`;
  const { token, uid } = await registerByEmail(t, email, PASSWORD);
  const row = await t.db
    .selectFrom('accounts_customer')
    .select('id')
    .where('uid', '=', uid)
    .executeTakeFirstOrThrow();
  return { email, token, uid, id: row.id };
}

/** A valid Hong Kong mobile number nobody has yet (E.164 and national). */
function freshPhone(): { e164: string; national: string } {
  for (;;) {
    const national = `9${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
    const parsed = parsePhoneNumberFromString(`+852${national}`);
    if (parsed?.isValid() && !usedPhones.has(national)) {
      usedPhones.add(national);
      return { e164: parsed.number, national };
    }
  }
}
const usedPhones = new Set<string>();

/**
 * Every call a millisecond after the last: messages filed by different calls then sort by time
 * (the outbox orders by `created_at`, then by a random id suffix).
 */
function tick(): void {
  t.clock.advance(1);
}

const get = (c: { token: string }, name: string, fields: Record<string, string> = {}) => {
  tick();
  return call(t.app, { method: 'GET', call: name, fields: { token: c.token, ...fields } });
};
const post = (c: { token: string }, name: string, fields: Record<string, string> = {}) => {
  tick();
  return call(t.app, { call: name, fields: { token: c.token, ...fields } });
};
/** An anonymous call, a millisecond on. */
const anonymous = (input: Parameters<typeof call>[1]) => {
  tick();
  return call(t.app, input);
};

async function customerRow(id: string) {
  return t.db.selectFrom('accounts_customer').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function messagesTo(recipient: string) {
  return t.db
    .selectFrom('notify_outbox')
    .select(['subject', 'body', 'channel'])
    .where('recipient', '=', recipient)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

const login = (account: string, extra: Record<string, string> = {}) =>
  anonymous({ call: 'userLogin', fields: { account, password: PASSWORD, ...extra } });

function wrongCodeFor(code: string): string {
  return code === '000000' ? '000001' : '000000';
}

/** Asks for the codes of a change (old contact `unbind`, new contact `bind`) and reads both from the outbox. */
async function changeCodes(
  c: Customer,
  input: { old: string; next: string; area_code?: string; oldArea?: string },
) {
  const old = await get(c, 'getCode', {
    account: input.old,
    scene: 'unbind',
    ...(input.oldArea ? { area_code: input.oldArea } : {}),
  });
  expect(old).toMatchObject({ code: 1, data: { resend_in: 60 } });
  const fresh = await get(c, 'getCode', {
    account: input.next,
    scene: 'bind',
    ...(input.area_code ? { area_code: input.area_code } : {}),
  });
  expect(fresh).toMatchObject({ code: 1, data: { resend_in: 60 } });
  return { oldCode: await outboxCode(t.db, input.old), newCode: await outboxCode(t.db, input.next) };
}

describe('the account name', () => {
  it('is set, signs in, is unique without regard to case, and changes once per 30 days', async () => {
    const a = await customer();
    const b = await customer();
    const name = unique('Ann').replace(/-/g, '_');
    expect(await post(a, 'setUsername', { name })).toMatchObject({ code: 1, data: { name } });
    const setAt = t.clock.now().getTime();
    expect((await customerRow(a.id)).name).toBe(name);
    expect(await login(name.toLowerCase())).toMatchObject({ code: 1, data: { uid: a.uid } });

    expect(await post(b, 'setUsername', { name: name.toUpperCase() })).toMatchObject({
      code: 0,
      reason: 'NAME_TAKEN',
    });
    expect(await post(a, 'setUsername', { name })).toMatchObject({ reason: 'NAME_UNCHANGED' });
    expect(await post(a, 'setUsername', { name: `${name}x` })).toMatchObject({
      reason: 'NAME_CHANGE_TOO_SOON',
      params: { days: 30 },
    });
    const center = await get(a, 'securityCenter');
    expect(center.data).toMatchObject({ name, name_change_at: setAt + 30 * DAY });

    // 30 days on (the session has expired by then: a new sign-in, by the name).
    t.clock.advance(30 * DAY);
    const again = await login(name);
    expect(again.code).toBe(1);
    const fresh = { token: again.data.token as string };
    expect(await post(fresh, 'setUsername', { name: `${name}x` })).toMatchObject({ code: 1 });
    const changedAt = t.clock.now().getTime();
    expect((await get(fresh, 'securityCenter')).data.name_change_at).toBe(changedAt + 30 * DAY);
  });

  it('refuses a malformed name by its rule and changes nothing', async () => {
    const a = await customer();
    for (const name of ['ab', '1abc', 'has space', 'a'.repeat(33), 'x@y.com', '+85291234567', '']) {
      expect(await post(a, 'setUsername', { name })).toMatchObject({
        code: 0,
        reason: 'NAME_INVALID',
        params: { min: 3, max: 32 },
      });
    }
    expect((await customerRow(a.id)).name).toBeNull();
  });

  it('two customers racing for one name: exactly one gets it', async () => {
    const [a, b] = [await customer(), await customer()];
    const name = unique('Race').replace(/-/g, '_');
    const answers = await Promise.all([post(a, 'setUsername', { name }), post(b, 'setUsername', { name })]);
    expect(answers.map((x) => x.code).sort()).toEqual([0, 1]);
    expect(answers.find((x) => x.code === 0)).toMatchObject({ reason: 'NAME_TAKEN' });
    const holders = await t.db
      .selectFrom('accounts_customer')
      .select('id')
      .where('name', '=', name)
      .execute();
    expect(holders).toHaveLength(1);
  });
});

describe('binding and changing a phone or e-mail', () => {
  it('binds a missing phone with a code to it; the phone then signs in', async () => {
    const c = await customer();
    const phone = freshPhone();
    expect(
      await get(c, 'getCode', { account: phone.national, area_code: '852', scene: 'bind' }),
    ).toMatchObject({
      code: 1,
    });
    const code = await outboxCode(t.db, phone.e164);
    // The customer has no phone yet: no old code is asked for.
    const wrong = await post(c, 'bindContact', {
      type: 'phone',
      account: phone.national,
      area_code: '852',
      code: wrongCodeFor(code),
    });
    expect(wrong).toMatchObject({ code: 0, reason: 'CODE_WRONG', params: { triesLeft: 4, field: 'code' } });
    expect((await customerRow(c.id)).phone).toBeNull();

    const bound = await post(c, 'bindContact', {
      type: 'phone',
      account: phone.national,
      area_code: '852',
      code,
    });
    expect(bound).toMatchObject({ code: 1, data: { phone: phone.e164, area_code: '852', email: c.email } });
    expect(await login(phone.national, { area_code: '852' })).toMatchObject({
      code: 1,
      data: { uid: c.uid },
    });
    // The new phone was told, by SMS, in the customer's language.
    const [sms] = await messagesTo(phone.e164);
    expect(sms).toMatchObject({
      channel: 'sms',
      subject: profileText('en', 'message.contactBoundSubject', { kind: 'phone number' }),
    });
    // A code is good once.
    expect(
      await post(c, 'bindContact', { type: 'phone', account: phone.national, area_code: '852', code }),
    ).toMatchObject({ reason: 'CONTACT_UNCHANGED' });
  });

  it('binding or changing a phone never changes a recorded nationality; it only fills an empty one', async () => {
    // No nationality on record (an older e-mail account): the bound phone's country fills it.
    const empty = await customer();
    const first = freshPhone();
    await get(empty, 'getCode', { account: first.national, area_code: '852', scene: 'bind' });
    const filled = await post(empty, 'bindContact', {
      type: 'phone',
      account: first.national,
      area_code: '852',
      code: await outboxCode(t.db, first.e164),
    });
    expect(filled.code).toBe(1);
    expect((await customerRow(empty.id)).country).toBe('HK');

    // A recorded nationality (GB) stays through binding a Hong Kong phone and changing it to another.
    const c = await customer();
    await t.db.updateTable('accounts_customer').set({ country: 'GB' }).where('id', '=', c.id).execute();
    const phone = freshPhone();
    await get(c, 'getCode', { account: phone.national, area_code: '852', scene: 'bind' });
    const bound = await post(c, 'bindContact', {
      type: 'phone',
      account: phone.national,
      area_code: '852',
      code: await outboxCode(t.db, phone.e164),
    });
    expect(bound.code).toBe(1);
    expect(await customerRow(c.id)).toMatchObject({ phone: phone.e164, country: 'GB' });
    const next = freshPhone();
    const { oldCode, newCode } = await changeCodes(c, { old: phone.e164, next: next.e164 });
    const changed = await post(c, 'bindContact', {
      type: 'phone',
      account: next.e164,
      code: newCode,
      old_code: oldCode,
    });
    expect(changed.code).toBe(1);
    expect(await customerRow(c.id)).toMatchObject({ phone: next.e164, country: 'GB' });
  });

  it('changes the e-mail with a code to the old and one to the new; the old one stops signing in', async () => {
    const c = await customer();
    const next = `${unique('new')}@example.com`;
    const { oldCode, newCode } = await changeCodes(c, { old: c.email, next });
    const change = (fields: Record<string, string>) =>
      post(c, 'bindContact', { type: 'email', account: next, code: newCode, ...fields });

    expect(await change({})).toMatchObject({
      reason: 'FIELD_REQUIRED',
      params: { field: 'old_code' },
    });
    // A typo in the old code burns neither code: the right pair still works afterwards.
    expect(await change({ old_code: wrongCodeFor(oldCode) })).toMatchObject({
      reason: 'CODE_WRONG',
      params: { triesLeft: 4, field: 'old_code' },
    });
    expect(await change({ old_code: oldCode, code: wrongCodeFor(newCode) })).toMatchObject({
      reason: 'CODE_WRONG',
      params: { field: 'code' },
    });
    expect((await customerRow(c.id)).email).toBe(c.email);

    expect(await change({ old_code: oldCode })).toMatchObject({ code: 1, data: { email: next } });
    expect((await customerRow(c.id)).email).toBe(next);
    expect(await login(next)).toMatchObject({ code: 1, data: { uid: c.uid } });
    expect(await login(c.email)).toMatchObject({ code: 0, reason: 'LOGIN_FAILED' });

    // The old address was told of the change after the commit (masked new address), the new of the binding.
    const [told] = await messagesTo(c.email);
    expect(told?.subject).toBe(
      profileText('en', 'message.contactChangedSubject', { kind: 'e-mail address' }),
    );
    expect(told?.body).toContain(`${next.slice(0, 1)}***@example.com`);
    expect(told?.body).not.toContain(next);
    const [welcome] = await messagesTo(next);
    expect(welcome?.subject).toBe(
      profileText('en', 'message.contactBoundSubject', { kind: 'e-mail address' }),
    );
    const events = await t.db
      .selectFrom('accounts_security_event')
      .select('kind')
      .where('customer_id', '=', c.id)
      .execute();
    expect(events.map((e) => e.kind)).toContain('email_changed');
  });

  it('an expired code is refused and nothing changes', async () => {
    const c = await customer();
    const next = `${unique('exp')}@example.com`;
    const { oldCode, newCode } = await changeCodes(c, { old: c.email, next });
    t.clock.advance(10 * 60_000 + 1);
    expect(
      await post(c, 'bindContact', { type: 'email', account: next, code: newCode, old_code: oldCode }),
    ).toMatchObject({ reason: 'CODE_EXPIRED', params: { field: 'old_code' } });
    expect((await customerRow(c.id)).email).toBe(c.email);
  });

  it('an unbind code goes only to the customer’s own contact', async () => {
    const [a, b] = [await customer(), await customer()];
    expect(await get(a, 'getCode', { account: b.email, scene: 'unbind' })).toMatchObject({
      reason: 'BAD_INPUT',
      params: { field: 'account' },
    });
    expect(
      await call(t.app, { method: 'GET', call: 'getCode', fields: { account: a.email, scene: 'unbind' } }),
    ).toMatchObject({
      reason: 'LOGIN_REQUIRED',
    });
  });

  it('a taken address: the same answer as a free one, a notice to its owner, and no way to bind it', async () => {
    const [owner, other] = [await customer(), await customer()];
    const free = `${unique('free')}@example.com`;
    const forTaken = await get(other, 'getCode', { account: owner.email, scene: 'bind' });
    const forFree = await get(other, 'getCode', { account: free, scene: 'bind' });
    expect(forTaken).toEqual(forFree);
    expect(forTaken).toMatchObject({ code: 1, data: { expires_in: 600, resend_in: 60 } });
    // The owner got a notice, never a code.
    const [notice] = await messagesTo(owner.email);
    expect(notice?.subject).toBe(translate('en', 'message.noticeSubject'));
    expect(notice?.body).not.toMatch(/\d{6}/);
    // Whatever the other customer types, the answer is that of a wrong code for a free address.
    await get(other, 'getCode', { account: other.email, scene: 'unbind' });
    const oldCode = await outboxCode(t.db, other.email);
    const guess = (account: string) =>
      post(other, 'bindContact', { type: 'email', account, code: '123456', old_code: oldCode });
    const takenAnswer = await guess(owner.email);
    const freeAnswer = await guess(free);
    expect(takenAnswer).toMatchObject({
      code: 0,
      reason: 'CODE_WRONG',
      params: { triesLeft: 4, field: 'code' },
    });
    expect(takenAnswer).toEqual(freeAnswer);
    expect((await customerRow(other.id)).email).toBe(other.email);
  });

  it('two customers racing for one phone: exactly one binds it', async () => {
    const [a, b] = [await customer(), await customer()];
    const phone = freshPhone();
    await get(a, 'getCode', { account: phone.e164, scene: 'bind' });
    const codeA = await outboxCode(t.db, phone.e164);
    // Codes are filed per customer: b's request does not supersede a's.
    await get(b, 'getCode', { account: phone.e164, scene: 'bind' });
    const codeB = await outboxCode(t.db, phone.e164);
    const answers = await Promise.all([
      post(a, 'bindContact', { type: 'phone', account: phone.e164, code: codeA }),
      post(b, 'bindContact', { type: 'phone', account: phone.e164, code: codeB }),
    ]);
    expect(answers.map((x) => x.code).sort()).toEqual([0, 1]);
    expect(answers.find((x) => x.code === 0)).toMatchObject({ reason: 'CONTACT_TAKEN' });
    const holders = await t.db
      .selectFrom('accounts_customer')
      .select('id')
      .where('phone', '=', phone.e164)
      .execute();
    expect(holders).toHaveLength(1);
  });

  it('a code asked for by one customer is no use to another', async () => {
    const [a, b] = [await customer(), await customer()];
    const phone = freshPhone();
    await get(a, 'getCode', { account: phone.e164, scene: 'bind' });
    const code = await outboxCode(t.db, phone.e164);
    expect(await post(b, 'bindContact', { type: 'phone', account: phone.e164, code })).toMatchObject({
      reason: 'CODE_EXPIRED',
    });
  });

  it('refuses bad input by name and changes nothing', async () => {
    const c = await customer();
    const before = await customerRow(c.id);
    const cases: Array<[Record<string, string>, string]> = [
      [{ type: 'email', account: 'not-an-email', code: '123456' }, 'EMAIL_INVALID'],
      [{ type: 'phone', account: '12', area_code: '852', code: '123456' }, 'PHONE_INVALID'],
      [{ type: 'phone', account: '91234567', area_code: '44', code: '123456' }, 'PHONE_INVALID'],
      [{ type: 'email', account: c.email.toUpperCase(), code: '123456' }, 'CONTACT_UNCHANGED'],
    ];
    for (const [fields, reason] of cases) {
      expect(await post(c, 'bindContact', fields)).toMatchObject({ code: 0, reason });
    }
    expect(await post(c, 'bindContact', { type: 'fax', account: 'x', code: '1' })).toMatchObject({
      status: 400,
    });
    expect(await customerRow(c.id)).toEqual(before);
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin' });
    expect(
      await post({ token: demo.data.token }, 'bindContact', {
        type: 'email',
        account: 'd@example.com',
        code: '123456',
      }),
    ).toMatchObject({ reason: 'REAL_ACCOUNT_REQUIRED' });
  });
});

describe('security questions', () => {
  it('are set with the login password, stored as argon2id hashes of the normalised answers', async () => {
    const c = await customer();
    const answers = { answer1: '  Alice   Smith ', answer2: 'ＭＡＤＯＮＮＡ', answer3: 'Kyoto' };
    expect(await post(c, 'setSecurityQuestions', { password: 'wrong-one', ...answers })).toMatchObject({
      reason: 'OLD_PASSWORD_WRONG',
    });
    expect(
      await post(c, 'setSecurityQuestions', { password: PASSWORD, ...answers, answer2: ' x ' }),
    ).toMatchObject({
      reason: 'ANSWER_LENGTH',
      params: { question: 2, min: 2, max: 64 },
    });
    expect(
      await t.db
        .selectFrom('accounts_security')
        .selectAll()
        .where('customer_id', '=', c.id)
        .executeTakeFirst(),
    ).toBeUndefined();

    expect(await post(c, 'setSecurityQuestions', { password: PASSWORD, ...answers })).toMatchObject({
      code: 1,
      data: { questions_set: true, replaced: false },
    });
    const row = await t.db
      .selectFrom('accounts_security')
      .selectAll()
      .where('customer_id', '=', c.id)
      .executeTakeFirstOrThrow();
    for (const [stored, plain] of [
      [row.answer1_hash, 'alice smith'],
      [row.answer2_hash, 'madonna'],
      [row.answer3_hash, 'kyoto'],
    ] as const) {
      expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(stored?.toLowerCase()).not.toContain(plain);
    }
    expect((await get(c, 'securityCenter')).data.questions_set).toBe(true);
    expect(await post(c, 'setSecurityQuestions', { password: PASSWORD, ...answers })).toMatchObject({
      data: { replaced: true },
    });
  });

  it('staff check an answer: match or no match, audited with the reason, 5 an hour, never the answer', async () => {
    const c = await customer();
    await post(c, 'setSecurityQuestions', {
      password: PASSWORD,
      answer1: 'Alice Smith',
      answer2: 'Madonna',
      answer3: 'Kyoto',
    });
    const support = await staffSession(t, ['support']);
    const check = (question: string, answer: string, reason = 'caller asked to confirm a withdrawal') =>
      adminCall(t.app, {
        call: 'checkSecurityAnswer',
        token: support.token,
        fields: { customer_id: c.id, question, answer, reason },
      });
    expect(await check('1', ' ALICE   smith')).toMatchObject({
      code: 1,
      data: { match: true, checks_left: 4 },
    });
    expect(await check('3', 'ＫＹＯＴＯ')).toMatchObject({ data: { match: true, checks_left: 3 } });
    expect(await check('2', 'Prince')).toMatchObject({ data: { match: false, checks_left: 2 } });
    expect(await check('2', 'Madonna', '  ')).toMatchObject({
      reason: 'FIELD_REQUIRED',
      params: { field: 'reason' },
    });
    const audit = await t.db
      .selectFrom('staff_audit')
      .select(['actor_id', 'action', 'target_id', 'after', 'reason'])
      .where('action', '=', 'customer.security_answer_check')
      .where('target_id', '=', c.id)
      .orderBy('seq')
      .execute();
    expect(audit).toHaveLength(3);
    expect(audit[2]).toMatchObject({
      actor_id: support.staffId,
      after: { question: 2, match: false },
      reason: 'caller asked to confirm a withdrawal',
    });
    expect(JSON.stringify(audit)).not.toMatch(/prince|madonna|alice|kyoto/i);

    expect(await check('2', 'Madonna')).toMatchObject({ data: { match: true, checks_left: 1 } });
    expect(await check('2', 'Madonna')).toMatchObject({ data: { checks_left: 0 } });
    expect(await check('2', 'Madonna')).toMatchObject({
      reason: 'ANSWER_CHECKS_EXHAUSTED',
      params: { max: 5 },
    });
    t.clock.advance(3_600_001);
    // An hour on (the staff session has idled out: a new one).
    const later = await staffSession(t, ['support']);
    expect(
      await adminCall(t.app, {
        call: 'checkSecurityAnswer',
        token: later.token,
        fields: { customer_id: c.id, question: '2', answer: 'Madonna', reason: 'caller again' },
      }),
    ).toMatchObject({ data: { match: true, checks_left: 4 } });

    // Nothing about the customer changed: a match recovers nothing.
    expect(await login(c.email)).toMatchObject({ code: 1 });
  });

  it('staff without the permission are refused; a customer without questions is named', async () => {
    const c = await customer();
    const content = await staffSession(t, ['content']);
    const fields = { customer_id: c.id, question: '1', answer: 'anything', reason: 'caller' };
    expect(
      await adminCall(t.app, { call: 'checkSecurityAnswer', token: content.token, fields }),
    ).toMatchObject({
      reason: 'FORBIDDEN',
    });
    const support = await staffSession(t, ['support']);
    expect(
      await adminCall(t.app, { call: 'checkSecurityAnswer', token: support.token, fields }),
    ).toMatchObject({
      reason: 'SECURITY_QUESTIONS_NOT_SET',
    });
    expect(
      await adminCall(t.app, {
        call: 'checkSecurityAnswer',
        token: support.token,
        fields: { ...fields, customer_id: 'usr_nobody' },
      }),
    ).toMatchObject({ reason: 'NOT_FOUND' });
  });
});

describe('the anti-phishing phrase', () => {
  it('is carried by every message to the customer: codes, notices, SMS, withdrawal notices', async () => {
    const c = await customer();
    const phrase = 'Blue heron 7';
    expect(await post(c, 'setAntiPhishing', { password: 'nope-nope', phrase })).toMatchObject({
      reason: 'OLD_PASSWORD_WRONG',
    });
    expect(await post(c, 'setAntiPhishing', { password: PASSWORD, phrase: ` ${phrase} ` })).toMatchObject({
      code: 1,
      data: { phrase },
    });
    const tag = `[${phrase}]`;
    // The confirmation itself carries it.
    const [confirmation] = await messagesTo(c.email);
    expect(confirmation?.subject).toBe(`${tag} ${profileText('en', 'message.phraseSetSubject')}`);
    expect(confirmation?.body.split('\n')[0]).toBe(tag);

    // A sign-in code.
    t.clock.advance(61_000);
    await anonymous({ method: 'GET', call: 'getCode', fields: { account: c.email, scene: 'login' } });
    const [code] = await messagesTo(c.email);
    expect(code?.subject).toBe(`${tag} ${translate('en', 'message.codeSubject')}`);
    expect(code?.body.startsWith(`${tag}\n\n`)).toBe(true);
    expect(code?.body).toMatch(/\b\d{6}\b/);

    // A bind code to a phone that is not the customer's yet carries the binder's phrase (SMS prefix).
    const phone = freshPhone();
    await get(c, 'getCode', { account: phone.e164, scene: 'bind' });
    const [sms] = await messagesTo(phone.e164);
    expect(sms?.channel).toBe('sms');
    expect(sms?.body.startsWith(`${tag} `)).toBe(true);

    // A withdrawal notice (withdrawals module, through the same notifier), at 12:01 in Hong Kong.
    const noon = new Date(t.clock.now());
    noon.setUTCHours(4, 1, 0, 0);
    if (noon <= t.clock.now()) noon.setUTCDate(noon.getUTCDate() + 1);
    t.clock.set(noon);
    await setRule(t, 'turnover', { enabled: false });
    await call(t.app, {
      call: 'bindTradePassword',
      fields: {
        token: c.token,
        password: PASSWORD,
        trade_password: TRADE_PASSWORD,
        trade_password2: TRADE_PASSWORD,
      },
    });
    await fund(t, c.id, '1000');
    const addressId = await addAddress(t, c.token);
    const requested = await withdraw(t, c.token, { address_id: addressId, amount: '300' });
    expect(requested.code).toBe(1);
    const [notice] = await messagesTo(c.email);
    expect(notice?.subject).toMatch(/^\[Blue heron 7\] Withdrawal requested/);
    expect(notice?.body.startsWith(`${tag}\n\n`)).toBe(true);
  });

  it('a message to an address no customer holds has none; a removed phrase is gone from the next message', async () => {
    const c = await customer();
    await post(c, 'setAntiPhishing', { password: PASSWORD, phrase: 'Quiet river' });
    const stranger = `${unique('nobody')}@example.com`;
    await anonymous({ method: 'GET', call: 'getCode', fields: { account: stranger, scene: 'register' } });
    const [registration] = await messagesTo(stranger);
    expect(registration?.subject).toBe(translate('en', 'message.codeSubject'));
    expect(registration?.body).not.toContain('Quiet river');

    expect(await post(c, 'setAntiPhishing', { password: PASSWORD, phrase: '' })).toMatchObject({
      code: 1,
      data: { phrase: '' },
    });
    const [removed] = await messagesTo(c.email);
    expect(removed?.subject).toBe(profileText('en', 'message.phraseRemovedSubject'));
    expect((await get(c, 'securityCenter')).data.phrase).toBe('');
  });

  it('refuses a phrase that is too short, too long or holds invisible characters, and keeps the old one', async () => {
    const c = await customer();
    await post(c, 'setAntiPhishing', { password: PASSWORD, phrase: 'Keep this' });
    for (const phrase of ['abc', 'x'.repeat(21), 'zero\u200bwidth', 'bidi\u202eflip']) {
      expect(await post(c, 'setAntiPhishing', { password: PASSWORD, phrase })).toMatchObject({
        code: 0,
        reason: 'PHRASE_INVALID',
        params: { min: 4, max: 20 },
      });
    }
    // Control characters stop at the input gate, by name.
    expect(await post(c, 'setAntiPhishing', { password: PASSWORD, phrase: 'bell\u0007' })).toMatchObject({
      reason: 'INVALID_CHARACTERS',
    });
    expect((await get(c, 'securityCenter')).data.phrase).toBe('Keep this');
  });
});

describe('signed-in devices', () => {
  const CHROME_WIN =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const SAFARI_IOS =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

  async function loginFrom(email: string, userAgent: string): Promise<string> {
    const answer = await call(t.app, {
      call: 'userLogin',
      fields: { account: email, password: PASSWORD },
      headers: { 'user-agent': userAgent },
    });
    expect(answer.code).toBe(1);
    return answer.data.token;
  }

  it('lists the active sessions with browser, OS and IP, this one marked; revoking one ends it and its socket', async () => {
    const c = await customer();
    const chrome = await loginFrom(c.email, CHROME_WIN);
    const iphone = await loginFrom(c.email, SAFARI_IOS);
    const list = (await get({ token: chrome }, 'devices')).data.list as Array<Record<string, unknown>>;
    expect(list).toHaveLength(3);
    expect(list.filter((d) => d.current)).toHaveLength(1);
    expect(list.find((d) => d.current)).toMatchObject({
      browser: 'Chrome 131',
      os: 'Windows 10/11',
      ip: '127.0.0.1',
    });
    const phoneRow = list.find((d) => d.browser === 'Safari 18');
    expect(phoneRow).toMatchObject({ os: 'iOS 18.1', current: false });
    expect(JSON.stringify(list)).not.toContain(iphone);

    // The iPhone's socket, authenticated and subscribed to the customer's private channel.
    await t.app.market.step();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
    const socket = await connectClient(url);
    socket.send({ main_type: 4, token: iphone });
    expect(await socket.next((m: Received) => m.main_type === 4)).toEqual({ main_type: 4, uid: c.uid });
    socket.send({ main_type: 2, channel: `spot_private:${c.uid}` });
    expect(await socket.next((m: Received) => m.channel === `spot_private:${c.uid}`)).toMatchObject({
      snapshot: true,
    });

    expect(await post({ token: chrome }, 'revokeDevice', { id: String(phoneRow?.id) })).toMatchObject({
      code: 1,
      data: { ended: 1 },
    });
    expect(await get({ token: iphone }, 'info')).toMatchObject({ code: 1000, reason: 'SESSION_EXPIRED' });
    expect(
      await socket.next((m: Received) => m.main_type === 4 && m.event === 'session_ended', 2_500),
    ).toMatchObject({
      reason: 'SESSION_EXPIRED',
      channels: [`spot_private:${c.uid}`],
    });
    socket.close();
    expect(await get({ token: chrome }, 'info')).toMatchObject({ code: 1 });
    expect((await get({ token: chrome }, 'devices')).data.list).toHaveLength(2);
    const [told] = await messagesTo(c.email);
    expect(told?.subject).toBe(profileText('en', 'message.deviceRevokedSubject'));
    expect(told?.body).toContain('Safari 18, iOS 18.1, 127.0.0.1');

    // This session cannot be revoked here (log out), an unknown or ended one is not found.
    const self = list.find((d) => d.current);
    expect(await post({ token: chrome }, 'revokeDevice', { id: String(self?.id) })).toMatchObject({
      reason: 'DEVICE_CURRENT',
    });
    expect(await post({ token: chrome }, 'revokeDevice', { id: String(phoneRow?.id) })).toMatchObject({
      reason: 'NOT_FOUND',
    });
    // Another customer's session is not found either.
    const other = await customer();
    expect(await post(other, 'revokeDevice', { id: String(self?.id) })).toMatchObject({
      reason: 'NOT_FOUND',
    });
    expect(await get({ token: chrome }, 'info')).toMatchObject({ code: 1 });
  });

  it('signs out every other device at once and keeps this one', async () => {
    const c = await customer();
    const kept = await loginFrom(c.email, CHROME_WIN);
    const gone = await loginFrom(c.email, SAFARI_IOS);
    expect(await post({ token: kept }, 'revokeOtherDevices')).toMatchObject({ code: 1, data: { ended: 2 } });
    expect(await get({ token: gone }, 'info')).toMatchObject({ code: 1000 });
    expect(await get({ token: c.token }, 'info')).toMatchObject({ code: 1000 });
    expect(await get({ token: kept }, 'info')).toMatchObject({ code: 1 });
    const [told] = await messagesTo(c.email);
    expect(told?.body).toBe(profileText('en', 'message.devicesRevokedBody', { n: 2 }));
    expect(await post({ token: kept }, 'revokeOtherDevices')).toMatchObject({ code: 1, data: { ended: 0 } });
  });
});

describe('the security score', () => {
  const item = (answer: Answer, key: string) =>
    (
      answer.data.items as Array<{ key: string; done: boolean; earned: number; points: number; link: string }>
    ).find((i) => i.key === key);

  it('counts each item, names the next step with its link, and reaches 80 without verification', async () => {
    const c = await customer();
    const fresh = await get(c, 'securityCenter');
    expect(fresh.data).toMatchObject({
      score: 20,
      max: 100,
      verification_tier: 0,
      email: c.email,
      phone: '',
    });
    expect(fresh.data.items.map((i: { key: string }) => i.key)).toEqual([
      'login_password',
      'google',
      'trade_password',
      'verification',
      'phone',
      'email',
      'phrase',
      'questions',
    ]);
    expect(item(fresh, 'login_password')).toMatchObject({ done: true, earned: 10, link: '/editPassword' });
    expect(item(fresh, 'email')).toMatchObject({ done: true, earned: 10 });
    expect(item(fresh, 'phone')).toMatchObject({ done: false, earned: 0, link: '/mobile' });
    expect(item(fresh, 'trade_password')).toMatchObject({ done: false, link: '/bindmpwd' });
    expect(fresh.data.next).toMatchObject({ key: 'google', points: 15, link: '/googleCode' });

    await call(t.app, {
      call: 'bindTradePassword',
      fields: {
        token: c.token,
        password: PASSWORD,
        trade_password: TRADE_PASSWORD,
        trade_password2: TRADE_PASSWORD,
      },
    });
    await post(c, 'setAntiPhishing', { password: PASSWORD, phrase: 'Green apple' });
    await post(c, 'setSecurityQuestions', {
      password: PASSWORD,
      answer1: 'aa',
      answer2: 'bb',
      answer3: 'cc',
    });
    const phone = freshPhone();
    await get(c, 'getCode', { account: phone.e164, scene: 'bind' });
    await post(c, 'bindContact', {
      type: 'phone',
      account: phone.e164,
      code: await outboxCode(t.db, phone.e164),
    });

    const after = await get(c, 'securityCenter');
    expect(after.data).toMatchObject({
      score: 65,
      questions_set: true,
      phrase: 'Green apple',
      phone: phone.e164,
    });
    expect(item(after, 'trade_password')).toMatchObject({ done: true, link: '/editPasswordTrade' });
    expect(item(after, 'phrase')).toMatchObject({ done: true, link: '/setting?panel=phrase' });
    expect(after.data.next).toMatchObject({ key: 'google' });
  });

  it('a demo account cannot change security settings', async () => {
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin' });
    const d = { token: demo.data.token as string };
    expect(await post(d, 'setUsername', { name: 'demoName' })).toMatchObject({
      reason: 'REAL_ACCOUNT_REQUIRED',
    });
    expect(await post(d, 'setAntiPhishing', { password: 'x', phrase: 'abcd' })).toMatchObject({
      reason: 'REAL_ACCOUNT_REQUIRED',
    });
    expect(
      await post(d, 'setSecurityQuestions', { password: 'x', answer1: 'aa', answer2: 'bb', answer3: 'cc' }),
    ).toMatchObject({ reason: 'REAL_ACCOUNT_REQUIRED' });
    expect((await get(d, 'securityCenter')).data).toMatchObject({
      score: 0,
      next: { key: 'login_password' },
    });
  });

  it('takes the identity verification tier from its port: tier 1 half the points, tier 2 all of them', async () => {
    const c = await customer();
    const notifier = await createNotifier({ db: t.db, log: testLogger(), clock: t.clock, smtp: null });
    const auth = { customerId: c.id, sessionId: 'ses_x', isDemo: false, token: c.token };
    const asked: string[] = [];
    const withTier = (tier: number) =>
      createProfile({
        db: t.db,
        clock: t.clock,
        log: testLogger(),
        notifier,
        codes: { db: t.db, clock: t.clock, secret: 'x', notifier },
        sessionsEnded: () => {},
        hasGoogleAuth: async () => true,
        verificationTier: async (customerId) => {
          asked.push(customerId);
          return tier;
        },
      }).securityCenter(auth);
    const primary = await withTier(1);
    expect(primary.items.find((i) => i.key === 'verification')).toMatchObject({
      earned: 10,
      points: 20,
      done: false,
    });
    expect(primary).toMatchObject({ score: 45, verification_tier: 1, next: { key: 'trade_password' } });
    const advanced = await withTier(2);
    expect(advanced.items.find((i) => i.key === 'verification')).toMatchObject({ earned: 20, done: true });
    expect(advanced.score).toBe(55);
    expect(asked).toEqual([c.id, c.id]);
  });
});
