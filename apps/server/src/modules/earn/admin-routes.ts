import {
  AdminEarnOrdersQuery,
  AdminEarnPageQuery,
  AdminEarnProductBody,
  AdminEarnProductStateBody,
  AdminEarnSettingsBody,
  AdminFundingCreateBody,
  AdminFundingDecisionBody,
  AdminFundingRequestBody,
  AdminFundingRequestsQuery,
  CommonFields,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../http/envelope.ts';
import { staffOf } from '../../http/request.ts';
import type { Earn } from './service.ts';

const EmptyQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
const IdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
type IdParams = { id: string };

/**
 * Back-office calls under /api/admin/earn (JSON): reading needs `earn.read`; products, funding
 * accounts and settings `earn.write`; funding requests and their decisions `earn.fund` (never the
 * requester's own). Each change audited with its reason. Deliberately no call that changes a rate,
 * an accrual, an order or a quote.
 */
export function earnAdminRoutes(earn: Earn) {
  return async (app: FastifyInstance) => {
    const tags = ['admin', 'earn'];
    app.get(
      '/earn/products',
      {
        schema: {
          tags,
          summary: 'Every product with reserve, subscribed and capacity left',
          querystring: EmptyQuery,
        },
        config: { permission: 'earn.read' },
      },
      async (request) => ok(request, await earn.adminProducts()),
    );
    app.post(
      '/earn/products',
      {
        schema: {
          tags,
          summary: 'A new product in draft (audited); only its state changes later',
          body: AdminEarnProductBody,
        },
        config: { permission: 'earn.write' },
      },
      async (request) =>
        ok(request, await earn.createProduct(staffOf(request), request.body as AdminEarnProductBody)),
    );
    app.post(
      '/earn/products/:id/state',
      {
        schema: {
          tags,
          summary: 'Open, pause or close a product (audited); running orders run to term',
          params: IdParams,
          body: AdminEarnProductStateBody,
        },
        config: { permission: 'earn.write' },
      },
      async (request) =>
        ok(
          request,
          await earn.productState(
            staffOf(request),
            (request.params as IdParams).id,
            request.body as AdminEarnProductStateBody,
          ),
        ),
    );
    app.get(
      '/earn/funding',
      {
        schema: {
          tags,
          summary: 'Funding accounts: balance, reserved, funded, paid, returned',
          querystring: EmptyQuery,
        },
        config: { permission: 'earn.read' },
      },
      async (request) => ok(request, await earn.fundingAccounts()),
    );
    app.post(
      '/earn/funding',
      {
        schema: {
          tags,
          summary: 'A new named funding account with its source (audited)',
          body: AdminFundingCreateBody,
        },
        config: { permission: 'earn.write' },
      },
      async (request) =>
        ok(request, await earn.createFunding(staffOf(request), request.body as AdminFundingCreateBody)),
    );
    app.post(
      '/earn/funding/:id/requests',
      {
        schema: {
          tags,
          summary: 'Ask to pay money into a funding account; another staff member decides',
          params: IdParams,
          body: AdminFundingRequestBody,
        },
        config: { permission: 'earn.fund' },
      },
      async (request) =>
        ok(
          request,
          await earn.requestFunding(
            staffOf(request),
            (request.params as IdParams).id,
            request.body as AdminFundingRequestBody,
          ),
        ),
    );
    app.get(
      '/earn/funding-requests',
      {
        schema: { tags, summary: 'Funding requests, newest first', querystring: AdminFundingRequestsQuery },
        config: { permission: 'earn.read' },
      },
      async (request) => ok(request, await earn.fundingRequests(request.query as AdminFundingRequestsQuery)),
    );
    for (const decision of ['approve', 'reject'] as const) {
      app.post(
        `/earn/funding-requests/:id/${decision}`,
        {
          schema: {
            tags,
            summary:
              decision === 'approve'
                ? 'Approve a funding request: posts earn_capital → the funding account (four eyes, audited)'
                : 'Reject a funding request (four eyes, audited)',
            params: IdParams,
            body: AdminFundingDecisionBody,
          },
          config: { permission: 'earn.fund' },
        },
        async (request) =>
          ok(
            request,
            await earn.decideFunding(
              staffOf(request),
              (request.params as IdParams).id,
              decision,
              (request.body as AdminFundingDecisionBody).reason,
            ),
          ),
      );
    }
    app.get(
      '/earn/orders',
      {
        schema: {
          tags,
          summary: 'Orders of every customer (filters: product, state, uid)',
          querystring: AdminEarnOrdersQuery,
        },
        config: { permission: 'earn.read' },
      },
      async (request) => ok(request, await earn.adminOrders(request.query as AdminEarnOrdersQuery)),
    );
    app.get(
      '/earn/redemptions',
      {
        schema: {
          tags,
          summary: 'Early redemptions: orders redeeming or redeemed',
          querystring: AdminEarnPageQuery,
        },
        config: { permission: 'earn.read' },
      },
      async (request) =>
        ok(
          request,
          await earn.adminOrders({
            ...(request.query as AdminEarnPageQuery),
            states: ['redeeming', 'redeemed'],
          }),
        ),
    );
    app.get(
      '/earn/accruals',
      {
        schema: {
          tags,
          summary: 'Accrual runs, one per cut-off, with their totals',
          querystring: AdminEarnPageQuery,
        },
        config: { permission: 'earn.read' },
      },
      async (request) => ok(request, await earn.accrualRuns(request.query as AdminEarnPageQuery)),
    );
    app.get(
      '/earn/settings',
      {
        schema: {
          tags,
          summary: 'The daily cut-off and the published VIP thresholds',
          querystring: EmptyQuery,
        },
        config: { permission: 'earn.read' },
      },
      async (request) => ok(request, await earn.settings()),
    );
    app.post(
      '/earn/settings',
      {
        schema: {
          tags,
          summary: 'Change the cut-off (orders bought from now on) and VIP thresholds (audited)',
          body: AdminEarnSettingsBody,
        },
        config: { permission: 'earn.write' },
      },
      async (request) =>
        ok(request, await earn.updateSettings(staffOf(request), request.body as AdminEarnSettingsBody)),
    );
  };
}
