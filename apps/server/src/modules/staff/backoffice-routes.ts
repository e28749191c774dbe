import {
  AdjustmentsQuery,
  AdminEmptyBody,
  CreateAdjustmentBody,
  type CustomerDetail,
  CustomerDetailQuery,
  CustomerSearchQuery,
  CustomerStatusBody,
  DecideAdjustmentBody,
  OutboxQuery,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.ts';
import type { BackOffice } from './backoffice.ts';
import { staffOf } from './hook.ts';
import { pageLimit } from './routes.ts';
import type { Staff } from './service.ts';

/** Customers, adjustments, outbox and ledger report calls (prefix `/api/admin`). */
export function backOfficeRoutes(deps: { backOffice: BackOffice; staff: Staff }) {
  return async (app: FastifyInstance) => {
    customerRoutes(app, deps);
    adjustmentRoutes(app, deps);
    outboxAndLedgerRoutes(app, deps.backOffice);
  };
}

type Deps = { backOffice: BackOffice; staff: Staff };

/** Customer search, detail, and disabling / enabling a customer's login. */
function customerRoutes(app: FastifyInstance, deps: Deps) {
  const { backOffice, staff } = deps;
  const tags = ['admin'];

  app.get(
    '/searchCustomers',
    {
      schema: {
        tags,
        summary: 'Find customers by uid, email, phone or name',
        querystring: CustomerSearchQuery,
      },
      config: { permission: 'customers.read' },
    },
    async (request) => {
      const q = request.query as CustomerSearchQuery;
      return ok(request, { list: await backOffice.searchCustomers(q.q, pageLimit(q.limit, 20)) });
    },
  );

  app.get(
    '/getCustomer',
    {
      schema: {
        tags,
        summary: 'A customer: profile, balances, recent journal, adjustments',
        querystring: CustomerDetailQuery,
      },
      config: { permission: 'customers.read' },
    },
    async (request) => {
      const q = request.query as CustomerDetailQuery;
      const detail = await backOffice.customerDetail(q.customer_id);
      const names = await staff.names([
        ...new Set(detail.adjustments.flatMap((a) => [a.maker_id, a.checker_id ?? '']).filter(Boolean)),
      ]);
      return ok(request, { ...detail, staff_names: names } satisfies CustomerDetail);
    },
  );

  for (const [path, status, summary] of [
    ['/disableCustomer', 'disabled', "Disable a customer's login and end their sessions (audited)"],
    ['/enableCustomer', 'active', "Enable a customer's login (audited)"],
  ] as const) {
    app.post(
      path,
      { schema: { tags, summary, body: CustomerStatusBody }, config: { permission: 'customers.disable' } },
      async (request) => {
        const body = request.body as CustomerStatusBody;
        return ok(
          request,
          await backOffice.setCustomerLogin(staffOf(request), {
            customerId: body.customer_id,
            status,
            reason: body.reason,
          }),
        );
      },
    );
  }
}

/** Manual adjustments: the threshold, create, list, and the four-eyes decision. */
function adjustmentRoutes(app: FastifyInstance, deps: Deps) {
  const { backOffice, staff } = deps;
  const tags = ['admin'];

  app.get(
    '/getAdjustmentRules',
    {
      schema: {
        tags,
        summary: 'The approval threshold of manual adjustments',
        querystring: AdminEmptyBody,
      },
      config: { permission: 'adjustments.create' },
    },
    async (request) => ok(request, { threshold_usdt: backOffice.thresholdUsdt }),
  );

  app.post(
    '/createAdjustment',
    {
      schema: {
        tags,
        summary: 'Credit or debit a customer account (audited; four eyes above the threshold)',
        body: CreateAdjustmentBody,
      },
      config: { permission: 'adjustments.create' },
    },
    async (request) => {
      const b = request.body as CreateAdjustmentBody;
      return ok(
        request,
        await backOffice.createAdjustment(staffOf(request), {
          customerId: b.customer_id,
          accountType: b.account_type,
          currency: b.currency,
          direction: b.direction,
          amount: b.amount,
          reason: b.reason,
        }),
      );
    },
  );

  app.get(
    '/getAdjustments',
    {
      schema: { tags, summary: 'Manual adjustments, newest first', querystring: AdjustmentsQuery },
      config: { permission: 'adjustments.create' },
    },
    async (request) => {
      const q = request.query as AdjustmentsQuery;
      const list = await backOffice.listAdjustments({
        limit: pageLimit(q.limit),
        ...(q.status ? { status: q.status } : {}),
        ...(q.customer_id ? { customerId: q.customer_id } : {}),
      });
      const names = await staff.names([
        ...new Set(list.flatMap((a) => [a.maker_id, a.checker_id ?? '']).filter(Boolean)),
      ]);
      return ok(request, { list, staff_names: names, threshold_usdt: backOffice.thresholdUsdt });
    },
  );

  for (const [path, decision, summary] of [
    [
      '/approveAdjustment',
      'approve',
      'Approve a pending adjustment with a reason: posts the entry (a second staff member; audited)',
    ],
    ['/rejectAdjustment', 'reject', 'Reject a pending adjustment with a reason (audited)'],
  ] as const) {
    app.post(
      path,
      {
        schema: { tags, summary, body: DecideAdjustmentBody },
        config: { permission: 'adjustments.approve' },
      },
      async (request) => {
        const b = request.body as DecideAdjustmentBody;
        return ok(
          request,
          await backOffice.decideAdjustment(staffOf(request), {
            adjustmentId: b.adjustment_id,
            decision,
            ...(b.reason !== undefined ? { reason: b.reason } : {}),
          }),
        );
      },
    );
  }
}

/** The outbox (read only) and the ledger verification report. */
function outboxAndLedgerRoutes(app: FastifyInstance, backOffice: BackOffice) {
  const tags = ['admin'];

  app.get(
    '/getOutbox',
    {
      schema: {
        tags,
        summary: 'Messages in the outbox, newest first (read only)',
        querystring: OutboxQuery,
      },
      config: { permission: 'outbox.read' },
    },
    async (request) => {
      const q = request.query as OutboxQuery;
      return ok(request, {
        list: await backOffice.outbox({
          limit: pageLimit(q.limit),
          ...(q.before_id ? { beforeId: q.before_id } : {}),
        }),
      });
    },
  );

  app.post(
    '/verifyLedger',
    {
      schema: { tags, summary: 'Run the ledger verification now (audited)', body: AdminEmptyBody },
      config: { permission: 'ledger.verify' },
    },
    async (request) => ok(request, await backOffice.verifyLedgerNow(staffOf(request))),
  );

  app.get(
    '/getLedgerReport',
    {
      schema: {
        tags,
        summary: 'The last scheduled and the last on-demand ledger verification',
        querystring: AdminEmptyBody,
      },
      config: { permission: 'ledger.verify' },
    },
    async (request) => ok(request, await backOffice.ledgerReports()),
  );
}
