import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { type Customer, customerSnapshot, fund, ledgerOf, USDT } from '../assets/testing.ts';
import { type StaffLogin, staffSession } from '../staff/testing.ts';
import { ratedCustomer } from '../suitability/testing.ts';
import { verifiedPrimary } from '../verification/testing.ts';
import { addAddress, LOGIN_PASSWORD, TRADE_PASSWORD, withdraw } from '../withdrawals/testing.ts';
import {
  AGREEMENT,
  applyLoan,
  borrower,
  customerGet,
  customerPost,
  DAY,
  fundedLender,
  get,
  lenderCode,
  loanUpload,
  platformUsdt,
  post,
  product,
  type Staff,
  spotUsdt,
  staffOf,
} from './testing.ts';

/**
 * Loans over HTTP on PostgreSQL, the clock stepped by hand: the whole story (score → quote → apply →
 * approve → disbursed → partial repay → reminder → overdue → cleared), a rejection and a
 * re-application, a withdrawal before review, refusals that name their rule and change nothing,
 * four eyes, a bank-transfer voucher, racing applications, own funds free while a loan is overdue,
 * and the ledger's own check at the end.
 */

let t: TestApp;
let staff: Staff;
let lenderId: string;
let productId: string;
beforeAll(async () => {
  // Customer sessions outlive the stepped clock (the story runs past the default 30 days).
  t = await startTestApp({ sessionTtlDays: 365 });
  // The test steps the job by hand (the app's own timer would race the stepped clock).
  t.app.loans.job.stop();
  staff = await staffOf(t);
  lenderId = await fundedLender(t, staff);
  productId = await product(t, staff, lenderId);
}, 120_000);
afterAll(async () => t?.close());
// Staff sessions end while the clock is stepped by weeks: every test signs its staff in anew.
beforeEach(async () => {
  staff = await staffOf(t);
});

const runJob = () => t.app.loans.service.job.runOnce();
const apply = (c: Customer, fields: Record<string, string>) =>
  applyLoan(t, c, { product_id: productId, ...fields });
const approve = (who: StaffLogin, id: string) =>
  post(t, who, `loans/applications/${id}/approve`, { reason: 'looks fine' });
const loanOf = async (c: Customer, id: string) => (await customerGet(t, c, 'getLoan', { loan_id: id })).data;

async function outboxSubjects(customer: Customer): Promise<string[]> {
  const email = (
    await t.db
      .selectFrom('accounts_customer')
      .select('email')
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow()
  ).email as string;
  const rows = await t.db
    .selectFrom('notify_outbox')
    .select('subject')
    .where('recipient', '=', email)
    .execute();
  return rows.map((r) => r.subject);
}

describe('a loan from the score to cleared', () => {
  it('score → quote → apply → approve → partial repay → reminder → overdue → cleared', async () => {
    const c = await borrower(t);
    // The score: base 300 + advanced verification 100 + 10,000 USDT deposited 70 = 470 → limit 1,000.
    const score = await customerGet(t, c, 'getCreditScore');
    expect(score.code, score.msg).toBe(1);
    expect(score.data).toMatchObject({ score: 470, version: 1, base_points: 300, limit: '1000' });
    expect(score.data.breakdown.find((b: { factor: string }) => b.factor === 'account_age')).toMatchObject({
      value: '0',
      points: 0,
      best_points: 80,
      next: { value: '30', points: 20 },
      hint: 'keep_account',
    });
    expect(score.data.table.limits[2]).toEqual({ score_min: 450, limit: '1000' });

    const list = await call(t.app, { method: 'GET', call: 'lendList', fields: { lang: 'zh' } });
    expect(list.data).toMatchObject({
      agreement_version: AGREEMENT,
      caps: { profile: 'permissive', daily_rate_max: '1', total_cost_max: '200', late_fee_max: '50' },
    });
    expect(list.data.items.find((p: { product_id: string }) => p.product_id === productId)).toMatchObject({
      name: '测试借款',
      daily_rate: '0.1',
      interest_free_days: 3,
      term_days: [7, 14, 30],
    });

    // The schedule before anything is submitted: 1,000 × 0.1 % × 27 days = 27 USDT, APR 38.28 %.
    const quote = await call(t.app, {
      method: 'GET',
      call: 'getLoanQuote',
      fields: { product_id: productId, amount: '1000', term_days: '30' },
    });
    expect(quote.data).toMatchObject({
      interest: '27',
      total_repayable: '1027',
      apr: '38.28',
      chargeable_days: 27,
      overdue_interest_per_day: '5',
      late_fee: '10',
      cost_cap: '2000',
      worst_case_total: '3000',
    });

    const proof = await loanUpload(t, c.token, 'loan_proof');
    const applied = await apply(c, { amount: '1000', proof_ids: proof });
    expect(applied.code, applied.msg).toBe(1);
    expect(applied.data).toMatchObject({
      state: 'unreviewed',
      amount: '1000',
      interest: '27',
      apr: '38.28',
      agreement_version: AGREEMENT,
      proof_ids: [proof],
      awaiting_second: false,
    });
    const id = applied.data.loan_id as string;
    expect(applied.data.agreement_accepted_at).toBe(t.clock.now().getTime());

    // The queue: applicant data and today's breakdown.
    const queue = await get(t, staff.compliance, 'loans/queue');
    const queued = queue.data.items.find((x: { loan_id: string }) => x.loan_id === id);
    expect(queued).toMatchObject({
      applicant: { uid: c.uid, verification_level: 2 },
      score_at_apply: 470,
      limit_at_apply: '1000',
      score: { score: 470 },
      above_threshold: false,
    });
    const link = await get(t, staff.admin, 'loans/documentLink', { loan_id: id, file_id: proof });
    expect(link.code, link.msg).toBe(1);
    // Compliance reads, it does not decide.
    expect((await approve(staff.compliance, id)).reason).toBe('FORBIDDEN');

    const spotBefore = await spotUsdt(t, c.id);
    const lenderBefore = await platformUsdt(t, lenderCode(lenderId));
    const ok1 = await approve(staff.admin, id);
    expect(ok1.code, ok1.msg).toBe(1);
    expect(ok1.data).toMatchObject({ state: 'disbursed', decided_by: staff.admin.staffId });
    const disbursedAt = t.clock.now().getTime();
    expect(await spotUsdt(t, c.id)).toBe(spotBefore + USDT(1000));
    expect(await platformUsdt(t, lenderCode(lenderId))).toEqual({
      available: lenderBefore.available - USDT(1000),
      frozen: lenderBefore.frozen + USDT(1000),
    });
    expect(await outboxSubjects(c)).toContain('Loan paid out: 1000 USDT');
    // In the customer's records as an ordinary entry.
    const records = await customerGet(t, c, 'getRecords', { kind: 'all' });
    expect(records.code, records.msg).toBe(1);
    expect(JSON.stringify(records.data)).toContain('loan.disburse');

    let loan = await loanOf(c, id);
    expect(loan.loan).toMatchObject({
      state: 'disbursed',
      due_at: disbursedAt + 30 * DAY,
      days_elapsed: 0,
      days_past_due: 0,
      outstanding: { principal: '1000', interest: '0', fees: '0', total: '1000' },
    });

    // Ten days: days 4…10 bear 1 USDT each. Early repayment costs only the interest to date.
    t.clock.set(new Date(disbursedAt + 10 * DAY + 60_000));
    await runJob();
    await runJob();
    loan = await loanOf(c, id);
    expect(loan.days).toHaveLength(10);
    expect(loan.payoff).toEqual({ total: '1007', interest_to_date: '7', interest_saved: '20' });
    const partial = await customerPost(t, c, 'lendBack', { loan_id: id, amount: '200' });
    expect(partial.code, partial.msg).toBe(1);
    expect(partial.data.repayment).toMatchObject({
      method: 'balance',
      state: 'confirmed',
      amount: '200',
      paid: { fees: '0', interest: '7', principal: '193' },
    });
    expect(partial.data.loan).toMatchObject({
      state: 'repaying',
      outstanding: { principal: '807' },
      repaid: '200',
    });

    // A day before the due date: one reminder, however often the job runs.
    t.clock.set(new Date(disbursedAt + 29 * DAY + 60_000));
    await runJob();
    await runJob();
    expect((await outboxSubjects(c)).filter((s) => s.startsWith('Loan due tomorrow'))).toHaveLength(1);

    // Two days past due: the late fee once, overdue interest ⌊807 × 0.5 %⌋ a day.
    t.clock.set(new Date(disbursedAt + 32 * DAY + 60_000));
    await runJob();
    loan = await loanOf(c, id);
    expect(loan.loan).toMatchObject({ state: 'overdue', days_past_due: 2 });
    expect(loan.days.slice(-2)).toMatchObject([
      { day: 31, kind: 'overdue', interest: '4.035', fee: '10' },
      { day: 32, kind: 'overdue', interest: '4.035', fee: '0' },
    ]);
    const owed = loan.payoff.total as string;
    // 807 + 19 days × 0.807 (days 11…30) … the figures come from @bourse/risk; the total is what lendBack takes.
    const above = await customerPost(t, c, 'lendBack', { loan_id: id, amount: '100000' });
    expect([above.reason, above.params]).toEqual(['LOAN_REPAY_ABOVE_OWED', { owed }]);

    // Overdue or not, the customer's own funds move freely (nothing is blocked, nothing taken).
    await bindTradePassword(c);
    const moved = await call(t.app, {
      call: 'transferAsset',
      fields: { currency: 'USDT', amount: '10', from: 'spot', to: 'contract' },
      headers: { token: c.token },
    });
    expect(moved.code, moved.msg).toBe(1);
    const back = await call(t.app, {
      call: 'transferAsset',
      fields: { currency: 'USDT', amount: '10', from: 'contract', to: 'spot' },
      headers: { token: c.token },
    });
    expect(back.code, back.msg).toBe(1);
    const addressId = await addAddress(t, c.token);
    const w = await withdraw(t, c.token, { address_id: addressId, amount: '100' });
    expect(w.code, w.msg).toBe(1);

    const full = await customerPost(t, c, 'lendBack', { loan_id: id, amount: owed });
    expect(full.code, full.msg).toBe(1);
    expect(full.data.loan).toMatchObject({
      state: 'cleared',
      cleared_late: true,
      outstanding: { total: '0' },
    });
    // Cleared: the job charges nothing more.
    t.clock.advance(5 * DAY);
    await runJob();
    expect((await loanOf(c, id)).days).toHaveLength(32);
    // The history counts in the score: one loan cleared late (−40).
    expect((await customerGet(t, c, 'getCreditScore')).data.breakdown[5]).toMatchObject({
      factor: 'loans_late',
      value: '1',
      points: -40,
    });
  });
});

async function bindTradePassword(c: Customer) {
  const bound = await call(t.app, {
    call: 'bindTradePassword',
    fields: {
      token: c.token,
      password: LOGIN_PASSWORD,
      trade_password: TRADE_PASSWORD,
      trade_password2: TRADE_PASSWORD,
    },
  });
  expect(bound.code, bound.msg).toBe(1);
}

describe('rejection, re-application and withdrawal', () => {
  it('a rejection names its reason; the re-application is linked both ways', async () => {
    const c = await borrower(t);
    const first = await apply(c, { amount: '500' });
    expect(first.code, first.msg).toBe(1);
    const id = first.data.loan_id as string;
    const rejected = await post(t, staff.admin, `loans/applications/${id}/reject`, {
      reason_code: 'documents_unclear',
      reason: 'the bank statement is unreadable',
    });
    expect(rejected.data).toMatchObject({ state: 'rejected', reject_reason: 'documents_unclear' });
    expect(await outboxSubjects(c)).toContain('Loan application not approved');
    // Decided once: neither approval nor another rejection changes it.
    expect((await approve(staff.admin, id)).params).toEqual({ state: 'rejected' });

    t.clock.advance(60_000);
    const again = await apply(c, { amount: '400', reapply_of: id });
    expect(again.code, again.msg).toBe(1);
    expect(again.data).toMatchObject({ state: 'unreviewed', previous_id: id });
    expect((await loanOf(c, id)).loan).toMatchObject({ state: 're_applied', next_id: again.data.loan_id });
    const mine = await customerGet(t, c, 'lendMylist');
    expect(mine.data.items.map((l: { state: string }) => l.state)).toEqual(['unreviewed', 're_applied']);
  });

  it('withdrawn before review, then applied again; a decided one cannot be withdrawn', async () => {
    const c = await borrower(t);
    const a = await apply(c, { amount: '300' });
    const w = await customerPost(t, c, 'withdrawLoan', { loan_id: a.data.loan_id });
    expect(w.data).toMatchObject({ state: 'withdrawn' });
    const twice = await customerPost(t, c, 'withdrawLoan', { loan_id: a.data.loan_id });
    expect([twice.reason, twice.params]).toEqual(['LOAN_NOT_WITHDRAWABLE', { state: 'withdrawn' }]);
    const b = await apply(c, { amount: '300' });
    expect(b.code, b.msg).toBe(1);
    expect((await approve(staff.admin, b.data.loan_id)).code).toBe(1);
    const late = await customerPost(t, c, 'withdrawLoan', { loan_id: b.data.loan_id });
    expect([late.reason, late.params]).toEqual(['LOAN_NOT_WITHDRAWABLE', { state: 'disbursed' }]);
    const my = await customerGet(t, c, 'lendMy');
    expect(my.data).toMatchObject({
      score: 470,
      limit: '1000',
      outstanding: '300',
      open: { state: 'disbursed' },
    });
  });
});

describe('refusals name their rule and change nothing', () => {
  it('verification, agreement, amount, term, limit, one at a time, proofs', async () => {
    const primaryOnly = await ratedCustomer(t, 'balanced');
    await verifiedPrimary(t, primaryOnly.token, (await staffSession(t, ['compliance'])).token);
    await fund(t, primaryOnly.id, 'USDT', USDT(10_000));
    const before = await customerSnapshot(t, primaryOnly.id);
    const unverified = await apply(primaryOnly, { amount: '500' });
    expect([unverified.reason, unverified.params]).toEqual([
      'VERIFICATION_ADVANCED_REQUIRED',
      { feature: 'loans', tier: 'advanced' },
    ]);
    expect(await customerSnapshot(t, primaryOnly.id)).toEqual(before);
    const nobody = await ratedCustomer(t, 'balanced');
    expect((await customerGet(t, nobody, 'getCreditScore')).reason).toBe('VERIFICATION_PRIMARY_REQUIRED');

    const c = await borrower(t);
    const mine = await loanUpload(t, c.token, 'loan_proof');
    const other = await loanUpload(t, primaryOnly.token, 'loan_proof');
    const cases: Array<[Record<string, string>, string, Record<string, unknown>]> = [
      [{ amount: '500', accept_agreement: '' }, 'LOAN_AGREEMENT_REQUIRED', { version: AGREEMENT }],
      [{ amount: '500', agreement_version: '2020-01-v0' }, 'LOAN_AGREEMENT_REQUIRED', { version: AGREEMENT }],
      [{ amount: '50' }, 'LOAN_AMOUNT_BELOW_MIN', { min: '100' }],
      [{ amount: '6000' }, 'LOAN_AMOUNT_ABOVE_MAX', { max: '5000' }],
      [{ amount: '500', term_days: '10' }, 'LOAN_TERM_NOT_OFFERED', { terms: '7, 14, 30' }],
      [{ amount: '1500' }, 'LOAN_LIMIT_EXCEEDED', { limit: '1000' }],
      [{ amount: '500', proof_ids: 'upl_nope' }, 'LOAN_PROOF_UNKNOWN', { file_id: 'upl_nope' }],
      [{ amount: '500', proof_ids: `${mine},${other}` }, 'LOAN_PROOF_UNKNOWN', { file_id: other }],
      [{ amount: '500', proof_ids: 'a,b,c,d,e,f' }, 'LOAN_PROOFS_TOO_MANY', { max: 5 }],
    ];
    const snapshot = await customerSnapshot(t, c.id);
    for (const [fields, reason, params] of cases) {
      const answer = await apply(c, fields);
      expect([answer.reason, answer.params], JSON.stringify(fields)).toEqual([reason, params]);
    }
    expect(await customerSnapshot(t, c.id)).toEqual(snapshot);
    expect((await customerGet(t, c, 'lendMylist')).data.total).toBe(0);
    // The proof of a refused application is still the customer's to use.
    const zh = await call(t.app, {
      call: 'applyLoan',
      fields: {
        product_id: productId,
        amount: '1500',
        term_days: '30',
        accept_agreement: '1',
        agreement_version: AGREEMENT,
        lang: 'zh',
      },
      headers: { token: c.token },
    });
    expect(zh.msg).toBe('超出借款额度：您的额度为 1000 USDT');
    const ok = await apply(c, { amount: '500', proof_ids: mine });
    expect(ok.code, ok.msg).toBe(1);
    const second = await apply(c, { amount: '200' });
    expect([second.reason, second.params]).toEqual(['LOAN_OPEN_EXISTS', { state: 'unreviewed' }]);
  });

  it('repayments above what is owed or above the balance are refused whole', async () => {
    const c = await borrower(t, 100);
    const a = await apply(c, { amount: '500', term_days: '7' });
    const id = a.data.loan_id as string;
    expect((await approve(staff.admin, id)).code).toBe(1);
    // 600 USDT in spot; 550 moved to the contract account (the customer's own move).
    const moved = await call(t.app, {
      call: 'transferAsset',
      fields: { currency: 'USDT', amount: '550', from: 'spot', to: 'contract' },
      headers: { token: c.token },
    });
    expect(moved.code, moved.msg).toBe(1);
    const snapshot = await customerSnapshot(t, c.id);
    const short = await customerPost(t, c, 'lendBack', { loan_id: id, amount: '500' });
    expect(short.reason).toBe('INSUFFICIENT_BALANCE');
    const above = await customerPost(t, c, 'lendBack', { loan_id: id, amount: '600' });
    expect([above.reason, above.params]).toEqual(['LOAN_REPAY_ABOVE_OWED', { owed: '500' }]);
    const voucher = await customerPost(t, c, 'lendBack', {
      loan_id: id,
      amount: '10',
      method: 'voucher',
      voucher_id: 'upl_none',
    });
    expect(voucher.reason).toBe('LOAN_PROOF_UNKNOWN');
    expect(await customerSnapshot(t, c.id)).toEqual(snapshot);
    expect((await loanOf(c, id)).repayments).toEqual([]);
    // Nothing is ever taken from the contract account: the loan waits for the customer.
    t.clock.advance(9 * DAY);
    await runJob();
    expect(await customerSnapshot(t, c.id)).toEqual(snapshot);
    expect((await loanOf(c, id)).loan).toMatchObject({ state: 'overdue', days_past_due: 2 });
  });
});

describe('the jurisdiction profile’s verification rules are data, shown before they refuse', () => {
  it('lendList, getCreditScore and lendMy carry the loans and credit_score rules and follow a change of the custom profile', async () => {
    // A fresh staff session: the clock has moved on since beforeEach's.
    const admin = await staffSession(t, ['administrator']);
    const setProfile = async (profile: string) =>
      expect((await post(t, admin, 'jurisdiction', { profile, reason: 'loans rule test' })).code).toBe(1);
    const setRules = async (rules: { loans: string; credit_score: string }) =>
      expect(
        (
          await post(t, admin, 'verification/rules/update', {
            profile: 'custom',
            features: [
              { feature: 'loans', tier: rules.loans },
              { feature: 'credit_score', tier: rules.credit_score },
            ],
            reason: 'loans rule test',
          })
        ).code,
      ).toBe(1);
    const listTiers = async () => {
      const list = (await call(t.app, { method: 'GET', call: 'lendList' })).data;
      return [list.loans_tier, list.score_tier];
    };
    const scoreTiers = async (c: Customer) => {
      const score = await customerGet(t, c, 'getCreditScore');
      expect(score.code, score.reason).toBe(1);
      return [score.data.loans_tier, score.data.score_tier];
    };
    const loansVerified = async (c: Customer) => (await customerGet(t, c, 'lendMy')).data.loans_verified;
    // An amount below the product's minimum: refused after the verification step, so nothing is applied.
    const tooSmall = async (c: Customer) => {
      const answer = await apply(c, { amount: '50' });
      return [answer.reason, answer.params];
    };
    const primaryOnly = await ratedCustomer(t, 'balanced');
    await verifiedPrimary(t, primaryOnly.token, (await staffSession(t, ['compliance'])).token);
    const nobody = await ratedCustomer(t, 'balanced');
    const advanced = await borrower(t);
    const before = (await t.app.jurisdiction.active()).id;
    try {
      // The seeded rules (every built-in profile): loans advanced, the score primary.
      expect(await listTiers()).toEqual(['advanced', 'primary']);
      expect(await scoreTiers(primaryOnly)).toEqual(['advanced', 'primary']);
      expect(await loansVerified(primaryOnly)).toBe(false);
      expect(await loansVerified(advanced)).toBe(true);
      expect(await tooSmall(primaryOnly)).toEqual([
        'VERIFICATION_ADVANCED_REQUIRED',
        { feature: 'loans', tier: 'advanced' },
      ]);

      // Custom: loans need primary, the score nothing — shown as such, and applied as shown.
      await setRules({ loans: 'primary', credit_score: 'none' });
      await setProfile('custom');
      expect(await listTiers()).toEqual(['primary', 'none']);
      expect(await scoreTiers(primaryOnly)).toEqual(['primary', 'none']);
      expect(await scoreTiers(nobody)).toEqual(['primary', 'none']);
      expect(await loansVerified(primaryOnly)).toBe(true);
      expect(await loansVerified(nobody)).toBe(false);
      expect(await tooSmall(primaryOnly)).toEqual(['LOAN_AMOUNT_BELOW_MIN', { min: '100' }]);
      expect(await tooSmall(nobody)).toEqual([
        'VERIFICATION_PRIMARY_REQUIRED',
        { feature: 'loans', tier: 'primary' },
      ]);

      // Custom: loans need proof of address — advanced is not enough, and the data says so first.
      await setRules({ loans: 'address', credit_score: 'advanced' });
      expect(await listTiers()).toEqual(['address', 'advanced']);
      expect(await scoreTiers(advanced)).toEqual(['address', 'advanced']);
      expect(await loansVerified(advanced)).toBe(false);
      expect(await tooSmall(advanced)).toEqual([
        'VERIFICATION_ADDRESS_REQUIRED',
        { feature: 'loans', tier: 'address' },
      ]);
      const refused = await customerGet(t, primaryOnly, 'getCreditScore');
      expect([refused.reason, refused.params]).toEqual([
        'VERIFICATION_ADVANCED_REQUIRED',
        { feature: 'credit_score', tier: 'advanced' },
      ]);
      expect((await customerGet(t, primaryOnly, 'lendMy')).data).toMatchObject({
        score: null,
        limit: null,
      });
    } finally {
      await setRules({ loans: 'advanced', credit_score: 'primary' });
      await setProfile(before);
    }
    expect(await listTiers()).toEqual(['advanced', 'primary']);
  });
});

describe('exactly once', () => {
  it('the same rtoken applies and repays once', async () => {
    const c = await borrower(t);
    const fields = {
      product_id: productId,
      amount: '300',
      term_days: '7',
      accept_agreement: '1',
      agreement_version: AGREEMENT,
      rtoken: 'loanonce01',
    };
    const first = await call(t.app, { call: 'applyLoan', fields, headers: { token: c.token } });
    const again = await call(t.app, { call: 'applyLoan', fields, headers: { token: c.token } });
    expect(again.data.loan_id).toBe(first.data.loan_id);
    expect((await customerGet(t, c, 'lendMylist')).data.total).toBe(1);
    expect((await approve(staff.admin, first.data.loan_id)).code).toBe(1);
    const pay = { loan_id: first.data.loan_id, amount: '50', rtoken: 'loanpay001' };
    const p1 = await call(t.app, { call: 'lendBack', fields: pay, headers: { token: c.token } });
    const p2 = await call(t.app, { call: 'lendBack', fields: pay, headers: { token: c.token } });
    expect(p2.data.repayment.repayment_id).toBe(p1.data.repayment.repayment_id);
    expect((await loanOf(c, first.data.loan_id)).loan.repaid).toBe('50');
  });

  it('the ledger balances at the end', async () => {
    const report = await ledgerOf(t).verify();
    expect(report.ok, JSON.stringify(report.mismatches)).toBe(true);
  });
});
