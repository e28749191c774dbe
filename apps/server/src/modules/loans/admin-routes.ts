import {
  AdminLenderBody,
  AdminLenderFundingBody,
  AdminLenderFundingQuery,
  AdminLoanDecisionBody,
  AdminLoanDocumentQuery,
  AdminLoanPageQuery,
  AdminLoanProductBody,
  AdminLoanProductStateBody,
  AdminLoanRejectBody,
  AdminLoanRepaymentsQuery,
  AdminLoanSettingsBody,
  AdminLoansQuery,
  AdminLoanVoucherConfirmBody,
  AdminLoanWriteOffBody,
  AdminScoreReviewsQuery,
  AdminScoreTableBody,
  CommonFields,
} from '@bourse/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../http/envelope.ts';
import { staffOf } from '../../http/request.ts';
import type { StaffPermission } from '../../http/staff.ts';
import type { Loans } from './service.ts';

const EmptyQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
const IdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

type Route = {
  method: 'GET' | 'POST';
  url: string;
  permission: StaffPermission;
  summary: string;
  schema: Record<string, unknown>;
  handler: (request: FastifyRequest) => Promise<unknown>;
};

const get = (
  url: string,
  permission: StaffPermission,
  summary: string,
  querystring: unknown,
  handler: Route['handler'],
): Route => ({
  method: 'GET',
  url,
  permission,
  summary,
  schema: { querystring, ...(url.includes(':id') ? { params: IdParams } : {}) },
  handler,
});

const post = (
  url: string,
  permission: StaffPermission,
  summary: string,
  body: unknown,
  handler: Route['handler'],
): Route => ({
  method: 'POST',
  url,
  permission,
  summary,
  schema: { body, ...(url.includes(':id') ? { params: IdParams } : {}) },
  handler,
});

/** Products, lender accounts and their four-eyes funding. */
function catalogRoutes(loans: Loans): Route[] {
  return [
    get('/loans/products', 'loans.read', 'Every loan product', EmptyQuery, () => loans.adminProducts()),
    post(
      '/loans/products',
      'loans.write',
      'A new product, refused by name outside the profile caps (audited)',
      AdminLoanProductBody,
      (r) => loans.createProduct(staffOf(r), r.body as AdminLoanProductBody),
    ),
    post(
      '/loans/products/:id/state',
      'loans.write',
      'Pause or open a product (audited)',
      AdminLoanProductStateBody,
      (r) => loans.productState(staffOf(r), idOf(r), r.body as AdminLoanProductStateBody),
    ),
    get('/loans/lenders', 'loans.read', 'Lender accounts: available, outstanding, funded', EmptyQuery, () =>
      loans.lenders(),
    ),
    post('/loans/lenders', 'loans.write', 'A new named lender account (audited)', AdminLenderBody, (r) =>
      loans.createLender(staffOf(r), r.body as AdminLenderBody),
    ),
    post(
      '/loans/lenders/:id/requests',
      'loans.write',
      'Ask to pay operator money into a lender account; another staff member decides',
      AdminLenderFundingBody,
      (r) => loans.requestFunding(staffOf(r), idOf(r), r.body as AdminLenderFundingBody),
    ),
    get(
      '/loans/funding-requests',
      'loans.read',
      'Lender funding requests, newest first',
      AdminLenderFundingQuery,
      (r) => loans.fundingRequests(r.query as AdminLenderFundingQuery),
    ),
    ...(['approve', 'reject'] as const).map((d) =>
      post(
        `/loans/funding-requests/:id/${d}`,
        'loans.decide',
        `${d === 'approve' ? 'Approve (posts loan_capital → the lender account)' : 'Reject'} a funding request (four eyes, audited)`,
        AdminLoanDecisionBody,
        (r) => loans.decideFunding(staffOf(r), idOf(r), d, (r.body as AdminLoanDecisionBody).reason),
      ),
    ),
  ];
}

/** The cases (queue, decisions, loans, repayments and vouchers, score reviews), the score table and settings. */
function caseRoutes(loans: Loans): Route[] {
  return [
    get(
      '/loans/queue',
      'loans.read',
      'Unreviewed applications, oldest first, with applicant data and the score breakdown',
      AdminLoanPageQuery,
      (r) => loans.queue(r.query as AdminLoanPageQuery),
    ),
    get(
      '/loans/loans',
      'loans.read',
      'Loans and applications of every customer (filters: state, uid)',
      AdminLoansQuery,
      (r) => loans.adminLoans(r.query as AdminLoansQuery),
    ),
    get('/loans/loans/:id', 'loans.read', 'One loan with its charged days and repayments', EmptyQuery, (r) =>
      loans.adminLoan(idOf(r)),
    ),
    get(
      '/loans/documentLink',
      'loans.read',
      "A 5-minute link to a loan's proof or voucher (audited)",
      AdminLoanDocumentQuery,
      (r) => {
        const q = r.query as AdminLoanDocumentQuery;
        return loans.documentLink(staffOf(r), q.loan_id, q.file_id);
      },
    ),
    post(
      '/loans/loans/:id/write-off',
      'loans.decide',
      'Write a loan off: the first call records the request, a different staff member confirms it (posts loan.write_off; audited)',
      AdminLoanWriteOffBody,
      (r) => loans.writeOff(staffOf(r), idOf(r), r.body as AdminLoanWriteOffBody),
    ),
    post(
      '/loans/applications/:id/approve',
      'loans.decide',
      'Approve: disburses, or records the first of two approvals above the threshold (audited)',
      AdminLoanDecisionBody,
      (r) => loans.approve(staffOf(r), idOf(r), (r.body as AdminLoanDecisionBody).reason),
    ),
    post(
      '/loans/applications/:id/reject',
      'loans.decide',
      'Reject with a reason code (audited, notified)',
      AdminLoanRejectBody,
      (r) => loans.reject(staffOf(r), idOf(r), r.body as AdminLoanRejectBody),
    ),
    get(
      '/loans/repayments',
      'loans.read',
      'Repayments; vouchers waiting with state=pending',
      AdminLoanRepaymentsQuery,
      (r) => loans.repayments(r.query as AdminLoanRepaymentsQuery),
    ),
    post(
      '/loans/repayments/:id/confirm',
      'loans.decide',
      'Confirm a bank-transfer voucher: posts the repayment (audited)',
      AdminLoanVoucherConfirmBody,
      (r) => loans.decideVoucher(staffOf(r), idOf(r), 'confirm', r.body as AdminLoanVoucherConfirmBody),
    ),
    post(
      '/loans/repayments/:id/reject',
      'loans.decide',
      'Reject a voucher (audited)',
      AdminLoanDecisionBody,
      (r) => loans.decideVoucher(staffOf(r), idOf(r), 'reject', r.body as AdminLoanDecisionBody),
    ),
    get(
      '/loans/score-reviews',
      'loans.read',
      "Customers' requests for a human review of their score",
      AdminScoreReviewsQuery,
      (r) => loans.reviews(r.query as AdminScoreReviewsQuery),
    ),
    post(
      '/loans/score-reviews/:id/close',
      'loans.write',
      'Close a review request with what was found (audited)',
      AdminLoanDecisionBody,
      (r) => loans.closeReview(staffOf(r), idOf(r), (r.body as AdminLoanDecisionBody).reason),
    ),
    get('/loans/score-table', 'loans.read', 'The credit score and limit tables in force', EmptyQuery, () =>
      loans.scoreTable(),
    ),
    post(
      '/loans/score-table',
      'loans.write',
      'Publish a new version of the score and limit tables (audited)',
      AdminScoreTableBody,
      (r) => loans.publishTable(staffOf(r), r.body as AdminScoreTableBody),
    ),
    get(
      '/loans/settings',
      'loans.read',
      'The four-eyes threshold and the agreement version',
      EmptyQuery,
      () => loans.settings(),
    ),
    post(
      '/loans/settings',
      'loans.write',
      'Change the four-eyes threshold or the agreement version (audited)',
      AdminLoanSettingsBody,
      (r) => loans.updateSettings(staffOf(r), r.body as AdminLoanSettingsBody),
    ),
  ];
}

/**
 * Back-office calls under /api/admin/loans (JSON): reading needs `loans.read`; products, lenders,
 * funding requests, the score table and settings `loans.write`; approving, rejecting, deciding
 * funding (never one's own), vouchers and write-offs (four eyes) `loans.decide`. Each change audited with its reason.
 * Deliberately no call that edits a product, a loan's figures or a charged day (a write-off ends a
 * loan whole, it edits nothing).
 */
export function loansAdminRoutes(loans: Loans) {
  return async (app: FastifyInstance) => {
    const tags = ['admin', 'loans'];
    for (const route of [...catalogRoutes(loans), ...caseRoutes(loans)]) {
      app.route({
        method: route.method,
        url: route.url,
        schema: { tags, summary: route.summary, ...route.schema },
        config: { permission: route.permission },
        handler: async (request) => ok(request, await route.handler(request)),
      });
    }
  };
}
