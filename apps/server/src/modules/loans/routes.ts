import {
  ApplyLoanBody,
  GetCreditScoreQuery,
  GetLoanQuery,
  GetLoanQuoteQuery,
  LendBackBody,
  LendListQuery,
  LendMylistQuery,
  LendMyQuery,
  RequestScoreReviewBody,
  WithdrawLoanBody,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { langOf, ok } from '../../http/envelope.ts';
import { authOf } from '../../http/request.ts';
import type { Loans } from './service.ts';

/**
 * Customer calls under /api/web. The spec's names where they fit (`lendList` products, `lendMy` my
 * credit and loan in progress, `lendMylist` my loans, `lendBack` repay — a POST, since it moves
 * money); `lend_img` is `uploadDocument` with purpose `loan_proof` / `loan_voucher`.
 */
export function loansRoutes(loans: Loans) {
  return async (app: FastifyInstance) => {
    const tags = ['loans'];
    app.get(
      '/getCreditScore',
      {
        schema: {
          tags,
          summary: 'My credit score: the published formula, my breakdown with hints, my loan limit',
          querystring: GetCreditScoreQuery,
        },
        config: { auth: 'required' },
      },
      async (request) => ok(request, await loans.score(authOf(request))),
    );
    app.post(
      '/requestScoreReview',
      {
        schema: { tags, summary: 'Ask a person to review my credit score', body: RequestScoreReviewBody },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(request, await loans.requestReview(authOf(request), request.body as RequestScoreReviewBody)),
    );
    app.get(
      '/lendList',
      {
        schema: {
          tags,
          summary: 'Loan products on offer, the caps they obey, the agreement in force',
          querystring: LendListQuery,
        },
        config: { auth: 'optional' },
      },
      async (request) => ok(request, await loans.lendList(langOf(request))),
    );
    app.get(
      '/getLoanQuote',
      {
        schema: {
          tags,
          summary: 'The schedule of an amount and term: interest, total, APR, late cost and its cap',
          querystring: GetLoanQuoteQuery,
        },
        config: { auth: 'optional' },
      },
      async (request) => ok(request, await loans.quote(request.query as GetLoanQuoteQuery)),
    );
    app.post(
      '/applyLoan',
      {
        schema: {
          tags,
          summary:
            'Apply: the profile’s loans verification rule, within my limit, one open application at a time',
          body: ApplyLoanBody,
        },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(request, await loans.apply(authOf(request), request.body as ApplyLoanBody, langOf(request))),
    );
    app.post(
      '/withdrawLoan',
      {
        schema: { tags, summary: 'Withdraw my application before it is reviewed', body: WithdrawLoanBody },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(request, await loans.withdraw(authOf(request), request.body as WithdrawLoanBody, langOf(request))),
    );
    myLoanRoutes(app, loans, tags);
  };
}

/** My loans: the overview, the list, one loan with its days and repayments, repaying. */
function myLoanRoutes(app: FastifyInstance, loans: Loans, tags: string[]) {
  app.get(
    '/lendMy',
    {
      schema: {
        tags,
        summary: 'My score and limit, the loan in progress, what I owe',
        querystring: LendMyQuery,
      },
      config: { auth: 'required' },
    },
    async (request) => ok(request, await loans.lendMy(authOf(request), langOf(request))),
  );
  app.get(
    '/lendMylist',
    {
      schema: { tags, summary: 'My loans and applications, newest first', querystring: LendMylistQuery },
      config: { auth: 'required' },
    },
    async (request) =>
      ok(request, await loans.lendMylist(authOf(request), request.query as LendMylistQuery, langOf(request))),
  );
  app.get(
    '/getLoan',
    {
      schema: {
        tags,
        summary: 'One of my loans: every charged day, every repayment, the payoff today',
        querystring: GetLoanQuery,
      },
      config: { auth: 'required' },
    },
    async (request) =>
      ok(
        request,
        await loans.loan(authOf(request), (request.query as GetLoanQuery).loan_id, langOf(request)),
      ),
  );
  app.post(
    '/lendBack',
    {
      schema: {
        tags,
        summary: 'Repay from my spot USDT (interest to date only), or hand in a bank-transfer voucher',
        body: LendBackBody,
      },
      config: { auth: 'required', idempotent: true },
    },
    async (request) =>
      ok(request, await loans.repay(authOf(request), request.body as LendBackBody, langOf(request))),
  );
}
