import type { AdminLoanProductBody } from '@bourse/protocol';
import { type Answer, call, type TestApp } from '../../../test/harness.ts';
import { type Customer, fund, ledgerOf, USDT } from '../assets/testing.ts';
import { adminCall, type StaffLogin, staffSession } from '../staff/testing.ts';
import { ratedCustomer } from '../suitability/testing.ts';
import { photo, uploadDocument } from '../uploads/testing.ts';
import { decide, file, submitAdvanced, verifiedPrimary } from '../verification/testing.ts';

/** Test support for loans (imported by *.test.ts only). */

export const DAY = 86_400_000;
export const AGREEMENT = '2026-12-v1';

export type Staff = { admin: StaffLogin; second: StaffLogin; compliance: StaffLogin };

export async function staffOf(t: TestApp): Promise<Staff> {
  return {
    admin: await staffSession(t, ['administrator']),
    second: await staffSession(t, ['administrator']),
    compliance: await staffSession(t, ['compliance']),
  };
}

/** A staff POST (JSON) or GET under /api/admin. */
export const post = (t: TestApp, who: StaffLogin, path: string, body: object) =>
  adminCall(t.app, { call: path, token: who.token, fields: body as Record<string, string> });
export const get = (t: TestApp, who: StaffLogin, path: string, fields: Record<string, string> = {}) =>
  adminCall(t.app, { method: 'GET', call: path, token: who.token, fields });

/**
 * A customer with advanced verification approved (a fresh compliance session each time: the stepped
 * clock outlives a staff session), a `balanced` rating, `usdt` deposited (deposits count in the score).
 */
export async function borrower(t: TestApp, usdt = 10_000): Promise<Customer> {
  const c = await ratedCustomer(t, 'balanced');
  const reviewer = (await staffSession(t, ['compliance'])).token;
  await verifiedPrimary(t, c.token, reviewer);
  const s = await submitAdvanced(t, c.token, { asset_bank_file_id: await file(t, c.token) });
  if (s.code !== 1) throw new Error(`submitAdvanced: ${s.reason}`);
  const d = await decide(t, reviewer, s.data.submission_id, [{ slot: 'asset_bank', decision: 'approve' }]);
  if (d.code !== 1) throw new Error(`decide advanced: ${d.reason}`);
  if (usdt > 0) await fund(t, c.id, 'USDT', USDT(usdt));
  return c;
}

/** A lender account paid `amount` USDT through the four-eyes path (admin asks, second approves). */
export async function fundedLender(t: TestApp, staff: Staff, amount = '1000000'): Promise<string> {
  const l = await post(t, staff.admin, 'loans/lenders', {
    name: 'Test lender',
    source: { en: 'Operator capital', zh: '运营方资金', ft: '營運方資金' },
    reason: 'test lender',
  });
  if (l.code !== 1) throw new Error(`create lender: ${l.reason}`);
  const r = await post(t, staff.admin, `loans/lenders/${l.data.lender_id}/requests`, {
    amount,
    reason: 'test funding',
  });
  if (r.code !== 1) throw new Error(`funding request: ${r.reason}`);
  const a = await post(t, staff.second, `loans/funding-requests/${r.data.request_id}/approve`, {
    reason: 'approved in test',
  });
  if (a.code !== 1) throw new Error(`funding approve: ${a.reason}`);
  return l.data.lender_id as string;
}

/** 100…5,000 USDT for 7, 14 or 30 days at 0.1 % a day, 3 free days, 0.5 % a day overdue, 10 USDT late fee. */
export function productBody(
  lenderId: string,
  over: Partial<AdminLoanProductBody> = {},
): AdminLoanProductBody {
  return {
    names: { en: 'Test loan', zh: '测试借款', ft: '測試借款' },
    descriptions: { en: 'A test loan', zh: '测试', ft: '測試' },
    lender_id: lenderId,
    amount_min: '100',
    amount_max: '5000',
    term_days: [7, 14, 30],
    daily_rate: '0.1',
    overdue_rate: '0.5',
    late_fee: '10',
    reason: 'test product',
    ...over,
  };
}

export async function product(
  t: TestApp,
  staff: Staff,
  lenderId: string,
  over: Partial<AdminLoanProductBody> = {},
) {
  const p = await post(t, staff.admin, 'loans/products', productBody(lenderId, over));
  if (p.code !== 1) throw new Error(`create product: ${p.reason} ${JSON.stringify(p.params)}`);
  return p.data.product_id as string;
}

/** An upload of this customer for a loan (`loan_proof` or `loan_voucher`). */
export async function loanUpload(t: TestApp, token: string, purpose: 'loan_proof' | 'loan_voucher') {
  const bytes = await photo('jpeg', { seed: Math.floor(Math.random() * 1e9) });
  const a = await uploadDocument(t, {
    token,
    purpose,
    file: { filename: 'p.jpg', type: 'image/jpeg', bytes },
  });
  if (a.code !== 1) throw new Error(`upload: ${a.reason}`);
  return a.data.file_id as string;
}

export function applyLoan(t: TestApp, c: Customer, fields: Record<string, string>): Promise<Answer> {
  return call(t.app, {
    call: 'applyLoan',
    fields: { accept_agreement: '1', agreement_version: AGREEMENT, term_days: '30', ...fields },
    headers: { token: c.token },
  });
}

export function customerGet(t: TestApp, c: Customer, name: string, fields: Record<string, string> = {}) {
  return call(t.app, { method: 'GET', call: name, fields, headers: { token: c.token } });
}

export function customerPost(t: TestApp, c: Customer, name: string, fields: Record<string, string>) {
  return call(t.app, { call: name, fields, headers: { token: c.token } });
}

/** The customer's spot USDT (available). */
export async function spotUsdt(t: TestApp, customerId: string): Promise<bigint> {
  const b = await ledgerOf(t).balance(t.db, {
    book: 'real',
    customerId,
    accountType: 'spot',
    currency: 'USDT',
  });
  return b.availableUnits;
}

/** A platform account's available and frozen USDT. */
export async function platformUsdt(t: TestApp, code: string) {
  const rows = await ledgerOf(t).platformBalances(t.db, { book: 'real', platform: code as never });
  const row = rows.find((r) => r.currency === 'USDT');
  return { available: row?.availableUnits ?? 0n, frozen: row?.frozenUnits ?? 0n };
}

export const lenderCode = (lenderId: string) => `loan_lender_${lenderId.slice(4).toLowerCase()}`;
