import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, registerByEmail, startTestApp, type TestApp } from '../../../test/harness.ts';
import { adminCall, type StaffLogin, staffSession } from '../staff/testing.ts';

const DAY = 86_400_000;
let t: TestApp;
let editor: StaffLogin;
let n = 0;

beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
});
// Staff sessions end after a day on the clock, which these tests step: a fresh one per test.
beforeEach(async () => {
  editor = await staffSession(t, ['content']);
});
afterAll(async () => t.close());

const get = (name: string, fields: Record<string, string> = {}) =>
  call(t.app, { method: 'GET', call: name, fields });
const post = (name: string, fields: Record<string, string> = {}) => call(t.app, { call: name, fields });

function texts(kind: string, label: string) {
  return {
    kind,
    title_en: `${label} title`,
    title_zh: `${label} 标题`,
    title_ft: `${label} 標題`,
    summary_en: `What changed in ${label}`,
    summary_zh: `${label} 的变更`,
    summary_ft: `${label} 的變更`,
    body_en: `# ${label}\n\nFirst paragraph\ncontinues here.\n\n- one\n- two\n\n<script>alert(1)</script> **bold** [link](javascript:alert(1))`,
    body_zh: `## ${label}\n\n中文正文。`,
    body_ft: `## ${label}\n\n繁體正文。`,
  };
}

/** Drafts and publishes the next version of a kind, in force `inMs` from the clock's now. */
async function publish(kind: string, label: string, inMs = 0): Promise<number> {
  const draft = await adminCall(t.app, {
    call: 'agreements/draft',
    token: editor.token,
    fields: texts(kind, label),
  });
  expect(draft.code, JSON.stringify(draft)).toBe(1);
  const version = String(draft.data.version);
  const published = await adminCall(t.app, {
    call: 'agreements/publish',
    token: editor.token,
    fields: { kind, version, effective_at: String(t.clock.now().getTime() + inMs), reason: 'test' },
  });
  expect(published.code, JSON.stringify(published)).toBe(1);
  return Number(version);
}

async function customer(): Promise<string> {
  n += 1;
  return (await registerByEmail(t, `agree-${n}-${process.pid}@test.local`)).token;
}

describe('agreements', () => {
  it('serves the version in force by effective date on a stepped clock, with its history', async () => {
    expect((await get('getAgreement', { kind: 'privacy' })).reason).toBe('AGREEMENT_NOT_FOUND');
    const v1 = await publish('privacy', 'Privacy one');
    const v2 = await publish('privacy', 'Privacy two', DAY);
    expect(v2).toBe(v1 + 1);

    const before = await get('getAgreement', { kind: 'privacy', lang: 'zh' });
    expect(before.data).toMatchObject({ version: v1, current: true, title: 'Privacy one 标题' });
    expect(before.data.versions.map((v: { version: number }) => v.version)).toEqual([v1]);
    // A version still to come cannot be read or accepted yet.
    expect((await get('getAgreement', { kind: 'privacy', version: String(v2) })).reason).toBe(
      'AGREEMENT_NOT_FOUND',
    );

    t.clock.advance(DAY);
    const after = await get('getAgreement', { kind: 'privacy' });
    expect(after.data).toMatchObject({ version: v2, current: true });
    expect(after.data.versions.map((v: { version: number }) => v.version)).toEqual([v2, v1]);
    const old = await get('getAgreement', { kind: 'privacy', version: String(v1) });
    expect(old.data).toMatchObject({ version: v1, current: false });
  });

  it('renders the markdown subset into text blocks, never HTML', async () => {
    await publish('risk', 'Risk');
    const answer = await get('getAgreement', { kind: 'risk', lang: 'en' });
    expect(answer.data.blocks).toEqual([
      { type: 'heading', level: 2, text: 'Risk' },
      { type: 'paragraph', text: 'First paragraph continues here.' },
      { type: 'list', items: ['one', 'two'] },
      { type: 'paragraph', text: '<script>alert(1)</script> bold link' },
    ]);
    expect(JSON.stringify(answer.data)).not.toContain('javascript:');
  });

  it('records acceptance once per version; a new version makes the status pending again', async () => {
    await publish('user', 'User one');
    const token = await customer();
    // Registration with the agree box (naming every document) accepted every version in force.
    let status = await get('agreementStatus', { token });
    expect(status.data.pending).toEqual([]);
    expect(status.data.accepted.find((a: { kind: string }) => a.kind === 'user')).toBeTruthy();

    const v1 = await publish('risk', 'Risk');
    status = await get('agreementStatus', { token });
    const pending = status.data.pending.find((p: { kind: string }) => p.kind === 'risk');
    expect(pending).toMatchObject({ version: v1, title: 'Risk title', summary: 'What changed in Risk' });
    const first = await post('acceptAgreement', { token, kind: 'risk', version: String(pending.version) });
    expect(first.code).toBe(1);
    t.clock.advance(60_000);
    const again = await post('acceptAgreement', { token, kind: 'risk', version: String(pending.version) });
    expect(again.data.accepted_at).toBe(first.data.accepted_at);
    const rows = await t.db
      .selectFrom('agreements_acceptance')
      .selectAll()
      .where('kind', '=', 'risk')
      .where('source', '=', 'web')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: 'web', ip: '127.0.0.1' });

    const v2 = await publish('risk', 'Risk two');
    status = await get('agreementStatus', { token });
    expect(status.data.pending.find((p: { kind: string }) => p.kind === 'risk')).toMatchObject({
      version: v2,
    });
    await post('acceptAgreement', { token, kind: 'risk', version: String(v2) });
    status = await get('agreementStatus', { token });
    expect(status.data.pending.find((p: { kind: string }) => p.kind === 'risk')).toBeUndefined();

    const admin = await adminCall(t.app, { method: 'GET', call: 'agreements', token: editor.token });
    const risk = admin.data.kinds.find((k: { kind: string }) => k.kind === 'risk');
    expect(risk.current_version).toBe(v2);
    expect(risk.versions.find((v: { version: number }) => v.version === v2).acceptances).toBe(1);
  });

  it('refuses unknown kinds and versions, drafts, the past, and never answers 500', async () => {
    const token = await customer();
    const cases = [
      await get('getAgreement', { kind: 'cookies' }),
      await get('getAgreement', { kind: 'user', version: '0' }),
      await get('getAgreement', { kind: 'user', version: 'abc' }),
      await get('getAgreement', { kind: 'user', version: '999' }),
      await post('acceptAgreement', { token, kind: 'user', version: '999' }),
      await post('acceptAgreement', { token, kind: 'nope', version: '1' }),
      await post('acceptAgreement', { kind: 'user', version: '1' }),
      await get('agreementStatus'),
    ];
    for (const answer of cases) {
      expect(answer.status).toBeLessThan(500);
      expect(answer.code).not.toBe(1);
    }
    expect(cases[3]?.reason).toBe('AGREEMENT_NOT_FOUND');
    expect(cases[4]?.reason).toBe('AGREEMENT_NOT_FOUND');

    const draft = await adminCall(t.app, {
      call: 'agreements/draft',
      token: editor.token,
      fields: texts('user', 'Draft'),
    });
    const version = String(draft.data.version);
    expect((await post('acceptAgreement', { token, kind: 'user', version })).reason).toBe(
      'AGREEMENT_NOT_FOUND',
    );
    const past = await adminCall(t.app, {
      call: 'agreements/publish',
      token: editor.token,
      fields: {
        kind: 'user',
        version,
        effective_at: String(t.clock.now().getTime() - 3_600_000),
        reason: 'x',
      },
    });
    expect(past).toMatchObject({ reason: 'BAD_INPUT', params: { field: 'effective_at' } });
    const empty = await adminCall(t.app, {
      call: 'agreements/draft',
      token: editor.token,
      fields: { ...texts('user', 'Draft'), title_ft: '' },
    });
    expect(empty.code).toBe(1);
    const incomplete = await adminCall(t.app, {
      call: 'agreements/publish',
      token: editor.token,
      fields: { kind: 'user', version, effective_at: String(t.clock.now().getTime()), reason: 'x' },
    });
    expect(incomplete).toMatchObject({ reason: 'BAD_INPUT', params: { field: 'title_ft' } });
    // Staff without content.write cannot touch agreements.
    const support = await staffSession(t, ['support']);
    const forbidden = await adminCall(t.app, { method: 'GET', call: 'agreements', token: support.token });
    expect(forbidden.reason).toBe('FORBIDDEN');
  });

  it('audits drafts and publications', async () => {
    const rows = await t.db
      .selectFrom('staff_audit')
      .select(['action', 'target_id'])
      .where('action', 'like', 'agreement.%')
      .execute();
    expect(rows.some((r) => r.action === 'agreement.publish')).toBe(true);
    expect(rows.some((r) => r.action === 'agreement.draft')).toBe(true);
  });
});

describe('agreements and demo accounts', () => {
  it('a demo account is asked to accept nothing (play money, no customer relationship)', async () => {
    await publish('user', 'User for demo');
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin', fields: {} });
    const status = await get('agreementStatus', { token: demo.data.token });
    expect(status.data).toEqual({ pending: [], accepted: [] });
  });
});
