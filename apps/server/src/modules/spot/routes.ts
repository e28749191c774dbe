import {
  AdminKillSwitchBody,
  AdminMarketMakerBody,
  AdminMarketMakerHealthQuery,
  AdminMarketMakerQuery,
  AdminSpotCreateBody,
  AdminSpotEnableBody,
  AdminSpotHaltBody,
  AdminSpotMarketsQuery,
  AdminSpotUpdateBody,
  CancelAllOrdersBody,
  CancelOrderBody,
  CreateOrderBody,
  CurrentOrdersQuery,
  DepthQuery,
  GetOrderQuery,
  HistoryOrdersQuery,
  MyTradesQuery,
  SpotBalanceQuery,
  SpotExportQuery,
  SpotMarketsQuery,
  SpotTradesQuery,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { langOf, ok } from '../../http/envelope.ts';
import { authOf, staffOf } from '../../http/request.ts';
import { sendCsv } from '../../lib/csv.ts';
import { spotRecordsCsv } from './export.ts';
import type { MarketMaker } from './mm.ts';
import type { Spot } from './service.ts';

/** Each app registration gets its own tags and route configs (as when they were declared inline). */
function customerConfigs() {
  return {
    tags: ['spot'],
    read: { auth: 'required' as const },
    write: { auth: 'required' as const, idempotent: true },
    pub: { auth: 'optional' as const },
  };
}

/** Customer calls under /api/web (docs/api.md, "Spot trading"). */
export function spotRoutes(spot: Spot) {
  return async (app: FastifyInstance) => {
    const { tags, pub } = customerConfigs();
    app.get(
      '/getSpotMarkets',
      {
        schema: { tags, summary: 'Spot markets and their order rules', querystring: SpotMarketsQuery },
        config: pub,
      },
      async (request) => ok(request, { items: spot.markets((request.query as SpotMarketsQuery).symbol) }),
    );
    orderRoutes(app, spot);
    recordRoutes(app, spot);
    bookRoutes(app, spot);
  };
}

/** Place, cancel and look up one order. */
function orderRoutes(app: FastifyInstance, spot: Spot) {
  const { tags, read, write } = customerConfigs();
  app.post(
    '/createOrder',
    {
      schema: { tags, summary: 'Place a spot order (limit or market)', body: CreateOrderBody },
      config: write,
    },
    async (request) => ok(request, await spot.createOrder(authOf(request), request.body as CreateOrderBody)),
  );
  app.post(
    '/cancelOrder',
    { schema: { tags, summary: 'Cancel an open spot order', body: CancelOrderBody }, config: write },
    async (request) => ok(request, await spot.cancelOrder(authOf(request), request.body as CancelOrderBody)),
  );
  app.post(
    '/cancelAllOrders',
    {
      schema: { tags, summary: 'Cancel every open spot order (of one market)', body: CancelAllOrdersBody },
      config: write,
    },
    async (request) => {
      const body = request.body as CancelAllOrdersBody;
      return ok(request, { cancelled: await spot.cancelAll(authOf(request).customerId, body.symbol) });
    },
  );
  app.get(
    '/getOrder',
    { schema: { tags, summary: 'One of my spot orders', querystring: GetOrderQuery }, config: read },
    async (request) => ok(request, await spot.getOrder(authOf(request), request.query as GetOrderQuery)),
  );
}

/** My open orders, order history and fills: pages, and the CSV export. */
function recordRoutes(app: FastifyInstance, spot: Spot) {
  const { tags, read } = customerConfigs();
  app.get(
    '/getCurrentOrders',
    { schema: { tags, summary: 'My open spot orders', querystring: CurrentOrdersQuery }, config: read },
    async (request) =>
      ok(request, await spot.orders(authOf(request), request.query as CurrentOrdersQuery, true)),
  );
  app.get(
    '/getHistoryOrders',
    {
      schema: { tags, summary: 'My filled and cancelled spot orders', querystring: HistoryOrdersQuery },
      config: read,
    },
    async (request) =>
      ok(request, await spot.orders(authOf(request), request.query as HistoryOrdersQuery, false)),
  );
  app.get(
    '/getMyTrades',
    { schema: { tags, summary: 'My spot fills', querystring: MyTradesQuery }, config: read },
    async (request) => ok(request, await spot.myTrades(authOf(request), request.query as MyTradesQuery)),
  );
  app.get(
    '/exportSpotRecords',
    {
      schema: {
        tags,
        summary: 'One spot record list (open, history or fills) as CSV, header row in the request language',
        querystring: SpotExportQuery,
      },
      config: read,
    },
    async (request, reply) => {
      const q = request.query as SpotExportQuery;
      const csv = await spotRecordsCsv(spot, authOf(request), q, langOf(request));
      return sendCsv(reply, `spot-${q.list}.csv`, csv);
    },
  );
}

/** A book's depth and prints (the demo book with a demo token), and my balances of a market. */
function bookRoutes(app: FastifyInstance, spot: Spot) {
  const { tags, read, pub } = customerConfigs();
  app.get(
    '/getDepth',
    {
      schema: {
        tags,
        summary: 'Order book depth (the demo book with a demo token)',
        querystring: DepthQuery,
      },
      config: pub,
    },
    async (request) => {
      const q = request.query as DepthQuery;
      return ok(request, spot.depth(q.symbol, spot.bookOf(request.auth), q.limit));
    },
  );
  app.get(
    '/getSpotTrades',
    {
      schema: { tags, summary: 'Latest prints of a spot book', querystring: SpotTradesQuery },
      config: pub,
    },
    async (request) => {
      const q = request.query as SpotTradesQuery;
      return ok(request, spot.trades(q.symbol, spot.bookOf(request.auth), q.limit));
    },
  );
  app.get(
    '/getSpotBalance',
    {
      schema: { tags, summary: 'My spot balances of one market', querystring: SpotBalanceQuery },
      config: read,
    },
    async (request) =>
      ok(request, await spot.balance(authOf(request), (request.query as SpotBalanceQuery).symbol)),
  );
}

function adminConfigs() {
  return { tags: ['admin'], config: { permission: 'markets.write' as const } };
}

/** Back-office calls under /api/admin (permission markets.write; every change audited). */
export function spotAdminRoutes(spot: Spot, mm: MarketMaker) {
  return async (app: FastifyInstance) => {
    adminMarketRoutes(app, spot);
    marketMakerRoutes(app, mm);
  };
}

/** Markets, books and the kill switch. */
function adminMarketRoutes(app: FastifyInstance, spot: Spot) {
  const { tags, config } = adminConfigs();
  app.get(
    '/spotMarkets',
    {
      schema: {
        tags,
        summary: 'Spot markets, books and the kill switch',
        querystring: AdminSpotMarketsQuery,
      },
      config,
    },
    async (request) => ok(request, spot.adminMarkets()),
  );
  app.post(
    '/spotMarketHalt',
    {
      schema: { tags, summary: 'Halt a spot market with a reason (audited)', body: AdminSpotHaltBody },
      config,
    },
    async (request) => {
      const b = request.body as AdminSpotHaltBody;
      return ok(request, await spot.halt(staffOf(request), b.symbol, b.reason));
    },
  );
  app.post(
    '/spotMarketEnable',
    { schema: { tags, summary: 'Enable a spot market (audited)', body: AdminSpotEnableBody }, config },
    async (request) => {
      const b = request.body as AdminSpotEnableBody;
      return ok(request, await spot.enable(staffOf(request), b.symbol, b.reason));
    },
  );
  app.post(
    '/spotMarketUpdate',
    {
      schema: {
        tags,
        summary: 'Fees, minimums and band of a spot market (audited)',
        body: AdminSpotUpdateBody,
      },
      config,
    },
    async (request) => {
      const b = request.body as AdminSpotUpdateBody;
      return ok(request, await spot.update(staffOf(request), b.symbol, b));
    },
  );
  app.post(
    '/spotMarketCreate',
    {
      schema: {
        tags,
        summary: 'A new spot market with its tick and lot (audited)',
        body: AdminSpotCreateBody,
      },
      config,
    },
    async (request) =>
      ok(request, await spot.createMarket(staffOf(request), request.body as AdminSpotCreateBody)),
  );
  app.post(
    '/spotKillSwitch',
    {
      schema: { tags, summary: 'Halt (or release) all spot matching (audited)', body: AdminKillSwitchBody },
      config,
    },
    async (request) => {
      const b = request.body as AdminKillSwitchBody;
      return ok(request, await spot.setKillSwitch(staffOf(request), b.engaged === '1', b.reason));
    },
  );
}

/** The market maker: settings, accounts, inventory, health. */
function marketMakerRoutes(app: FastifyInstance, mm: MarketMaker) {
  const { tags, config } = adminConfigs();
  app.get(
    '/marketMaker',
    {
      schema: {
        tags,
        summary: "The market maker's settings, accounts and inventory",
        querystring: AdminMarketMakerQuery,
      },
      config,
    },
    async (request) => ok(request, await mm.view()),
  );
  app.get(
    '/marketMakerHealth',
    {
      schema: {
        tags,
        summary: "The market maker's health per market and book: last quote, errors in the last hour",
        querystring: AdminMarketMakerHealthQuery,
      },
      config: { permission: 'risk.read' as const },
    },
    async (request) => ok(request, mm.health()),
  );
  app.post(
    '/marketMakerSettings',
    {
      schema: {
        tags,
        summary: 'Change the market maker (enabled 0 cancels its quotes); audited',
        body: AdminMarketMakerBody,
      },
      config,
    },
    async (request) => ok(request, await mm.update(staffOf(request), request.body as AdminMarketMakerBody)),
  );
}
