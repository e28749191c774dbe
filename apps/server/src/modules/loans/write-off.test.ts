import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { ledgerOf, USDT } from '../assets/testing.ts';
import { type StaffLogin, staffSession } from '../staff/testing.ts';
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
  spotUsdt,
  staffOf,
} from './testing.ts';

/**
 * Write-off with four eyes over HTTP on PostgreSQL, the clock stepped by hand: one staff member
 * requests, the same one cannot confirm, a different one confirms; ONE `loan.write_off` entry takes
 * what is owed (every ended loan-day charged first) off `loan_book` and the lender's claim, the
 * customer's balances untouched, the job charges nothing after, a second confirmation replays
 * nothing; wrong states and missing permissions refused; the ledger's own check.
 */

let t: TestApp;
let staff: Staff;
let finance: StaffLogin;
let lenderId: string;
let productId: string;
beforeAll(async () => {
  t = await startTestApp({ sessionTtlDays: 365 });
  t.app.loans.job.stop();
  staff = await staffOf(t);
  lenderId = await fundedLender(t, staff);
  productId = await product(t, staff, lenderId);
}, 120_000);
afterAll(async () => t?.close());
// Staff sessions end while the clock is stepped: every test signs its staff in anew.
const signIn = async () => {
  staff = await staffOf(t);
  finance = await staffSession(t, ['finance']);
};
beforeEach(signIn);

const runJob = () => t.app.loans.service.job.runOnce();
const writeOff = (who: StaffLogin, id: string, reason = 'cannot be collected') =>
  post(t, who, `loans/loans/${id}/write-off`, { reason_code: 'uncollectable', reason });
const entriesOf = (key: string) =>
  t.db.selectFrom('ledger_entry').select(['id', 'reason']).where('idempotency_key', '=', key).execute();
const postingsOf = (entryId: string) =>
  t.db
    .selectFrom('ledger_posting')
    .innerJoin('ledger_account', 'ledger_account.id', 'ledger_posting.account_id')
    .select(['ledger_posting.amount', 'ledger_posting.bucket', 'ledger_account.id as account'])
    .where('entry_id', '=', entryId)
    .execute();
const daysCharged = async (id: string) =>
  (await t.db.selectFrom('loans_day').select('day').where('loan_id', '=', id).execute()).length;

describe('write-off with four eyes', () => {
  it('refuses wrong states and staff without loans.decide', async () => {
    const c = await borrower(t);
    const applied = await applyLoan(t, c, { product_id: productId, amount: '500' });
    expect(applied.code, applied.msg).toBe(1);
    const id = applied.data.loan_id as string;
    const unreviewed = await writeOff(staff.admin, id);
    expect([unreviewed.reason, unreviewed.params]).toEqual(['LOAN_NOT_REPAYABLE', { state: 'unreviewed' }]);
    const rejected = await post(t, staff.admin, `loans/applications/${id}/reject`, {
      reason_code: 'other',
      reason: 'not now',
    });
    expect(rejected.code, rejected.msg).toBe(1);
    expect((await writeOff(staff.admin, id)).reason).toBe('LOAN_NOT_REPAYABLE');
    expect((await writeOff(staff.compliance, id)).reason).toBe('FORBIDDEN');
    const short = await post(t, staff.admin, `loans/loans/${id}/write-off`, {
      reason_code: 'uncollectable',
      reason: 'no',
    });
    expect(short.code).not.toBe(1);
    const code = await post(t, staff.admin, `loans/loans/${id}/write-off`, {
      reason_code: 'bored',
      reason: 'not a code',
    });
    expect(code.code).not.toBe(1);
  });

  it('requested by one, refused to the same, confirmed by another: written off once, the lender bears it', async () => {
    const c = await borrower(t);
    const applied = await applyLoan(t, c, { product_id: productId, amount: '1000' });
    expect(applied.code, applied.msg).toBe(1);
    const id = applied.data.loan_id as string;
    const ok = await post(t, staff.admin, `loans/applications/${id}/approve`, { reason: 'looks fine' });
    expect(ok.code, ok.msg).toBe(1);
    const disbursedAt = t.clock.now().getTime();

    // Ten days: days 4…10 bear 1 USDT each.
    t.clock.set(new Date(disbursedAt + 10 * DAY + 60_000));
    await runJob();
    expect(await daysCharged(id)).toBe(10);
    await signIn();
    const requester = staff.admin;

    const requested = await writeOff(requester, id);
    expect(requested.code, requested.msg).toBe(1);
    expect(requested.data).toMatchObject({
      state: 'disbursed',
      write_off: {
        reason_code: 'uncollectable',
        reason: 'cannot be collected',
        requested_by: requester.staffId,
        written_off_by: null,
        written_off_at: null,
        amount: null,
      },
    });
    const self = await writeOff(requester, id, 'my own confirmation');
    expect(self.reason).toBe('LOAN_WRITE_OFF_SELF');
    expect(await entriesOf(`loan:write_off:${id}`)).toHaveLength(0);

    // Day 11 ends before the confirmation: it is charged first (owed 1,008).
    t.clock.set(new Date(disbursedAt + 11 * DAY + 60_000));
    await signIn();
    const spotBefore = await spotUsdt(t, c.id);
    const lenderBefore = await platformUsdt(t, lenderCode(lenderId));
    const bookBefore = await platformUsdt(t, 'loan_book');
    const confirmed = await writeOff(finance, id, 'agreed: uncollectable');
    expect(confirmed.code, confirmed.msg).toBe(1);
    expect(confirmed.data).toMatchObject({
      state: 'written_off',
      outstanding: null,
      days_past_due: null,
      write_off: { requested_by: requester.staffId, written_off_by: finance.staffId, amount: '1008' },
    });
    expect(await daysCharged(id)).toBe(11);

    const entries = await entriesOf(`loan:write_off:${id}`);
    expect(entries).toEqual([{ id: expect.any(String), reason: 'loan.write_off' }]);
    const postings = await postingsOf((entries[0] as { id: string }).id);
    expect(postings.map((p) => [p.bucket, BigInt(p.amount)]).sort()).toEqual(
      [
        ['available', USDT(1008)],
        ['frozen', -USDT(1008)],
      ].sort(),
    );
    // Day 11's interest (1 USDT) grew the book and the claim, the write-off took 1,008 off both.
    expect(await platformUsdt(t, 'loan_book')).toEqual({
      available: bookBefore.available - USDT(1) + USDT(1008),
      frozen: bookBefore.frozen,
    });
    expect(await platformUsdt(t, lenderCode(lenderId))).toEqual({
      available: lenderBefore.available,
      frozen: lenderBefore.frozen + USDT(1) - USDT(1008),
    });
    expect(await spotUsdt(t, c.id)).toBe(spotBefore);

    // A second confirmation (or anyone's) replays nothing.
    const again = await writeOff(finance, id, 'confirming again');
    expect([again.reason, again.params]).toEqual(['LOAN_NOT_REPAYABLE', { state: 'written_off' }]);
    expect(await entriesOf(`loan:write_off:${id}`)).toHaveLength(1);

    // The job never charges it again, over stepped days past the due date.
    for (const d of [20, 31, 45, 60]) {
      t.clock.set(new Date(disbursedAt + d * DAY + 60_000));
      await runJob();
    }
    expect(await daysCharged(id)).toBe(11);
    expect(await platformUsdt(t, lenderCode(lenderId))).toEqual({
      available: lenderBefore.available,
      frozen: lenderBefore.frozen + USDT(1) - USDT(1008),
    });
    expect(await spotUsdt(t, c.id)).toBe(spotBefore);

    // The customer sees it written off, owing nothing; repaying is refused.
    const loan = await customerGet(t, c, 'getLoan', { loan_id: id });
    expect(loan.code, loan.msg).toBe(1);
    expect(loan.data.loan).toMatchObject({ state: 'written_off', outstanding: null });
    expect(loan.data.payoff).toBeNull();
    const my = await customerGet(t, c, 'lendMy');
    expect(my.data).toMatchObject({ outstanding: '0', open: null });
    expect(my.data.counts.written_off).toBe(1);
    const repay = await customerPost(t, c, 'lendBack', { loan_id: id, amount: '10' });
    expect(repay.reason).toBe('LOAN_NOT_REPAYABLE');

    const audits = await t.db
      .selectFrom('staff_audit')
      .select(['action', 'actor_id', 'reason'])
      .where('target_id', '=', id)
      .where('action', 'like', 'loans.loan.write_off%')
      .orderBy('action')
      .execute();
    expect(audits).toEqual([
      { action: 'loans.loan.write_off', actor_id: finance.staffId, reason: 'agreed: uncollectable' },
      { action: 'loans.loan.write_off_request', actor_id: requester.staffId, reason: 'cannot be collected' },
    ]);
  });

  it('the ledger balances at the end', async () => {
    const report = await ledgerOf(t).verify();
    expect(report.ok, JSON.stringify(report.mismatches)).toBe(true);
  });
});
