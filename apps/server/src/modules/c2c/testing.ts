import type { AdminC2cOfferBody } from '@bourse/protocol';
import { type Answer, call, type TestApp } from '../../../test/harness.ts';
import { type Customer, customer, fund, ledgerOf, USDT } from '../assets/testing.ts';
import { adminCall, type StaffLogin, staffSession } from '../staff/testing.ts';
import { photo, uploadDocument } from '../uploads/testing.ts';
import { decide, file, submitAdvanced, verifiedPrimary } from '../verification/testing.ts';

/** Test support for C2C (imported by *.test.ts only). */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
/** The verified real name every test customer gets (verification/testing.ts `submitPrimary`). */
export const REAL_NAME = 'Chan Tai Man';

export type Staff = { admin: StaffLogin; second: StaffLogin };

export async function staffOf(t: TestApp): Promise<Staff> {
  return {
    admin: await staffSession(t, ['administrator']),
    second: await staffSession(t, ['administrator']),
  };
}

export const adminPost = (t: TestApp, who: StaffLogin, path: string, body: object) =>
  adminCall(t.app, { call: path, token: who.token, fields: body as Record<string, string> });
export const adminGet = (t: TestApp, who: StaffLogin, path: string, fields: Record<string, string> = {}) =>
  adminCall(t.app, { method: 'GET', call: path, token: who.token, fields });

export function cpost(
  t: TestApp,
  c: Customer,
  name: string,
  fields: Record<string, string>,
  rtoken?: string,
) {
  return call(t.app, {
    call: name,
    fields: { ...(rtoken ? { rtoken } : {}), ...fields },
    headers: { token: c.token },
  });
}

export function cget(
  t: TestApp,
  c: Customer,
  name: string,
  fields: Record<string, string> = {},
): Promise<Answer> {
  return call(t.app, { method: 'GET', call: name, fields, headers: { token: c.token } });
}

/** A customer with primary (and, for merchants, advanced) verification approved, `usdt` in spot. */
export async function verifiedCustomer(t: TestApp, opts: { advanced?: boolean; usdt?: number } = {}) {
  const c = await customer(t, 'c2c');
  const reviewer = (await staffSession(t, ['compliance'])).token;
  await verifiedPrimary(t, c.token, reviewer);
  if (opts.advanced) {
    const s = await submitAdvanced(t, c.token, { asset_bank_file_id: await file(t, c.token) });
    if (s.code !== 1) throw new Error(`submitAdvanced: ${s.reason}`);
    const d = await decide(t, reviewer, s.data.submission_id, [{ slot: 'asset_bank', decision: 'approve' }]);
    if (d.code !== 1) throw new Error(`decide advanced: ${d.reason}`);
  }
  if (opts.usdt) await fund(t, c.id, 'USDT', USDT(opts.usdt));
  return c;
}

/** A bank collection account in the verified name; its id. */
export async function bankAccount(t: TestApp, c: Customer): Promise<string> {
  const a = await cpost(t, c, 'c2cAccountSave', {
    method: 'bank',
    name: REAL_NAME,
    bank_name: 'Test Bank',
    account_no: '123456789012',
  });
  if (a.code !== 1) throw new Error(`c2cAccountSave: ${a.reason}`);
  return a.data.account_id as string;
}

/** An approved merchant (advanced verification, a bank account, `usdt` in spot). */
export async function merchant(t: TestApp, staff: Staff, usdt = 100_000) {
  const c = await verifiedCustomer(t, { advanced: true, usdt });
  await bankAccount(t, c);
  const m = await adminPost(t, staff.admin, 'c2c/merchants', {
    uid: c.uid,
    name: `Desk ${c.uid}`,
    is_operator: true,
    reason: 'test desk',
  });
  if (m.code !== 1) throw new Error(`merchant: ${m.reason}`);
  return { customer: c, merchantId: m.data.merchant_id as string };
}

export function offerBody(merchantId: string, over: Partial<AdminC2cOfferBody> = {}): AdminC2cOfferBody {
  return {
    merchant_id: merchantId,
    side: 'buy',
    coin: 'USDT',
    fiat: 'CNY',
    price_kind: 'fixed',
    price: '7.1',
    min_amount: '10',
    max_amount: '1000',
    total_amount: '5000',
    methods: [{ method: 'bank', window_minutes: 180 }],
    terms: 'Pay from your own account only.',
    reason: 'test offer',
    ...over,
  };
}

export async function offer(
  t: TestApp,
  staff: Staff,
  merchantId: string,
  over: Partial<AdminC2cOfferBody> = {},
) {
  const o = await adminPost(t, staff.admin, 'c2c/offers', offerBody(merchantId, over));
  if (o.code !== 1) throw new Error(`offer: ${o.reason} ${JSON.stringify(o.params)}`);
  return o.data.offer_id as string;
}

/** A remittance proof (or evidence, or attachment) uploaded by this customer: its file id. */
export async function proof(t: TestApp, c: Customer): Promise<string> {
  const bytes = await photo('jpeg', { seed: Math.floor(Math.random() * 1e9) });
  const a = await uploadDocument(t, {
    token: c.token,
    purpose: 'remittance_proof',
    file: { filename: 'p.jpg', type: 'image/jpeg', bytes },
  });
  if (a.code !== 1) throw new Error(`upload: ${a.reason}`);
  return a.data.file_id as string;
}

export async function spotOf(t: TestApp, customerId: string): Promise<{ available: bigint; frozen: bigint }> {
  const b = await ledgerOf(t).balance(t.db, {
    book: 'real',
    customerId,
    accountType: 'spot',
    currency: 'USDT',
  });
  return { available: b.availableUnits, frozen: b.frozenUnits };
}

/** The order's escrow account balance (USDT units). */
export async function escrowOf(t: TestApp, orderId: string): Promise<bigint> {
  const code = `c2c_escrow_${orderId.slice(4).toLowerCase()}`;
  const rows = await ledgerOf(t).platformBalances(t.db, { book: 'real', platform: code as never });
  return rows.find((r) => r.currency === 'USDT')?.availableUnits ?? 0n;
}

export async function markPaid(t: TestApp, c: Customer, orderId: string, name = REAL_NAME) {
  return cpost(t, c, 'c2cMarkPaid', {
    order_id: orderId,
    payer_name: name,
    payer_bank: 'Test Bank',
    proof_id: await proof(t, c),
  });
}

export { USDT };
