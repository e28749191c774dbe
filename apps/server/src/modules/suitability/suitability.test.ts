import type { CapsByRating } from '@bourse/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, rtoken, startTestApp, type TestApp } from '../../../test/harness.ts';
import { customer } from '../assets/testing.ts';
import { adminCall, staffSession } from '../staff/testing.ts';
import { DEFAULT_CAPS, DEFAULT_SCORING } from './defaults.ts';
import { ANSWERS } from './testing.ts';

/**
 * The questionnaire end to end through the routes: the open questionnaire, answers checked,
 * the rating and its history, idempotent submission, cooling-off on a stepped clock, racing
 * submissions, and the audited staff edits of the scoring table and the custom caps.
 */
let t: TestApp;
let admin: { token: string; staffId: string };
let reader: string;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const submit = (token: string, answers: Record<string, string>, rt = rtoken()) =>
  call(t.app, { call: 'submitQuestionnaire', fields: { ...answers, rtoken: rt }, headers: { token } });

async function assessmentCount(customerId: string): Promise<number> {
  const r = await t.db
    .selectFrom('suitability_assessment')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('customer_id', '=', customerId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

describe('the risk questionnaire', () => {
  it('is open without login: questions, the published scoring table and what each rating allows', async () => {
    const q = await call(t.app, { method: 'GET', call: 'getQuestionnaire', fields: {} });
    expect(q.code).toBe(1);
    expect(q.data.questions.map((x: { id: string }) => x.id)).toEqual([
      'account_purpose',
      'investment_purpose',
      'amount_band',
      'monthly_trades',
      'occupation',
      'experience_years',
      'derivatives_3y',
      'leverage_loss',
      'option_expiry',
      'loss_capacity',
    ]);
    expect(q.data.questions[2].options).toEqual(['100_1k', '1k_10k', '10k_100k', '100k_1m', 'over_1m']);
    expect(q.data.scoring).toMatchObject({ version: 1, ...DEFAULT_SCORING, created_by: null });
    expect(q.data.profile).toBe('permissive');
    expect(q.data.caps).toEqual(DEFAULT_CAPS.permissive);
  });

  it('asks to log in to submit, and a new customer is not assessed', async () => {
    const anonymous = await call(t.app, { call: 'submitQuestionnaire', fields: ANSWERS.balanced });
    expect(anonymous.reason).toBe('LOGIN_REQUIRED');
    const c = await customer(t);
    const r = await call(t.app, {
      method: 'GET',
      call: 'getRiskRating',
      fields: {},
      headers: { token: c.token },
    });
    expect(r.data).toMatchObject({
      rating: 'not_assessed',
      assessed_at: null,
      retake_after: null,
      can_retake: true,
      profile: 'permissive',
      allows: DEFAULT_CAPS.permissive.not_assessed,
      history: [],
    });
  });

  it('checks every answer, naming the question, and stores nothing when one is wrong', async () => {
    const c = await customer(t);
    const { loss_capacity: _, ...missing } = ANSWERS.balanced;
    const m = await submit(c.token, missing);
    expect(m).toMatchObject({ reason: 'FIELD_REQUIRED', params: { field: 'loss_capacity' } });
    const wrong = await call(t.app, {
      call: 'submitQuestionnaire',
      fields: { ...ANSWERS.balanced, amount_band: 'lots', lang: 'zh' },
      headers: { token: c.token },
    });
    expect(wrong).toMatchObject({ reason: 'SUITABILITY_ANSWER_INVALID', params: { field: 'amount_band' } });
    expect(wrong.msg).toContain('投资金额');
    const unknown = await submit(c.token, { ...ANSWERS.balanced, favourite_colour: 'blue' });
    expect(unknown).toMatchObject({ reason: 'UNKNOWN_FIELD', params: { field: 'favourite_colour' } });
    expect(await assessmentCount(c.id)).toBe(0);
  });

  it('rates the answers, answers a retry once, and keeps the cooling-off period on the clock', async () => {
    const c = await customer(t);
    const rt = rtoken();
    const first = await submit(c.token, ANSWERS.balanced, rt);
    expect(first.code).toBe(1);
    expect(first.data.assessment).toMatchObject({
      rating: 'balanced',
      points: 19,
      points_rating: 'balanced',
      ceiling: null,
      scoring_version: 1,
      taken_at: t.clock.now().getTime(),
      retake_after: t.clock.now().getTime() + 30 * DAY,
    });
    expect(first.data.rating).toMatchObject({
      rating: 'balanced',
      can_retake: false,
      allows: DEFAULT_CAPS.permissive.balanced,
    });
    // The same rtoken again: the first answer, no second assessment.
    const again = await submit(c.token, ANSWERS.balanced, rt);
    expect(again.data.assessment.assessment_id).toBe(first.data.assessment.assessment_id);
    expect(await assessmentCount(c.id)).toBe(1);

    // A retake inside the cooling-off period is refused naming the date (UTC), in each language.
    const retakeAt = new Date(first.data.assessment.retake_after);
    const date = `${retakeAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    for (const [lang, words] of [
      ['en', 'from'],
      ['zh', '冷静期'],
      ['ft', '冷靜期'],
    ] as const) {
      const early = await call(t.app, {
        call: 'submitQuestionnaire',
        fields: { ...ANSWERS.aggressive, lang },
        headers: { token: c.token },
      });
      expect(early).toMatchObject({ reason: 'SUITABILITY_COOLING_OFF', params: { date } });
      expect(early.msg).toContain(date);
      expect(early.msg).toContain(words);
    }
    // One millisecond before the end: still refused; at the end: accepted (the service, as the session would have expired).
    t.clock.set(new Date(retakeAt.getTime() - 1));
    await expect(t.app.suitability.submit(c.id, ANSWERS.aggressive)).rejects.toMatchObject({
      reason: 'SUITABILITY_COOLING_OFF',
    });
    t.clock.set(retakeAt);
    const second = await t.app.suitability.submit(c.id, ANSWERS.aggressive);
    expect(second.assessment.rating).toBe('aggressive');
    const rating = await t.app.suitability.rating(c.id);
    expect(rating.rating).toBe('aggressive');
    expect(rating.history.map((h) => h.rating)).toEqual(['aggressive', 'balanced']);
    expect(rating.history[1]?.answers).toEqual(ANSWERS.balanced);
    expect(rating.allows).toEqual(DEFAULT_CAPS.permissive.aggressive);
  });

  it('two racing submissions give one assessment', async () => {
    for (let round = 0; round < 3; round += 1) {
      const c = await customer(t);
      const answers = await Promise.all([
        submit(c.token, ANSWERS.aggressive),
        submit(c.token, ANSWERS.conservative),
        submit(c.token, ANSWERS.balanced),
      ]);
      expect(answers.filter((a) => a.code === 1)).toHaveLength(1);
      expect(answers.filter((a) => a.reason === 'SUITABILITY_COOLING_OFF')).toHaveLength(2);
      expect(await assessmentCount(c.id)).toBe(1);
    }
  });

  it('a knowledge answer caps the rating as the published table says', async () => {
    const c = await customer(t);
    const r = await t.app.suitability.submit(c.id, { ...ANSWERS.aggressive, leverage_loss: 'ten_percent' });
    // 27 points would be aggressive; the wrong leverage answer caps it at balanced.
    expect(r.assessment).toMatchObject({
      points: 27,
      points_rating: 'aggressive',
      ceiling: 'balanced',
      rating: 'balanced',
    });
  });
});

describe('the back office', () => {
  // Staff sessions made now: the questionnaire tests above moved the clock 30 days on.
  beforeAll(async () => {
    const a = await staffSession(t, ['administrator']);
    admin = { token: a.token, staffId: a.staffId };
    reader = (await staffSession(t, ['compliance'])).token;
  });

  it('reads with risk.read, edits with settings.write only', async () => {
    const read = await adminCall(t.app, { method: 'GET', call: 'suitability', token: reader });
    expect(read.code).toBe(1);
    expect(read.data.versions[0]).toMatchObject({ version: 1 });
    expect(read.data.caps.eu_retail).toEqual(DEFAULT_CAPS.eu_retail);
    expect(read.data.counts.aggressive).toBeGreaterThan(0);
    const edit = await adminCall(t.app, {
      call: 'suitability/scoring',
      token: reader,
      fields: { ...DEFAULT_SCORING, reason: 'try' } as never,
    });
    expect(edit.reason).toBe('FORBIDDEN');
  });

  it('publishes a new scoring version, audited with before, after and the reason; assessments record it', async () => {
    const bad = await adminCall(t.app, {
      call: 'suitability/scoring',
      token: admin.token,
      fields: { ...DEFAULT_SCORING, thresholds: { balanced: 20, aggressive: 20 }, reason: 'x-bad' } as never,
    });
    expect(bad).toMatchObject({
      reason: 'SUITABILITY_TABLE_INVALID',
      params: { field: 'thresholds.aggressive' },
    });
    const noReason = await adminCall(t.app, {
      call: 'suitability/scoring',
      token: admin.token,
      fields: { ...DEFAULT_SCORING } as never,
    });
    expect(noReason).toMatchObject({ reason: 'FIELD_REQUIRED', params: { field: 'reason' } });
    const tooMany = structuredClone(DEFAULT_SCORING);
    (tooMany.questions.occupation as Record<string, unknown>).astronaut = { points: 1, ceiling: null };
    const unknownOption = await adminCall(t.app, {
      call: 'suitability/scoring',
      token: admin.token,
      fields: { ...tooMany, reason: 'an astronaut' } as never,
    });
    expect(unknownOption).toMatchObject({
      reason: 'SUITABILITY_TABLE_INVALID',
      params: { field: 'questions.occupation.astronaut' },
    });
    expect((await t.app.suitability.admin()).versions).toHaveLength(1);

    const next = structuredClone(DEFAULT_SCORING);
    next.thresholds = { balanced: 8, aggressive: 25 };
    next.cooling_off_days = 14;
    const ok = await adminCall(t.app, {
      call: 'suitability/scoring',
      token: admin.token,
      fields: { ...next, reason: 'stricter aggressive threshold' } as never,
    });
    expect(ok.code).toBe(1);
    expect(ok.data.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const audit = await t.db
      .selectFrom('staff_audit')
      .selectAll()
      .where('action', '=', 'suitability.scoring.publish')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_id: admin.staffId,
      target_id: '2',
      reason: 'stricter aggressive threshold',
      before: { version: 1, thresholds: { balanced: 10, aggressive: 20 }, cooling_off_days: 30 },
      after: { version: 2, thresholds: { balanced: 8, aggressive: 25 }, cooling_off_days: 14 },
    });
    // 24 points without a ceiling: aggressive under version 1, balanced under version 2.
    const c = await customer(t);
    const answers = {
      ...ANSWERS.aggressive,
      occupation: 'student',
      experience_years: '1_3',
      monthly_trades: '500_1000',
      amount_band: '10k_100k',
    };
    const r = await t.app.suitability.submit(c.id, answers);
    expect(r.assessment).toMatchObject({ points: 24, scoring_version: 2, ceiling: null, rating: 'balanced' });
    const r2 = r;
    expect(r2.assessment.retake_after - r2.assessment.taken_at).toBe(14 * DAY);
  });

  it('edits only the custom caps, refusing bad and non-monotone values by name, audited', async () => {
    const caps: CapsByRating = structuredClone(DEFAULT_CAPS.custom);
    const post = (c: unknown, reason = 'tighten contracts') =>
      adminCall(t.app, {
        call: 'suitability/caps',
        token: admin.token,
        fields: { caps: c, reason } as never,
      });
    const before = await t.app.suitability.admin();

    const notMonotone = structuredClone(caps);
    notMonotone.balanced.contracts.max_leverage = 4;
    expect(await post(notMonotone)).toMatchObject({
      reason: 'SUITABILITY_CAP_NOT_MONOTONE',
      params: { field: 'balanced.contracts.max_leverage' },
    });
    const tooHigh = structuredClone(caps);
    tooHigh.aggressive.contracts.max_leverage = 101;
    expect(await post(tooHigh)).toMatchObject({
      reason: 'SUITABILITY_CAP_INVALID',
      params: { field: 'aggressive.contracts.max_leverage' },
    });
    const fraction = structuredClone(caps);
    fraction.conservative.options.max_amount = '12.5';
    expect(await post(fraction)).toMatchObject({
      reason: 'SUITABILITY_CAP_INVALID',
      params: { field: 'conservative.options.max_amount' },
    });
    const leverageOnOptions = structuredClone(caps);
    leverageOnOptions.balanced.options.max_leverage = 5;
    expect(await post(leverageOnOptions)).toMatchObject({
      reason: 'SUITABILITY_CAP_INVALID',
      params: { field: 'balanced.options.max_leverage' },
    });
    const missing = structuredClone(caps);
    delete (missing as Record<string, unknown>).balanced;
    expect(await post(missing)).toMatchObject({
      reason: 'SUITABILITY_CAP_INVALID',
      params: { field: 'balanced' },
    });
    expect(await t.app.suitability.admin()).toEqual(before);

    const next = structuredClone(caps);
    next.balanced.contracts.max_leverage = 20;
    next.aggressive.contracts.max_leverage = 20;
    const ok = await post(next);
    expect(ok.code).toBe(1);
    expect(ok.data.caps.custom.aggressive.contracts).toEqual({ max_leverage: 20, max_amount: '200000' });
    expect(ok.data.caps.permissive).toEqual(DEFAULT_CAPS.permissive);
    const audit = await t.db
      .selectFrom('staff_audit')
      .selectAll()
      .where('action', '=', 'suitability.caps.update')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ target_id: 'custom', reason: 'tighten contracts' });
    expect((audit.before as CapsByRating).aggressive.contracts.max_leverage).toBe(100);
    expect((audit.after as CapsByRating).aggressive.contracts.max_leverage).toBe(20);

    // In force once the custom profile is selected.
    const c = await customer(t);
    await t.app.suitability.submit(c.id, ANSWERS.aggressive);
    expect(await t.app.suitability.maxLeverage(c.id)).toBe(100);
    await t.app.jurisdiction.select(
      { staffId: admin.staffId, sessionId: 's', roles: ['administrator'] },
      {
        profile: 'custom',
        reason: 'suitability test',
      },
    );
    expect(await t.app.suitability.maxLeverage(c.id)).toBe(20);
    await t.app.jurisdiction.select(
      { staffId: admin.staffId, sessionId: 's', roles: ['administrator'] },
      {
        profile: 'permissive',
        reason: 'suitability test done',
      },
    );
  });

  it("shows a customer's rating to staff with customers.read", async () => {
    const c = await customer(t);
    await t.app.suitability.submit(c.id, ANSWERS.conservative);
    const r = await adminCall(t.app, {
      method: 'GET',
      call: 'suitability/customer',
      token: reader,
      fields: { customer_id: c.id },
    });
    expect(r.data).toMatchObject({ rating: 'conservative', allows: DEFAULT_CAPS.permissive.conservative });
  });
});
