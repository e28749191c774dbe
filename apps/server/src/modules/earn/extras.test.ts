import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { customer, fund, ledgerOf, USDT } from '../assets/testing.ts';
import { ratedCustomer } from '../suitability/testing.ts';
import { DEMO_SEED_ACTOR } from './demo.ts';
import {
  earnOf,
  fundCode,
  fundedAccount,
  openProduct,
  platformUnits,
  productBody,
  reserveCode,
  staffA,
} from './testing.ts';

/** The product pages, VIP eligibility, the demo book, the rules at quote time, and the demo content seed. */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(async () => t?.close());

async function buy(token: string, productId: string, amount: string) {
  return call(t.app, {
    call: 'buyProfit',
    fields: { product_id: productId, amount, accept_terms: '1' },
    headers: { token },
  });
}

describe('product pages', () => {
  it('list and rule page show the funding source, reserve, capacity left and a worked example', async () => {
    const f = await fundedAccount(t, '100', 'Page budget');
    const p = await openProduct(t, f.funding_id, { annual_rate: '3.65', capacity: '50000' });
    const draft = await earnOf(t).createProduct(staffA, productBody(f.funding_id));
    const list = await call(t.app, { method: 'GET', call: 'getProfitList', fields: { lang: 'zh' } });
    expect(list.code).toBe(1);
    const shown = list.data.items.find((x: { product_id: string }) => x.product_id === p.product_id);
    expect(shown).toMatchObject({
      name: '测试 7 天',
      annual_rate: '3.65',
      daily_rate: '0.01',
      reserved: '0',
      funding_available: '100',
      capacity_left: '50000',
      funding_account: { funding_id: f.funding_id, name: 'Page budget', source: '运营方资金' },
      cutoff: { hour: 0, time_zone: 'UTC' },
    });
    expect(list.data.items.some((x: { product_id: string }) => x.product_id === draft?.product_id)).toBe(
      false,
    );
    const anon = await call(t.app, {
      method: 'GET',
      call: 'getProfitInfo',
      fields: { product_id: p.product_id },
    });
    expect(anon.data.eligibility).toBeNull();
    expect(anon.data.example).toMatchObject({
      amount: '100',
      daily_reward: '0.01',
      total_reward: '0.07',
      penalty_day_one: '0',
    });
    expect(anon.data.principal_penalty_allowed).toBe(true);
    const hidden = await call(t.app, {
      method: 'GET',
      call: 'getProfitInfo',
      fields: { product_id: draft?.product_id ?? '' },
    });
    expect(hidden.reason).toBe('NOT_FOUND');
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', USDT(700));
    const mine = await call(t.app, {
      method: 'GET',
      call: 'getProfitInfo',
      fields: { product_id: p.product_id },
      headers: { token: c.token },
    });
    expect(mine.data.eligibility).toMatchObject({ eligible: true, may_buy: '700', available: '700' });
    expect((await buy(c.token, p.product_id, '500')).code).toBe(1);
    // Not assessed: the rating allows 5,000 USDT of earn a purchase, and may_buy says so.
    const unrated = await customer(t);
    await fund(t, unrated.id, 'USDT', USDT(9000));
    const capped = await call(t.app, {
      method: 'GET',
      call: 'getProfitInfo',
      fields: { product_id: p.product_id },
      headers: { token: unrated.token },
    });
    expect(capped.data.eligibility).toMatchObject({ eligible: true, may_buy: '5000', available: '9000' });
    const after = await call(t.app, {
      method: 'GET',
      call: 'getProfitInfo',
      fields: { product_id: p.product_id },
    });
    expect(after.data.product).toMatchObject({
      subscribed: '500',
      reserved: '0.35',
      funding_available: '99.65',
    });
  });
});

describe('VIP products', () => {
  it('eligibility by the published thresholds, computed by the server', async () => {
    await earnOf(t).updateSettings(staffA, {
      cutoff_hour: 0,
      time_zone: 'UTC',
      vip_levels: [
        { level: 1, min_tier: null, min_volume_30d: '1000000', min_balance: '5000' },
        { level: 2, min_tier: 'primary', min_volume_30d: '1000000', min_balance: '1' },
      ],
      reason: 'VIP thresholds',
    });
    const f = await fundedAccount(t, '100');
    const vip1 = await openProduct(t, f.funding_id, { kind: 'vip', vip_level: 1 });
    const vip2 = await openProduct(t, f.funding_id, { kind: 'vip', vip_level: 2 });
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', USDT(3000));
    const refused = await buy(c.token, vip1.product_id, '1000');
    expect(refused.reason).toBe('EARN_VIP_LEVEL_REQUIRED');
    expect(refused.params).toMatchObject({ level: 0, required: 1 });
    await fund(t, c.id, 'USDT', USDT(3000));
    const info = await call(t.app, {
      method: 'GET',
      call: 'getProfitInfo',
      fields: { product_id: vip2.product_id },
      headers: { token: c.token },
    });
    expect(info.data.eligibility).toMatchObject({ eligible: false, vip_level: 1 });
    expect(info.data.eligibility.refusal.code).toBe('EARN_VIP_LEVEL_REQUIRED');
    expect((await buy(c.token, vip1.product_id, '1000')).code).toBe(1);
    // Level 2 needs primary verification: balance alone does not reach it.
    expect((await buy(c.token, vip2.product_id, '1000')).reason).toBe('EARN_VIP_LEVEL_REQUIRED');
    const list = await call(t.app, { method: 'GET', call: 'getProfitList', fields: { kind: 'vip' } });
    expect(list.data.items.every((x: { kind: string }) => x.kind === 'vip')).toBe(true);
    expect(list.data.vip_levels).toHaveLength(2);
    await earnOf(t).updateSettings(staffA, {
      cutoff_hour: 0,
      time_zone: 'UTC',
      vip_levels: [],
      reason: 'reset VIP',
    });
  });
});

describe('the demo book', () => {
  it('a demo customer buys with virtual money; the funding twin is topped up from the faucet', async () => {
    const f = await fundedAccount(t, '1');
    const p = await openProduct(t, f.funding_id, { capacity: '1000' });
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin', fields: {} });
    expect(demo.code).toBe(1);
    const token = demo.data.token as string;
    const bought = await buy(token, p.product_id, '5000');
    expect(bought.code, bought.msg).toBe(1);
    const row = await t.db
      .selectFrom('earn_order')
      .selectAll()
      .where('id', '=', bought.data.order_id)
      .executeTakeFirstOrThrow();
    expect(row.book).toBe('demo');
    // Real capacity and the real funding account are untouched.
    expect(await platformUnits(t, fundCode(f.funding_id))).toBe(USDT(1));
    expect(await platformUnits(t, reserveCode(p.product_id), 'demo')).toBe(BigInt(row.total_reward_units));
    const products = await earnOf(t).adminProducts();
    expect(products.items.find((x) => x.product_id === p.product_id)?.subscribed).toBe('0');
    const earnBal = await ledgerOf(t).balance(t.db, {
      book: 'demo',
      customerId: row.customer_id,
      accountType: 'earn',
      currency: 'USDT',
    });
    expect(earnBal.frozenUnits).toBe(USDT(5000));
    t.clock.set(row.next_accrual_at as Date);
    await t.app.earn.job.runOnce();
    const runs = await earnOf(t).accrualRuns({});
    expect(
      runs.items.find((r) => r.cutoff_at === (row.next_accrual_at as Date).getTime())?.demo_orders,
    ).toBeGreaterThan(0);
    expect((await ledgerOf(t).verify()).ok).toBe(true);
  });
});

describe('rules at quote time', () => {
  it('a principal penalty the profile no longer allows is not applied; `none` refuses early redemption', async () => {
    const f = await fundedAccount(t, '100');
    const penal = await openProduct(t, f.funding_id, {
      redeem_rule: 'principal_percent',
      penalty_rate: '5',
      jurisdictions: ['permissive', 'custom'],
    });
    const locked = await openProduct(t, f.funding_id, { redeem_rule: 'none' });
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', USDT(3000));
    const a = await buy(c.token, penal.product_id, '1000');
    const b = await buy(c.token, locked.product_id, '1000');
    const quote = (orderId: string) =>
      call(t.app, { call: 'quoteRedeem', fields: { order_id: orderId }, headers: { token: c.token } });
    expect((await quote(a.data.order_id)).data).toMatchObject({ penalty: '50', returned: '950' });
    const none = await quote(b.data.order_id);
    expect(none.reason).toBe('EARN_REDEEM_NOT_ALLOWED');
    expect(none.params).toEqual({ rule: 'none' });
    const j = t.app.jurisdiction;
    const caps = (await j.profiles()).profiles.find((x) => x.id === 'custom')?.leverage_caps;
    await j.editCustom(staffA, {
      leverage_caps: caps as never,
      options_enabled: true,
      earn_principal_penalty: false,
      reason: 'no principal penalties',
    });
    await j.select(staffA, { profile: 'custom', reason: 'custom profile' });
    try {
      const q = await quote(a.data.order_id);
      expect(q.data).toMatchObject({ penalty: '0', returned: '1000' });
      const info = await call(t.app, {
        method: 'GET',
        call: 'getProfitInfo',
        fields: { product_id: penal.product_id },
      });
      expect(info.data.principal_penalty_allowed).toBe(false);
    } finally {
      await j.editCustom(staffA, {
        leverage_caps: caps as never,
        options_enabled: true,
        earn_principal_penalty: true,
        reason: 'restore',
      });
      await j.select(staffA, { profile: 'permissive', reason: 'back to permissive' });
    }
  });
});

describe('demo content', () => {
  it('seeds one funded account and three open products, once, audited as the demo seed', async () => {
    const earn = earnOf(t);
    expect(await earn.seedDemo()).toBe(3);
    expect(await earn.seedDemo()).toBe(0);
    const funds = await earn.fundingAccounts();
    const seeded = await t.db
      .selectFrom('earn_funding')
      .selectAll()
      .where('created_by', '=', DEMO_SEED_ACTOR)
      .execute();
    expect(seeded).toHaveLength(1);
    const fund = funds.items.find((x) => x.funding_id === seeded[0]?.id);
    expect(fund).toMatchObject({ balance: '100000', currency: 'USDT' });
    expect(fund?.source.en).toContain("operator's marketing budget");
    const products = (await earn.adminProducts()).items.filter(
      (x) => x.funding_account.funding_id === seeded[0]?.id,
    );
    expect(products.map((x) => [x.kind, x.term_days, x.annual_rate, x.redeem_rule, x.state]).sort()).toEqual(
      [
        ['custody', 30, '5.00', 'principal_percent', 'active'],
        ['custody', 7, '4.00', 'forfeit_rewards', 'active'],
        ['vip', 90, '6.00', 'forfeit_rewards', 'active'],
      ].sort(),
    );
    const audits = await t.db
      .selectFrom('staff_audit')
      .select(['action'])
      .where('actor_id', '=', DEMO_SEED_ACTOR)
      .execute();
    expect(audits.map((a) => a.action)).toContain('earn.funding.seed');
  });
});
