import { catalogs } from '@bourse/i18n';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { customer } from '../assets/testing.ts';
import { adminCall, type StaffLogin, staffSession } from '../staff/testing.ts';
import {
  approveAll,
  decide,
  file,
  PRIMARY_SLOTS,
  queue,
  submitAdvanced,
  submitPrimary,
  verifiedPrimary,
  view,
} from './testing.ts';

/**
 * Verification tiers end to end through HTTP: the state machine (revision, rejection, approval,
 * never twice), the refusals of bad input by name, the staff queue and detail (flags, decrypted
 * number, audited document views), decisions audited and told to the customer, permissions.
 */

let t: TestApp;
let compliance: StaffLogin;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
  compliance = await staffSession(t, ['compliance']);
});
afterAll(async () => {
  await t.close();
});

async function outbox(recipient: string) {
  return t.db
    .selectFrom('notify_outbox')
    .select(['subject', 'body'])
    .where('recipient', '=', recipient)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

async function emailOf(customerId: string) {
  const row = await t.db
    .selectFrom('accounts_customer')
    .select('email')
    .where('id', '=', customerId)
    .executeTakeFirstOrThrow();
  return row.email ?? '';
}

describe('primary: revision requested → resubmit → approved, then never again', () => {
  it('walks the states, keeps what was not flagged, and tells the customer each time', async () => {
    const c = await customer(t);
    const first = await submitPrimary(t, c.token, {
      real_name: 'Chan Tai Man',
      id_number: 'A123456(7)'.replace(/[()]/g, ''),
    });
    expect(first.code).toBe(1);
    expect(first.data).toMatchObject({ tier: 'primary', state: 'under_review', can_submit: false });
    expect(first.data.data.id_number_masked).toBe('A1****67');
    const id = first.data.submission_id;

    const again = await submitPrimary(t, c.token);
    expect(again.reason).toBe('VERIFICATION_UNDER_REVIEW');

    const revised = await decide(t, compliance.token, id, [
      { slot: 'id_front', decision: 'approve' },
      { slot: 'id_back', decision: 'request_revision', reason_code: 'blurry' },
      { slot: 'id_handheld', decision: 'approve' },
    ]);
    expect(revised.data).toEqual({ id, state: 'revision_requested', awaiting_second: false });
    const seen = await view(t, c.token);
    expect(seen.data.primary.state).toBe('revision_requested');
    expect(seen.data.primary.can_submit).toBe(true);
    expect(seen.data.primary.documents.find((d: { slot: string }) => d.slot === 'id_back')).toMatchObject({
      status: 'revision_requested',
      reason_code: 'blurry',
    });
    const told = await outbox(await emailOf(c.id));
    const revision = told.find((m) => m.body.includes(catalogs.en.verification.reasonCode.blurry));
    expect(revision?.subject).toBe('Primary verification: please replace a document');
    expect(revision?.body).toContain(
      `${catalogs.en.verification.slot.id_back}: ${catalogs.en.verification.reasonCode.blurry}`,
    );

    // The flagged document must be replaced; the others may be left out and stay.
    const kept = await call(t.app, {
      call: 'submitPrimaryVerification',
      fields: { token: c.token, real_name: 'Chan Tai Man', id_type: '1', id_number: 'A1234567' },
    });
    expect(kept.reason).toBe('VERIFICATION_DOCUMENT_REQUIRED');
    expect(kept.params).toEqual({ field: 'back_file_id' });
    const back = await file(t, c.token);
    const second = await call(t.app, {
      call: 'submitPrimaryVerification',
      fields: {
        token: c.token,
        real_name: 'Chan Tai Man',
        id_type: '1',
        id_number: 'A1234567',
        back_file_id: back,
      },
    });
    expect(second.code).toBe(1);
    const docs = second.data.documents as Array<{ slot: string; file_id: string; status: string }>;
    expect(docs.find((d) => d.slot === 'id_back')?.file_id).toBe(back);
    expect(docs.find((d) => d.slot === 'id_front')?.file_id).toBe(
      first.data.documents.find((d: { slot: string }) => d.slot === 'id_front').file_id,
    );
    expect(docs.every((d) => d.status === 'pending')).toBe(true);

    const listed = await queue(t, compliance.token, { tier: 'primary' });
    const row = listed.data.list.find((r: { id: string }) => r.id === second.data.submission_id);
    expect(row.resubmissions).toBe(1);
    expect(row.flags).toContainEqual({ code: 'resubmitted', params: { count: 1 } });

    const approved = await decide(t, compliance.token, second.data.submission_id, approveAll(PRIMARY_SLOTS));
    expect(approved.data.state).toBe('approved');
    const after = await view(t, c.token);
    expect(after.data.level).toBe(1);
    expect(after.data.primary).toMatchObject({ state: 'approved', can_submit: false });
    expect(after.data.advanced).toMatchObject({ available: true, can_submit: true });
    expect((await outbox(await emailOf(c.id))).map((m) => m.subject)).toContain(
      'Primary verification approved',
    );
    expect(await t.app.verification.verifiedName(c.id)).toBe('Chan Tai Man');
    expect(await t.app.verification.tierOf(c.id)).toMatchObject({ level: 1, primary: 'approved' });

    const twice = await submitPrimary(t, c.token);
    expect(twice.reason).toBe('VERIFICATION_ALREADY_APPROVED');
    const decidedAgain = await decide(
      t,
      compliance.token,
      second.data.submission_id,
      approveAll(PRIMARY_SLOTS),
    );
    expect(decidedAgain.reason).toBe('VERIFICATION_NOT_UNDER_REVIEW');
  });

  it('rejected → a full new submission; the old files cannot be used again', async () => {
    const c = await customer(t);
    const first = await submitPrimary(t, c.token);
    const rejected = await decide(t, compliance.token, first.data.submission_id, [
      { slot: 'id_front', decision: 'reject', reason_code: 'other', note: 'Not a government document' },
      { slot: 'id_back', decision: 'request_revision', reason_code: 'glare' },
      { slot: 'id_handheld', decision: 'approve' },
    ]);
    expect(rejected.data.state).toBe('rejected');
    const seen = await view(t, c.token);
    expect(seen.data.primary.reject_reasons).toEqual([
      { slot: 'id_front', reason_code: 'other', note: 'Not a government document' },
    ]);
    const old = first.data.documents.find((d: { slot: string }) => d.slot === 'id_front').file_id;
    const reuse = await submitPrimary(t, c.token, { front_file_id: old });
    expect(reuse.reason).toBe('VERIFICATION_DOCUMENT_UNKNOWN');
    expect(reuse.params).toEqual({ field: 'front_file_id' });
    const noBack = await submitPrimary(t, c.token, { back_file_id: '' });
    expect(noBack.reason).toBe('VERIFICATION_DOCUMENT_REQUIRED');
    const fresh = await submitPrimary(t, c.token);
    expect(fresh.code).toBe(1);
    expect(fresh.data.state).toBe('under_review');
  });
});

describe('nationality: fixed at registration, or chosen once at primary verification', () => {
  const countryOf = async (id: string) =>
    (
      await t.db
        .selectFrom('accounts_customer')
        .select('country')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).country;

  it('none on record: required, checked, recorded with the submission only, then fixed', async () => {
    const c = await customer(t);
    expect((await view(t, c.token)).data.nationality).toBe('');
    expect(await submitPrimary(t, c.token, { country: '' })).toMatchObject({
      reason: 'FIELD_REQUIRED',
      params: { field: 'country' },
    });
    expect(await submitPrimary(t, c.token, { country: 'ZZ' })).toMatchObject({
      reason: 'BAD_INPUT',
      params: { field: 'country' },
    });
    // A submission refused inside its transaction leaves no nationality behind.
    const unknown = await submitPrimary(t, c.token, { country: 'SG', front_file_id: 'upl_nothing' });
    expect(unknown.reason).toBe('VERIFICATION_DOCUMENT_UNKNOWN');
    expect(await countryOf(c.id)).toBe('');

    const sent = await submitPrimary(t, c.token, { country: 'sg' });
    expect(sent.code).toBe(1);
    expect(sent.data.data.nationality).toBe('SG');
    expect(await countryOf(c.id)).toBe('SG');
    expect((await view(t, c.token)).data.nationality).toBe('SG');

    // Rejected and sent again: another country is refused by its rule, the same one or none is fine.
    await decide(t, compliance.token, sent.data.submission_id, [
      { slot: 'id_front', decision: 'reject', reason_code: 'blurry' },
      { slot: 'id_back', decision: 'approve' },
      { slot: 'id_handheld', decision: 'approve' },
    ]);
    const other = await submitPrimary(t, c.token, { country: 'MY', lang: 'zh' });
    expect(other).toMatchObject({ reason: 'VERIFICATION_NATIONALITY_FIXED', params: { country: 'SG' } });
    expect(other.msg).toBe('您的国籍已登记为 新加坡，不能更改');
    expect(await countryOf(c.id)).toBe('SG');
    const again = await submitPrimary(t, c.token, { country: '' });
    expect(again.code).toBe(1);
    expect(again.data.data.nationality).toBe('SG');
  });

  it('one on record at registration is the one used; another is refused', async () => {
    const c = await customer(t);
    await t.db.updateTable('accounts_customer').set({ country: 'GB' }).where('id', '=', c.id).execute();
    expect((await view(t, c.token)).data.nationality).toBe('GB');
    expect(await submitPrimary(t, c.token, { country: 'HK' })).toMatchObject({
      reason: 'VERIFICATION_NATIONALITY_FIXED',
      params: { country: 'GB' },
    });
    const sent = await submitPrimary(t, c.token, { country: '' });
    expect(sent.data.data.nationality).toBe('GB');
    expect(await countryOf(c.id)).toBe('GB');
  });

  it('two submissions racing with different countries: one wins, and its country is the one recorded', async () => {
    const c = await customer(t);
    const answers = await Promise.all(
      ['FR', 'DE', 'IT'].map((country) => submitPrimary(t, c.token, { country })),
    );
    const won = answers.filter((a) => a.code === 1);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((a) => a.code !== 1)) {
      expect(['VERIFICATION_UNDER_REVIEW', 'VERIFICATION_NATIONALITY_FIXED']).toContain(lost.reason);
    }
    expect(await countryOf(c.id)).toBe(won[0]?.data.data.nationality);
  });
});

describe('bad input is refused by name and changes nothing', () => {
  let c: Awaited<ReturnType<typeof customer>>;
  beforeAll(async () => {
    c = await customer(t);
  });
  const submissions = async () =>
    Number(
      (
        await t.db
          .selectFrom('verification_submission')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('customer_id', '=', c.id)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('ID number format per type, name rules, length limits', async () => {
    const passport = await submitPrimary(t, c.token, { id_type: '2', id_number: 'AB12' });
    expect([passport.reason, passport.params]).toEqual([
      'VERIFICATION_ID_NUMBER_FORMAT',
      { type: 'passport', min: 6, max: 12 },
    ]);
    const zh = await submitPrimary(t, c.token, { id_type: '2', id_number: 'AB12', lang: 'zh' });
    expect(zh.msg).toBe('护照号码须为 6 至 12 位字母或数字');
    const card = await submitPrimary(t, c.token, { id_type: '1', id_number: 'A1B2#C3' });
    expect(card.params).toEqual({ type: 'id_card', min: 5, max: 20 });
    for (const name of ['J0hn Smith', 'X', '<b>Bob</b>', 'a'.repeat(101)]) {
      const answer = await submitPrimary(t, c.token, { real_name: name });
      expect(answer.reason, name).toBe(name.length > 100 ? 'FIELD_TOO_LONG' : 'VERIFICATION_NAME_INVALID');
    }
    expect((await submitPrimary(t, c.token, { real_name: '陈大文' })).code).toBe(1);
    expect(await submissions()).toBe(1);
  });

  it("unknown, someone else's, repeated and unexpected files; missing documents", async () => {
    const d = await customer(t);
    const e = await customer(t);
    const theirs = await file(t, e.token);
    const mine = await file(t, d.token);
    const cases: Array<[Record<string, string>, string, Record<string, string>]> = [
      [
        { front_file_id: 'upl_0000000000UNKNOWN0000000000' },
        'VERIFICATION_DOCUMENT_UNKNOWN',
        { field: 'front_file_id' },
      ],
      [{ handheld_file_id: theirs }, 'VERIFICATION_DOCUMENT_UNKNOWN', { field: 'handheld_file_id' }],
      [
        { front_file_id: mine, back_file_id: mine },
        'VERIFICATION_DOCUMENT_REPEATED',
        { field: 'back_file_id' },
      ],
      [
        { id_type: '2', id_number: 'K1234567', back_file_id: mine },
        'VERIFICATION_DOCUMENT_NOT_EXPECTED',
        { field: 'back_file_id' },
      ],
      [{ handheld_file_id: '' }, 'VERIFICATION_DOCUMENT_REQUIRED', { field: 'handheld_file_id' }],
    ];
    for (const [fields, reason, params] of cases) {
      const answer = await submitPrimary(t, d.token, fields);
      expect([answer.reason, answer.params], JSON.stringify(fields)).toEqual([reason, params]);
    }
    // `mine` was not claimed by any refused submission: it is still free to use.
    const row = await t.db
      .selectFrom('uploads_file')
      .select('attached_at')
      .where('id', '=', mine)
      .executeTakeFirstOrThrow();
    expect(row.attached_at).toBeNull();
    const zh = await submitPrimary(t, d.token, { handheld_file_id: '', lang: 'zh' });
    expect(zh.msg).toBe('请上传手持签名照');
  });

  it('advanced and address wait for primary; advanced needs a proof of assets', async () => {
    const d = await customer(t);
    const early = await submitAdvanced(t, d.token, { asset_bank_file_id: await file(t, d.token) });
    expect([early.reason, early.params]).toEqual([
      'VERIFICATION_PRIMARY_REQUIRED',
      { feature: 'advanced', tier: 'primary' },
    ]);
    const address = await call(t.app, {
      call: 'submitAddressVerification',
      fields: {
        token: d.token,
        residential_address: '1 Queen’s Road, Hong Kong',
        utility_bill_file_id: await file(t, d.token),
      },
    });
    expect(address.reason).toBe('VERIFICATION_PRIMARY_REQUIRED');
    await verifiedPrimary(t, d.token, compliance.token);
    expect((await submitAdvanced(t, d.token)).reason).toBe('VERIFICATION_ASSET_PROOF_REQUIRED');
    expect(
      (
        await submitAdvanced(t, d.token, {
          source_of_wealth: 'other',
          asset_bank_file_id: await file(t, d.token),
        })
      ).params,
    ).toEqual({
      field: 'wealth_note',
    });
    const ok = await submitAdvanced(t, d.token, { asset_stock_file_id: await file(t, d.token) });
    expect(ok.data).toMatchObject({
      tier: 'advanced',
      state: 'under_review',
      data: { occupation: 'employed' },
    });
  });

  it('verification is for the real account only', async () => {
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin' });
    const refused = await call(t.app, {
      call: 'submitPrimaryVerification',
      fields: { token: demo.data.token, real_name: 'Demo', id_type: '1', id_number: 'A1234567' },
    });
    expect(refused.reason).toBe('REAL_ACCOUNT_REQUIRED');
    const seen = await view(t, demo.data.token);
    expect(seen.data).toMatchObject({ real: 0, level: 0 });
    expect(seen.data.primary.can_submit).toBe(false);
  });
});

describe('the review queue', () => {
  it('oldest first with age and flags; detail decrypts the number and audits every document view', async () => {
    const a = await customer(t);
    const b = await customer(t);
    const uidOf = async (id: string) =>
      (
        await t.db
          .selectFrom('accounts_customer')
          .select('uid')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).uid;
    const first = await submitPrimary(t, a.token, { id_number: 'G1234-5678', real_name: 'Lee Siu Ming' });
    t.clock.advance(60_000);
    const second = await submitPrimary(t, b.token, { id_number: 'g 12345678', real_name: 'Wong Ka Yan' });
    const listed = await queue(t, compliance.token, { tier: 'primary', page_size: '100' });
    const ids = listed.data.list.map((r: { id: string }) => r.id);
    expect(ids.indexOf(first.data.submission_id)).toBeLessThan(ids.indexOf(second.data.submission_id));
    const rowA = listed.data.list.find((r: { id: string }) => r.id === first.data.submission_id);
    const rowB = listed.data.list.find((r: { id: string }) => r.id === second.data.submission_id);
    expect(rowA.age_ms).toBeGreaterThanOrEqual(60_000);
    expect(rowA.flags).toContainEqual({ code: 'duplicate_id_number', params: { uid: await uidOf(b.id) } });
    expect(rowB.flags).toContainEqual({ code: 'duplicate_id_number', params: { uid: await uidOf(a.id) } });

    const detail = await adminCall(t.app, {
      method: 'GET',
      call: 'verification/detail',
      token: compliance.token,
      fields: { id: first.data.submission_id },
    });
    expect(detail.data.data).toMatchObject({
      real_name: 'Lee Siu Ming',
      id_number: 'G12345678',
      id_type: '1',
    });
    expect(detail.data.documents).toHaveLength(3);
    for (const d of detail.data.documents) {
      const served = await t.app.inject({ method: 'GET', url: d.url });
      expect(served.statusCode).toBe(200);
    }
    const audit = await t.db
      .selectFrom('staff_audit')
      .select(['action', 'target_id'])
      .where('action', '=', 'document.view')
      .where('actor_id', '=', compliance.staffId)
      .where(
        'target_id',
        'in',
        detail.data.documents.map((d: { file_id: string }) => d.file_id),
      )
      .execute();
    expect(audit).toHaveLength(3);

    // The same image sent by another customer, and a changed name, are flagged too.
    const sharedPhoto = first.data.documents[0];
    const bytes = await t.app.inject({
      method: 'GET',
      url: detail.data.documents.find((d: { file_id: string }) => d.file_id === sharedPhoto.file_id).url,
    });
    const { uploadDocument } = await import('../uploads/testing.ts');
    const c = await customer(t);
    const copy = await uploadDocument(t, {
      token: c.token,
      file: { filename: 'copy.jpg', type: 'image/jpeg', bytes: bytes.rawPayload },
    });
    const third = await submitPrimary(t, c.token, { front_file_id: copy.data.file_id });
    const rejected = await decide(t, compliance.token, third.data.submission_id, [
      { slot: 'id_front', decision: 'reject', reason_code: 'suspected_forgery' },
      { slot: 'id_back', decision: 'approve' },
      { slot: 'id_handheld', decision: 'approve' },
    ]);
    expect(rejected.data.state).toBe('rejected');
    const renamed = await submitPrimary(t, c.token, { real_name: 'Someone Else' });
    const flags = (await queue(t, compliance.token, { page_size: '100' })).data.list.find(
      (r: { id: string }) => r.id === renamed.data.submission_id,
    ).flags;
    expect(flags).toContainEqual({ code: 'name_changed', params: { previous: 'Chan Tai Man' } });
    const thirdFlags = await adminCall(t.app, {
      method: 'GET',
      call: 'verification/detail',
      token: compliance.token,
      fields: { id: third.data.submission_id },
    });
    expect(thirdFlags.data.flags).toContainEqual({
      code: 'duplicate_image',
      params: { uid: await uidOf(a.id) },
    });
    expect(thirdFlags.data.state).toBe('rejected');
  });

  it('the customer is told in their language', async () => {
    const c = await customer(t);
    expect(
      (await call(t.app, { call: 'setLanguage', fields: { token: c.token, language: 'ft' } })).code,
    ).toBe(1);
    const s = await submitPrimary(t, c.token);
    await decide(t, compliance.token, s.data.submission_id, [
      { slot: 'id_front', decision: 'reject', reason_code: 'expired' },
      { slot: 'id_back', decision: 'approve' },
      { slot: 'id_handheld', decision: 'approve' },
    ]);
    const told = await outbox(await emailOf(c.id));
    const notice = told.find((m) => m.subject === '初級認證未通過');
    expect(notice?.body).toBe('您的初級認證未通過：證件正面照：證件已過期。您可以在認證中心重新提交。');
  });

  it('every decision is audited with its reasons in the same transaction', async () => {
    const c = await customer(t);
    const s = await submitPrimary(t, c.token);
    const decisions = [
      { slot: 'id_front', decision: 'approve' },
      { slot: 'id_back', decision: 'request_revision', reason_code: 'cropped' },
      { slot: 'id_handheld', decision: 'request_revision', reason_code: 'signature_missing' },
    ] as const;
    const first = await decide(t, compliance.token, s.data.submission_id, [...decisions], {
      rtoken: 'decide0001',
    });
    // A retry of the same request gets the first answer and decides (and audits, and notifies) nothing more.
    const retry = await decide(t, compliance.token, s.data.submission_id, [...decisions], {
      rtoken: 'decide0001',
    });
    expect(retry.replay).toBe('1');
    expect(retry.data).toEqual(first.data);
    const other = await decide(t, compliance.token, s.data.submission_id, approveAll(PRIMARY_SLOTS), {
      rtoken: 'decide0001',
    });
    expect(other.reason).toBe('RTOKEN_REUSED');
    const audit = await adminCall(t.app, {
      method: 'GET',
      call: 'getAuditLog',
      token: compliance.token,
      fields: { target_id: s.data.submission_id },
    });
    expect(audit.data.list).toHaveLength(1);
    expect(audit.data.list[0]).toMatchObject({ action: 'verification.decide', actor_id: compliance.staffId });
    expect(audit.data.list[0].reason).toContain('id_back request_revision cropped');
    expect(audit.data.list[0].after).toMatchObject({ state: 'revision_requested', customer_id: c.id });
    const chain = await adminCall(t.app, { method: 'GET', call: 'verifyAudit', token: compliance.token });
    expect(chain.data.ok).toBe(true);
  });

  it('decisions name what is missing: a decision per document, a reason, a note with "other"', async () => {
    const c = await customer(t);
    const s = await submitPrimary(t, c.token);
    const id = s.data.submission_id;
    const missing = await decide(t, compliance.token, id, [
      { slot: 'id_front', decision: 'approve' },
      { slot: 'id_back', decision: 'approve' },
    ]);
    expect([missing.reason, missing.params]).toEqual([
      'VERIFICATION_DECISION_MISSING',
      { slot: 'id_handheld' },
    ]);
    const stranger = await decide(t, compliance.token, id, [
      ...approveAll(PRIMARY_SLOTS),
      { slot: 'utility_bill', decision: 'approve' },
    ]);
    expect(stranger.reason).toBe('VERIFICATION_DECISION_MISSING');
    const noReason = await decide(t, compliance.token, id, [
      { slot: 'id_front', decision: 'reject' },
      { slot: 'id_back', decision: 'approve' },
      { slot: 'id_handheld', decision: 'approve' },
    ]);
    expect([noReason.reason, noReason.params]).toEqual([
      'VERIFICATION_REASON_REQUIRED',
      { slot: 'id_front' },
    ]);
    const noNote = await decide(t, compliance.token, id, [
      { slot: 'id_front', decision: 'request_revision', reason_code: 'other', note: '  ' },
      { slot: 'id_back', decision: 'approve' },
      { slot: 'id_handheld', decision: 'approve' },
    ]);
    expect(noNote.reason).toBe('VERIFICATION_NOTE_REQUIRED');
    const unknownCode = await decide(t, compliance.token, id, [
      { slot: 'id_front', decision: 'reject', reason_code: 'looks_odd' as never },
      { slot: 'id_back', decision: 'approve' },
      { slot: 'id_handheld', decision: 'approve' },
    ]);
    expect(unknownCode.status).toBe(400);
    expect((await view(t, c.token)).data.primary.state).toBe('under_review');
  });

  it('permissions: read and decide are compliance and administrator', async () => {
    const c = await customer(t);
    const s = await submitPrimary(t, c.token);
    const support = await staffSession(t, ['support']);
    const finance = await staffSession(t, ['finance']);
    const admin = await staffSession(t, ['administrator']);
    expect((await queue(t, support.token)).reason).toBe('FORBIDDEN');
    expect((await queue(t, finance.token)).reason).toBe('FORBIDDEN');
    expect((await decide(t, finance.token, s.data.submission_id, approveAll(PRIMARY_SLOTS))).reason).toBe(
      'FORBIDDEN',
    );
    expect((await queue(t, admin.token)).code).toBe(1);
    const rules = await adminCall(t.app, {
      call: 'verification/settings',
      token: compliance.token,
      fields: { four_eyes_advanced: true as never, reason: 'policy' },
    });
    expect(rules.reason).toBe('FORBIDDEN');
    expect((await decide(t, admin.token, s.data.submission_id, approveAll(PRIMARY_SLOTS))).data.state).toBe(
      'approved',
    );
  });
});
