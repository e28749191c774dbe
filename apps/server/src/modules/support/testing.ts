import { type Answer, call, type TestApp } from '../../../test/harness.ts';
import type { Customer } from '../assets/testing.ts';
import { adminCall, type StaffLogin } from '../staff/testing.ts';

/** Test support for customer service (imported by *.test.ts only). */

/** Monday 10:00 in Hong Kong: inside the default staffed hours (Mon–Fri 09:00–18:00). */
export const MONDAY_STAFFED = new Date('2026-11-23T02:00:00Z');
/** Saturday 12:00 in Hong Kong: outside them; staff are next in on Monday 09:00 (01:00 UTC). */
export const SATURDAY_CLOSED = new Date('2026-11-28T04:00:00Z');
export const NEXT_MONDAY_OPEN = new Date('2026-11-30T01:00:00Z');

export const spost = (
  t: TestApp,
  c: Customer,
  name: string,
  fields: Record<string, string>,
): Promise<Answer> => call(t.app, { call: name, fields, headers: { token: c.token } });

export const sget = (t: TestApp, c: Customer | null, name: string, fields: Record<string, string> = {}) =>
  call(t.app, { method: 'GET', call: name, fields, headers: c ? { token: c.token } : {} });

export const staffPost = (t: TestApp, who: StaffLogin, path: string, fields: Record<string, string> = {}) =>
  adminCall(t.app, { call: `support/${path}`, token: who.token, fields });

export const staffGet = (t: TestApp, who: StaffLogin, path: string, fields: Record<string, string> = {}) =>
  adminCall(t.app, { method: 'GET', call: `support/${path}`, token: who.token, fields });

/** Starts a conversation; its id. */
export async function started(t: TestApp, c: Customer, fields: Record<string, string> = {}): Promise<string> {
  const a = await spost(t, c, 'supportStart', {
    subject: 'Deposit missing',
    body: 'My deposit has not arrived',
    ...fields,
  });
  if (a.code !== 1) throw new Error(`supportStart: ${a.reason} ${JSON.stringify(a.params)}`);
  return a.data.conversation.id as string;
}
