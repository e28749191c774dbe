import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rtoken, startTestApp, type TestApp } from '../../../test/harness.ts';
import { ledgerOf } from '../assets/testing.ts';
import { formatReport } from '../ledger/index.ts';
import { staffSession } from '../staff/testing.ts';
import {
  adminPost,
  bankAccount,
  cget,
  cpost,
  escrowOf,
  HOUR,
  markPaid,
  merchant,
  offer,
  offerBody,
  proof,
  REAL_NAME,
  type Staff,
  spotOf,
  staffOf,
  USDT,
  verifiedCustomer,
} from './testing.ts';

/**
 * C2C over HTTP on PostgreSQL with a stepped clock: buying completed, buying expired unpaid (escrow
 * back at once, never restored), selling completed, the payer-name rule refusing and changing
 * nothing, bad input answered by name and never with a 500, exactly-once rtokens, collection
 * accounts, and the ledger's own check at the end.
 */

let t: TestApp;
let staff: Staff;
let desk: Awaited<ReturnType<typeof merchant>>;
let buyOffer: string;
let sellOffer: string;

beforeAll(async () => {
  t = await startTestApp({ sessionTtlDays: 365 });
  t.app.c2c.job.stop();
  staff = await staffOf(t);
  desk = await merchant(t, staff);
  buyOffer = await offer(t, staff, desk.merchantId);
  sellOffer = await offer(t, staff, desk.merchantId, { side: 'sell', price: '7' });
}, 120_000);
afterAll(async () => t?.close());

describe('rules and offers', () => {
  it('publishes every rule as data, without a login', async () => {
    const r = await cget(t, { token: '', uid: '', id: '' }, 'c2cRules');
    expect(r.code).toBe(1);
    expect(r.data).toMatchObject({
      default_window_minutes: 180,
      fee_orderer: '0',
      payer_name_rule: 'verified_real_name',
      limits_order: ['offer_min', 'offer_max', 'offer_remaining', 'method_max', 'account_age'],
    });
  });

  it('offers trade USDT only: the published limits are USDT amounts', async () => {
    const btc = await adminPost(t, staff.admin, 'c2c/offers', offerBody(desk.merchantId, { coin: 'BTC' }));
    expect([btc.reason, btc.params]).toEqual(['C2C_OFFER_INVALID', { field: 'coin' }]);
  });

  it('lists active offers with the price, limits, methods and the merchant', async () => {
    const r = await cget(t, { token: '', uid: '', id: '' }, 'c2cOffers', { side: 'buy' });
    expect(r.code).toBe(1);
    const o = r.data.find((x: { offer_id: string }) => x.offer_id === buyOffer);
    expect(o).toMatchObject({
      side: 'buy',
      coin: 'USDT',
      fiat: 'CNY',
      price_kind: 'fixed',
      is_operator: true,
    });
    expect(o.price).toMatch(/^7\.1/);
    expect(o.methods[0]).toMatchObject({ method: 'bank', window_minutes: 180 });
  });
});

describe('buying', () => {
  it('completes: escrow before the payment details, paid, confirmed, released in one entry', async () => {
    const c = await verifiedCustomer(t);
    const before = await spotOf(t, desk.customer.id);
    const o = await cpost(t, c, 'c2cCreateOrder', { offer_id: buyOffer, amount: '100', method: 'bank' });
    expect(o.code, o.msg).toBe(1);
    const id = o.data.order_id as string;
    expect(o.data).toMatchObject({ state: 'matched', fiat_amount: '710.00', fee: '0', i_pay: true });
    expect(o.data.pay_to).toMatchObject({
      method: 'bank',
      bank_name: 'Test Bank',
      account_no: '123456789012',
    });
    expect(await escrowOf(t, id)).toBe(USDT(100));
    expect((await spotOf(t, desk.customer.id)).available).toBe(before.available - USDT(100));
    expect(o.data.timeline.map((e: { to: string }) => e.to)).toEqual(['pending_match', 'matched']);

    const wrong = await cpost(t, c, 'c2cConfirm', { order_id: id });
    expect(wrong.reason).toBe('C2C_WRONG_SIDE');
    const p = await markPaid(t, c, id);
    expect(p.code, p.msg).toBe(1);
    expect(p.data).toMatchObject({ state: 'paid', payer_name: REAL_NAME });
    const done = await cpost(t, desk.customer, 'c2cConfirm', { order_id: id });
    expect(done.code, done.msg).toBe(1);
    expect(done.data.state).toBe('completed');
    expect(await escrowOf(t, id)).toBe(0n);
    expect((await spotOf(t, c.id)).available).toBe(USDT(100));
    const again = await cpost(t, desk.customer, 'c2cConfirm', { order_id: id });
    expect(again.reason).toBe('C2C_ORDER_STATE');
    const mine = await cget(t, desk.customer, 'c2cOrders', { role: 'merchant' });
    expect(mine.data.items.some((x: { order_id: string }) => x.order_id === id)).toBe(true);
  });

  it('expires unpaid at its deadline: escrow back at once, the amount back on the offer, never restored', async () => {
    const c = await verifiedCustomer(t);
    const before = await spotOf(t, desk.customer.id);
    const o = await cpost(t, c, 'c2cCreateOrder', { offer_id: buyOffer, amount: '50', method: 'bank' });
    expect(o.code, o.msg).toBe(1);
    const id = o.data.order_id as string;
    t.clock.advance(3 * HOUR - 20 * 60_000);
    expect(await t.app.c2c.job.runOnce()).toBeGreaterThanOrEqual(1); // the reminder
    expect((await cget(t, c, 'c2cOrder', { order_id: id })).data.state).toBe('matched');
    t.clock.advance(21 * 60_000);
    await t.app.c2c.job.runOnce();
    const after = await cget(t, c, 'c2cOrder', { order_id: id });
    expect(after.data).toMatchObject({ state: 'expired', end_reason: 'unpaid_at_deadline', pay_to: null });
    expect(await escrowOf(t, id)).toBe(0n);
    expect((await spotOf(t, desk.customer.id)).available).toBe(before.available);
    const late = await markPaid(t, c, id);
    expect(late.reason).toBe('C2C_ORDER_STATE');
    expect(await t.app.c2c.job.runOnce()).toBe(0);
  });

  it('refuses a payer name that is not the verified name, and changes nothing', async () => {
    const c = await verifiedCustomer(t);
    const o = await cpost(t, c, 'c2cCreateOrder', { offer_id: buyOffer, amount: '20', method: 'bank' });
    const id = o.data.order_id as string;
    const fileId = await proof(t, c);
    const bad = await cpost(t, c, 'c2cMarkPaid', {
      order_id: id,
      payer_name: 'Someone Else',
      payer_bank: 'Other Bank',
      proof_id: fileId,
      lang: 'zh',
    });
    expect(bad).toMatchObject({ code: 0, reason: 'C2C_PAYER_NAME_MISMATCH' });
    expect(bad.msg).toContain('实名');
    const still = await cget(t, c, 'c2cOrder', { order_id: id });
    expect(still.data).toMatchObject({ state: 'matched', payer_name: null, proof_id: null });
    // The same proof was not claimed: the right name goes through with it.
    const good = await cpost(t, c, 'c2cMarkPaid', {
      order_id: id,
      payer_name: '  chan tai MAN ',
      payer_bank: 'Test Bank',
      proof_id: fileId,
    });
    expect(good.code, good.msg).toBe(1);
  });

  it('lets the payer cancel before paying: escrow back', async () => {
    const c = await verifiedCustomer(t);
    const o = await cpost(t, c, 'c2cCreateOrder', { offer_id: buyOffer, amount: '15', method: 'bank' });
    const x = await cpost(t, c, 'c2cCancel', { order_id: o.data.order_id });
    expect(x.data.state).toBe('cancelled');
    expect(await escrowOf(t, o.data.order_id)).toBe(0n);
  });
});

describe('selling', () => {
  it('completes: my coins escrowed, the merchant pays my account, I confirm', async () => {
    const c = await verifiedCustomer(t, { usdt: 200 });
    const none = await cpost(t, c, 'c2cCreateOrder', { offer_id: sellOffer, amount: '50', method: 'bank' });
    expect(none.reason).toBe('C2C_ACCOUNT_REQUIRED');
    const account = await bankAccount(t, c);
    const deskBefore = await spotOf(t, desk.customer.id);
    const o = await cpost(t, c, 'c2cCreateOrder', {
      offer_id: sellOffer,
      amount: '50',
      method: 'bank',
      account_id: account,
    });
    expect(o.code, o.msg).toBe(1);
    const id = o.data.order_id as string;
    expect(o.data).toMatchObject({ side: 'sell', i_pay: false, fiat_amount: '350.00' });
    expect((await spotOf(t, c.id)).available).toBe(USDT(150));
    const merchantView = await cget(t, desk.customer, 'c2cOrder', { order_id: id });
    expect(merchantView.data).toMatchObject({ role: 'merchant', i_pay: true });
    expect(merchantView.data.pay_to.account_no).toBe('123456789012');
    const p = await markPaid(t, desk.customer, id);
    expect(p.code, p.msg).toBe(1);
    const done = await cpost(t, c, 'c2cConfirm', { order_id: id });
    expect(done.data.state).toBe('completed');
    expect((await spotOf(t, desk.customer.id)).available).toBe(deskBefore.available + USDT(50));
  });

  it('refuses to sell more than I hold, by name', async () => {
    const c = await verifiedCustomer(t, { usdt: 5 });
    const account = await bankAccount(t, c);
    const o = await cpost(t, c, 'c2cCreateOrder', {
      offer_id: sellOffer,
      amount: '50',
      method: 'bank',
      account_id: account,
    });
    expect(o).toMatchObject({ code: 0, reason: 'C2C_INSUFFICIENT_COINS' });
  });
});

describe('refusals and retries', () => {
  it('answers bad input by name in the caller’s language, never with a 500', async () => {
    const c = await verifiedCustomer(t);
    const cases: Array<[Record<string, string>, string]> = [
      [{ offer_id: buyOffer, amount: 'abc', method: 'bank' }, 'BAD_INPUT'],
      [{ offer_id: buyOffer, amount: '-5', method: 'bank' }, 'BAD_INPUT'],
      [{ offer_id: buyOffer, amount: '5', method: 'bank' }, 'C2C_AMOUNT_BELOW_MIN'],
      [{ offer_id: buyOffer, amount: '1001', method: 'bank' }, 'C2C_AMOUNT_ABOVE_MAX'],
      [{ offer_id: buyOffer, amount: '10', method: 'alipay' }, 'C2C_METHOD_NOT_ACCEPTED'],
      [{ offer_id: 'cof_nope', amount: '10', method: 'bank' }, 'NOT_FOUND'],
      [{ offer_id: buyOffer, amount: '10', method: 'cash' }, 'BAD_INPUT'],
      [{ offer_id: buyOffer, amount: '10' }, 'FIELD_REQUIRED'],
    ];
    for (const [fields, reason] of cases) {
      const r = await cpost(t, c, 'c2cCreateOrder', { ...fields, lang: 'ft' });
      expect(r.status, JSON.stringify(fields)).toBeLessThan(500);
      expect(r.reason, JSON.stringify(fields)).toBe(reason);
      expect(r.msg).not.toMatch(/^reason\./);
    }
    const own = await cpost(t, desk.customer, 'c2cCreateOrder', {
      offer_id: buyOffer,
      amount: '10',
      method: 'bank',
    });
    expect(own.reason).toBe('C2C_OWN_OFFER');
    const unverified = await cpost(t, { ...(await verifiedCustomer(t)), token: 'x' }, 'c2cOrders', {});
    expect(unverified.status).toBeLessThan(500);
  });

  it('the jurisdiction profile’s c2c verification rule: shown on the rules page, then enforced on ordering and applying as a merchant', async () => {
    // A fresh staff session: the clock has moved on hours since beforeAll's.
    const admin = await staffSession(t, ['administrator']);
    const setProfile = async (profile: string) =>
      expect((await adminPost(t, admin, 'jurisdiction', { profile, reason: 'c2c rule test' })).code).toBe(1);
    const setC2cTier = async (tier: string) =>
      expect(
        (
          await adminPost(t, admin, 'verification/rules/update', {
            profile: 'custom',
            features: [{ feature: 'c2c', tier }],
            reason: 'c2c rule test',
          })
        ).code,
      ).toBe(1);
    const rulesTier = async () =>
      (await cget(t, { token: '', uid: '', id: '' }, 'c2cRules')).data.order_tier as string;
    const before = (await t.app.jurisdiction.active()).id;
    try {
      expect(await rulesTier()).toBe('primary');
      await setC2cTier('advanced');
      await setProfile('custom');
      expect(await rulesTier()).toBe('advanced');
      const c = await verifiedCustomer(t);
      const order = { offer_id: buyOffer, amount: '10', method: 'bank' };
      const refused = await cpost(t, c, 'c2cCreateOrder', { ...order, lang: 'zh' });
      expect([refused.reason, refused.params]).toEqual([
        'VERIFICATION_ADVANCED_REQUIRED',
        { feature: 'c2c', tier: 'advanced' },
      ]);
      expect(refused.msg).not.toMatch(/^reason\./);
      expect(await cget(t, c, 'c2cOrders', {})).toMatchObject({ code: 1, data: { total: 0 } });
      const applied = await cpost(t, c, 'c2cMerchantApply', { name: 'Rule test desk' });
      expect(applied.reason).toBe('VERIFICATION_ADVANCED_REQUIRED');
      const advanced = await verifiedCustomer(t, { advanced: true });
      expect((await cpost(t, advanced, 'c2cCreateOrder', order)).code).toBe(1);
      // A rule of none still needs the verified real name every payment carries: primary, as shown.
      await setC2cTier('none');
      expect(await rulesTier()).toBe('primary');
    } finally {
      await setC2cTier('primary');
      await setProfile(before);
    }
  });

  it('a retried rtoken gives one order and one escrow entry', async () => {
    const c = await verifiedCustomer(t);
    const key = rtoken();
    const fields = { offer_id: buyOffer, amount: '30', method: 'bank' };
    const [a, b] = await Promise.all([
      cpost(t, c, 'c2cCreateOrder', fields, key),
      cpost(t, c, 'c2cCreateOrder', fields, key),
    ]);
    const c3 = await cpost(t, c, 'c2cCreateOrder', fields, key);
    const ids = [a, b, c3].filter((r) => r.code === 1).map((r) => r.data.order_id);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ids).size).toBe(1);
    const orders = await cget(t, c, 'c2cOrders');
    expect(orders.data.total).toBe(1);
    const id = ids[0] as string;
    expect(await escrowOf(t, id)).toBe(USDT(30));
    const proofId = await proof(t, c);
    const k2 = rtoken();
    const body = { order_id: id, payer_name: REAL_NAME, payer_bank: 'B', proof_id: proofId };
    const p1 = await cpost(t, c, 'c2cMarkPaid', body, k2);
    const p2 = await cpost(t, c, 'c2cMarkPaid', body, k2);
    expect(p1.code).toBe(1);
    expect(p2.data.timeline).toEqual(p1.data.timeline);
  });
});

describe('collection accounts', () => {
  it('checks the name, the IBAN and the SWIFT/BIC', async () => {
    const c = await verifiedCustomer(t);
    const base = { method: 'bank', name: REAL_NAME, bank_name: 'Deutsche Bank' };
    expect(
      (await cpost(t, c, 'c2cAccountSave', { ...base, iban: 'DE89 3704 0044 0532 0130 01' })).reason,
    ).toBe('C2C_IBAN_INVALID');
    expect(
      (await cpost(t, c, 'c2cAccountSave', { ...base, iban: 'DE89370400440532013000', swift: 'XX1' })).reason,
    ).toBe('C2C_SWIFT_INVALID');
    expect(
      (await cpost(t, c, 'c2cAccountSave', { ...base, name: 'Other Person', account_no: '12345678' })).reason,
    ).toBe('C2C_ACCOUNT_NAME_MISMATCH');
    expect((await cpost(t, c, 'c2cAccountSave', { method: 'alipay', name: REAL_NAME })).reason).toBe(
      'C2C_ACCOUNT_INVALID',
    );
    const ok = await cpost(t, c, 'c2cAccountSave', {
      ...base,
      iban: 'DE89 3704 0044 0532 0130 00',
      swift: 'DEUTDEFF',
    });
    expect(ok.code, ok.msg).toBe(1);
    expect(ok.data).toMatchObject({ iban: 'DE89370400440532013000', swift: 'DEUTDEFF' });
    const ali = await cpost(t, c, 'c2cAccountSave', {
      method: 'alipay',
      name: REAL_NAME,
      wallet_id: 'chan@example.com',
    });
    expect(ali.code).toBe(1);
    expect((await cget(t, c, 'c2cAccounts')).data).toHaveLength(2);
    await cpost(t, c, 'c2cAccountDelete', { account_id: ali.data.account_id });
    expect((await cget(t, c, 'c2cAccounts')).data).toHaveLength(1);
  });

  it('the ledger balances after everything above', async () => {
    const report = await ledgerOf(t).verify();
    expect(report.ok, formatReport(report)).toBe(true);
  });
});
