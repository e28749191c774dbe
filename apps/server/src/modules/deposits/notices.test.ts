import type { Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call, outboxCode, startTestApp, type TestApp } from '../../../test/harness.ts';
import { SIGNATURE_HEADER, signWebhook } from '../../lib/webhook.ts';
import { customer as emailCustomer, fund } from '../assets/testing.ts';
import { adminCall, type StaffLogin, staffSession } from '../staff/testing.ts';
import { photo, uploadDocument } from '../uploads/testing.ts';
import { addAddress, TRADE_PASSWORD } from '../withdrawals/testing.ts';
import { type DepositNotice, notifyDeposit } from './notices.ts';
import type { CryptoRow } from './repo.ts';

/**
 * The customer is told about their deposits (issue 20 item 4): each message once, after the
 * commit, in their language, filed in their in-app inbox (phone-only customers too); a replayed
 * custody event tells nothing more. Through `app.inject()` on a real PostgreSQL.
 */

const SECRET = 'custody-notices-secret-custody-notices-secret';
let t: TestApp;
let finance: StaffLogin;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0, custodyWebhookSecret: SECRET });
  finance = await staffSession(t, ['finance']);
});
afterAll(async () => t?.close());

type Who = { token: string; id: string; recipient: string };

async function customer(lang: 'en' | 'zh' | 'ft'): Promise<Who> {
  const c = await emailCustomer(t, 'dn');
  const set = await call(t.app, { call: 'setLanguage', fields: { token: c.token, language: lang } });
  expect(set.code).toBe(1);
  const row = await t.db
    .selectFrom('accounts_customer')
    .select('email')
    .where('id', '=', c.id)
    .executeTakeFirstOrThrow();
  return { token: c.token, id: c.id, recipient: row.email ?? '' };
}

let phones = 0;
/** A customer registered by phone only (no e-mail address): notices go by SMS and to the inbox. */
async function phoneCustomer(): Promise<Who> {
  phones += 1;
  const national = `1380013${String(8000 + phones).padStart(4, '0')}`;
  await call(t.app, {
    method: 'GET',
    call: 'getCode',
    fields: { account: national, area_code: '86', scene: 'register' },
  });
  const code = await outboxCode(t.db, `+86${national}`);
  const reg = await call(t.app, {
    call: 'userRegister',
    fields: {
      type: 'phone',
      account: national,
      area_code: '86',
      country: 'CN',
      code,
      password: 'secret123',
      password2: 'secret123',
      agree: '1',
    },
  });
  expect(reg.code).toBe(1);
  const row = await t.db
    .selectFrom('accounts_customer')
    .select(['id', 'email', 'phone'])
    .where('uid', '=', reg.data.uid)
    .executeTakeFirstOrThrow();
  expect(row.email).toBeNull();
  return { token: reg.data.token_h5, id: row.id, recipient: row.phone ?? '' };
}

/** The customer's messages in their in-app inbox, as the app reads them (`web/getNotices`), oldest first. */
async function inbox(c: Who): Promise<Array<{ kind: string; title: string; body: string; link: string }>> {
  const page: Answer = await call(t.app, {
    method: 'GET',
    call: 'getNotices',
    fields: { kind: 'message', page_size: '50' },
    headers: { token: c.token },
  });
  expect(page.code).toBe(1);
  return [...page.data.items].reverse();
}
const deposits = async (c: Who) => (await inbox(c)).filter((n) => n.kind === 'deposit');

/** What went out on the customer's channel (e-mail or SMS; the outbox in the embedded set-up). */
async function outbox(c: Who) {
  return t.db
    .selectFrom('notify_outbox')
    .select(['channel', 'subject', 'body'])
    .where('recipient', '=', c.recipient)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

let txCounter = 0;
const txid = () => `ntc${process.pid.toString(16)}${(++txCounter).toString(16).padStart(6, '0')}`;

async function addressOf(c: Who, currency: string, chain: string): Promise<string> {
  const answer = await call(t.app, {
    method: 'GET',
    call: 'getRechargeAddress',
    fields: { token: c.token, currency, chain },
  });
  expect(answer.code).toBe(1);
  return answer.data.address;
}

async function webhook(event: Record<string, unknown>) {
  const raw = JSON.stringify({ type: 'deposit', status: 'success', output_index: 0, ...event });
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/custody/webhook',
    payload: raw,
    headers: {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: signWebhook(SECRET, raw, t.clock.now().getTime()),
    },
  });
  return { status: response.statusCode, ...response.json() };
}

let seed = 0;
async function bankDeposit(c: Who, amount: string, reference: string): Promise<string> {
  const up = await uploadDocument(t, {
    token: c.token,
    purpose: 'deposit_proof',
    file: { filename: 'proof.png', type: 'image/png', bytes: await photo('png', { seed: 500 + ++seed }) },
  });
  expect(up.code).toBe(1);
  const submit = await call(t.app, {
    call: 'bankRecharge',
    fields: { token: c.token, currency: 'USDT', amount, reference, proof_id: up.data.file_id },
  });
  expect(submit.code).toBe(1);
  return submit.data.id;
}

const staff = (path: string, fields: Record<string, string>) =>
  adminCall(t.app, { call: path, token: finance.token, fields });

describe('crypto deposits tell the customer once', () => {
  it('credited: one message in their language with amount, currency, chain and transaction; replays send nothing', async () => {
    const c = await customer('zh');
    const address = await addressOf(c, 'USDT', 'ERC20');
    const event = { chain: 'ERC20', txid: txid(), address, currency: 'USDT', amount: '250.5' };
    // Seen but not yet confirmed: nothing to tell.
    expect((await webhook({ ...event, confirmations: 3 })).data.state).toBe('pending');
    expect(await deposits(c)).toEqual([]);
    // The custody provider replays the confirming event, 10 at once and again later.
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => webhook({ ...event, confirmations: 12 })),
    );
    expect(answers.filter((a) => a.data?.credited)).toHaveLength(1);
    expect((await webhook({ ...event, confirmations: 40 })).data).toMatchObject({
      status: 2,
      credited: false,
    });
    const got = await deposits(c);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ title: '充值已到账：250.5 USDT', link: '/rechargeRecord' });
    expect(got[0]?.body).toContain('ERC20');
    expect(got[0]?.body).toContain(event.txid);
    expect(got[0]?.body).toContain('现货账户');
    const sent = (await outbox(c)).filter((m) => m.subject.includes('充值'));
    expect(sent).toEqual([{ channel: 'email', subject: '充值已到账：250.5 USDT', body: got[0]?.body }]);
  });

  it('a failed transaction tells nothing', async () => {
    const c = await customer('en');
    const address = await addressOf(c, 'ETH', 'ERC20');
    const event = { chain: 'ERC20', txid: txid(), address, currency: 'ETH', amount: '1', confirmations: 20 };
    expect((await webhook({ ...event, status: 'failed' })).data.state).toBe('failed');
    expect((await webhook(event)).data.state).toBe('failed');
    expect(await deposits(c)).toEqual([]);
  });

  it('held below the minimum: told the minimum and what happens next; credited together later, one message each', async () => {
    const c = await customer('ft');
    const address = await addressOf(c, 'TRX', 'TRC20');
    const base = { chain: 'TRC20', address, currency: 'TRX', confirmations: 25 };
    const small = { ...base, txid: txid(), amount: '4' };
    expect((await webhook(small)).data.state).toBe('held');
    await webhook({ ...small, confirmations: 30 }); // a replay: still held, nothing more
    const held = await deposits(c);
    expect(held).toHaveLength(1);
    expect(held[0]?.title).toBe('充值低於最低金額，已暫存：4 TRX');
    expect(held[0]?.body).toContain('最低充值金額 10 TRX');
    expect(held[0]?.body).toContain('合計達到 10 TRX');
    expect(held[0]?.body).toContain(small.txid);
    // The second deposit brings the held total to the minimum: both are credited in one event.
    t.clock.advance(1_000);
    const more = { ...base, txid: txid(), amount: '6' };
    expect((await webhook(more)).data).toMatchObject({ status: 2, credited: true });
    await webhook(more);
    const all = await deposits(c);
    expect(all).toHaveLength(3);
    expect(all[0]?.title).toBe('充值低於最低金額，已暫存：4 TRX');
    // The two credited messages share one instant: their order is not asserted.
    const credited = all.slice(1).sort((x, y) => x.title.localeCompare(y.title));
    expect(credited.map((n) => n.title)).toEqual(['充值已到帳：4 TRX', '充值已到帳：6 TRX']);
    expect(credited[0]?.body).toContain(small.txid);
    expect(credited[1]?.body).toContain(more.txid);
  });

  it('released by finance staff: the credited message follows the held one', async () => {
    const c = await customer('en');
    const address = await addressOf(c, 'BTC', 'BTC');
    const event = {
      chain: 'BTC',
      txid: txid(),
      address,
      currency: 'BTC',
      amount: '0.0001',
      confirmations: 6,
    };
    const held = await webhook(event);
    expect(held.data.state).toBe('held');
    t.clock.advance(1_000); // the inbox lists by time: one instant per step
    const released = await staff('deposits/crypto/release', { id: held.data.id, reason: 'fee waived' });
    expect(released.data.status).toBe(2);
    const again = await staff('deposits/crypto/release', { id: held.data.id, reason: 'fee waived' });
    expect(again.reason).toBe('DEPOSIT_NOT_PENDING');
    const got = await deposits(c);
    expect(got.map((n) => n.title)).toEqual([
      'Deposit held below the minimum: 0.0001 BTC',
      'Deposit credited: 0.0001 BTC',
    ]);
    expect(got[0]?.body).toContain('minimum deposit of 0.001 BTC');
    expect(got[1]?.body).toBe(
      `Your deposit of 0.0001 BTC on BTC (transaction ${event.txid}) was credited to your spot account.`,
    );
  });
});

describe('bank deposits tell the customer the decision', () => {
  it('confirmed (the amount credited) and rejected (the staff reason), each once', async () => {
    const c = await customer('en');
    const first = await bankDeposit(c, '300', 'HSBC-123');
    expect(await deposits(c)).toEqual([]);
    expect((await staff('deposits/bank/confirm', { id: first, reason: 'matches statement' })).code).toBe(1);
    const twice = await staff('deposits/bank/confirm', { id: first, reason: 'matches statement' });
    expect(twice.reason).toBe('DEPOSIT_NOT_PENDING');
    t.clock.advance(1_000); // the inbox lists by time: one instant per step
    const second = await bankDeposit(c, '20', 'R2');
    const rejected = await staff('deposits/bank/reject', { id: second, reason: 'No matching remittance' });
    expect(rejected.data.status).toBe(0);
    expect((await staff('deposits/bank/reject', { id: second, reason: 'again' })).reason).toBe(
      'DEPOSIT_NOT_PENDING',
    );
    const got = await deposits(c);
    expect(got.map((n) => n.title)).toEqual([
      'Bank deposit credited: 300 USDT',
      'Bank deposit rejected: 20 USDT',
    ]);
    expect(got[0]?.body).toBe(
      `Your bank deposit ${first} (reference HSBC-123) was confirmed: 300 USDT was credited to your spot account.`,
    );
    expect(got[1]?.body).toContain('was rejected: No matching remittance. Nothing was credited.');
    const sent = (await outbox(c)).filter((m) => m.subject.startsWith('Bank deposit'));
    expect(sent.map((m) => m.subject)).toEqual(got.map((n) => n.title));
  });

  it('a phone-only customer gets the message by SMS and in their inbox', async () => {
    const c = await phoneCustomer();
    const id = await bankDeposit(c, '50', 'WIRE-9');
    expect((await staff('deposits/bank/confirm', { id, reason: 'matches statement' })).code).toBe(1);
    const got = await deposits(c);
    expect(got).toHaveLength(1);
    expect(got[0]?.title).toBe('Bank deposit credited: 50 USDT');
    const sms = (await outbox(c)).filter((m) => m.channel === 'sms' && m.body.includes('bank deposit'));
    expect(sms).toHaveLength(1);
  });
});

describe("other modules' notices reach a phone-only customer's inbox (customerId passed)", () => {
  it('a withdrawal request is filed in the inbox of a customer without an e-mail address', async () => {
    const c = await phoneCustomer();
    const bound = await call(t.app, {
      call: 'bindTradePassword',
      fields: {
        token: c.token,
        password: 'secret123',
        trade_password: TRADE_PASSWORD,
        trade_password2: TRADE_PASSWORD,
      },
    });
    expect(bound.code).toBe(1);
    await fund(t, c.id, 'USDT', 1_000n * 10n ** 8n);
    const addressId = await addAddress(t, c.token);
    const asked = await call(t.app, {
      call: 'withdraw',
      fields: {
        token: c.token,
        method: 'address',
        currency: 'USDT',
        trade_password: TRADE_PASSWORD,
        address_id: addressId,
        amount: '100',
      },
    });
    expect(asked.code).toBe(1);
    const notices = (await inbox(c)).filter((n) => n.kind === 'withdrawal');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.title).toBe('Withdrawal requested: 100 USDT');
  });
});

describe('a failure to tell is a warning, never a failed deposit', () => {
  it('notifyDeposit logs a warning and resolves when the notifier throws', async () => {
    const warnings: unknown[] = [];
    const log = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;
    const row = {
      id: 'dep_x',
      customer_id: 'cus_x',
      chain: 'BTC',
      currency: 'BTC',
      txid: 'abc',
      amount_units: '100000',
    } as CryptoRow;
    const notice: DepositNotice = { type: 'cryptoCredited', row };
    const notifier = {
      send: async () => {
        throw new Error('smtp down');
      },
      newId: () => 'obx_x',
      latest: async () => [],
    };
    const contacts = { contactOf: async () => ({ email: 'x@example.com', phone: null, language: 'en' }) };
    await expect(notifyDeposit({ notifier, contacts, log }, notice)).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
    // Without a notifier (or contacts), nothing is attempted.
    await notifyDeposit({ notifier: null, contacts, log }, notice);
    expect(warnings).toHaveLength(1);
  });
});
