import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Refusal } from '../../http/refusal.ts';
import type { KeyPrincipal } from '../apikeys/index.ts';
import type { BotApiDeps, Params } from './context.ts';
import {
  type BinanceError,
  BinanceRefusal,
  binanceErrorOf,
  type ErrorContext,
  illegal,
  UNKNOWN_ERROR,
} from './errors.ts';
import * as data from './market-data.ts';
import { createUserStreams, type UserStreams } from './stream.ts';
import * as trading from './trading.ts';
import { createMeters, type Meters, WEIGHTS } from './weights.ts';

/**
 * The Binance-compatible spot REST API under `/api/v3` (docs/bots.md): Binance's paths, parameters,
 * answers, error shape `{ code, msg }`, weights and headers, so the ccxt `binance` class works with
 * only its URLs pointed here. Public calls need nothing; USER_DATA and TRADE calls are signed with an
 * API key (modules/apikeys).
 */

type Security = 'none' | 'key' | 'signed' | 'trade';
type BotRoute = { weight: (p: Params) => number; security: Security; context: ErrorContext; order?: boolean };

declare module 'fastify' {
  interface FastifyContextConfig {
    bot?: BotRoute;
  }
  interface FastifyRequest {
    botPrincipal: KeyPrincipal | null;
  }
}

const SIGNED_PARAMS = ['timestamp', 'recvWindow', 'signature'];
const all = (p: Params) => !p.symbol && !p.symbols;

/** An OpenAPI description of a call's parameters (all strings, as Binance reads them; checked by the handlers). */
function paramsSchema(names: readonly string[]) {
  return Type.Object(
    Object.fromEntries(names.map((n) => [n, Type.Optional(Type.String({ maxLength: 2000 }))])),
    { additionalProperties: true },
  );
}

function paramsOf(request: FastifyRequest): Params {
  const out: Params = {};
  for (const source of [request.query, request.body]) {
    if (!source || typeof source !== 'object') continue;
    for (const [k, v] of Object.entries(source as Record<string, unknown>)) {
      if (typeof v !== 'string') throw new BinanceRefusal(illegal(k));
      out[k] = v;
    }
  }
  return out;
}

function sendError(reply: FastifyReply, e: BinanceError) {
  return reply.code(e.status).type('application/json; charset=utf-8').send({ code: e.code, msg: e.msg });
}

function errorOf(error: FastifyError, request: FastifyRequest): BinanceError | null {
  if (error instanceof BinanceRefusal) return error.error;
  if (error instanceof Refusal)
    return binanceErrorOf(error.reason, error.params, request.routeOptions.config.bot?.context ?? 'other');
  if (error.validation) {
    const first = error.validation[0] as {
      keyword?: string;
      params?: { missingProperty?: string };
      instancePath?: string;
    };
    const field = first?.params?.missingProperty ?? first?.instancePath?.replace(/^\//, '') ?? 'unknown';
    return illegal(field);
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
    return { status: error.statusCode, code: -1000, msg: error.message };
  return null;
}

function guards(app: FastifyInstance, deps: BotApiDeps, meters: Meters, raw: WeakMap<object, string>) {
  app.addHook('onRequest', async (request, reply) => {
    const bot = request.routeOptions.config.bot;
    if (!bot) return;
    const w = meters.weigh(request.ip, bot.weight((request.query ?? {}) as Params));
    reply.header('x-mbx-used-weight-1m', String(w.used));
    reply.header('x-mbx-used-weight', String(w.used));
    if (w.over) {
      reply.header('retry-after', String(w.retryAfter));
      throw new BinanceRefusal({
        status: 429,
        code: -1003,
        msg: `Too much request weight used; current limit is ${meters.limits.weightPerMinute} request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.`,
      });
    }
  });
  app.addHook('preHandler', async (request, reply) => {
    const bot = request.routeOptions.config.bot;
    if (!bot || bot.security === 'none') return;
    const header = request.headers['x-mbx-apikey'];
    const apiKey = typeof header === 'string' ? header : undefined;
    if (bot.security === 'key') {
      request.botPrincipal = await deps.keys.resolveKey(apiKey, request.ip);
      return;
    }
    const p = paramsOf(request);
    const url = request.raw.url ?? '';
    const at = url.indexOf('?');
    request.botPrincipal = await deps.keys.verifySigned(
      {
        apiKey,
        ip: request.ip,
        query: at < 0 ? '' : url.slice(at + 1),
        body: raw.get(request.raw) ?? '',
        timestamp: p.timestamp,
        recvWindow: p.recvWindow,
      },
      { trade: bot.security === 'trade' },
    );
    if (bot.order) {
      const o = meters.order(request.botPrincipal.customerId);
      reply.header('x-mbx-order-count-10s', String(o.count));
      if (o.over) {
        reply.header('retry-after', String(o.retryAfter));
        throw new BinanceRefusal({
          status: 429,
          code: -1015,
          msg: `Too many new orders; current limit is ${meters.limits.ordersPer10s} orders per 10 SECOND.`,
        });
      }
    }
  });
}

type Handler = (deps: BotApiDeps, principal: KeyPrincipal, p: Params) => unknown;
type PublicHandler = (deps: BotApiDeps, p: Params) => unknown;
const TAGS = ['binance'];

/** The public calls: path, summary, parameters (for the OpenAPI page), weight, handler. */
const PUBLIC: ReadonlyArray<[string, string, string[], BotRoute['weight'], PublicHandler]> = [
  ['/ping', 'Test connectivity', [], () => WEIGHTS.ping, () => ({})],
  [
    '/time',
    "The server's time (the platform clock)",
    [],
    () => WEIGHTS.time,
    (d) => ({ serverTime: d.clock.now().getTime() }),
  ],
  [
    '/exchangeInfo',
    'Spot markets with PRICE_FILTER, LOT_SIZE, MIN_NOTIONAL from the market settings',
    ['symbol', 'symbols'],
    () => WEIGHTS.exchangeInfo,
    data.exchangeInfo,
  ],
  [
    '/depth',
    'Order book of the real book',
    ['symbol', 'limit'],
    (p) => WEIGHTS.depth(data.depthLimit(p)),
    data.depth,
  ],
  ['/trades', 'Recent trades of the real book', ['symbol', 'limit'], () => WEIGHTS.trades, data.trades],
  [
    '/klines',
    "K-lines from the market module's candles",
    ['symbol', 'interval', 'startTime', 'endTime', 'limit'],
    () => WEIGHTS.klines,
    data.klines,
  ],
  [
    '/ticker/24hr',
    '24 h statistics',
    ['symbol', 'symbols'],
    (p) => WEIGHTS.ticker24hr(all(p)),
    data.ticker24hr,
  ],
  [
    '/ticker/price',
    'Last price',
    ['symbol', 'symbols'],
    (p) => WEIGHTS.tickerPrice(all(p)),
    data.tickerPrice,
  ],
  [
    '/ticker/bookTicker',
    'Best bid and ask of the real book',
    ['symbol', 'symbols'],
    (p) => WEIGHTS.bookTicker(all(p)),
    data.bookTicker,
  ],
];

const ORDER_PARAMS = [
  'symbol',
  'side',
  'type',
  'timeInForce',
  'quantity',
  'price',
  'newClientOrderId',
  'newOrderRespType',
];
const ORDER_KEY = ['symbol', 'orderId', 'origClientOrderId'];
const trade = (weight: number, context: ErrorContext, order = false): BotRoute => ({
  weight: () => weight,
  security: 'trade',
  context,
  order,
});
const read = (weight: BotRoute['weight'], context: ErrorContext = 'query'): BotRoute => ({
  weight,
  security: 'signed',
  context,
});

/** The signed calls: method, path, summary, parameters, security and weight, handler. */
const SIGNED: ReadonlyArray<['GET' | 'POST' | 'DELETE', string, string, string[], BotRoute, Handler]> = [
  [
    'POST',
    '/order',
    'New LIMIT, LIMIT_MAKER or MARKET order through the spot service',
    ORDER_PARAMS,
    trade(WEIGHTS.order, 'order', true),
    trading.newOrder,
  ],
  [
    'POST',
    '/order/test',
    'Check a new order against the market rules; nothing is placed',
    ORDER_PARAMS,
    trade(WEIGHTS.orderTest, 'order'),
    trading.testOrder,
  ],
  [
    'DELETE',
    '/order',
    'Cancel an open order',
    ORDER_KEY,
    trade(WEIGHTS.order, 'cancel'),
    trading.cancelOrder,
  ],
  ['GET', '/order', 'One of my orders', ORDER_KEY, read(() => WEIGHTS.getOrder), trading.getOrder],
  [
    'GET',
    '/openOrders',
    'My open orders',
    ['symbol'],
    read((p) => WEIGHTS.openOrders(!p.symbol)),
    trading.openOrders,
  ],
  [
    'GET',
    '/allOrders',
    'My orders of one symbol, open and closed',
    ['symbol', 'orderId', 'startTime', 'endTime', 'limit'],
    read(() => WEIGHTS.allOrders),
    trading.allOrders,
  ],
  [
    'GET',
    '/account',
    'Spot balances from the ledger',
    ['omitZeroBalances'],
    read(() => WEIGHTS.account, 'other'),
    trading.account,
  ],
  [
    'GET',
    '/myTrades',
    'My fills of one symbol',
    ['symbol', 'orderId', 'startTime', 'endTime', 'fromId', 'limit'],
    read(() => WEIGHTS.myTrades),
    trading.myTrades,
  ],
];

function routes(app: FastifyInstance, deps: BotApiDeps): void {
  for (const [url, summary, names, weight, handler] of PUBLIC) {
    app.get(
      url,
      {
        schema: { tags: TAGS, summary, querystring: paramsSchema(names) },
        config: { bot: { weight, security: 'none', context: 'other' } },
      },
      async (request) => handler(deps, paramsOf(request)),
    );
  }
  for (const [method, url, summary, names, bot, handler] of SIGNED) {
    const params = paramsSchema([...names, ...SIGNED_PARAMS]);
    app.route({
      method,
      url,
      schema: {
        tags: TAGS,
        summary: `${summary} (${bot.security === 'trade' ? 'TRADE' : 'USER_DATA'}: signed)`,
        ...(method === 'POST' ? { body: params } : { querystring: params }),
      },
      config: { bot },
      handler: async (request) => handler(deps, request.botPrincipal as KeyPrincipal, paramsOf(request)),
    });
  }
}

/** The user-data stream: listen keys with the API key only (USER_STREAM), the socket by its listen key. */
function streamRoutes(app: FastifyInstance, streams: UserStreams): void {
  const bot = { weight: () => WEIGHTS.userDataStream, security: 'key' as const, context: 'other' as const };
  const listenKey = paramsSchema(['listenKey']);
  const principal = (request: FastifyRequest) => request.botPrincipal as KeyPrincipal;
  app.post(
    '/userDataStream',
    { schema: { tags: TAGS, summary: 'Open a listen key (USER_STREAM: API key)' }, config: { bot } },
    async (request) => streams.open(principal(request)),
  );
  app.put(
    '/userDataStream',
    {
      schema: { tags: TAGS, summary: 'Keep a listen key alive for 60 minutes', querystring: listenKey },
      config: { bot },
    },
    async (request) => streams.keepAlive(principal(request), paramsOf(request).listenKey),
  );
  app.delete(
    '/userDataStream',
    { schema: { tags: TAGS, summary: 'Close a listen key', querystring: listenKey }, config: { bot } },
    async (request) => streams.close(principal(request), paramsOf(request).listenKey),
  );
  app.get('/ws/:listenKey', { websocket: true, schema: { hide: true } }, (socket, request) => {
    streams.attach((request.params as { listenKey: string }).listenKey, socket);
  });
}

/** The form parser keeping the raw body (the signature covers it as sent) and the Binance error handler. */
function plumbing(app: FastifyInstance): WeakMap<object, string> {
  const raw = new WeakMap<object, string>();
  app.removeContentTypeParser('application/x-www-form-urlencoded');
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (request, body, done) => {
      raw.set(request.raw, body as string);
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  app.decorateRequest('botPrincipal', null);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const e = errorOf(error, request);
    // SPOT_LEASES: another process owns the book; the client may retry after this pause.
    if (error instanceof Refusal && error.reason === 'SPOT_BOOK_MOVED')
      reply.header('retry-after', String(error.params.seconds));
    if (e) return sendError(reply, e);
    request.log.error({ err: error }, 'bot API call failed');
    return sendError(reply, UNKNOWN_ERROR);
  });
  return raw;
}

export function botApiRoutes(deps: BotApiDeps) {
  const meters = createMeters(deps.clock, deps.limits);
  const streams = createUserStreams(deps);
  return async (app: FastifyInstance) => {
    const raw = plumbing(app);
    guards(app, deps, meters, raw);
    routes(app, deps);
    streamRoutes(app, streams);
  };
}
