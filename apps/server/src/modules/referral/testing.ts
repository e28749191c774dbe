import { type Answer, call, outboxCode, type TestApp } from '../../../test/harness.ts';
import { fund, customer as plainCustomer, USDT } from '../assets/testing.ts';
import { adminCall, type StaffLogin } from '../staff/testing.ts';

/** Test support for invitations and referral income (imported by *.test.ts only). */

export type Invited = { token: string; uid: string; id: string; code: string };

let n = 0;

/**
 * Registers a customer through the invitation code (none: uninvited) from a device of their own: a
 * distinct browser (user agent) per customer unless `userAgent` names a shared one.
 */
export async function register(
  t: TestApp,
  input: { code?: string; userAgent?: string; label?: string } = {},
): Promise<Invited> {
  n += 1;
  const label = input.label ?? 'ref';
  const email = `${label}${n}-${process.pid}-${Math.random().toString(36).slice(2, 7)}@example.com`;
  const headers = {
    'user-agent': input.userAgent ?? `TestBrowser/${n}.${Math.random().toString(36).slice(2, 8)}`,
  };
  const sent = await call(t.app, {
    method: 'GET',
    call: 'getCode',
    fields: { account: email, scene: 'register' },
  });
  if (sent.code !== 1) throw new Error(`getCode: ${sent.msg}`);
  const code = await outboxCode(t.db, email);
  const answer = await call(t.app, {
    call: 'userRegister',
    fields: {
      type: 'email',
      account: email,
      code,
      password: 'secret123',
      password2: 'secret123',
      agree: '1',
      ...(input.code ? { invitation_code: input.code } : {}),
    },
    headers,
  });
  if (answer.code !== 1) throw new Error(`register: ${answer.reason} ${answer.msg}`);
  const token = answer.data.token_h5 as string;
  const info = await call(t.app, { method: 'GET', call: 'info', headers: { token } });
  const row = await t.db
    .selectFrom('accounts_customer')
    .select('id')
    .where('uid', '=', answer.data.uid)
    .executeTakeFirstOrThrow();
  return { token, uid: answer.data.uid, id: row.id, code: info.data.invitation_code };
}

/** A counterparty with coins and money (uninvited) that rests a BTC/USDT sell for the invitee to take. */
export async function counterparty(t: TestApp) {
  const c = await plainCustomer(t, 'cp');
  await fund(t, c.id, 'BTC', 10n * 10n ** 8n);
  await fund(t, c.id, 'USDT', USDT(1_000_000));
  return c;
}

export const order = (t: TestApp, token: string, fields: Record<string, string>) =>
  call(t.app, { call: 'createOrder', fields: { symbol: 'BTC/USDT', ...fields }, headers: { token } });

/**
 * The invitee buys 0.04 BTC at 50000 as taker against the counterparty's resting sell: 2000 USDT
 * traded, a taker fee of 0.2 % = 4 USDT paid by the invitee (the counterparty pays the maker's 2).
 */
export async function tradeAsTaker(
  t: TestApp,
  cp: { token: string },
  invitee: { id: string; token: string },
) {
  await fund(t, invitee.id, 'USDT', USDT(10_000));
  const rest = await order(t, cp.token, { side: 'sell', price: '50000', quantity: '0.04' });
  if (rest.code !== 1) throw new Error(`rest: ${rest.reason}`);
  const take = await order(t, invitee.token, { side: 'buy', price: '50000', quantity: '0.04' });
  if (take.code !== 1 || take.data.status !== 'filled')
    throw new Error(`take: ${take.reason} ${take.data?.status}`);
  return take.data.order_id as string;
}

export const web = (t: TestApp, who: { token: string }, name: string, fields: Record<string, string> = {}) =>
  call(t.app, { method: 'GET', call: name, fields, headers: { token: who.token } }) as Promise<Answer>;

export const staffGet = (t: TestApp, who: StaffLogin, path: string, fields: Record<string, string> = {}) =>
  adminCall(t.app, { method: 'GET', call: `referral/${path}`, token: who.token, fields });

export const staffPost = (t: TestApp, who: StaffLogin, path: string, fields: Record<string, string> = {}) =>
  adminCall(t.app, { call: `referral/${path}`, token: who.token, fields });
