import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { type Customer, customer, customerSnapshot, fund, ledgerOf, USDT } from '../assets/testing.ts';
import { adminCall, staffSession } from '../staff/testing.ts';
import { ratedCustomer } from '../suitability/testing.ts';
import { nextCutoff } from './calendar.ts';
import {
  earnOf,
  fundCode,
  fundedAccount,
  openProduct,
  platformUnits,
  reserveCode,
  staffA,
} from './testing.ts';

/**
 * Earn through the HTTP calls on PostgreSQL, the clock stepped by hand: the 7-day scenario (buy,
 * accrue, redeem early with a binding quote, mature), the race for the last capacity, exactly-once
 * buys, refusals that change nothing.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(async () => t?.close());

const DAY = 86_400_000;
/** 3.65 % a year on 1,000 USDT: 0.1 USDT a day. */
const DAILY = USDT(1) / 10n;

async function buyer(amount = 5000): Promise<Customer> {
  const c = await ratedCustomer(t, 'aggressive');
  await fund(t, c.id, 'USDT', USDT(amount));
  return c;
}

function buy(c: Customer, productId: string, amount: string, extra: Record<string, string> = {}) {
  return call(t.app, {
    call: 'buyProfit',
    fields: { product_id: productId, amount, accept_terms: '1', ...extra },
    headers: { token: c.token },
  });
}

async function balances(customerId: string) {
  const l = ledgerOf(t);
  const spot = await l.balance(t.db, { book: 'real', customerId, accountType: 'spot', currency: 'USDT' });
  const earn = await l.balance(t.db, { book: 'real', customerId, accountType: 'earn', currency: 'USDT' });
  return { spot: spot.availableUnits, earnFrozen: earn.frozenUnits, earnAvailable: earn.availableUnits };
}

async function runJob() {
  return t.app.earn.job.runOnce();
}

describe('the job on an idle platform', () => {
  it('writes nothing when no order is in custody', async () => {
    const count = async () =>
      Number(
        (
          await t.db
            .selectFrom('earn_accrual_run')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    await runJob();
    t.clock.advance(DAY);
    await runJob();
    expect(await count()).toBe(before);
  });
});

describe('the 7-day scenario with a stepped clock', () => {
  it('buy, accrue, redeem early at the quote, mature', async () => {
    const start = t.clock.now();
    const f = await fundedAccount(t, '100');
    const p = await openProduct(t, f.funding_id);
    const c = await buyer();
    const before = await balances(c.id);

    const a = await buy(c, p.product_id, '1000');
    expect(a.code, a.msg).toBe(1);
    expect(a.data).toMatchObject({
      state: 'in_custody',
      amount: '1000',
      daily_reward: '0.1',
      total_reward: '0.7',
    });
    const b = await buy(c, p.product_id, '1000');
    expect(b.code).toBe(1);
    // Principal is the customer's own (earn, frozen); both orders' rewards are reserved.
    expect(await balances(c.id)).toEqual({
      spot: before.spot - USDT(2000),
      earnFrozen: USDT(2000),
      earnAvailable: 0n,
    });
    expect(await platformUnits(t, reserveCode(p.product_id))).toBe(14n * DAILY);
    expect(await platformUnits(t, fundCode(f.funding_id))).toBe(USDT(100) - 14n * DAILY);
    const first = nextCutoff(start, 0, 'UTC').at;
    expect(a.data.matures_at).toBe(first.getTime() + 6 * DAY);

    // Before the first cut-off nothing accrues; after it, exactly one day per order, whatever the runs.
    t.clock.set(new Date(first.getTime() - 1));
    await runJob();
    expect((await balances(c.id)).earnFrozen).toBe(USDT(2000));
    t.clock.set(new Date(first.getTime() + 60_000));
    await runJob();
    await runJob();
    expect((await balances(c.id)).earnFrozen).toBe(USDT(2000) + 2n * DAILY);
    const order = await call(t.app, {
      method: 'GET',
      call: 'getProfitOrder',
      fields: { order_id: a.data.order_id },
      headers: { token: c.token },
    });
    expect(order.data.order).toMatchObject({ accrued: '0.1', days_accrued: 1, days_left: 6 });
    expect(order.data.accruals).toHaveLength(1);
    const runs = await earnOf(t).accrualRuns({});
    expect(runs.items.find((r) => r.cutoff_at === first.getTime())).toMatchObject({
      orders: 2,
      total: { USDT: '0.2' },
    });

    // Early redemption of A: the quote is binding, and confirming posts exactly it.
    const q = await call(t.app, {
      call: 'quoteRedeem',
      fields: { order_id: a.data.order_id },
      headers: { token: c.token },
    });
    expect(q.code).toBe(1);
    expect(q.data).toMatchObject({
      principal: '1000',
      rewards_forfeited: '0.1',
      penalty: '0',
      returned: '1000',
    });
    const fundBefore = await platformUnits(t, fundCode(f.funding_id));
    const sold = await call(t.app, {
      call: 'sellProfit',
      fields: { order_id: a.data.order_id, quote_id: q.data.quote_id },
      headers: { token: c.token },
    });
    expect(sold.code, sold.msg).toBe(1);
    expect(sold.data.state).toBe('redeemed');
    expect(sold.data.redemption).toMatchObject({
      principal_returned: '1000',
      rewards_forfeited: '0.1',
      penalty: '0',
    });
    // Forfeited day + the 6 unused days went back to the funding account.
    expect(await platformUnits(t, fundCode(f.funding_id))).toBe(fundBefore + 7n * DAILY);
    expect(await balances(c.id)).toEqual({
      spot: before.spot - USDT(1000),
      earnFrozen: USDT(1000) + DAILY,
      earnAvailable: 0n,
    });
    // A second confirmation of the same quote changes nothing.
    const again = await call(t.app, {
      call: 'sellProfit',
      fields: { order_id: a.data.order_id, quote_id: q.data.quote_id },
      headers: { token: c.token },
    });
    expect(again.code).toBe(1);
    expect((await balances(c.id)).spot).toBe(before.spot - USDT(1000));

    // The server is down for five days: every missed cut-off is posted once, then B matures.
    t.clock.set(new Date(first.getTime() + 6 * DAY + 3_600_000));
    await runJob();
    const done = await call(t.app, {
      method: 'GET',
      call: 'getProfitOrder',
      fields: { order_id: b.data.order_id },
      headers: { token: c.token },
    });
    expect(done.data.order).toMatchObject({
      state: 'completed',
      accrued: '0.7',
      days_accrued: 7,
      days_left: 0,
    });
    expect(done.data.accruals.map((x: { day: number }) => x.day)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await balances(c.id)).toEqual({
      spot: before.spot + 7n * DAILY,
      earnFrozen: 0n,
      earnAvailable: 0n,
    });
    expect(await platformUnits(t, reserveCode(p.product_id))).toBe(0n);
    expect(await platformUnits(t, fundCode(f.funding_id))).toBe(USDT(100) - 7n * DAILY);
    const total = await call(t.app, {
      method: 'GET',
      call: 'getProfitTotal',
      fields: {},
      headers: { token: c.token },
    });
    expect(total.data.items).toEqual([
      { currency: 'USDT', principal: '0', accrued: '0', earned: '0.7', running: 0 },
    ]);
    expect((await ledgerOf(t).verify()).ok).toBe(true);
  }, 60_000);

  it('a redemption delay keeps the principal frozen until the job pays it out on the date quoted', async () => {
    const now = t.clock.now();
    const f = await fundedAccount(t, '100');
    const p = await openProduct(t, f.funding_id, { redeem_delay_days: 2 });
    const c = await buyer();
    const before = await balances(c.id);
    const a = await buy(c, p.product_id, '1000');
    const q = await call(t.app, {
      call: 'quoteRedeem',
      fields: { order_id: a.data.order_id },
      headers: { token: c.token },
    });
    expect(q.data.arrives_at).toBe(now.getTime() + 2 * DAY);
    const sold = await call(t.app, {
      call: 'sellProfit',
      fields: { order_id: a.data.order_id, quote_id: q.data.quote_id },
      headers: { token: c.token },
    });
    expect(sold.data.state).toBe('redeeming');
    expect((await balances(c.id)).earnFrozen).toBe(USDT(1000));
    t.clock.set(new Date(now.getTime() + 2 * DAY - 1));
    await runJob();
    expect((await balances(c.id)).earnFrozen).toBe(USDT(1000));
    t.clock.set(new Date(now.getTime() + 2 * DAY));
    await runJob();
    expect(await balances(c.id)).toEqual({ ...before, earnFrozen: 0n });
    const o = await call(t.app, {
      method: 'GET',
      call: 'getProfitOrder',
      fields: { order_id: a.data.order_id },
      headers: { token: c.token },
    });
    expect(o.data.order.state).toBe('redeemed');
  }, 60_000);

  it('refuses an expired or stale quote and changes nothing', async () => {
    const f = await fundedAccount(t, '100');
    const p = await openProduct(t, f.funding_id);
    const c = await buyer();
    const a = await buy(c, p.product_id, '1000');
    const row = await t.db
      .selectFrom('earn_order')
      .select('next_accrual_at')
      .where('id', '=', a.data.order_id)
      .executeTakeFirstOrThrow();
    const cutoff = (row.next_accrual_at as Date).getTime();
    t.clock.set(new Date(cutoff - 120_000));
    const q = await call(t.app, {
      call: 'quoteRedeem',
      fields: { order_id: a.data.order_id },
      headers: { token: c.token },
    });
    const snap = await customerSnapshot(t, c.id);
    t.clock.set(new Date(cutoff - 120_000 + 60_001));
    const expired = await call(t.app, {
      call: 'sellProfit',
      fields: { order_id: a.data.order_id, quote_id: q.data.quote_id },
      headers: { token: c.token },
    });
    expect(expired.reason).toBe('EARN_QUOTE_EXPIRED');
    // A day posted after the quote makes it stale.
    const q2 = await call(t.app, {
      call: 'quoteRedeem',
      fields: { order_id: a.data.order_id },
      headers: { token: c.token },
    });
    t.clock.set(new Date(cutoff));
    await runJob();
    const stale = await call(t.app, {
      call: 'sellProfit',
      fields: { order_id: a.data.order_id, quote_id: q2.data.quote_id },
      headers: { token: c.token },
    });
    expect(stale.reason).toBe('EARN_QUOTE_STALE');
    const other = await customer(t);
    const foreign = await call(t.app, {
      call: 'sellProfit',
      fields: { order_id: a.data.order_id, quote_id: q2.data.quote_id },
      headers: { token: other.token },
    });
    expect(foreign.reason).toBe('NOT_FOUND');
    const snapAfter = await customerSnapshot(t, c.id);
    // Only the accrual changed the customer's ledger.
    expect(Number(snapAfter.entries)).toBe(Number(snap.entries) + 1);
  }, 60_000);
});

describe('races and exactly-once', () => {
  it('two buys racing for the last capacity: exactly one wins', async () => {
    const f = await fundedAccount(t, '100');
    const p = await openProduct(t, f.funding_id, { capacity: '1500' });
    const [c1, c2] = [await buyer(), await buyer()];
    const answers = await Promise.all([buy(c1, p.product_id, '1000'), buy(c2, p.product_id, '1000')]);
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.filter((a) => a.code === 1)).toHaveLength(1);
    expect(answers.find((a) => a.code !== 1)?.reason).toBe('EARN_CAPACITY');
    const products = await earnOf(t).adminProducts();
    expect(products.items.find((x) => x.product_id === p.product_id)).toMatchObject({
      subscribed: '1000',
      capacity_left: '500',
      orders_running: 1,
    });
  }, 60_000);

  it('two buys racing for the last of the funding account: exactly one reserve is taken', async () => {
    // 0.7 USDT covers one 1,000 USDT order's 7 days (0.7) and not two.
    const f = await fundedAccount(t, '1.3');
    const p = await openProduct(t, f.funding_id);
    const [c1, c2] = [await buyer(), await buyer()];
    const answers = await Promise.all([buy(c1, p.product_id, '1000'), buy(c2, p.product_id, '1000')]);
    expect(answers.filter((a) => a.code === 1)).toHaveLength(1);
    expect(answers.find((a) => a.code !== 1)?.reason).toBe('EARN_RESERVE_SHORT');
    expect(await platformUnits(t, fundCode(f.funding_id))).toBe(USDT(1.3 * 10) / 10n - 7n * DAILY);
  }, 60_000);

  it('buys, maturities and redemptions at once on one product: no error, the books balance', async () => {
    const f = await fundedAccount(t, '100');
    const p = await openProduct(t, f.funding_id, { term_days: 1 });
    const cs = [await buyer(), await buyer(), await buyer(), await buyer()];
    const first = await Promise.all(cs.map((c) => buy(c, p.product_id, '1000')));
    expect(first.every((a) => a.code === 1)).toBe(true);
    const quotes = await Promise.all(
      first.slice(0, 2).map((a, i) =>
        call(t.app, {
          call: 'quoteRedeem',
          fields: { order_id: a.data.order_id },
          headers: { token: cs[i]?.token ?? '' },
        }),
      ),
    );
    const row = await t.db
      .selectFrom('earn_order')
      .select('next_accrual_at')
      .where('id', '=', first[2]?.data.order_id)
      .executeTakeFirstOrThrow();
    t.clock.set(new Date((row.next_accrual_at as Date).getTime() + 1));
    const answers = await Promise.all([
      ...cs.map((c) => buy(c, p.product_id, '500')),
      ...quotes.map((q, i) =>
        call(t.app, {
          call: 'sellProfit',
          fields: { order_id: q.data.order_id, quote_id: q.data.quote_id },
          headers: { token: cs[i]?.token ?? '' },
        }),
      ),
      runJob().then(() => ({ status: 200, code: 1 })),
    ]);
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    await runJob();
    const orders = await t.db
      .selectFrom('earn_order')
      .selectAll()
      .where('product_id', '=', p.product_id)
      .execute();
    const running = orders.filter((o) => o.state === 'in_custody');
    const product = (await earnOf(t).adminProducts()).items.find((x) => x.product_id === p.product_id);
    expect(product?.subscribed).toBe(String(running.reduce((s, o) => s + Number(o.amount_units), 0) / 1e8));
    const reserve = await platformUnits(t, reserveCode(p.product_id));
    expect(reserve).toBe(
      running.reduce((s, o) => s + BigInt(o.total_reward_units) - BigInt(o.accrued_units), 0n),
    );
    expect((await ledgerOf(t).verify()).ok).toBe(true);
  }, 60_000);

  it('the same rtoken twice gives one order', async () => {
    const f = await fundedAccount(t, '100');
    const p = await openProduct(t, f.funding_id);
    const c = await buyer();
    const fields = { product_id: p.product_id, amount: '1000', accept_terms: '1', rtoken: 'earn-rt-once-1' };
    const [x, y] = await Promise.all([
      call(t.app, { call: 'buyProfit', fields, headers: { token: c.token } }),
      call(t.app, { call: 'buyProfit', fields, headers: { token: c.token } }),
    ]);
    const z = await call(t.app, { call: 'buyProfit', fields, headers: { token: c.token } });
    expect([x, y, z].filter((a) => a.status >= 500)).toEqual([]);
    const orders = await t.db.selectFrom('earn_order').select('id').where('customer_id', '=', c.id).execute();
    expect(orders).toHaveLength(1);
    expect((await balances(c.id)).earnFrozen).toBe(USDT(1000));
  }, 60_000);
});

describe('refusals change nothing', () => {
  it('each rule refuses with its reason, in the published order', async () => {
    const f = await fundedAccount(t, '100');
    const p = await openProduct(t, f.funding_id, { max_amount: '2000' });
    const c = await buyer(1500);
    const snap = await customerSnapshot(t, c.id);
    const cases: Array<[Record<string, string>, string]> = [
      [{ amount: 'abc' }, 'AMOUNT_INVALID'],
      [{ amount: '-5' }, 'AMOUNT_NOT_POSITIVE'],
      [{ amount: '1.000000001' }, 'AMOUNT_TOO_PRECISE'],
      [{ amount: '1000', accept_terms: '0' }, 'EARN_TERMS_REQUIRED'],
      [{ amount: '50' }, 'EARN_BELOW_MIN'],
      [{ amount: '2500' }, 'EARN_ABOVE_MAX'],
      [{ amount: '1800' }, 'INSUFFICIENT_BALANCE'],
      [{ product_id: 'epr_nope', amount: '1000' }, 'NOT_FOUND'],
    ];
    for (const [fields, reason] of cases) {
      const a = await buy(c, fields.product_id ?? p.product_id, fields.amount ?? '1000', fields);
      expect(a.reason, JSON.stringify(fields)).toBe(reason);
    }
    await earnOf(t).productState(staffA, p.product_id, { action: 'pause', reason: 'test pause' });
    expect((await buy(c, p.product_id, '1000')).reason).toBe('EARN_NOT_ON_SALE');
    expect(await customerSnapshot(t, c.id)).toEqual(snap);
    expect(
      await t.db.selectFrom('earn_order').select('id').where('customer_id', '=', c.id).execute(),
    ).toEqual([]);
  }, 60_000);

  it('rating, sale window, jurisdiction and verification each refuse', async () => {
    const f = await fundedAccount(t, '100');
    const now = t.clock.now().getTime();
    const later = await openProduct(t, f.funding_id, {
      sale_starts_at: now + DAY,
      sale_ends_at: now + 2 * DAY,
    });
    const rated = await openProduct(t, f.funding_id, { min_rating: 'balanced' });
    const permissiveOnly = await openProduct(t, f.funding_id, { jurisdictions: ['permissive'] });
    const tiered = await openProduct(t, f.funding_id, { min_tier: 'primary' });
    const unrated = await customer(t);
    await fund(t, unrated.id, 'USDT', USDT(7000));
    expect((await buy(unrated, later.product_id, '1000')).reason).toBe('EARN_SALE_NOT_STARTED');
    expect((await buy(unrated, rated.product_id, '1000')).reason).toBe('EARN_RATING_REQUIRED');
    expect((await buy(unrated, tiered.product_id, '1000')).reason).toBe('EARN_TIER_REQUIRED');
    // Not assessed under the permissive profile: earn capped at 5,000 USDT a purchase.
    const snap = await customerSnapshot(t, unrated.id);
    const capped = await buy(unrated, permissiveOnly.product_id, '6000');
    expect(capped.reason).toBe('RATING_CAP_EXCEEDED');
    expect(capped.params).toMatchObject({ rating: 'not_assessed', product: 'earn' });
    expect(await customerSnapshot(t, unrated.id)).toEqual(snap);
    expect((await buy(unrated, permissiveOnly.product_id, '5000')).code).toBe(1);
    const c = await buyer();
    const jurisdiction = t.app.jurisdiction;
    await jurisdiction.select(staffA, { profile: 'eu_retail', reason: 'test profile' });
    try {
      expect((await buy(c, permissiveOnly.product_id, '1000')).reason).toBe('EARN_JURISDICTION');
      // eu_retail asks primary verification for earn.
      const gated = await buy(c, rated.product_id, '1000');
      expect(gated.reason).toMatch(/^VERIFICATION_/);
    } finally {
      await jurisdiction.select(staffA, { profile: 'permissive', reason: 'test profile back' });
    }
  }, 60_000);
});

describe('the jurisdiction profile’s earn verification rule is data, shown before it refuses', () => {
  it('getProfitList and getProfitInfo carry profile_tier and follow the active profile and the custom profile’s rule', async () => {
    // A fresh staff session: the clock has moved on days since the other tests started.
    const admin = await staffSession(t, ['administrator']);
    const post = async (path: string, fields: object) =>
      (await adminCall(t.app, { call: path, token: admin.token, fields: fields as Record<string, string> }))
        .code;
    const setProfile = async (profile: string) =>
      expect(await post('jurisdiction', { profile, reason: 'earn rule test' })).toBe(1);
    const setEarnTier = async (tier: string) =>
      expect(
        await post('verification/rules/update', {
          profile: 'custom',
          features: [{ feature: 'earn', tier }],
          reason: 'earn rule test',
        }),
      ).toBe(1);
    const f = await fundedAccount(t, '100');
    // No tier of its own: before, the page said "Not required" whatever the profile asked.
    const p = await openProduct(t, f.funding_id);
    const shown = async () => {
      const list = await call(t.app, { method: 'GET', call: 'getProfitList', fields: {} });
      const info = await call(t.app, {
        method: 'GET',
        call: 'getProfitInfo',
        fields: { product_id: p.product_id },
      });
      expect([list.code, info.code]).toEqual([1, 1]);
      const row = list.data.items.find((x: { product_id: string }) => x.product_id === p.product_id);
      // Every product of one answer carries the same rule.
      expect(new Set(list.data.items.map((x: { profile_tier: string }) => x.profile_tier)).size).toBe(1);
      expect(info.data.product.min_tier).toBeNull();
      expect(info.data.product.profile_tier).toBe(row.profile_tier);
      return info.data.product.profile_tier as string;
    };
    const before = (await t.app.jurisdiction.active()).id;
    try {
      await setProfile('permissive');
      expect(await shown()).toBe('none');
      await setProfile('eu_retail');
      expect(await shown()).toBe('primary');
      await setEarnTier('advanced');
      await setProfile('custom');
      expect(await shown()).toBe('advanced');
      // What is shown is what refuses: a rated customer without advanced verification.
      const c = await buyer();
      const refused = await buy(c, p.product_id, '1000');
      expect([refused.reason, refused.params]).toEqual([
        'VERIFICATION_ADVANCED_REQUIRED',
        { feature: 'earn', tier: 'advanced' },
      ]);
      // The back office reads the rule on the verification screen, not on each product.
      const admined = (await earnOf(t).adminProducts()).items.find((x) => x.product_id === p.product_id);
      expect(admined).toBeDefined();
      expect(admined).not.toHaveProperty('profile_tier');
    } finally {
      await setEarnTier('none');
      await setProfile(before);
    }
  }, 60_000);
});
