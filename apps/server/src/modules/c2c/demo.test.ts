import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { ledgerOf } from '../assets/testing.ts';
import { DEMO_DESK } from './desk.ts';
import { cget, cpost, merchant, offer, staffOf, verifiedCustomer } from './testing.ts';

/**
 * Demo accounts trade with the operator's demo desk on the demo book (play money): they see only its
 * offers, their orders escrow demo coins, the desk confirms a demo payment and pays for what it buys
 * by itself at the job's next run, through the same state machine; real customers never see a demo
 * offer, demo accounts never a real one; real balances never move.
 */

let t: TestApp;
let deskId: string;
beforeAll(async () => {
  t = await startTestApp();
  deskId = (await demoAccount()).id;
  await t.app.c2c.service.seedDemoDesk(deskId);
  await t.app.c2c.service.seedDemoDesk(deskId); // idempotent
}, 120_000);
afterAll(async () => t?.close());

type Demo = { token: string; id: string; uid: string };
async function demoAccount(): Promise<Demo> {
  const r = await call(t.app, { method: 'GET', call: 'tempLogin', fields: {} });
  const row = await t.db
    .selectFrom('accounts_customer')
    .select(['id', 'uid'])
    .where('uid', '=', String(r.data.uid))
    .executeTakeFirstOrThrow();
  return { token: r.data.token as string, id: row.id, uid: row.uid };
}

const demoSpot = async (customerId: string) =>
  (await ledgerOf(t).balance(t.db, { book: 'demo', customerId, accountType: 'spot', currency: 'USDT' }))
    .availableUnits;
const U = 100_000_000n;

describe('C2C on the demo book: demo accounts and the demo desk', () => {
  it('seeds the desk once: two demo offers, play money; a demo buy completes with the desk confirming', async () => {
    const offers = await t.db.selectFrom('c2c_offer').selectAll().where('book', '=', 'demo').execute();
    expect(offers.map((o) => o.side).sort()).toEqual(['buy', 'sell']);
    const merchants = await t.db
      .selectFrom('c2c_merchant')
      .selectAll()
      .where('customer_id', '=', deskId)
      .execute();
    expect(merchants).toMatchObject([{ name: DEMO_DESK.name, is_operator: true, state: 'approved' }]);

    const d = await demoAccount();
    const seen = await call(t.app, {
      method: 'GET',
      call: 'c2cOffers',
      fields: {},
      headers: { token: d.token },
    });
    expect(seen.data.map((o: { book: string }) => o.book)).toEqual(['demo', 'demo']);
    const buy = seen.data.find((o: { side: string }) => o.side === 'buy');
    const before = await demoSpot(d.id);
    const created = await cpost(t, d as never, 'c2cCreateOrder', {
      offer_id: buy.offer_id,
      amount: '100',
      method: 'bank',
    });
    expect(created.code, created.msg).toBe(1);
    expect(created.data).toMatchObject({
      book: 'demo',
      state: 'matched',
      i_pay: true,
      fiat_amount: '725.00',
    });
    expect(created.data.pay_to).toMatchObject({ method: 'bank' });
    // The payer name is the demo name; no proof (demo accounts cannot upload).
    const wrong = await cpost(t, d as never, 'c2cMarkPaid', {
      order_id: created.data.order_id,
      payer_name: 'Someone Else',
      payer_bank: 'Demo bank',
    });
    expect(wrong.reason).toBe('C2C_PAYER_NAME_MISMATCH');
    const paid = await cpost(t, d as never, 'c2cMarkPaid', {
      order_id: created.data.order_id,
      payer_name: 'Demo Trader',
      payer_bank: 'Demo bank',
    });
    expect(paid.code, paid.msg).toBe(1);
    expect(paid.data.state).toBe('paid');
    await t.app.c2c.job.runOnce();
    const done = await cget(t, d as never, 'c2cOrder', { order_id: created.data.order_id });
    expect(done.data.state).toBe('completed');
    expect(done.data.timeline.at(-1)).toMatchObject({
      event: 'confirm',
      actor: 'merchant',
      reason: 'demo_desk',
    });
    expect((await demoSpot(d.id)) - before).toBe(100n * U);
  });

  it('a demo sell: the customer’s demo coins escrowed, the desk pays by itself, the customer confirms', async () => {
    const d = await demoAccount();
    const seen = await call(t.app, {
      method: 'GET',
      call: 'c2cOffers',
      fields: { side: 'sell' },
      headers: { token: d.token },
    });
    const sell = seen.data[0];
    // The demo name is the name on a demo account's collection accounts too.
    const wrongName = await cpost(t, d as never, 'c2cAccountSave', {
      method: 'wechat',
      name: 'X Y',
      wallet_id: 'w',
    });
    expect(wrongName.reason).toBe('C2C_ACCOUNT_NAME_MISMATCH');
    const wechat = await cpost(t, d as never, 'c2cAccountSave', {
      method: 'wechat',
      name: 'Demo Trader',
      wallet_id: 'demo-wechat',
    });
    expect(wechat.code, wechat.msg).toBe(1);
    const created = await cpost(t, d as never, 'c2cCreateOrder', {
      offer_id: sell.offer_id,
      amount: '50',
      method: 'wechat',
      account_id: wechat.data.account_id,
    });
    expect(created.code, created.msg).toBe(1);
    expect(created.data).toMatchObject({ book: 'demo', state: 'matched', i_pay: false });
    await t.app.c2c.job.runOnce();
    const paid = await cget(t, d as never, 'c2cOrder', { order_id: created.data.order_id });
    expect(paid.data).toMatchObject({ state: 'paid', payer_name: DEMO_DESK.name });
    const before = await demoSpot(deskId);
    const confirmed = await cpost(t, d as never, 'c2cConfirm', { order_id: created.data.order_id });
    expect(confirmed.code, confirmed.msg).toBe(1);
    expect(confirmed.data.state).toBe('completed');
    expect((await demoSpot(deskId)) - before).toBe(50n * U);
  });

  it('books never mix: a real customer sees no demo offer and cannot order one; a demo account no real one', async () => {
    const staff = await staffOf(t);
    const m = await merchant(t, staff);
    const realOffer = await offer(t, staff, m.merchantId);
    const real = await verifiedCustomer(t, { usdt: 10 });
    const listed = await cget(t, real, 'c2cOffers');
    expect(listed.data.every((o: { book: string }) => o.book === 'real')).toBe(true);
    const demoOffer = (
      await t.db.selectFrom('c2c_offer').select('id').where('book', '=', 'demo').executeTakeFirstOrThrow()
    ).id;
    expect(
      (await cpost(t, real, 'c2cCreateOrder', { offer_id: demoOffer, amount: '20', method: 'bank' })).reason,
    ).toBe('NOT_FOUND');
    const d = await demoAccount();
    const tryReal = await cpost(t, d as never, 'c2cCreateOrder', {
      offer_id: realOffer,
      amount: '20',
      method: 'bank',
    });
    expect(tryReal.reason).toBe('NOT_FOUND');
    // A real order without its proof is refused by name.
    const order = await cpost(t, real, 'c2cCreateOrder', {
      offer_id: realOffer,
      amount: '10',
      method: 'bank',
    });
    expect(order.code, order.msg).toBe(1);
    const noProof = await cpost(t, real, 'c2cMarkPaid', {
      order_id: order.data.order_id,
      payer_name: 'Chan Tai Man',
      payer_bank: 'Test Bank',
    });
    expect(noProof.reason).toBe('FIELD_REQUIRED');
    expect((await ledgerOf(t).verify()).ok).toBe(true);
  });
});

describe('one offer (c2cOffer)', () => {
  it('answers an offer of the caller’s book, NOT_FOUND for another book’s', async () => {
    const demoOffer = (
      await t.db.selectFrom('c2c_offer').select('id').where('book', '=', 'demo').executeTakeFirstOrThrow()
    ).id;
    const d = await demoAccount();
    const mine = await call(t.app, {
      method: 'GET',
      call: 'c2cOffer',
      fields: { offer_id: demoOffer },
      headers: { token: d.token },
    });
    expect(mine.data).toMatchObject({ offer_id: demoOffer, book: 'demo', merchant_name: DEMO_DESK.name });
    const anon = await call(t.app, { method: 'GET', call: 'c2cOffer', fields: { offer_id: demoOffer } });
    expect(anon.reason).toBe('NOT_FOUND');
  });
});
