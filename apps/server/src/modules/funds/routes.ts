import {
  BuyEtfBody,
  EtfInfoQuery,
  EtfListQuery,
  EtfOrderQuery,
  EtfOrdersQuery,
  EtfPreviewQuery,
  SellEtfBody,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { langOf, ok } from '../../http/envelope.ts';
import { authOf } from '../../http/request.ts';
import type { Funds } from './service.ts';

/** Customer calls under /api/web (docs/api.md, "ETF orders"). */
export function fundsRoutes(funds: Funds) {
  return async (app: FastifyInstance) => {
    const tags = ['funds'];
    app.get(
      '/getEtfList',
      {
        schema: {
          tags,
          summary: 'The ETF model portfolios: weights, NAV per unit now, rules',
          querystring: EtfListQuery,
        },
        config: { auth: 'optional' },
      },
      async (request) => ok(request, await funds.list(langOf(request))),
    );
    app.get(
      '/getEtfInfo',
      {
        schema: {
          tags,
          summary: 'One model portfolio with its NAV history (and, signed in, whether I may buy)',
          querystring: EtfInfoQuery,
        },
        config: { auth: 'optional' },
      },
      async (request) =>
        ok(request, await funds.info(request.auth ?? null, request.query as EtfInfoQuery, langOf(request))),
    );
    app.get(
      '/previewEtf',
      {
        schema: {
          tags,
          summary: 'What buying an amount would trade now, with the fees',
          querystring: EtfPreviewQuery,
        },
        config: { auth: 'optional' },
      },
      async (request) => ok(request, await funds.preview(request.query as EtfPreviewQuery)),
    );
    app.post(
      '/buyEtf',
      {
        schema: { tags, summary: 'Buy an ETF order (the basket, in my own account)', body: BuyEtfBody },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(request, await funds.buy(authOf(request), request.body as BuyEtfBody, langOf(request))),
    );
    app.post(
      '/sellEtf',
      {
        schema: { tags, summary: 'Redeem an ETF order: every holding sold at market', body: SellEtfBody },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(
          request,
          await funds.sell(authOf(request), (request.body as SellEtfBody).order_id, langOf(request)),
        ),
    );
    app.get(
      '/getEtfOrders',
      {
        schema: { tags, summary: 'My ETF orders, newest first', querystring: EtfOrdersQuery },
        config: { auth: 'required' },
      },
      async (request) =>
        ok(request, await funds.orders(authOf(request), request.query as EtfOrdersQuery, langOf(request))),
    );
    app.get(
      '/getEtfOrder',
      {
        schema: { tags, summary: 'One of my ETF orders with its trades', querystring: EtfOrderQuery },
        config: { auth: 'required' },
      },
      async (request) =>
        ok(
          request,
          await funds.order(authOf(request), (request.query as EtfOrderQuery).order_id, langOf(request)),
        ),
    );
  };
}
