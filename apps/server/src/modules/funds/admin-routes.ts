import {
  AdminFundModelStateBody,
  AdminFundNavQuery,
  AdminFundOrdersQuery,
  AdminFundRebalancesQuery,
  CommonFields,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { langOf, ok } from '../../http/envelope.ts';
import { staffOf } from '../../http/request.ts';
import type { Funds } from './service.ts';

const EmptyQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });

/**
 * Back-office calls under /api/admin: read-only views (funds.read) and opening or pausing a model
 * (funds.write, audited with a reason). Deliberately no call that sets a price, a NAV, a weight of
 * an existing model, or an order's holdings or result.
 */
export function fundsAdminRoutes(funds: Funds) {
  return async (app: FastifyInstance) => {
    const tags = ['admin'];
    app.get(
      '/funds/models',
      {
        schema: {
          tags,
          summary: 'ETF model portfolios with their orders in custody',
          querystring: EmptyQuery,
        },
        config: { permission: 'funds.read' },
      },
      async (request) => ok(request, await funds.adminModels(langOf(request))),
    );
    app.post(
      '/funds/models/state',
      {
        schema: {
          tags,
          summary: 'Open or pause an ETF model portfolio (audited)',
          body: AdminFundModelStateBody,
        },
        config: { permission: 'funds.write' },
      },
      async (request) =>
        ok(
          request,
          await funds.setModelState(
            staffOf(request),
            request.body as AdminFundModelStateBody,
            langOf(request),
          ),
        ),
    );
    app.get(
      '/funds/orders',
      {
        schema: { tags, summary: 'ETF orders of every customer', querystring: AdminFundOrdersQuery },
        config: { permission: 'funds.read' },
      },
      async (request) =>
        ok(request, await funds.adminOrders(request.query as AdminFundOrdersQuery, langOf(request))),
    );
    app.get(
      '/funds/rebalances',
      {
        schema: { tags, summary: 'ETF rebalances with their trades', querystring: AdminFundRebalancesQuery },
        config: { permission: 'funds.read' },
      },
      async (request) => ok(request, await funds.adminRebalances(request.query as AdminFundRebalancesQuery)),
    );
    app.get(
      '/funds/nav',
      {
        schema: { tags, summary: 'A model portfolio’s NAV history', querystring: AdminFundNavQuery },
        config: { permission: 'funds.read' },
      },
      async (request) => ok(request, await funds.adminNav(request.query as AdminFundNavQuery)),
    );
  };
}
