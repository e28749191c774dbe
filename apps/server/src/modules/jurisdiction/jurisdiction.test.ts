import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { adminCall, staffSession } from '../staff/testing.ts';

let t: TestApp;
let admin: string;
let finance: string;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
  admin = (await staffSession(t, ['administrator'])).token;
  finance = (await staffSession(t, ['finance'])).token;
});
afterAll(async () => t?.close());

async function customPost(token: string, body: Record<string, unknown>) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/admin/jurisdiction/custom',
    payload: { rtoken: `jr${Math.random().toString(36).slice(2, 12)}`, ...body },
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.statusCode, ...response.json() };
}

const CAPS = { forex_major: 50, forex_minor: 40, gold: 30, index: 25, commodity: 15, stock: 8, crypto: 3 };

describe('jurisdiction profiles', () => {
  it('starts permissive: every cap 100, options on, negative-balance protection always', async () => {
    const answer = await call(t.app, { method: 'GET', call: 'getJurisdiction', fields: {} });
    expect(answer.data.active).toEqual({
      id: 'permissive',
      leverage_caps: {
        forex_major: 100,
        forex_minor: 100,
        gold: 100,
        index: 100,
        commodity: 100,
        stock: 100,
        crypto: 100,
      },
      options_enabled: true,
      earn_principal_penalty: true,
      referral_max_depth: 4,
      promo_incentives: true,
      negative_balance_protection: true,
      editable: false,
    });
    expect(await t.app.jurisdiction.leverageCap('crypto')).toBe(100);
    expect(await t.app.jurisdiction.optionsEnabled()).toBe(true);
  });

  it('lists the profiles to risk.read and refuses staff without it', async () => {
    const list = await adminCall(t.app, { method: 'GET', call: 'jurisdiction', token: finance });
    expect(list.data.active).toBe('permissive');
    expect(list.data.profiles.map((p: { id: string }) => p.id)).toEqual([
      'permissive',
      'eu_retail',
      'custom',
    ]);
    const eu = list.data.profiles.find((p: { id: string }) => p.id === 'eu_retail');
    expect(eu).toMatchObject({
      leverage_caps: {
        forex_major: 30,
        forex_minor: 20,
        gold: 20,
        index: 20,
        commodity: 10,
        stock: 5,
        crypto: 2,
      },
      options_enabled: false,
      negative_balance_protection: true,
      editable: false,
    });
    const support = (await staffSession(t, ['support'])).token;
    const refused = await adminCall(t.app, { method: 'GET', call: 'jurisdiction', token: support });
    expect(refused.reason).toBe('FORBIDDEN');
  });

  it('selects eu_retail (markets.write, audited with before, after and reason) and back', async () => {
    const denied = await adminCall(t.app, {
      call: 'jurisdiction',
      token: finance,
      fields: { profile: 'eu_retail', reason: 'not mine to change' },
    });
    expect(denied.reason).toBe('FORBIDDEN');
    const unknown = await adminCall(t.app, {
      call: 'jurisdiction',
      token: admin,
      fields: { profile: 'lawless', reason: 'try' },
    });
    expect(unknown.code).not.toBe(1);
    const chosen = await adminCall(t.app, {
      call: 'jurisdiction',
      token: admin,
      fields: { profile: 'eu_retail', reason: 'EU retail launch' },
    });
    expect(chosen.code).toBe(1);
    expect(chosen.data.active).toBe('eu_retail');
    expect(await t.app.jurisdiction.leverageCap('forex_major')).toBe(30);
    expect(await t.app.jurisdiction.leverageCap('crypto')).toBe(2);
    expect(await t.app.jurisdiction.optionsEnabled()).toBe(false);
    expect(await t.app.jurisdiction.referralMaxDepth()).toBe(1);
    expect(await t.app.jurisdiction.promoIncentives()).toBe(false);
    const web = await call(t.app, { method: 'GET', call: 'getJurisdiction', fields: {} });
    expect(web.data.active.id).toBe('eu_retail');
    const audit = await t.db
      .selectFrom('staff_audit')
      .selectAll()
      .where('action', '=', 'jurisdiction.select')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.reason).toBe('EU retail launch');
    expect(audit.before).toMatchObject({ active: 'permissive' });
    expect(audit.after).toMatchObject({ active: 'eu_retail' });
    await adminCall(t.app, {
      call: 'jurisdiction',
      token: admin,
      fields: { profile: 'permissive', reason: 'back' },
    });
    expect(await t.app.jurisdiction.optionsEnabled()).toBe(true);
    expect(await t.app.jurisdiction.referralMaxDepth()).toBe(4);
    expect(await t.app.jurisdiction.promoIncentives()).toBe(true);
  });

  it('edits the custom profile, refusing every bad cap, and applies it once selected', async () => {
    for (const caps of [
      { ...CAPS, crypto: 0 },
      { ...CAPS, crypto: 101 },
      { ...CAPS, crypto: 2.5 },
      { ...CAPS, crypto: '3' },
      { forex_major: 50 },
      { ...CAPS, metals: 5 },
    ]) {
      const bad = await customPost(admin, { leverage_caps: caps, options_enabled: false, reason: 'tighter' });
      expect(bad.code, JSON.stringify(caps)).not.toBe(1);
      expect(bad.status).toBeLessThan(500);
    }
    const noReason = await customPost(admin, { leverage_caps: CAPS, options_enabled: false });
    expect(noReason.code).not.toBe(1);
    expect(
      (await customPost(finance, { leverage_caps: CAPS, options_enabled: false, reason: 'x y z' })).reason,
    ).toBe('FORBIDDEN');
    const edited = await customPost(admin, {
      leverage_caps: CAPS,
      options_enabled: false,
      reason: 'house rules',
    });
    expect(edited.code).toBe(1);
    const custom = edited.data.profiles.find((p: { id: string }) => p.id === 'custom');
    expect(custom).toMatchObject({ leverage_caps: CAPS, options_enabled: false, editable: true });
    expect(edited.data.active).toBe('permissive'); // editing does not select it
    expect(await t.app.jurisdiction.leverageCap('crypto')).toBe(100);
    await adminCall(t.app, {
      call: 'jurisdiction',
      token: admin,
      fields: { profile: 'custom', reason: 'use ours' },
    });
    expect(await t.app.jurisdiction.leverageCap('crypto')).toBe(3);
    expect(await t.app.jurisdiction.leverageCap('stock')).toBe(8);
    expect(await t.app.jurisdiction.optionsEnabled()).toBe(false);
    const audit = await t.db
      .selectFrom('staff_audit')
      .selectAll()
      .where('action', '=', 'jurisdiction.custom.update')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.reason).toBe('house rules');
    expect(audit.before).toMatchObject({ custom: { leverage_caps: { crypto: 100 } } });
    expect(audit.after).toMatchObject({ custom: { leverage_caps: CAPS, options_enabled: false } });
    await adminCall(t.app, {
      call: 'jurisdiction',
      token: admin,
      fields: { profile: 'permissive', reason: 'reset' },
    });
  });
  it("edits the custom profile's referral depth (0…4) and incentives switch, unchanged when omitted", async () => {
    for (const referral_max_depth of [-1, 5, 1.5, '2']) {
      const bad = await customPost(admin, {
        leverage_caps: CAPS,
        options_enabled: true,
        referral_max_depth,
        reason: 'depth',
      });
      expect(bad.code, String(referral_max_depth)).not.toBe(1);
      expect(bad.status).toBeLessThan(500);
    }
    const banned = await customPost(admin, {
      leverage_caps: CAPS,
      options_enabled: true,
      referral_max_depth: 0,
      promo_incentives: false,
      reason: 'referral rewards banned here',
    });
    expect(banned.code).toBe(1);
    const custom = () => banned.data.profiles.find((p: { id: string }) => p.id === 'custom');
    expect(custom()).toMatchObject({ referral_max_depth: 0, promo_incentives: false });
    const kept = await customPost(admin, { leverage_caps: CAPS, options_enabled: true, reason: 'caps only' });
    expect(kept.data.profiles.find((p: { id: string }) => p.id === 'custom')).toMatchObject({
      referral_max_depth: 0,
      promo_incentives: false,
    });
    await adminCall(t.app, {
      call: 'jurisdiction',
      token: admin,
      fields: { profile: 'custom', reason: 'use ours' },
    });
    expect(await t.app.jurisdiction.referralMaxDepth()).toBe(0);
    expect(await t.app.jurisdiction.promoIncentives()).toBe(false);
    await customPost(admin, {
      leverage_caps: CAPS,
      options_enabled: true,
      referral_max_depth: 4,
      promo_incentives: true,
      reason: 'restore',
    });
    await adminCall(t.app, {
      call: 'jurisdiction',
      token: admin,
      fields: { profile: 'permissive', reason: 'reset' },
    });
  });
});
