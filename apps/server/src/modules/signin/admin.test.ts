import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { customer, ledgerOf } from '../assets/testing.ts';
import { adminCall, type StaffLogin, staffSession } from '../staff/testing.ts';
import { budgetUnits, signIn } from './testing.ts';

/** The back office over HTTP: permissions, settings with a reason and their checks, four-eyes funding, payouts, audit. */

let t: TestApp;
let content: StaffLogin;
let finance1: StaffLogin;
let finance2: StaffLogin;
let support: StaffLogin;

beforeAll(async () => {
  t = await startTestApp();
  content = await staffSession(t, ['content']);
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
    .select(['actor_id', 'action', 'reason', 'before', 'after'])
    .where('target_id', '=', targetId)
    .orderBy('seq')
    .execute();
}

const SETTINGS = {
  enabled: true,
  time_zone: 'Asia/Shanghai',
  amounts: ['0.5', '1', '1', '1.5', '2', '2.5', '5'],
  verification: 'none',
  condition: { en: 'Promotional credit', zh: '推广赠金', ft: '推廣贈金' },
  reason: 'December campaign',
};

describe('sign-in back office', () => {
  it('enforces its permissions', async () => {
    expect((await get(support, 'signin/settings')).reason).toBe('FORBIDDEN');
    expect((await post(finance1, 'signin/settings', SETTINGS)).reason).toBe('FORBIDDEN');
    expect((await get(content, 'signin/budget')).reason).toBe('FORBIDDEN');
    expect((await post(support, 'signin/funding-requests', { amount: '10', reason: 'top up' })).reason).toBe(
      'FORBIDDEN',
    );
    expect((await get(support, 'signin/budget')).reason).toBe('FORBIDDEN');
    expect((await get(finance1, 'signin/budget')).code).toBe(1);
    expect((await adminCall(t.app, { method: 'GET', call: 'signin/settings' })).code).not.toBe(1);
  });

  it('settings: saved with a reason and audited; bad values refused by name', async () => {
    const saved = await post(content, 'signin/settings', SETTINGS);
    expect(saved.code, saved.msg).toBe(1);
    expect(saved.data).toMatchObject({
      time_zone: 'Asia/Shanghai',
      amounts: SETTINGS.amounts,
      state: 'budget_empty',
      promo_incentives: true,
      budget_remaining: '0',
    });
    const audit = await auditOf('signin');
    expect(audit.at(-1)).toMatchObject({ action: 'signin.settings.update', reason: 'December campaign' });
    expect(JSON.stringify(audit.at(-1)?.before)).toContain('Asia/Hong_Kong');
    expect(JSON.stringify(audit.at(-1)?.after)).toContain('Asia/Shanghai');

    const bad = async (over: object) =>
      (await post(content, 'signin/settings', { ...SETTINGS, ...over })).params;
    expect(await bad({ time_zone: 'Mars/Olympus' })).toEqual({ field: 'time_zone' });
    expect(await bad({ amounts: ['0', '1', '1', '1', '1', '1', '1'] })).toEqual({ field: 'amounts[0]' });
    expect(await bad({ amounts: ['1', '1', '1', '1', '1', '1', '0.000000001'] })).toEqual({
      field: 'amounts[6]',
    });
    expect(await bad({ condition: { en: 'Only English', zh: '', ft: '' } })).toEqual({ field: 'condition' });
    const six = await post(content, 'signin/settings', {
      ...SETTINGS,
      amounts: ['1', '1', '1', '1', '1', '1'],
    });
    expect(six.code).not.toBe(1);
    const noReason = await post(content, 'signin/settings', { ...SETTINGS, reason: '' });
    expect(noReason.code).not.toBe(1);
    // No condition at all is allowed.
    const none = await post(content, 'signin/settings', {
      ...SETTINGS,
      condition: { en: '', zh: '', ft: '' },
    });
    expect(none.data.condition).toEqual({ en: '', zh: '', ft: '' });
    expect((await auditOf('signin')).filter((a) => a.action === 'signin.settings.update')).toHaveLength(2);
  });

  it('funding is four-eyes: the requester cannot approve, another staff member can, once', async () => {
    const r = await post(finance1, 'signin/funding-requests', {
      amount: '250',
      reason: 'Q1 marketing budget',
    });
    expect(r.code, r.msg).toBe(1);
    expect(r.data).toMatchObject({ amount: '250', currency: 'USDT', state: 'pending' });
    const id = r.data.request_id as string;
    expect((await get(finance1, 'signin/budget')).data).toMatchObject({ balance: '0', pending: 1 });

    const self = await post(finance1, `signin/funding-requests/${id}/approve`, { reason: 'my own' });
    expect(self.reason).toBe('SIGNIN_FUNDING_SELF_APPROVAL');
    expect(await budgetUnits(t)).toBe(0n);

    const approved = await post(finance2, `signin/funding-requests/${id}/approve`, {
      reason: 'checked the plan',
    });
    expect(approved.data).toMatchObject({ state: 'approved', decided_by: finance2.staffId });
    const again = await post(finance2, `signin/funding-requests/${id}/approve`, { reason: 'twice' });
    expect(again.reason).toBe('SIGNIN_FUNDING_DECIDED');
    expect(again.params).toEqual({ state: 'approved' });
    expect((await get(finance1, 'signin/budget')).data).toMatchObject({
      account: 'marketing_budget_signin',
      balance: '250',
      funded_total: '250',
      pending: 0,
    });

    const other = await post(finance2, 'signin/funding-requests', { amount: '1000000', reason: 'too much' });
    const rejected = await post(finance1, `signin/funding-requests/${other.data.request_id}/reject`, {
      reason: 'not in the plan',
    });
    expect(rejected.data.state).toBe('rejected');
    expect((await get(finance1, 'signin/budget')).data.balance).toBe('250');

    expect((await auditOf(id)).map((a) => [a.action, a.actor_id, a.reason])).toEqual([
      ['signin.funding.request', finance1.staffId, 'Q1 marketing budget'],
      ['signin.funding.approve', finance2.staffId, 'checked the plan'],
    ]);
    const list = await get(finance2, 'signin/funding-requests', { state: 'pending' });
    expect(list.data.total).toBe(0);
    expect((await get(finance2, 'signin/funding-requests')).data.total).toBe(2);
    expect(
      (await post(finance1, 'signin/funding-requests', { amount: '-5', reason: 'negative' })).code,
    ).not.toBe(1);
  });

  it('shows recent payouts with the customer UID, and the ledger verifies', async () => {
    const c = await customer(t, 'sgn');
    expect((await signIn(t, c.token)).code).toBe(1);
    const page = await get(finance1, 'signin/payouts');
    expect(page.data.items[0]).toMatchObject({ uid: c.uid, streak: 1, amount: '0.5', book: 'real' });
    expect((await get(finance1, 'signin/budget')).data).toMatchObject({ paid_total: '0.5', paid_count: 1 });
    expect((await ledgerOf(t).verify()).ok).toBe(true);
  });
});
