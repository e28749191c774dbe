import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { fund, USDT } from '../assets/testing.ts';
import { adminCall, type StaffLogin, staffSession } from '../staff/testing.ts';
import { ratedCustomer } from '../suitability/testing.ts';
import { earnOf, fundCode, fundedAccount, openProduct, platformUnits, productBody } from './testing.ts';

/** The back office over HTTP: permissions, four eyes on funding, product rules and state, settings. */

let t: TestApp;
let admin: StaffLogin;
let finance1: StaffLogin;
let finance2: StaffLogin;
let support: StaffLogin;

beforeAll(async () => {
  t = await startTestApp();
  admin = await staffSession(t, ['administrator']);
  finance1 = await staffSession(t, ['finance']);
  finance2 = await staffSession(t, ['finance']);
  support = await staffSession(t, ['support']);
}, 120_000);
afterAll(async () => t?.close());

function post(who: StaffLogin, path: string, body: object) {
  return adminCall(t.app, { call: path, token: who.token, fields: body as Record<string, string> });
}
function get(who: StaffLogin, path: string, fields: Record<string, string> = {}) {
  return adminCall(t.app, { method: 'GET', call: path, token: who.token, fields });
}

async function auditOf(targetId: string) {
  return t.db
    .selectFrom('staff_audit')
    .select(['actor_id', 'action', 'reason'])
    .where('target_id', '=', targetId)
    .orderBy('seq')
    .execute();
}

const SOURCE = { en: 'Operator capital', zh: '运营方资金', ft: '營運方資金' };

async function newFunding() {
  const f = await post(admin, 'earn/funding', {
    name: 'Budget',
    source: SOURCE,
    currency: 'USDT',
    reason: 'new budget',
  });
  expect(f.code, f.msg).toBe(1);
  return f.data.funding_id as string;
}

describe('earn back office', () => {
  it('enforces its permissions', async () => {
    expect((await get(support, 'earn/products')).reason).toBe('FORBIDDEN');
    expect((await get(finance1, 'earn/products')).code).toBe(1);
    const denied = await post(finance1, 'earn/funding', {
      name: 'X',
      source: SOURCE,
      currency: 'USDT',
      reason: 'not mine',
    });
    expect(denied.reason).toBe('FORBIDDEN');
    expect(
      (
        await post(support, 'earn/settings', {
          cutoff_hour: 1,
          time_zone: 'UTC',
          vip_levels: [],
          reason: 'nope',
        })
      ).reason,
    ).toBe('FORBIDDEN');
    expect((await adminCall(t.app, { method: 'GET', call: 'earn/orders' })).code).not.toBe(1);
  });

  it('funding is four-eyes: the requester cannot approve, another staff member can, once', async () => {
    const fundingId = await newFunding();
    const r = await post(finance1, `earn/funding/${fundingId}/requests`, {
      amount: '250',
      reason: 'Q4 budget',
    });
    expect(r.code, r.msg).toBe(1);
    expect(r.data.state).toBe('pending');
    const self = await post(finance1, `earn/funding-requests/${r.data.request_id}/approve`, {
      reason: 'my own',
    });
    expect(self.reason).toBe('EARN_FUNDING_SELF_APPROVAL');
    expect(await platformUnits(t, fundCode(fundingId))).toBe(0n);
    const ok = await post(finance2, `earn/funding-requests/${r.data.request_id}/approve`, {
      reason: 'checked the budget',
    });
    expect(ok.code, ok.msg).toBe(1);
    expect(ok.data).toMatchObject({
      state: 'approved',
      decided_by: finance2.staffId,
      requested_by: finance1.staffId,
    });
    expect(await platformUnits(t, fundCode(fundingId))).toBe(USDT(250));
    expect(await platformUnits(t, 'earn_capital')).toBeLessThanOrEqual(-USDT(250));
    const twice = await post(admin, `earn/funding-requests/${r.data.request_id}/approve`, {
      reason: 'again',
    });
    expect(twice.reason).toBe('EARN_FUNDING_DECIDED');
    expect(await platformUnits(t, fundCode(fundingId))).toBe(USDT(250));
    const audits = await auditOf(r.data.request_id);
    expect(audits.map((a) => [a.action, a.actor_id])).toEqual([
      ['earn.funding.request', finance1.staffId],
      ['earn.funding.approve', finance2.staffId],
    ]);
    const list = await get(finance1, 'earn/funding');
    expect(list.data.items.find((f: { funding_id: string }) => f.funding_id === fundingId)).toMatchObject({
      balance: '250',
      funded_total: '250',
      reserved: '0',
    });
    const rejected = await post(finance1, `earn/funding/${fundingId}/requests`, {
      amount: '10',
      reason: 'small top-up',
    });
    const no = await post(finance2, `earn/funding-requests/${rejected.data.request_id}/reject`, {
      reason: 'not needed',
    });
    expect(no.data.state).toBe('rejected');
    expect(await platformUnits(t, fundCode(fundingId))).toBe(USDT(250));
    const page = await get(finance1, 'earn/funding-requests', { funding_id: fundingId });
    expect(page.data.total).toBe(2);
  });

  it('checks a new product field by field, and principal penalties against the profile', async () => {
    const fundingId = await newFunding();
    const bad: Array<[object, string]> = [
      [{ annual_rate: '60' }, 'annual_rate'],
      [{ annual_rate: '0' }, 'annual_rate'],
      [{ annual_rate: '1.123456' }, 'annual_rate'],
      [{ min_amount: '500', max_amount: '100' }, 'max_amount'],
      [{ capacity: '50' }, 'capacity'],
      [{ kind: 'vip' }, 'vip_level'],
      [{ redeem_rule: 'principal_percent' }, 'penalty_rate'],
      [{ penalty_rate: '5' }, 'penalty_rate'],
      [{ funding_id: 'efd_nope' }, 'funding_id'],
      [{ names: { en: ' ', zh: 'x', ft: 'x' } }, 'names.en'],
    ];
    for (const [over, field] of bad) {
      const a = await post(admin, 'earn/products', productBody(fundingId, over as never));
      expect(a.reason, JSON.stringify(over)).toBe('EARN_PRODUCT_INVALID');
      expect(a.params?.field).toBe(field);
    }
    // A principal penalty may not be sold where eu_retail applies, nor created while it is active.
    const listed = await post(
      admin,
      'earn/products',
      productBody(fundingId, { redeem_rule: 'principal_percent', penalty_rate: '5' }),
    );
    expect(listed.reason).toBe('EARN_PENALTY_NOT_PERMITTED');
    expect(listed.params).toMatchObject({ profile: 'eu_retail' });
    await t.app.jurisdiction.select(
      { staffId: admin.staffId, sessionId: 's', roles: ['administrator'] },
      {
        profile: 'eu_retail',
        reason: 'test',
      },
    );
    try {
      const active = await post(
        admin,
        'earn/products',
        productBody(fundingId, {
          redeem_rule: 'principal_daily',
          penalty_rate: '0.4',
          jurisdictions: ['permissive'],
        }),
      );
      expect(active.reason).toBe('EARN_PENALTY_NOT_PERMITTED');
    } finally {
      await t.app.jurisdiction.select(
        { staffId: admin.staffId, sessionId: 's', roles: ['administrator'] },
        {
          profile: 'permissive',
          reason: 'test',
        },
      );
    }
    const good = await post(
      admin,
      'earn/products',
      productBody(fundingId, {
        redeem_rule: 'principal_percent',
        penalty_rate: '5',
        jurisdictions: ['permissive'],
      }),
    );
    expect(good.code, good.msg).toBe(1);
    expect(good.data).toMatchObject({
      state: 'draft',
      redeem_rule: 'principal_percent',
      penalty_rate: '5.00',
    });
    const audits = await auditOf(good.data.product_id);
    expect(audits.map((a) => a.action)).toEqual(['earn.product.create']);
  });

  it('opens, pauses and closes; a closed product runs its orders to term', async () => {
    const fundingId = await newFunding();
    const r = await post(finance1, `earn/funding/${fundingId}/requests`, { amount: '100', reason: 'budget' });
    await post(finance2, `earn/funding-requests/${r.data.request_id}/approve`, { reason: 'approved' });
    const p = await post(admin, 'earn/products', productBody(fundingId, { term_days: 2 }));
    const id = p.data.product_id as string;
    expect(
      (await post(admin, `earn/products/${id}/state`, { action: 'pause', reason: 'not open' })).reason,
    ).toBe('EARN_STATE_CHANGE');
    expect(
      (await post(admin, `earn/products/${id}/state`, { action: 'open', reason: 'launch' })).data.state,
    ).toBe('active');
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', USDT(2000));
    const bought = await call(t.app, {
      call: 'buyProfit',
      fields: { product_id: id, amount: '1000', accept_terms: '1' },
      headers: { token: c.token },
    });
    expect(bought.code, bought.msg).toBe(1);
    expect(
      (await post(admin, `earn/products/${id}/state`, { action: 'close', reason: 'end of campaign' })).data
        .state,
    ).toBe('closed');
    expect((await post(admin, `earn/products/${id}/state`, { action: 'open', reason: 'again' })).reason).toBe(
      'EARN_STATE_CHANGE',
    );
    const refused = await call(t.app, {
      call: 'buyProfit',
      fields: { product_id: id, amount: '1000', accept_terms: '1' },
      headers: { token: c.token },
    });
    expect(refused.reason).toBe('EARN_NOT_ON_SALE');
    t.clock.advance(3 * 86_400_000);
    await t.app.earn.job.runOnce();
    // Three days on, the staff sessions have ended: sign in again.
    admin = await staffSession(t, ['administrator']);
    finance1 = await staffSession(t, ['finance']);
    const orders = await get(finance1, 'earn/orders', { product_id: id, uid: c.uid });
    expect(orders.code, orders.msg).toBe(1);
    expect(orders.data.items).toHaveLength(1);
    expect(orders.data.items[0]).toMatchObject({
      state: 'completed',
      days_accrued: 2,
      uid: c.uid,
      book: 'real',
    });
    expect((await get(finance1, 'earn/orders', { uid: 'nobody' })).data.total).toBe(0);
    const runs = await get(finance1, 'earn/accruals');
    expect(runs.data.items.length).toBeGreaterThan(0);
    expect(runs.data.items.some((x: { matured: number }) => x.matured > 0)).toBe(true);
    expect((await get(finance1, 'earn/redemptions')).code).toBe(1);
    const audits = await auditOf(id);
    expect(audits.map((a) => a.action)).toEqual([
      'earn.product.create',
      'earn.product.open',
      'earn.product.close',
    ]);
  });

  it('settings: a bad time zone refused; a change audited and applying to new orders only', async () => {
    const bad = await post(admin, 'earn/settings', {
      cutoff_hour: 8,
      time_zone: 'Mars/Olympus',
      vip_levels: [],
      reason: 'bad zone',
    });
    expect(bad.reason).toBe('EARN_SETTINGS_INVALID');
    const gap = await post(admin, 'earn/settings', {
      cutoff_hour: 8,
      time_zone: 'Asia/Hong_Kong',
      vip_levels: [{ level: 2, min_tier: null, min_volume_30d: '1', min_balance: '1' }],
      reason: 'levels',
    });
    expect(gap.reason).toBe('EARN_SETTINGS_INVALID');
    const f = await fundedAccount(t, '100');
    const product = await openProduct(t, f.funding_id);
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', USDT(3000));
    const buyOne = () =>
      call(t.app, {
        call: 'buyProfit',
        fields: { product_id: product.product_id, amount: '1000', accept_terms: '1' },
        headers: { token: c.token },
      });
    const before = await buyOne();
    const scheduleOf = async (id: string) =>
      (
        await t.db
          .selectFrom('earn_order')
          .select('next_accrual_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).next_accrual_at as Date;
    const oldNext = await scheduleOf(before.data.order_id);
    expect(oldNext.getUTCHours()).toBe(0);
    const ok = await post(admin, 'earn/settings', {
      cutoff_hour: 9,
      time_zone: 'Asia/Hong_Kong',
      vip_levels: [{ level: 1, min_tier: null, min_volume_30d: '100000', min_balance: '5000' }],
      reason: 'Hong Kong cut-off',
    });
    expect(ok.code, ok.msg).toBe(1);
    expect(ok.data).toMatchObject({ cutoff_hour: 9, time_zone: 'Asia/Hong_Kong' });
    // The order sold before keeps its schedule; one sold now follows 09:00 Hong Kong (01:00 UTC).
    expect(await scheduleOf(before.data.order_id)).toEqual(oldNext);
    const after = await buyOne();
    expect((await scheduleOf(after.data.order_id)).getUTCHours()).toBe(1);
    expect((await auditOf('1')).some((a) => a.action === 'earn.settings.update')).toBe(true);
    const list = await call(t.app, { method: 'GET', call: 'getProfitList', fields: {} });
    expect(list.data.vip_levels).toHaveLength(1);
    for (const p of list.data.items) expect(p.cutoff).toEqual({ hour: 9, time_zone: 'Asia/Hong_Kong' });
    await earnOf(t).updateSettings(
      { staffId: admin.staffId, sessionId: 's', roles: ['administrator'] },
      { cutoff_hour: 0, time_zone: 'UTC', vip_levels: [], reason: 'back' },
    );
  });
});
