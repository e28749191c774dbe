import { LOAN_CAPS, lateTotalUnits, quoteLoan } from '@bourse/risk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { testLogger } from '../../../test/logwatch.ts';
import { type Customer, ledgerOf, USDT } from '../assets/testing.ts';
import { adminCall } from '../staff/testing.ts';
import { createLoans } from './service.ts';
import {
  applyLoan,
  borrower,
  customerGet,
  customerPost,
  DAY,
  fundedLender,
  lenderCode,
  platformUsdt,
  post,
  product,
  type Staff,
  staffOf,
} from './testing.ts';

/**
 * The daily job stepped over 60 days with crashes in between, on PostgreSQL, under the strict
 * eu_retail caps (0.8 % a day, total cost ≤ 100 %, late fee ≤ 15 USDT). A second loans service on the
 * app's database carries a crash hook inside each loan-day's transaction, after its ledger entry
 * (as earn's `afterAccrualPost`); runs die at chosen points and the next runs resume. Checked: each
 * loan-day charged exactly once (one `loans_day` row, one ledger entry under its key), days in order
 * with none missed, the total cost never above the cap (reached exactly where the quote says),
 * repayments mixed in, and the ledger's own check.
 */

let t: TestApp;
let staff: Staff;
let productId: string;
let lenderId: string;
let calls = 0;
let crashAt = -1;
class Crash extends Error {}
let crashes = 0;

let loans: ReturnType<typeof createLoans>;

beforeAll(async () => {
  t = await startTestApp({ sessionTtlDays: 365 });
  t.app.loans.job.stop();
  staff = await staffOf(t);
  const profile = await adminCall(t.app, {
    call: 'jurisdiction',
    token: staff.admin.token,
    fields: { profile: 'eu_retail', reason: 'strict caps' },
  });
  expect(profile.code).toBe(1);
  lenderId = await fundedLender(t, staff, '100000');
  productId = await product(t, staff, lenderId, {
    amount_min: '10',
    term_days: [7],
    daily_rate: '0.8',
    interest_free_days: 0,
    overdue_rate: '0.8',
    late_fee: '15',
  });
  loans = createLoans({
    db: t.db,
    clock: t.clock,
    log: testLogger(),
    ledger: ledgerOf(t),
    audit: t.app.audit,
    activeProfile: async () => (await t.app.jurisdiction.active()).id,
    requireFeature: async () => {},
    featureTier: async () => 'none',
    checkCap: async () => {},
    creditInputs: async () => ({
      verificationTier: 'advanced',
      accountAgeDays: 0,
      depositTotalUnits: 0n,
      tradingVolumeUnits: 0n,
    }),
    uploads: t.app.uploads.service,
    documentRetainUntil: async (at) => at,
    afterDayPost: () => {
      calls += 1;
      if (calls === crashAt) throw new Crash('crash inside a loan-day, after its ledger entry');
    },
  });
}, 120_000);
afterAll(async () => t?.close());

async function run(crash: number) {
  calls = 0;
  crashAt = crash; // 0: no crash; k: the k-th loan-day of this run dies after its ledger entry
  try {
    await loans.job.runOnce();
  } catch (error) {
    if (!(error instanceof Crash)) throw error;
    crashes += 1;
  }
  crashAt = -1;
}

async function disbursed(c: Customer, amount: string): Promise<string> {
  const a = await applyLoan(t, c, { product_id: productId, amount, term_days: '7' });
  expect(a.code, a.msg).toBe(1);
  const ok = await post(t, staff.admin, `loans/applications/${a.data.loan_id}/approve`, { reason: 'fine' });
  expect(ok.code, ok.msg).toBe(1);
  return a.data.loan_id as string;
}

type Loan = { id: string; customer: Customer; amount: string };

describe('the overdue job over 60 days with crashes', () => {
  it('charges each loan-day exactly once, never above the cap, and resumes after every crash', async () => {
    const a: Loan = { id: '', customer: await borrower(t), amount: '20' };
    const b: Loan = { id: '', customer: await borrower(t), amount: '1000' };
    const c: Loan = { id: '', customer: await borrower(t), amount: '500' };
    for (const l of [a, b, c]) l.id = await disbursed(l.customer, l.amount);
    const start = t.clock.now().getTime();

    for (let day = 1; day <= 60; day += 1) {
      t.clock.set(new Date(start + day * DAY + 60_000));
      await run(day % 5); // crash on the 1st…4th loan-day of the run, or not at all
      if (day % 3 !== 0) await run(day % 7 === 0 ? 1 : 0); // some days resume only at the next step
      if (day === 3) expect((await repay(c, '100')).code).toBe(1);
      if (day === 20) expect((await repay(c, '200')).code).toBe(1);
      if (day === 40) {
        const owed = (await customerGet(t, b.customer, 'getLoan', { loan_id: b.id })).data.payoff.total;
        const full = await repay(b, owed);
        expect(full.data.loan).toMatchObject({ state: 'cleared', cleared_late: true });
      }
    }
    await run(0);
    expect(crashes).toBeGreaterThan(10);

    for (const l of [a, b, c]) await expectEachDayOnce(l);

    // Loan A, never repaid: the quote's own worst case, reached exactly (cost = 100 % of 20 USDT).
    const quoteA = quoteLoan({
      product: {
        amountMinUnits: USDT(10),
        amountMaxUnits: USDT(5000),
        termDays: [7],
        dailyRatePpm: 8_000n,
        interestFreeDays: 0,
        overdueRatePpm: 8_000n,
        lateFeeUnits: USDT(15),
      },
      caps: LOAN_CAPS.eu_retail,
      amountUnits: USDT(20),
      termDays: 7,
    });
    const rowA = await loanRow(a.id);
    expect(rowA.days_done).toBe(60);
    expect(quoteA.capReachedOnDay).toBe(25);
    expect(outstandingOf(rowA.loan_state)).toBe(lateTotalUnits(quoteA, 53));
    expect(outstandingOf(rowA.loan_state)).toBe(USDT(40));
    const detailA = await customerGet(t, a.customer, 'getLoan', { loan_id: a.id });
    expect(detailA.data.loan).toMatchObject({
      state: 'overdue',
      days_past_due: 53,
      charged: '20',
      cost_cap: '20',
    });
    expect(detailA.data.days.filter((d: { capped: boolean }) => d.capped)).not.toHaveLength(0);

    // Loan B, cleared on day 40: no day after it.
    const rowB = await loanRow(b.id);
    expect([rowB.state, rowB.days_done, rowB.next_day_at]).toEqual(['cleared', 40, null]);
    const stateB = rowB.loan_state as Stored;
    expect(BigInt(rowB.repaid_units)).toBe(USDT(1000) + BigInt(stateB.costChargedUnits));

    // What borrowers owe is what loan_book and the lender's claims say.
    const owed = [a, c].map(async (l) => outstandingOf((await loanRow(l.id)).loan_state));
    const total = (await Promise.all(owed)).reduce((x, y) => x + y, 0n);
    expect((await platformUsdt(t, 'loan_book')).available).toBe(-total);
    expect((await platformUsdt(t, lenderCode(lenderId))).frozen).toBe(total);
    const report = await ledgerOf(t).verify();
    expect(report.ok, JSON.stringify(report.mismatches)).toBe(true);
  }, 180_000);
});

function repay(l: Loan, amount: string) {
  return customerPost(t, l.customer, 'lendBack', { loan_id: l.id, amount });
}

async function loanRow(id: string) {
  return t.db.selectFrom('loans_loan').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

type Stored = NonNullable<Awaited<ReturnType<typeof loanRow>>['loan_state']>;
function outstandingOf(s: Stored | null): bigint {
  if (s === null) return 0n;
  const o = s.outstanding;
  return BigInt(o.feesUnits) + BigInt(o.interestUnits) + BigInt(o.principalUnits);
}

/** Days 1…n, one row each, one ledger entry per charged day under its key; charges = the state's; ≤ the cap. */
async function expectEachDayOnce(l: Loan) {
  const row = await loanRow(l.id);
  const days = await t.db
    .selectFrom('loans_day')
    .selectAll()
    .where('loan_id', '=', l.id)
    .orderBy('day')
    .execute();
  expect(days.map((d) => d.day)).toEqual(Array.from({ length: row.days_done }, (_, i) => i + 1));
  const entries = await t.db
    .selectFrom('ledger_entry')
    .select(['id', 'idempotency_key'])
    .where('idempotency_key', 'like', `loan:day:${l.id}:%`)
    .execute();
  const charged = days.filter((d) => d.entry_id !== null);
  expect(entries.map((e) => e.id).sort()).toEqual(charged.map((d) => d.entry_id).sort());
  expect(new Set(entries.map((e) => e.idempotency_key)).size).toBe(entries.length);
  const sum = days.reduce((s, d) => s + BigInt(d.interest_units) + BigInt(d.fee_units), 0n);
  const state = row.loan_state as Stored;
  expect(sum).toBe(BigInt(state.costChargedUnits));
  expect(sum <= BigInt(state.terms.costCapUnits)).toBe(true);
  // The late fee once, on the first day past due.
  expect(days.filter((d) => BigInt(d.fee_units) > 0n).map((d) => d.day)).toEqual(
    row.days_done > 7 ? [8] : [],
  );
}
