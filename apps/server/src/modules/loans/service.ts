import {
  type AdminLenderBody,
  type AdminLenderFundingBody,
  type AdminLenderFundingQuery,
  type AdminLoanData,
  type AdminLoanDetailData,
  type AdminLoanProductBody,
  type AdminLoanProductStateBody,
  type AdminLoanQueueItem,
  type AdminLoanRejectBody,
  type AdminLoanRepaymentData,
  type AdminLoanRepaymentsQuery,
  type AdminLoanSettingsBody,
  type AdminLoansQuery,
  type AdminLoanVoucherConfirmBody,
  type AdminLoanWriteOffBody,
  type AdminScoreReviewData,
  type AdminScoreReviewsQuery,
  type AdminScoreTableBody,
  type ApplyLoanBody,
  type DocumentLinkData,
  type GetLoanQuoteQuery,
  type Lang,
  type LendBackBody,
  type LendBackData,
  type LendMyData,
  type LendMylistQuery,
  LOAN_LIMITS,
  LOAN_STATES,
  type LoanData,
  type LoanDetailData,
  type LoanStatus,
  type LoanWriteOffReason,
  type Paged,
  type RequestScoreReviewBody,
  type WithdrawLoanBody,
} from '@bourse/protocol';
import { outstandingUnits } from '@bourse/risk';
import type { AuthContext } from '../../http/context.ts';
import { pageOf } from '../../http/paging.ts';
import { expectRefusal, refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { apply, quote, withdraw } from './applying.ts';
import { type LoansDeps, loanData, localized, ruleTiers, stateFrom, usdt } from './context.ts';
import { payoffAt } from './days.ts';
import { runLoansJob, scheduleLoansJob } from './job.ts';
import {
  adminProducts,
  changeProductState,
  createLender,
  createProduct,
  decideFunding,
  fundingRequests,
  lendersData,
  lendList,
  requestFunding,
  settings,
  updateSettings,
} from './products.ts';
import { decideVoucher, repay, repaymentData } from './repaying.ts';
import type { DayRow, LoanRow, RepaymentRow, ReviewRow } from './repo.ts';
import * as repo from './repo.ts';
import { approve, reject } from './review.ts';
import {
  closeReview,
  customerScore,
  publishTable,
  requestReview,
  reviewData,
  scoreData,
  scoreOf,
  tableData,
} from './score.ts';
import { writeOff } from './write-off.ts';

const PAGING = { pageSizeDefault: 20, pageSizeMax: LOAN_LIMITS.pageSizeMax };
const VERIFICATION_REFUSALS = [
  'VERIFICATION_PRIMARY_REQUIRED',
  'VERIFICATION_ADVANCED_REQUIRED',
  'VERIFICATION_ADDRESS_REQUIRED',
] as const;

const dayData = (d: DayRow) => ({
  day: d.day,
  kind: d.kind,
  interest: usdt(d.interest_units),
  fee: usdt(d.fee_units),
  capped: d.capped,
  posted_at: d.posted_at.getTime(),
});

/**
 * Loans and the credit score (README.md). The parts are plain functions over `LoansDeps`: score.ts
 * (the published formula, reviews, new table versions), products.ts (products, lender accounts and
 * their four-eyes funding, settings), applying.ts (quote, apply, withdraw), review.ts (approve with
 * four eyes, disburse, reject), days.ts (one loan-day), repaying.ts (balance and vouchers), job.ts.
 */
export function createLoans(deps: LoansDeps) {
  const { db, clock } = deps;

  async function loansOut(rows: LoanRow[], lang: Lang): Promise<LoanData[]> {
    const [products, lenders] = await Promise.all([repo.products(db), repo.lenders(db)]);
    const pName = new Map(products.map((p) => [p.id, localized(p.names, lang)]));
    const lName = new Map(lenders.map((l) => [l.id, l.name]));
    const now = clock.now();
    return rows.map((r) =>
      loanData(r, { product: pName.get(r.product_id) ?? '', lender: lName.get(r.lender_id) ?? '' }, now),
    );
  }

  async function loanOut(row: LoanRow, lang: Lang): Promise<LoanData> {
    return (await loansOut([row], lang))[0] as LoanData;
  }

  async function adminOut(rows: LoanRow[]): Promise<AdminLoanData[]> {
    const out = await loansOut(rows, 'en');
    const applicants = (await deps.applicants?.([...new Set(rows.map((r) => r.customer_id))])) ?? new Map();
    return out.map((loan, i) => {
      const r = rows[i] as LoanRow;
      return {
        ...loan,
        customer_id: r.customer_id,
        applicant: applicants.get(r.customer_id) ?? {
          uid: '',
          name: '',
          country: '',
          verification_level: 0,
          account_age_days: 0,
        },
        lender_id: r.lender_id,
        score_at_apply: r.score_at_apply,
        limit_at_apply: usdt(r.limit_at_apply_units),
        first_approved_by: r.first_approved_by,
        decided_by: r.decided_by,
        decision_note: r.decision_note,
        write_off:
          r.write_off_requested_at === null
            ? null
            : {
                reason_code: r.write_off_code as LoanWriteOffReason,
                reason: r.write_off_reason ?? '',
                requested_by: r.write_off_requested_by ?? '',
                requested_at: r.write_off_requested_at.getTime(),
                written_off_by: r.written_off_by,
                written_off_at: r.written_off_at?.getTime() ?? null,
                amount: r.write_off_units === null ? null : usdt(r.write_off_units),
              },
      };
    });
  }

  async function uidOf(customerIds: string[]): Promise<Map<string, string>> {
    const applicants = (await deps.applicants?.([...new Set(customerIds)])) ?? new Map();
    return new Map([...applicants].map(([id, a]) => [id, a.uid]));
  }

  async function customerFilter(uid: string | undefined): Promise<string | null | undefined> {
    if (!uid) return undefined;
    return (await deps.customerByUid?.(uid)) ?? null;
  }

  async function adminRepayments(rows: RepaymentRow[]): Promise<AdminLoanRepaymentData[]> {
    const uids = await uidOf(rows.map((r) => r.customer_id));
    return rows.map((r) => ({
      ...repaymentData(r),
      customer_id: r.customer_id,
      uid: uids.get(r.customer_id) ?? '',
    }));
  }

  async function adminReviews(rows: ReviewRow[]): Promise<AdminScoreReviewData[]> {
    const uids = await uidOf(rows.map((r) => r.customer_id));
    return rows.map((r) => ({
      ...reviewData(r),
      customer_id: r.customer_id,
      uid: uids.get(r.customer_id) ?? '',
      closed_by: r.closed_by,
      closed_at: r.closed_at?.getTime() ?? null,
      closing_note: r.closing_note,
    }));
  }

  return {
    job: { runOnce: () => runLoansJob(deps) },
    schedule: (intervalMs: number) => scheduleLoansJob(deps, intervalMs),

    // ---- web (customers)
    score: (auth: AuthContext) => customerScore(deps, auth),
    requestReview: (auth: AuthContext, body: RequestScoreReviewBody) => requestReview(deps, auth, body),
    lendList: (lang: Lang) => lendList(deps, lang),
    quote: (q: GetLoanQuoteQuery) => quote(deps, q),
    async apply(auth: AuthContext, body: ApplyLoanBody, lang: Lang) {
      return loanOut(await apply(deps, auth, body), lang);
    },
    async withdraw(auth: AuthContext, body: WithdrawLoanBody, lang: Lang) {
      return loanOut(await withdraw(deps, auth, body), lang);
    },
    async lendMy(auth: AuthContext, lang: Lang): Promise<LendMyData> {
      const rows = await repo.loansOf(db, auth.customerId);
      let scored: Awaited<ReturnType<typeof scoreOf>> | null = null;
      try {
        await deps.requireFeature(auth.customerId, 'credit_score');
        scored = await scoreOf(deps, auth.customerId);
      } catch (error) {
        // Not verified for a score yet: the overview says so with nulls rather than refusing.
        expectRefusal(error, ...VERIFICATION_REFUSALS);
      }
      let loansVerified = true;
      try {
        await deps.requireFeature(auth.customerId, 'loans');
      } catch (error) {
        // Not verified for the profile's `loans` rule: the apply page says so before trying.
        expectRefusal(error, ...VERIFICATION_REFUSALS);
        loansVerified = false;
      }
      const counts = Object.fromEntries(LOAN_STATES.map((s) => [s, 0])) as Record<LoanStatus, number>;
      let outstanding = 0n;
      for (const r of rows) {
        counts[r.state] += 1;
        if (r.loan_state !== null && r.state !== 'cleared' && r.state !== 'written_off')
          outstanding += outstandingUnits(stateFrom(r.loan_state));
      }
      const open = rows.find((r) => ['unreviewed', 'disbursed', 'repaying', 'overdue'].includes(r.state));
      return {
        score: scored?.score.score ?? null,
        limit: scored ? usdt(scored.limitUnits) : null,
        loans_verified: loansVerified,
        open: open ? await loanOut(open, lang) : null,
        outstanding: usdt(outstanding),
        counts,
      };
    },
    lendMylist(auth: AuthContext, q: LendMylistQuery, lang: Lang): Promise<Paged<LoanData>> {
      return repo.loansPage(
        db,
        { customerId: auth.customerId, states: q.state ? [q.state] : undefined },
        pageOf(q, PAGING),
        (rows) => loansOut(rows, lang),
      );
    },
    async loan(auth: AuthContext, loanId: string, lang: Lang): Promise<LoanDetailData> {
      const row = await repo.findLoan(db, loanId, { customerId: auth.customerId });
      if (!row) refuse('NOT_FOUND');
      const [days, repayments] = await Promise.all([repo.daysOf(db, row.id), repo.repaymentsOf(db, row.id)]);
      const payoff = payoffAt(row, clock.now());
      return {
        loan: await loanOut(row, lang),
        days: days.map(dayData),
        repayments: repayments.map(repaymentData),
        payoff:
          payoff === null
            ? null
            : {
                total: usdt(payoff.totalUnits),
                interest_to_date: usdt(payoff.interestUnits),
                interest_saved: usdt(payoff.interestSavedUnits),
              },
      };
    },
    async repay(auth: AuthContext, body: LendBackBody, lang: Lang): Promise<LendBackData> {
      const rep = await repay(deps, auth, body);
      const row = (await repo.findLoan(db, rep.loan_id)) as LoanRow;
      return { repayment: repaymentData(rep), loan: await loanOut(row, lang) };
    },

    // ---- back office
    adminProducts: () => adminProducts(deps),
    async createProduct(staff: StaffContext, body: AdminLoanProductBody) {
      const row = await createProduct(deps, staff, body);
      return (await adminProducts(deps)).items.find((p) => p.product_id === row.id);
    },
    async productState(staff: StaffContext, id: string, body: AdminLoanProductStateBody) {
      await changeProductState(deps, staff, id, body);
      return (await adminProducts(deps)).items.find((p) => p.product_id === id);
    },
    lenders: () => lendersData(deps),
    async createLender(staff: StaffContext, body: AdminLenderBody) {
      const row = await createLender(deps, staff, body);
      return (await lendersData(deps)).items.find((l) => l.lender_id === row.id);
    },
    requestFunding: (staff: StaffContext, lenderId: string, body: AdminLenderFundingBody) =>
      requestFunding(deps, staff, lenderId, body),
    decideFunding: (staff: StaffContext, id: string, decision: 'approve' | 'reject', reason: string) =>
      decideFunding(deps, staff, id, decision, reason),
    fundingRequests: (q: AdminLenderFundingQuery) =>
      fundingRequests(deps, { lenderId: q.lender_id, state: q.state }, pageOf(q, PAGING)),
    async queue(q: { page?: string; page_size?: string }): Promise<Paged<AdminLoanQueueItem>> {
      const paging = pageOf(q, PAGING);
      const [{ total, rows }, setting, tiers] = await Promise.all([
        repo.queue(db, paging),
        repo.setting(db),
        ruleTiers(deps),
      ]);
      const base = await adminOut(rows);
      const items = await Promise.all(
        base.map(async (loan, i) => {
          const r = rows[i] as LoanRow;
          const [scored, review] = await Promise.all([
            scoreOf(deps, r.customer_id),
            repo.openReviewOf(db, r.customer_id),
          ]);
          return {
            ...loan,
            score: scoreData(scored, review, tiers),
            above_threshold: BigInt(r.amount_units) > BigInt(setting.approval_threshold_units),
          };
        }),
      );
      return { total, page: paging.page, page_size: paging.pageSize, items };
    },
    async adminLoans(q: AdminLoansQuery): Promise<Paged<AdminLoanData>> {
      const paging = pageOf(q, PAGING);
      const customerId = await customerFilter(q.uid);
      if (customerId === null) return { total: 0, page: paging.page, page_size: paging.pageSize, items: [] };
      return repo.loansPage(db, { customerId, states: q.state ? [q.state] : undefined }, paging, adminOut);
    },
    async adminLoan(id: string): Promise<AdminLoanDetailData> {
      const row = await repo.findLoan(db, id);
      if (!row) refuse('NOT_FOUND');
      const [days, repayments, [loan]] = await Promise.all([
        repo.daysOf(db, id),
        repo.repaymentsOf(db, id),
        adminOut([row]),
      ]);
      return {
        loan: loan as AdminLoanData,
        days: days.map(dayData),
        repayments: repayments.map(repaymentData),
      };
    },
    async approve(staff: StaffContext, id: string, reason: string) {
      const { row } = await approve(deps, staff, id, reason);
      return (await adminOut([row]))[0] as AdminLoanData;
    },
    async writeOff(staff: StaffContext, id: string, body: AdminLoanWriteOffBody) {
      return (await adminOut([(await writeOff(deps, staff, id, body)).row]))[0] as AdminLoanData;
    },
    async reject(staff: StaffContext, id: string, body: AdminLoanRejectBody) {
      return (await adminOut([await reject(deps, staff, id, body)]))[0] as AdminLoanData;
    },
    async repayments(q: AdminLoanRepaymentsQuery): Promise<Paged<AdminLoanRepaymentData>> {
      const page = await repo.repaymentsPage(db, { state: q.state }, pageOf(q, PAGING));
      return { ...page, items: await adminRepayments(page.items) };
    },
    async decideVoucher(
      staff: StaffContext,
      id: string,
      decision: 'confirm' | 'reject',
      body: AdminLoanVoucherConfirmBody,
    ) {
      return (await adminRepayments([await decideVoucher(deps, staff, id, decision, body)]))[0];
    },
    async reviews(q: AdminScoreReviewsQuery): Promise<Paged<AdminScoreReviewData>> {
      const page = await repo.reviewsPage(db, { state: q.state }, pageOf(q, PAGING));
      return { ...page, items: await adminReviews(page.items) };
    },
    async closeReview(staff: StaffContext, id: string, note: string) {
      return (await adminReviews([await closeReview(deps, staff, id, note)]))[0];
    },
    settings: () => settings(deps),
    updateSettings: (staff: StaffContext, body: AdminLoanSettingsBody) => updateSettings(deps, staff, body),
    async scoreTable() {
      return tableData(await repo.scoreTable(db));
    },
    publishTable: (staff: StaffContext, body: AdminScoreTableBody) => publishTable(deps, staff, body),
    /** A 5-minute link to one of a loan's proofs or vouchers for this staff member (audited by uploads). */
    async documentLink(staff: StaffContext, loanId: string, fileId: string): Promise<DocumentLinkData> {
      const row = await repo.findLoan(db, loanId);
      if (!row) refuse('NOT_FOUND');
      const vouchers = (await repo.repaymentsOf(db, loanId)).map((r) => r.voucher_id);
      if (!row.proof_ids.includes(fileId) && !vouchers.includes(fileId)) refuse('NOT_FOUND');
      const links = await deps.uploads.staffLinks(staff.staffId, [fileId], {
        about: `loan ${loanId}`,
        purposes: ['loan_proof', 'loan_voucher'],
      });
      return links.get(fileId) ?? refuse('NOT_FOUND');
    },
  };
}

export type Loans = ReturnType<typeof createLoans>;
