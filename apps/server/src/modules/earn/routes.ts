import {
  BuyProfitBody,
  GetProfitInfoQuery,
  GetProfitListQuery,
  GetProfitOrderQuery,
  GetProfitOrdersQuery,
  GetProfitTotalQuery,
  QuoteRedeemBody,
  SellProfitBody,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { langOf, ok } from '../../http/envelope.ts';
import { authOf } from '../../http/request.ts';
import type { Earn } from './service.ts';

/** Customer calls under /api/web (the spec's getProfitList / getProfitInfo / getProfitTotal / buyProfit / sellProfit). */
export function earnRoutes(earn: Earn) {
  return async (app: FastifyInstance) => {
    const tags = ['earn'];
    app.get(
      '/getProfitList',
      {
        schema: {
          tags,
          summary: 'Fixed-term products on sale or paused (custody or vip), newest first',
          querystring: GetProfitListQuery,
        },
        config: { auth: 'optional' },
      },
      async (request) => {
        const q = request.query as GetProfitListQuery;
        return ok(request, await earn.list(q.kind ?? 'custody', langOf(request)));
      },
    );
    app.get(
      '/getProfitInfo',
      {
        schema: {
          tags,
          summary: 'One product, its worked example and (signed in) whether I may buy',
          querystring: GetProfitInfoQuery,
        },
        config: { auth: 'optional' },
      },
      async (request) => {
        const q = request.query as GetProfitInfoQuery;
        return ok(request, await earn.info(request.auth ?? null, q.product_id, langOf(request)));
      },
    );
    app.get(
      '/getProfitTotal',
      {
        schema: {
          tags,
          summary: 'My principal, accrued and earned rewards per currency',
          querystring: GetProfitTotalQuery,
        },
        config: { auth: 'required' },
      },
      async (request) => {
        const q = request.query as Static<typeof GetProfitTotalQuery>;
        return ok(request, await earn.total(authOf(request), q.kind ?? 'custody'));
      },
    );
    app.get(
      '/getProfitOrders',
      {
        schema: { tags, summary: 'My fixed-term orders, newest first', querystring: GetProfitOrdersQuery },
        config: { auth: 'required' },
      },
      async (request) =>
        ok(
          request,
          await earn.orders(authOf(request), request.query as GetProfitOrdersQuery, langOf(request)),
        ),
    );
    app.get(
      '/getProfitOrder',
      {
        schema: {
          tags,
          summary: 'One of my orders with its day-by-day rewards',
          querystring: GetProfitOrderQuery,
        },
        config: { auth: 'required' },
      },
      async (request) => {
        const q = request.query as Static<typeof GetProfitOrderQuery>;
        return ok(request, await earn.order(authOf(request), q.order_id, langOf(request)));
      },
    );
    app.post(
      '/buyProfit',
      {
        schema: {
          tags,
          summary:
            'Buy: principal locked in my earn account, the whole reward reserved from the funding account',
          body: BuyProfitBody,
        },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(request, await earn.buy(authOf(request), request.body as BuyProfitBody, langOf(request))),
    );
    app.post(
      '/quoteRedeem',
      {
        schema: {
          tags,
          summary: 'A binding early-redemption quote, valid one minute',
          body: QuoteRedeemBody,
        },
        config: { auth: 'required' },
      },
      async (request) =>
        ok(
          request,
          await earn.quote(authOf(request), (request.body as Static<typeof QuoteRedeemBody>).order_id),
        ),
    );
    app.post(
      '/sellProfit',
      {
        schema: { tags, summary: 'Redeem early: posts exactly the quote, or refuses', body: SellProfitBody },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(request, await earn.sell(authOf(request), request.body as SellProfitBody, langOf(request))),
    );
  };
}
