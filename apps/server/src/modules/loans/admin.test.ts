import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { customerSnapshot, ledgerOf, USDT } from '../assets/testing.ts';
import { adminCall, type StaffLogin, staffSession } from '../staff/testing.ts';
import {
  AGREEMENT,
  applyLoan,
  borrower,
  customerGet,
  customerPost,
  fundedLender,
  get,
  lenderCode,
  loanUpload,
  platformUsdt,
  post,
  product,
  productBody,
  type Staff,
  spotUsdt,
  staffOf,
} from './testing.ts';

/**
 * The back office of loans over HTTP: products refused by the jurisdiction caps naming the field,
 * permissions, four-eyes funding and approval, a lender that cannot pay, a bank-transfer voucher,
 * score reviews and a new score table, racing applications (one open), the audit trail, and the
 * ledger's own check.
 */

let t: TestApp;
let staff: Staff;
let finance: StaffLogin;
let support: StaffLogin;
let lenderId: string;
let productId: string;
beforeAll(async () => {
  t = await startTestApp();
  t.app.loans.job.stop();
  staff = await staffOf(t);
  finance = await staffSession(t, ['finance']);
  support = await staffSession(t, ['support']);
  lenderId = await fundedLender(t, staff, '20000');
  productId = await product(t, staff, lenderId);
}, 120_000);
afterAll(async () => t?.close());

const useProfile = async (profile: 'permissive' | 'eu_retail') => {
  const a = await adminCall(t.app, {
    call: 'jurisdiction',
    token: staff.admin.token,
    fields: { profile, reason: 'test profile' },
  });
  expect(a.code, a.msg).toBe(1);
};

const audits = async (action: string) =>
  t.db.selectFrom('staff_audit').select(['actor_id', 'target_id']).where('action', '=', action).execute();

describe('products are data held to the jurisdiction caps', () => {
  it('refuses a product outside the active profile, naming field, rule and limit', async () => {
    const refused = async (over: Parameters<typeof productBody>[1]) =>
      post(t, staff.admin, 'loans/products', productBody(lenderId, over));
    const daily = await refused({ daily_rate: '1.5' });
    expect([daily.reason, daily.params]).toEqual([
      'LOAN_PRODUCT_CAPS',
      { field: 'daily_rate', rule: 'daily_rate_cap', limit: '1%' },
    ]);
    await useProfile('eu_retail');
    const fee = await refused({ late_fee: '20' });
    expect([fee.reason, fee.params]).toEqual([
      'LOAN_PRODUCT_CAPS',
      { field: 'late_fee', rule: 'late_fee_cap', limit: '15 USDT' },
    ]);
    // 0.8 % a day for 362 chargeable days is 289.6 % of the amount: the longest term that fits is 128 days.
    const cost = await refused({
      daily_rate: '0.8',
      overdue_rate: '0.8',
      late_fee: '15',
      term_days: [30, 365],
    });
    expect([cost.reason, cost.params]).toEqual([
      'LOAN_PRODUCT_CAPS',
      { field: 'term_days', rule: 'total_cost_cap', limit: '128' },
    ]);
    await useProfile('permissive');
    // A product saved under permissive (0.9 % a day) no longer quotes once eu_retail is in force.
    const loose = await product(t, staff, lenderId, { daily_rate: '0.9' });
    await useProfile('eu_retail');
    const quote = await call(t.app, {
      method: 'GET',
      call: 'getLoanQuote',
      fields: { product_id: loose, amount: '500', term_days: '7' },
    });
    expect([quote.reason, quote.params]).toEqual([
      'LOAN_PRODUCT_CAPS',
      { field: 'daily_rate', rule: 'daily_rate_cap', limit: '0.8%' },
    ]);
    await useProfile('permissive');
    const bad = await refused({ daily_rate: 'abc' });
    expect([bad.reason, bad.params]).toEqual(['LOAN_PRODUCT_INVALID', { field: 'daily_rate' }]);
    expect((await audits('loans.product.create')).length).toBeGreaterThanOrEqual(2);
  });

  it('permissions: support reads nothing, compliance and finance read, only writers create', async () => {
    expect((await get(t, support, 'loans/products')).reason).toBe('FORBIDDEN');
    expect((await get(t, staff.compliance, 'loans/products')).code).toBe(1);
    expect((await post(t, staff.compliance, 'loans/products', productBody(lenderId))).reason).toBe(
      'FORBIDDEN',
    );
    expect((await post(t, finance, 'loans/products', productBody(lenderId))).reason).toBe('FORBIDDEN');
    const paused = await post(t, staff.admin, `loans/products/${productId}/state`, {
      action: 'pause',
      reason: 'a pause',
    });
    expect(paused.data.state).toBe('paused');
    const c = await borrower(t);
    const refused = await applyLoan(t, c, { product_id: productId, amount: '500' });
    expect(refused.reason).toBe('LOAN_PRODUCT_PAUSED');
    const open = await post(t, staff.admin, `loans/products/${productId}/state`, {
      action: 'open',
      reason: 'open again',
    });
    expect(open.data.state).toBe('active');
  });
});

describe('four eyes', () => {
  it('funding: the requester cannot approve; approval posts loan_capital → the lender', async () => {
    const r = await post(t, staff.admin, `loans/lenders/${lenderId}/requests`, {
      amount: '500',
      reason: 'top up',
    });
    const self = await post(t, staff.admin, `loans/funding-requests/${r.data.request_id}/approve`, {
      reason: 'mine',
    });
    expect(self.reason).toBe('LOAN_FUNDING_SELF_APPROVAL');
    const before = await platformUsdt(t, lenderCode(lenderId));
    const ok = await post(t, finance, `loans/funding-requests/${r.data.request_id}/approve`, {
      reason: 'checked',
    });
    expect(ok.data.state).toBe('approved');
    expect((await platformUsdt(t, lenderCode(lenderId))).available).toBe(before.available + USDT(500));
    const again = await post(t, staff.second, `loans/funding-requests/${r.data.request_id}/reject`, {
      reason: 'late',
    });
    expect([again.reason, again.params]).toEqual(['LOAN_FUNDING_DECIDED', { state: 'approved' }]);
  });

  it('an approval above the threshold waits for a second staff member, then disburses once', async () => {
    const set = await post(t, staff.admin, 'loans/settings', {
      approval_threshold: '500',
      agreement_version: AGREEMENT,
      reason: 'four eyes above 500',
    });
    expect(set.data).toMatchObject({ approval_threshold: '500' });
    const c = await borrower(t);
    const a = await applyLoan(t, c, { product_id: productId, amount: '800' });
    const id = a.data.loan_id as string;
    const before = await customerSnapshot(t, c.id);
    const first = await post(t, staff.admin, `loans/applications/${id}/approve`, { reason: 'first look' });
    expect(first.data).toMatchObject({
      state: 'unreviewed',
      awaiting_second: true,
      first_approved_by: staff.admin.staffId,
    });
    expect(await customerSnapshot(t, c.id)).toEqual(before);
    const queue = await get(t, staff.compliance, 'loans/queue');
    expect(queue.data.items.find((x: { loan_id: string }) => x.loan_id === id)).toMatchObject({
      awaiting_second: true,
      above_threshold: true,
    });
    const same = await post(t, staff.admin, `loans/applications/${id}/approve`, { reason: 'me again' });
    expect(same.reason).toBe('LOAN_SECOND_STAFF');
    const second = await post(t, finance, `loans/applications/${id}/approve`, { reason: 'second look' });
    expect(second.data).toMatchObject({ state: 'disbursed', decided_by: finance.staffId });
    const twice = await post(t, staff.second, `loans/applications/${id}/approve`, { reason: 'once more' });
    expect([twice.reason, twice.params]).toEqual(['LOAN_NOT_UNDER_REVIEW', { state: 'disbursed' }]);
    expect((await audits('loans.application.approve_first')).map((x) => x.target_id)).toContain(id);
    expect((await audits('loans.application.approve')).find((x) => x.target_id === id)?.actor_id).toBe(
      finance.staffId,
    );
    await post(t, staff.admin, 'loans/settings', {
      approval_threshold: '10000',
      agreement_version: AGREEMENT,
      reason: 'back',
    });
  });

  it('a lender that cannot pay refuses the approval and changes nothing', async () => {
    const poor = await fundedLender(t, staff, '150');
    const p = await product(t, staff, poor);
    const c = await borrower(t);
    const a = await applyLoan(t, c, { product_id: p, amount: '200' });
    const before = await customerSnapshot(t, c.id);
    const refused = await post(t, staff.admin, `loans/applications/${a.data.loan_id}/approve`, {
      reason: 'try',
    });
    expect([refused.reason, refused.params]).toEqual(['LOAN_LENDER_SHORT', { available: '150' }]);
    expect(await customerSnapshot(t, c.id)).toEqual(before);
    expect((await customerGet(t, c, 'lendMy')).data.open.state).toBe('unreviewed');
  });
});

describe('a bank-transfer voucher staff confirm', () => {
  it('pending until confirmed; the confirmation posts from loan_bank_repayments', async () => {
    const c = await borrower(t, 0);
    const a = await applyLoan(t, c, { product_id: productId, amount: '300', term_days: '7' });
    expect(a.code, a.msg).toBe(1);
    const id = a.data.loan_id as string;
    expect((await post(t, staff.admin, `loans/applications/${id}/approve`, { reason: 'fine' })).code).toBe(1);
    const voucher = await loanUpload(t, c.token, 'loan_voucher');
    const spot = await spotUsdt(t, c.id);
    const sent = await customerPost(t, c, 'lendBack', {
      loan_id: id,
      amount: '100',
      method: 'voucher',
      voucher_id: voucher,
    });
    expect(sent.data.repayment).toMatchObject({ method: 'voucher', state: 'pending', voucher_id: voucher });
    expect(sent.data.loan.outstanding.total).toBe('300');
    const pending = await get(t, finance, 'loans/repayments', { state: 'pending' });
    const row = pending.data.items.find((r: { loan_id: string }) => r.loan_id === id);
    expect(row).toMatchObject({ uid: c.uid, amount: '100' });
    const link = await get(t, finance, 'loans/documentLink', { loan_id: id, file_id: voucher });
    expect(link.code, link.msg).toBe(1);
    const confirmed = await post(t, finance, `loans/repayments/${row.repayment_id}/confirm`, {
      amount: '120',
      reason: 'bank shows 120',
    });
    expect(confirmed.data).toMatchObject({ state: 'confirmed', amount: '120', paid: { principal: '120' } });
    const again = await post(t, finance, `loans/repayments/${row.repayment_id}/reject`, { reason: 'oops' });
    expect(again.reason).toBe('LOAN_REPAYMENT_DECIDED');
    expect(await spotUsdt(t, c.id)).toBe(spot);
    expect((await customerGet(t, c, 'getLoan', { loan_id: id })).data.loan).toMatchObject({
      state: 'repaying',
      repaid: '120',
      outstanding: { principal: '180' },
    });
    expect((await platformUsdt(t, 'loan_bank_repayments')).available).toBe(-USDT(120));
  });
});

describe('score reviews and the published table', () => {
  it('a customer asks once; staff see and close it; a new table version is checked before it is published', async () => {
    const c = await borrower(t);
    const r = await customerPost(t, c, 'requestScoreReview', { note: 'my salary doubled' });
    expect(r.data).toMatchObject({ state: 'open', score: 470, version: 1, note: 'my salary doubled' });
    expect((await customerPost(t, c, 'requestScoreReview', {})).reason).toBe('LOAN_REVIEW_OPEN');
    const list = await get(t, staff.compliance, 'loans/score-reviews', { state: 'open' });
    expect(
      list.data.items.find((x: { review_id: string }) => x.review_id === r.data.review_id),
    ).toMatchObject({ uid: c.uid });
    const closed = await post(t, staff.admin, `loans/score-reviews/${r.data.review_id}/close`, {
      reason: 'explained by phone',
    });
    expect(closed.data).toMatchObject({ state: 'closed', closing_note: 'explained by phone' });

    const table = (await get(t, staff.admin, 'loans/score-table')).data;
    const body = { base_points: 350, bands: table.bands, limits: table.limits, reason: 'a kinder base' };
    const broken = await post(t, staff.admin, 'loans/score-table', {
      ...body,
      bands: { ...table.bands, account_age: [{ from: '5', points: 0 }] },
    });
    expect([broken.reason, broken.params]).toEqual([
      'LOAN_SCORE_TABLE_INVALID',
      { field: 'bands.account_age[0]', rule: 'first_from_not_zero' },
    ]);
    const published = await post(t, staff.admin, 'loans/score-table', body);
    expect(published.data).toMatchObject({ version: 2, base_points: 350 });
    expect((await customerGet(t, c, 'getCreditScore')).data).toMatchObject({
      score: 520,
      version: 2,
      limit: '3000',
    });
  });
});

describe('one open application, whatever the race', () => {
  it('two applications at once: one is taken, the other refused', async () => {
    const c = await borrower(t);
    const answers = await Promise.all([
      applyLoan(t, c, { product_id: productId, amount: '300' }),
      applyLoan(t, c, { product_id: productId, amount: '400' }),
      applyLoan(t, c, { product_id: productId, amount: '500' }),
    ]);
    expect(answers.filter((x) => x.code === 1)).toHaveLength(1);
    for (const x of answers.filter((y) => y.code !== 1)) expect(x.reason).toBe('LOAN_OPEN_EXISTS');
    const rows = await t.db
      .selectFrom('loans_loan')
      .select('state')
      .where('customer_id', '=', c.id)
      .execute();
    expect(rows).toEqual([{ state: 'unreviewed' }]);
  });

  it('the ledger balances at the end', async () => {
    const report = await ledgerOf(t).verify();
    expect(report.ok, JSON.stringify(report.mismatches ?? report)).toBe(true);
  });
});
