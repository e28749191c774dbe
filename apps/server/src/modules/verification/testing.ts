import type { AdminDocumentDecision, DocumentSlot } from '@bourse/protocol';
import { type Answer, call, type TestApp } from '../../../test/harness.ts';
import { adminCall } from '../staff/testing.ts';
import { uploadedFile } from '../uploads/testing.ts';

/** Test support for verification (imported by *.test.ts only). */

let seed = 1000;
/** A freshly uploaded verification photo of this customer. */
export async function file(t: TestApp, token: string): Promise<string> {
  seed += 1;
  return uploadedFile(t, token, seed);
}

/** Submits primary verification with an ID card and three new photos (fields may override any of it). */
export async function submitPrimary(
  t: TestApp,
  token: string,
  fields: Record<string, string> = {},
): Promise<Answer> {
  const base: Record<string, string> = {
    token,
    real_name: 'Chan Tai Man',
    id_type: '1',
    id_number: `A${Math.floor(Math.random() * 1e9)}`,
    // The harness registers by e-mail without a country: the first submission records this one.
    country: 'HK',
  };
  for (const [slot, field] of [
    ['front', 'front_file_id'],
    ['back', 'back_file_id'],
    ['handheld', 'handheld_file_id'],
  ] as const) {
    if (!(field in fields) && !(slot === 'back' && fields.id_type === '2'))
      base[field] = await file(t, token);
  }
  const merged = Object.fromEntries(Object.entries({ ...base, ...fields }).filter(([, v]) => v !== ''));
  return call(t.app, { call: 'submitPrimaryVerification', fields: merged });
}

export async function submitAdvanced(t: TestApp, token: string, fields: Record<string, string> = {}) {
  return call(t.app, {
    call: 'submitAdvancedVerification',
    fields: {
      token,
      occupation: 'employed',
      monthly_income: '5k_20k',
      source_of_wealth: 'salary',
      expected_investment: '10k_100k',
      ...fields,
    },
  });
}

export async function view(t: TestApp, token: string, lang = 'en') {
  return call(t.app, { method: 'GET', call: 'getVerification', fields: { token, lang } });
}

/** Staff decide a submission, slot by slot (JSON body as the back office sends it). */
export async function decide(
  t: TestApp,
  staffToken: string,
  id: string,
  decisions: AdminDocumentDecision[],
  fields: Record<string, string> = {},
) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/admin/verification/decide',
    payload: { id, decisions, rtoken: `dc${Math.random().toString(36).slice(2, 12)}`, ...fields },
    headers: { authorization: `Bearer ${staffToken}` },
  });
  return Object.assign(
    { status: response.statusCode, replay: response.headers['x-idempotent-replay'] },
    response.json(),
  ) as Answer & {
    replay?: string;
  };
}

export const approveAll = (slots: readonly DocumentSlot[]): AdminDocumentDecision[] =>
  slots.map((slot) => ({ slot, decision: 'approve' }));

export const PRIMARY_SLOTS: readonly DocumentSlot[] = ['id_back', 'id_front', 'id_handheld'];

/** A customer with primary verification approved by `staffToken`. */
export async function verifiedPrimary(
  t: TestApp,
  token: string,
  staffToken: string,
  fields: Record<string, string> = {},
) {
  const submitted = await submitPrimary(t, token, fields);
  if (submitted.code !== 1) throw new Error(`submitPrimary: ${submitted.reason}`);
  const decided = await decide(t, staffToken, submitted.data.submission_id, approveAll(PRIMARY_SLOTS));
  if (decided.code !== 1) throw new Error(`decide: ${decided.reason}`);
  return submitted.data.submission_id as string;
}

export async function queue(t: TestApp, staffToken: string, fields: Record<string, string> = {}) {
  return adminCall(t.app, { method: 'GET', call: 'verification/queue', token: staffToken, fields });
}
