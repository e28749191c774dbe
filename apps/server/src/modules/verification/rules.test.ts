import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { adminCall, type StaffLogin, staffSession } from '../staff/testing.ts';
import { addAddress, customer, fund, withdraw } from '../withdrawals/testing.ts';
import { approveAll, decide, file, submitAdvanced, submitPrimary, verifiedPrimary, view } from './testing.ts';

/**
 * What each tier unlocks, per jurisdiction profile, enforced on the server (deposit address, bank
 * deposit, withdrawal); the custom profile edited by staff with a reason (audited); four-eyes on
 * the advanced tier; and two staff, or two customers with one ID number, racing.
 */

let t: TestApp;
let admin: StaffLogin;
let compliance: StaffLogin;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
  admin = await staffSession(t, ['administrator']);
  compliance = await staffSession(t, ['compliance']);
});
afterAll(async () => {
  await t.close();
});

async function useProfile(profile: 'permissive' | 'eu_retail' | 'custom') {
  const answer = await adminCall(t.app, {
    call: 'jurisdiction',
    token: admin.token,
    fields: { profile, reason: 'test profile' },
  });
  expect(answer.code).toBe(1);
}

const depositAddress = (token: string) =>
  call(t.app, {
    method: 'GET',
    call: 'getRechargeAddress',
    fields: { token, currency: 'USDT', chain: 'ERC20' },
  });

describe('feature requirements per profile', () => {
  it('permissive: money moves unverified; eu_retail: primary first (deposit address, bank deposit, withdrawal)', async () => {
    await useProfile('permissive');
    const c = await customer(t);
    await fund(t, c.customerId, '1000');
    const addressId = await addAddress(t, c.token);
    expect((await depositAddress(c.token)).code).toBe(1);
    expect((await withdraw(t, c.token, { address_id: addressId, amount: '100' })).code).toBe(1);
    const permissive = await view(t, c.token);
    expect(permissive.data.deposit).toEqual({ feature: 'deposit', tier: 'none', met: true });
    expect(permissive.data.features).toContainEqual({ feature: 'loans', tier: 'advanced', met: false });
    expect(permissive.data.primary.unlocks).toEqual(['credit_score', 'c2c', 'launchpad']);

    await useProfile('eu_retail');
    const refusedAddress = await depositAddress(c.token);
    expect([refusedAddress.reason, refusedAddress.params]).toEqual([
      'VERIFICATION_PRIMARY_REQUIRED',
      { feature: 'deposit', tier: 'primary' },
    ]);
    const bank = await call(t.app, {
      call: 'bankRecharge',
      fields: { token: c.token, currency: 'USDT', amount: '100', reference: 'REF1', proof_id: 'prf_x' },
    });
    expect(bank.reason).toBe('VERIFICATION_PRIMARY_REQUIRED');
    const refusedWithdraw = await withdraw(t, c.token, { address_id: addressId, amount: '100', lang: 'zh' });
    expect([refusedWithdraw.reason, refusedWithdraw.params]).toEqual([
      'VERIFICATION_PRIMARY_REQUIRED',
      { feature: 'withdraw', tier: 'primary' },
    ]);
    expect(refusedWithdraw.msg).toBe('提现：请先完成初级（实名）认证');
    const eu = await view(t, c.token);
    expect(eu.data).toMatchObject({
      profile: 'eu_retail',
      deposit: { tier: 'primary', met: false },
      withdraw: { tier: 'primary', met: false },
    });

    await verifiedPrimary(t, c.token, compliance.token);
    expect((await depositAddress(c.token)).code).toBe(1);
    expect((await withdraw(t, c.token, { address_id: addressId, amount: '100' })).code).toBe(1);
    expect((await view(t, c.token)).data.withdraw.met).toBe(true);
    await useProfile('permissive');
  });

  it('custom: staff edit the table with a reason (audited); built-in profiles are not editable', async () => {
    const builtIn = await adminCall(t.app, {
      call: 'verification/rules/update',
      token: admin.token,
      fields: {
        profile: 'eu_retail',
        features: [{ feature: 'withdraw', tier: 'none' }] as never,
        reason: 'try',
      },
    });
    expect([builtIn.reason, builtIn.params]).toEqual([
      'VERIFICATION_PROFILE_NOT_EDITABLE',
      { profile: 'eu_retail' },
    ]);
    const noReason = await adminCall(t.app, {
      call: 'verification/rules/update',
      token: admin.token,
      fields: {
        profile: 'custom',
        features: [{ feature: 'withdraw', tier: 'advanced' }] as never,
        reason: '  ',
      },
    });
    expect([noReason.reason, noReason.params]).toEqual(['FIELD_TOO_SHORT', { field: 'reason', min: 3 }]);
    const edited = await adminCall(t.app, {
      call: 'verification/rules/update',
      token: admin.token,
      fields: {
        profile: 'custom',
        features: [{ feature: 'withdraw', tier: 'advanced' }] as never,
        document_retention_days: 3650 as never,
        reason: 'regulator asked for it',
      },
    });
    expect(edited.code).toBe(1);
    const custom = edited.data.profiles.find((p: { id: string }) => p.id === 'custom');
    expect(custom.features).toContainEqual({ feature: 'withdraw', tier: 'advanced' });
    expect(custom.document_retention_days).toBe(3650);
    const audit = await adminCall(t.app, {
      method: 'GET',
      call: 'getAuditLog',
      token: admin.token,
      fields: { target_id: 'custom' },
    });
    expect(audit.data.list[0]).toMatchObject({
      action: 'verification.rules.update',
      reason: 'regulator asked for it',
    });

    await useProfile('custom');
    const c = await customer(t);
    await fund(t, c.customerId, '1000');
    const addressId = await addAddress(t, c.token);
    await verifiedPrimary(t, c.token, compliance.token);
    const refused = await withdraw(t, c.token, { address_id: addressId, amount: '100' });
    expect([refused.reason, refused.params]).toEqual([
      'VERIFICATION_ADVANCED_REQUIRED',
      { feature: 'withdraw', tier: 'advanced' },
    ]);
    expect(refused.msg).toBe('Withdrawals: complete advanced verification first');
    // The documents of a submission under the custom profile are kept its 3650 days.
    const submitted = await submitAdvanced(t, c.token, { asset_bank_file_id: await file(t, c.token) });
    const kept = await t.db
      .selectFrom('uploads_file')
      .select('retain_until')
      .where('id', '=', submitted.data.documents[0].file_id)
      .executeTakeFirstOrThrow();
    expect(kept.retain_until?.getTime()).toBe(t.clock.now().getTime() + 3650 * 86_400_000);
    await decide(t, compliance.token, submitted.data.submission_id, [
      { slot: 'asset_bank', decision: 'approve' },
    ]);
    expect((await withdraw(t, c.token, { address_id: addressId, amount: '100' })).code).toBe(1);
    expect((await view(t, c.token)).data.level).toBe(2);
    await useProfile('permissive');
  });
});

describe('the address tier and the ports later features use', () => {
  it('address: bill and address, approved; a feature set to `address` opens only then', async () => {
    const edited = await adminCall(t.app, {
      call: 'verification/rules/update',
      token: admin.token,
      fields: {
        profile: 'custom',
        features: [{ feature: 'c2c', tier: 'address' }] as never,
        reason: 'c2c needs an address',
      },
    });
    expect(edited.code).toBe(1);
    await useProfile('custom');
    const c = await customer(t);
    await verifiedPrimary(t, c.token, compliance.token);
    const gate = () => t.app.verification.requireFeature(c.customerId, 'c2c');
    await expect(gate()).rejects.toMatchObject({
      reason: 'VERIFICATION_ADDRESS_REQUIRED',
      params: { feature: 'c2c', tier: 'address' },
    });
    const short = await call(t.app, {
      call: 'submitAddressVerification',
      fields: { token: c.token, residential_address: ' 1 a ', utility_bill_file_id: await file(t, c.token) },
    });
    expect([short.reason, short.params]).toEqual([
      'FIELD_TOO_SHORT',
      { field: 'residential_address', min: 5 },
    ]);
    const noBill = await call(t.app, {
      call: 'submitAddressVerification',
      fields: { token: c.token, residential_address: 'Flat 3, 8 Nathan Road, Kowloon' },
    });
    expect([noBill.reason, noBill.params]).toEqual([
      'VERIFICATION_DOCUMENT_REQUIRED',
      { field: 'utility_bill_file_id' },
    ]);
    const sent = await call(t.app, {
      call: 'submitAddressVerification',
      fields: {
        token: c.token,
        residential_address: 'Flat 3,  8 Nathan Road, Kowloon',
        utility_bill_file_id: await file(t, c.token),
      },
    });
    expect(sent.data).toMatchObject({
      tier: 'address',
      state: 'under_review',
      data: { residential_address: 'Flat 3, 8 Nathan Road, Kowloon' },
    });
    const revise = await decide(t, compliance.token, sent.data.submission_id, [
      { slot: 'utility_bill', decision: 'request_revision', reason_code: 'bill_too_old' },
    ]);
    expect(revise.data.state).toBe('revision_requested');
    const again = await call(t.app, {
      call: 'submitAddressVerification',
      fields: {
        token: c.token,
        residential_address: 'Flat 3, 8 Nathan Road, Kowloon',
        utility_bill_file_id: await file(t, c.token),
      },
    });
    await decide(t, compliance.token, again.data.submission_id, [
      { slot: 'utility_bill', decision: 'approve' },
    ]);
    await expect(gate()).resolves.toBeUndefined();
    expect(await t.app.verification.tierOf(c.customerId)).toEqual({
      level: 1,
      primary: 'approved',
      advanced: 'not_submitted',
      address: 'approved',
    });
    const seen = await view(t, c.token);
    expect(seen.data.address.unlocks).toEqual(['c2c']);
    expect(seen.data.features).toContainEqual({ feature: 'c2c', tier: 'address', met: true });
    await useProfile('permissive');
  });
});

describe('four-eyes on the advanced tier', () => {
  it('the first approval waits for a second, different staff member; a rejection needs one', async () => {
    const on = await adminCall(t.app, {
      call: 'verification/settings',
      token: admin.token,
      fields: { four_eyes_advanced: true as never, reason: 'second look at wealth' },
    });
    expect(on.data.four_eyes_advanced).toBe(true);
    const c = await customer(t);
    await verifiedPrimary(t, c.token, compliance.token);
    const s = await submitAdvanced(t, c.token, { asset_house_file_id: await file(t, c.token) });
    const id = s.data.submission_id;
    const first = await decide(t, compliance.token, id, [{ slot: 'asset_house', decision: 'approve' }]);
    expect(first.data).toEqual({ id, state: 'under_review', awaiting_second: true });
    const row = (
      await adminCall(t.app, {
        method: 'GET',
        call: 'verification/queue',
        token: compliance.token,
        fields: { tier: 'advanced', page_size: '100' },
      })
    ).data.list.find((r: { id: string }) => r.id === id);
    expect(row.awaiting_second).toBe(true);
    const same = await decide(t, compliance.token, id, [{ slot: 'asset_house', decision: 'approve' }]);
    expect(same.reason).toBe('VERIFICATION_SECOND_STAFF');
    const detail = await adminCall(t.app, {
      method: 'GET',
      call: 'verification/detail',
      token: admin.token,
      fields: { id },
    });
    expect(detail.data.first_approval).toMatchObject({ staff_id: compliance.staffId });
    expect(detail.data.four_eyes).toBe(true);
    const second = await decide(t, admin.token, id, [{ slot: 'asset_house', decision: 'approve' }]);
    expect(second.data).toEqual({ id, state: 'approved', awaiting_second: false });

    const d = await customer(t);
    await verifiedPrimary(t, d.token, compliance.token);
    const s2 = await submitAdvanced(t, d.token, { asset_stock_file_id: await file(t, d.token) });
    const rejected = await decide(t, compliance.token, s2.data.submission_id, [
      { slot: 'asset_stock', decision: 'reject', reason_code: 'asset_proof_insufficient' },
    ]);
    expect(rejected.data.state).toBe('rejected');
    const off = await adminCall(t.app, {
      call: 'verification/settings',
      token: admin.token,
      fields: { four_eyes_advanced: false as never, reason: 'back to one' },
    });
    expect(off.data.four_eyes_advanced).toBe(false);
  });
});

describe('races', () => {
  it('two staff deciding one submission at once: one wins, the other is told it was decided', async () => {
    const c = await customer(t);
    const s = await submitPrimary(t, c.token);
    const other = await staffSession(t, ['compliance']);
    const slots = ['id_back', 'id_front', 'id_handheld'] as const;
    const [a, b] = await Promise.all([
      decide(t, compliance.token, s.data.submission_id, approveAll(slots)),
      decide(t, other.token, s.data.submission_id, [
        { slot: 'id_front', decision: 'reject', reason_code: 'expired' },
        { slot: 'id_back', decision: 'approve' },
        { slot: 'id_handheld', decision: 'approve' },
      ]),
    ]);
    const outcomes = [a, b].map((x) => x.data?.state ?? x.reason).sort();
    expect(outcomes.filter((o) => o === 'VERIFICATION_NOT_UNDER_REVIEW')).toHaveLength(1);
    const audits = await t.db
      .selectFrom('staff_audit')
      .select('id')
      .where('target_id', '=', s.data.submission_id)
      .execute();
    expect(audits).toHaveLength(1);
  });

  it('one ID number, two customers: the duplicate goes to review flagged, and only one approval can win', async () => {
    const number = `R${Math.floor(Math.random() * 1e8)}`;
    const x = await customer(t);
    const y = await customer(t);
    const sx = await submitPrimary(t, x.token, { id_number: number });
    const sy = await submitPrimary(t, y.token, { id_number: number.toLowerCase() });
    expect([sx.code, sy.code]).toEqual([1, 1]);
    const other = await staffSession(t, ['compliance']);
    const slots = ['id_back', 'id_front', 'id_handheld'] as const;
    const [ax, ay] = await Promise.all([
      decide(t, compliance.token, sx.data.submission_id, approveAll(slots)),
      decide(t, other.token, sy.data.submission_id, approveAll(slots)),
    ]);
    const won = [ax, ay].filter((r) => r.data?.state === 'approved');
    const lost = [ax, ay].filter((r) => r.reason === 'VERIFICATION_DUPLICATE_IDENTITY');
    expect([won.length, lost.length]).toEqual([1, 1]);
    const approved = await t.db
      .selectFrom('verification_submission')
      .select(['customer_id', 'state'])
      .where('id', 'in', [sx.data.submission_id, sy.data.submission_id])
      .execute();
    expect(approved.filter((r) => r.state === 'approved')).toHaveLength(1);
    expect(approved.filter((r) => r.state === 'under_review')).toHaveLength(1);
    // Staff may still reject the duplicate, with the catalogue's reason.
    const loser = approved.find((r) => r.state === 'under_review');
    const loserId = loser?.customer_id === x.customerId ? sx.data.submission_id : sy.data.submission_id;
    const refusedAgain = await decide(t, admin.token, loserId, approveAll(slots));
    expect(refusedAgain.reason).toBe('VERIFICATION_DUPLICATE_IDENTITY');
    const closed = await decide(t, admin.token, loserId, [
      { slot: 'id_front', decision: 'reject', reason_code: 'duplicate_identity' },
      { slot: 'id_back', decision: 'approve' },
      { slot: 'id_handheld', decision: 'approve' },
    ]);
    expect(closed.data.state).toBe('rejected');
  });
});

describe('the staff queues show the customer verification', () => {
  it('a withdrawal row carries level and state from the verification module', async () => {
    const c = await customer(t);
    await fund(t, c.customerId, '1000');
    const addressId = await addAddress(t, c.token);
    await verifiedPrimary(t, c.token, compliance.token);
    const w = await withdraw(t, c.token, { address_id: addressId, amount: '100' });
    const finance = await staffSession(t, ['finance']);
    const q = await adminCall(t.app, {
      method: 'GET',
      call: 'withdrawals/queue',
      token: finance.token,
      fields: { page_size: '100' },
    });
    const row = q.data.list.find((r: { id: string }) => r.id === w.data.id);
    expect(row.customer.verification).toEqual({
      level: 1,
      status: 'verified',
      tiers: { primary: 'approved', advanced: 'not_submitted', address: 'not_submitted' },
    });
  });
});
