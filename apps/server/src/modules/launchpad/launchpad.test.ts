import { checkLaunchpadProof } from '@bourse/proof';
import type { SubscriptionProofData } from '@bourse/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { type Customer, customerSnapshot, fund, ledgerOf, USDT } from '../assets/testing.ts';
import { adminCall, type StaffLogin, staffSession } from '../staff/testing.ts';
import { ratedCustomer } from '../suitability/testing.ts';
import { verifiedPrimary } from '../verification/testing.ts';
import { DAY, HOUR, projectBody } from './testing.ts';

/**
 * The launchpad through its HTTP calls on the whole app, the clock stepped by hand: a project
 * announced by staff, three verified customers subscribing (and every refusal in the customer's
 * language, changing nothing), the close, the allocation, each customer's proof checked as the
 * browser checks it, the lock-up release, the issuer paid; permissions and the audit trail.
 */

let t: TestApp;
let admin: StaffLogin;
let compliance: StaffLogin;
let support: StaffLogin;
beforeAll(async () => {
  t = await startTestApp();
  admin = await staffSession(t, ['administrator']);
  compliance = await staffSession(t, ['compliance']);
  support = await staffSession(t, ['support']);
}, 120_000);
afterAll(async () => t?.close());

const post = (who: StaffLogin, path: string, body: object) =>
  adminCall(t.app, { call: path, token: who.token, fields: body as Record<string, string> });
const get = (who: StaffLogin, path: string, fields: Record<string, string> = {}) =>
  adminCall(t.app, { method: 'GET', call: path, token: who.token, fields });

async function verifiedCustomer(usdt: number): Promise<Customer> {
  const c = await ratedCustomer(t, 'balanced');
  // A reviewer signed in now: the stepped clock outlives a staff session's idle time.
  await verifiedPrimary(t, c.token, (await staffSession(t, ['compliance'])).token);
  await fund(t, c.id, 'USDT', USDT(usdt));
  return c;
}

function subscribe(c: Customer, projectId: string, quantity: string, extra: Record<string, string> = {}) {
  return call(t.app, {
    call: 'subscribe',
    fields: { project_id: projectId, quantity, accept_terms: '1', ...extra },
    headers: { token: c.token },
  });
}

async function announced(over: Parameters<typeof projectBody>[1] = {}) {
  const created = await post(admin, 'launchpad/projects', projectBody(t.clock.now().getTime(), over));
  expect(created.code, created.msg).toBe(1);
  const id = created.data.project_id as string;
  const a = await post(admin, `launchpad/projects/${id}/action`, {
    action: 'announce',
    reason: 'announce now',
  });
  expect(a.code, a.msg).toBe(1);
  return { id, coin: created.data.coin as string };
}

describe('the launchpad over HTTP', () => {
  it('announce, subscribe, close, allocate, verify, release, pay the issuer', async () => {
    const { id, coin } = await announced({ min_tier: 'primary', min_rating: 'conservative' });
    const list = await call(t.app, { method: 'GET', call: 'getSubscriptionList', fields: { lang: 'zh' } });
    const shown = list.data.items.find((p: { project_id: string }) => p.project_id === id);
    expect(shown).toMatchObject({
      state: 'announced',
      name: '测试币',
      supply: '1000',
      fee_rate: '0.5',
      margin_ratio: '100',
    });

    const [a, b, c] = [
      await verifiedCustomer(1000),
      await verifiedCustomer(1000),
      await verifiedCustomer(100),
    ];
    const early = await subscribe(a, id, '10');
    expect(early.reason).toBe('LAUNCHPAD_NOT_STARTED');
    t.clock.advance(HOUR);
    await t.app.launchpad.job.runOnce();

    // The preview is exactly what subscribing freezes.
    const q = await call(t.app, {
      method: 'GET',
      call: 'getSubscriptionQuote',
      fields: { project_id: id, quantity: '600' },
    });
    expect(q.data).toMatchObject({ cost: '600', fee: '3', frozen: '603', lots: '600' });

    // Refusals name their rule, in the customer's language, and change nothing.
    const before = await customerSnapshot(t, c.id);
    const poor = await subscribe(c, id, '600', { lang: 'zh' });
    expect(poor.reason).toBe('LAUNCHPAD_INSUFFICIENT_USDT');
    expect(poor.msg).toBe('USDT 不足，无法申购：需要 603 USDT，可用 100 USDT');
    expect((await subscribe(c, id, '1.5')).reason).toBe('LAUNCHPAD_LOT_STEP');
    expect((await subscribe(c, id, '10', { accept_terms: '0' })).reason).toBe('LAUNCHPAD_TERMS_REQUIRED');
    expect((await subscribe(c, id, '1001')).reason).toBe('LAUNCHPAD_ABOVE_MAX');
    const unverified = await ratedCustomer(t, 'balanced');
    await fund(t, unverified.id, 'USDT', USDT(100));
    expect((await subscribe(unverified, id, '10')).reason).toBe('VERIFICATION_PRIMARY_REQUIRED');
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin', fields: {} });
    expect((await subscribe({ token: demo.data.token } as Customer, id, '10')).reason).toBe(
      'REAL_ACCOUNT_REQUIRED',
    );
    expect(await customerSnapshot(t, c.id)).toEqual(before);

    // Eligibility is shown before anyone tries.
    const info = await call(t.app, {
      method: 'GET',
      call: 'getSubscriptionInfo',
      fields: { project_id: id },
      headers: { token: c.token },
    });
    expect(info.data.eligibility).toMatchObject({
      eligible: true,
      available: '100',
      may_subscribe: '99',
      held: '0',
    });

    for (const [who, qty] of [
      [a, '600'],
      [b, '900'],
      [c, '50'],
    ] as const) {
      const s = await subscribe(who, id, qty);
      expect(s.code, s.msg).toBe(1);
      expect(s.data.state).toBe('under_review');
    }
    expect((await subscribe(a, id, '10')).reason).toBe('LAUNCHPAD_ALREADY_SUBSCRIBED');
    const spotA = await ledgerOf(t).balance(t.db, {
      book: 'real',
      customerId: a.id,
      accountType: 'spot',
      currency: 'USDT',
    });
    expect(spotA.frozenUnits).toBe(USDT(603));

    // Close and allocate: 1,000 offered, 1,550 asked, cap 400 → 400, 400 and the rest shared.
    t.clock.advance(DAY);
    await t.app.launchpad.job.runOnce();
    const recs = await call(t.app, {
      method: 'GET',
      call: 'getSubscriptionRecords',
      fields: {},
      headers: { token: a.token },
    });
    expect(recs.data.items[0]).toMatchObject({
      state: 'allocated',
      allocated: '400',
      paid: '400',
      fee_paid: '2',
      refunded: '201',
      token_state: 'locked',
    });
    const recsC = await call(t.app, {
      method: 'GET',
      call: 'getSubscriptionRecords',
      fields: {},
      headers: { token: c.token },
    });
    expect(recsC.data.items[0]).toMatchObject({ allocated: '50', paid: '50', refunded: '0' });

    for (const who of [a, b, c]) {
      const proof = await call(t.app, {
        method: 'GET',
        call: 'getSubscriptionProof',
        fields: { project_id: id },
        headers: { token: who.token },
      });
      expect(proof.code, proof.msg).toBe(1);
      const check = checkLaunchpadProof(proof.data as SubscriptionProofData);
      expect(check.failure).toBeNull();
      expect(check.ok).toBe(true);
    }
    const stranger = await verifiedCustomer(10);
    const none = await call(t.app, {
      method: 'GET',
      call: 'getSubscriptionProof',
      fields: { project_id: id },
      headers: { token: stranger.token },
    });
    expect(none.reason).toBe('LAUNCHPAD_NOT_ALLOCATED');

    // The issuer's escrow holds what was paid; it is paid out only after listing.
    admin = await staffSession(t, ['administrator']);
    let p = (await get(admin, 'launchpad/projects')).data.items.find(
      (x: { project_id: string }) => x.project_id === id,
    );
    expect(p).toMatchObject({ state: 'distributed', escrow: '850', fees: '4.25' });
    admin = await staffSession(t, ['administrator']);
    expect(
      (await post(admin, `launchpad/projects/${id}/action`, { action: 'pay_issuer', reason: 'too early' }))
        .reason,
    ).toBe('LAUNCHPAD_ACTION_REFUSED');
    t.clock.advance(DAY);
    admin = await staffSession(t, ['administrator']);
    const paid = await post(admin, `launchpad/projects/${id}/action`, {
      action: 'pay_issuer',
      reason: 'listing reached',
    });
    expect(paid.code, paid.msg).toBe(1);
    expect(paid.data).toMatchObject({ escrow: '0', paid_out: '850' });

    // Listing + 30 days: released once into spot.
    t.clock.advance(30 * DAY);
    await t.app.launchpad.job.runOnce();
    admin = await staffSession(t, ['administrator']);
    const coins = await ledgerOf(t).balance(t.db, {
      book: 'real',
      customerId: a.id,
      accountType: 'spot',
      currency: coin,
    });
    expect(coins.availableUnits).toBe(400n * 10n ** 8n);
    const runs = await get(admin, `launchpad/projects/${id}/runs`);
    expect(runs.data.items.map((r: { kind: string }) => r.kind).sort()).toEqual([
      'allocation',
      'release',
      'review',
    ]);
    const subs = await get(admin, 'launchpad/subscriptions', { project_id: id });
    expect(subs.data.total).toBe(3);
    expect(subs.data.items[0].uid).toMatch(/\S/);
    p = (await get(admin, 'launchpad/projects')).data.items.find(
      (x: { project_id: string }) => x.project_id === id,
    );
    expect(p.counts.allocated).toBe(3);
    const audit = await t.db
      .selectFrom('staff_audit')
      .select(['action', 'reason'])
      .where('target_id', '=', id)
      .orderBy('seq')
      .execute();
    expect(audit.map((r) => r.action)).toEqual([
      'launchpad.project.create',
      'launchpad.project.announce',
      'launchpad.project.pay_issuer',
    ]);
    expect((await ledgerOf(t).verify()).ok).toBe(true);
  });

  it('permissions, and project rules refused by name', async () => {
    [admin, compliance, support] = [
      await staffSession(t, ['administrator']),
      await staffSession(t, ['compliance']),
      await staffSession(t, ['support']),
    ];
    expect((await get(support, 'launchpad/projects')).reason).toBe('FORBIDDEN');
    expect((await get(compliance, 'launchpad/projects')).code).toBe(1);
    const denied = await post(compliance, 'launchpad/projects', projectBody(t.clock.now().getTime()));
    expect(denied.reason).toBe('FORBIDDEN');
    const now = t.clock.now().getTime();
    const cases: Array<[Parameters<typeof projectBody>[1], string]> = [
      [{ margin_ratio: '50' }, 'margin_ratio'],
      [{ fee_rate: '6' }, 'fee_rate'],
      [{ soft_cap: '2000' }, 'soft_cap'],
      [{ min_subscription: '500' }, 'min_subscription'],
      [{ supply: '10.5' }, 'supply'],
      [{ price: '0.000000001' }, 'price'],
      [{ opens_at: now - 1 }, 'opens_at'],
      [{ listing_at: now }, 'listing_at'],
    ];
    for (const [over, field] of cases) {
      const r = await post(admin, 'launchpad/projects', projectBody(now, over));
      expect({ field, reason: r.reason, params: r.params }).toEqual({
        field,
        reason: 'LAUNCHPAD_PROJECT_INVALID',
        params: { field },
      });
    }
    expect((await post(admin, 'launchpad/projects', projectBody(now, { coin: 'BTC' }))).reason).toBe(
      'LAUNCHPAD_COIN_TAKEN',
    );
  });

  it('a failed project is refunded automatically with its reason shown', async () => {
    // The first test stepped the clock past the staff sessions' lifetime.
    admin = await staffSession(t, ['administrator']);
    const { id } = await announced({ soft_cap: '900' });
    t.clock.advance(HOUR);
    await t.app.launchpad.job.runOnce();
    const a = await verifiedCustomer(500);
    expect((await subscribe(a, id, '100')).code).toBe(1);
    t.clock.advance(DAY);
    await t.app.launchpad.job.runOnce();
    const info = await call(t.app, {
      method: 'GET',
      call: 'getSubscriptionInfo',
      fields: { project_id: id, lang: 'ft' },
    });
    expect(info.data.project).toMatchObject({ state: 'refunded', failure_reason: 'soft_cap_missed' });
    expect(info.data.project.refund_deadline_at).toBe(info.data.project.failed_at + 24 * HOUR);
    const recs = await call(t.app, {
      method: 'GET',
      call: 'getSubscriptionRecords',
      fields: {},
      headers: { token: a.token },
    });
    expect(recs.data.items[0]).toMatchObject({
      state: 'refunded',
      failure_reason: 'soft_cap_missed',
      refunded: '100.5',
    });
    const spot = await ledgerOf(t).balance(t.db, {
      book: 'real',
      customerId: a.id,
      accountType: 'spot',
      currency: 'USDT',
    });
    expect(spot).toMatchObject({ availableUnits: USDT(500), frozenUnits: 0n });
  });

  it('the jurisdiction profile’s launchpad verification rule: carried as profile_tier, then enforced the same', async () => {
    // A fresh staff session: the tests before stepped the clock past the sessions' lifetime.
    admin = await staffSession(t, ['administrator']);
    const setProfile = async (profile: string) =>
      expect((await post(admin, 'jurisdiction', { profile, reason: 'launchpad rule test' })).code).toBe(1);
    const setLaunchpadTier = async (tier: string) =>
      expect(
        (
          await post(admin, 'verification/rules/update', {
            profile: 'custom',
            features: [{ feature: 'launchpad', tier }],
            reason: 'launchpad rule test',
          })
        ).code,
      ).toBe(1);
    // No tier of its own: before, the rules page said "Not required" and subscribing was refused.
    const { id } = await announced({ min_tier: null });
    const shown = async () => {
      const list = await call(t.app, { method: 'GET', call: 'getSubscriptionList', fields: {} });
      const info = await call(t.app, {
        method: 'GET',
        call: 'getSubscriptionInfo',
        fields: { project_id: id },
      });
      expect([list.code, info.code]).toEqual([1, 1]);
      const row = list.data.items.find((p: { project_id: string }) => p.project_id === id);
      expect(new Set(list.data.items.map((p: { profile_tier: string }) => p.profile_tier)).size).toBe(1);
      expect(info.data.project.eligibility.min_tier).toBeNull();
      expect(info.data.project.profile_tier).toBe(row.profile_tier);
      return info.data.project.profile_tier as string;
    };
    const before = (await t.app.jurisdiction.active()).id;
    try {
      await setProfile('permissive');
      expect(await shown()).toBe('primary');
      t.clock.advance(HOUR);
      await t.app.launchpad.job.runOnce();
      // The rule shown is the rule that refuses.
      const unverified = await ratedCustomer(t, 'balanced');
      await fund(t, unverified.id, 'USDT', USDT(100));
      const refused = await subscribe(unverified, id, '10');
      expect([refused.reason, refused.params]).toEqual([
        'VERIFICATION_PRIMARY_REQUIRED',
        { feature: 'launchpad', tier: 'primary' },
      ]);
      admin = await staffSession(t, ['administrator']);
      await setLaunchpadTier('advanced');
      await setProfile('custom');
      expect(await shown()).toBe('advanced');
      const primary = await verifiedCustomer(100);
      const stricter = await subscribe(primary, id, '10');
      expect([stricter.reason, stricter.params]).toEqual([
        'VERIFICATION_ADVANCED_REQUIRED',
        { feature: 'launchpad', tier: 'advanced' },
      ]);
      // The back office's project data does not carry it (the verification rules screen does).
      const staffView = (await get(admin, 'launchpad/projects')).data.items.find(
        (p: { project_id: string }) => p.project_id === id,
      );
      expect(staffView).toBeDefined();
      expect(staffView).not.toHaveProperty('profile_tier');
    } finally {
      admin = await staffSession(t, ['administrator']);
      await setLaunchpadTier('primary');
      await setProfile(before);
    }
  });
});
