import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { fund, ledgerOf, USDT } from '../assets/testing.ts';
import { orderFromRow } from '../spot/repo.ts';
import { binanceErrorOf } from './errors.ts';
import { customerWithKey, type Signed, signed } from './testing.ts';
import { createMeters, WEIGHTS } from './weights.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
  await t.app.market.step();
});
afterAll(async () => t?.close());

const now = () => t.clock.now().getTime();
type Key = Awaited<ReturnType<typeof customerWithKey>>;
const account = (key: Key, options: Partial<Parameters<typeof signed>[5]> = {}) =>
  signed(t.app, key, 'GET', '/account', {}, { timestamp: now(), ...options });

function expectError(answer: Signed, status: number, code: number) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body).toMatchObject({ code });
  expect(Object.keys(answer.body as object).sort()).toEqual(['code', 'msg']);
}

async function orderCount(customerId: string) {
  const r = await t.db
    .selectFrom('spot_order')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('customer_id', '=', customerId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

function mark(): string {
  return String(Math.floor(Number(t.app.market.ticker('BTC/USDT').mark) * 100) / 100);
}

describe('signed calls', () => {
  it('calls arriving together each find their own key; revoking or disabling counts from the next call; last use written once a minute', async () => {
    const keys = await Promise.all([customerWithKey(t), customerWithKey(t), customerWithKey(t)]);
    const lastUsed = async (id: string) =>
      (
        await t.db
          .selectFrom('apikeys_key')
          .select('last_used_at')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).last_used_at?.getTime() ?? null;
    // One turn: the three look-ups go in one query, each call answered for its own customer.
    const answers = await Promise.all(keys.map((k) => account(k)));
    for (const a of answers) expect(a.status).toBe(200);
    const [a, b, c] = keys as [Key, Key, Key];
    const usedAt = now();
    expect(await lastUsed(a.keyId)).toBe(usedAt);
    // Within the minute: used again, not written again; a minute on: written.
    t.clock.advance(30_000);
    expect((await account(a)).status).toBe(200);
    expect(await lastUsed(a.keyId)).toBe(usedAt);
    t.clock.advance(30_001);
    expect((await account(a)).status).toBe(200);
    expect(await lastUsed(a.keyId)).toBe(now());
    // Used, then revoked: the next call is refused (nothing of the key is kept between calls).
    await t.app.apiKeys.revoke(
      { customerId: b.customerId, sessionId: 's', isDemo: false, token: '' },
      b.keyId,
      {
        ip: '127.0.0.1',
      },
    );
    // The customer disabled by staff: their key stops at the next call too.
    await t.db
      .updateTable('accounts_customer')
      .set({ status: 'disabled' })
      .where('id', '=', c.customerId)
      .execute();
    const after = await Promise.all(keys.map((k) => account(k)));
    expect(after[0]?.status).toBe(200);
    expectError(after[1] as Signed, 401, -2015);
    expectError(after[2] as Signed, 401, -2015);
    await t.db
      .updateTable('accounts_customer')
      .set({ status: 'active' })
      .where('id', '=', c.customerId)
      .execute();
    expect((await account(c)).status).toBe(200);
  });

  it('a call refused for its signature, its timestamp or its permission is not a use of the key', async () => {
    const key = await customerWithKey(t, { permission: 'read' });
    const lastUsed = async () =>
      (
        await t.db
          .selectFrom('apikeys_key')
          .select('last_used_at')
          .where('id', '=', key.keyId)
          .executeTakeFirstOrThrow()
      ).last_used_at?.getTime() ?? null;
    expectError(await account(key, { secret: 'f'.repeat(64) }), 400, -1022);
    expectError(await account(key, { timestamp: now() - 60_000 }), 400, -1021);
    const order = {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.001',
      price: '10000',
    };
    expectError(await signed(t.app, key, 'POST', '/order', order, { timestamp: now() }), 401, -2015);
    expect(await lastUsed()).toBeNull();
    expect((await account(key)).status).toBe(200);
    expect(await lastUsed()).toBe(now());
  });

  it('accepts a good signature and refuses a bad one, a stale or future timestamp, a wide window', async () => {
    const key = await customerWithKey(t);
    expect((await account(key)).status).toBe(200);
    expectError(await account(key, { secret: 'f'.repeat(64) }), 400, -1022);
    expectError(await account(key, { timestamp: now() - 5001 }), 400, -1021);
    expect((await account(key, { timestamp: now() - 5001, recvWindow: '10000' })).status).toBe(200);
    expectError(await account(key, { timestamp: now() - 60_001, recvWindow: '60000' }), 400, -1021);
    expectError(await account(key, { timestamp: now() + 1000 }), 400, -1021);
    expectError(await account(key, { recvWindow: '60001' }), 400, -1100);
    const unsigned = await t.app.inject({
      method: 'GET',
      url: `/api/v3/account?timestamp=${now()}`,
      headers: { 'x-mbx-apikey': key.apiKey },
    });
    expectError({ status: unsigned.statusCode, body: unsigned.json(), headers: {} }, 400, -1102);
    const noKey = await t.app.inject({
      method: 'GET',
      url: `/api/v3/account?timestamp=${now()}&signature=${'0'.repeat(64)}`,
    });
    expectError({ status: noKey.statusCode, body: noKey.json(), headers: {} }, 401, -2015);
  });

  it('refuses an address outside the allow-list, a revoked and an expired key, and a read key that trades', async () => {
    const fenced = await customerWithKey(t, { ips: '10.0.0.0/8' });
    expectError(await account(fenced), 401, -2015);
    expect((await account(fenced, { remoteAddress: '10.1.2.3' })).status).toBe(200);

    const revoked = await customerWithKey(t);
    await t.app.apiKeys.revoke(
      { customerId: revoked.customerId, sessionId: 's', isDemo: false, token: '' },
      revoked.keyId,
      { ip: '127.0.0.1' },
    );
    expectError(await account(revoked), 401, -2015);

    const expiring = await customerWithKey(t, { expiresDays: '1' });
    const reader = await customerWithKey(t, { permission: 'read' });
    await fund(t, reader.customerId, 'USDT', USDT(1000));
    const order = {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.001',
      price: '10000',
    };
    expectError(await signed(t.app, reader, 'POST', '/order', order, { timestamp: now() }), 401, -2015);
    expect(await orderCount(reader.customerId)).toBe(0);
    expect((await account(reader)).body).toMatchObject({ canTrade: false, canWithdraw: false });
    t.clock.advance(86_400_000);
    expectError(await account(expiring), 401, -2015);
    expect((await account(reader)).status).toBe(200);
  });
});

describe('errors in Binance shape', () => {
  it('maps invalid symbols, missing parameters, filters, unknown orders and balances', async () => {
    const key = await customerWithKey(t);
    const post = (params: Record<string, string>) =>
      signed(t.app, key, 'POST', '/order', params, { timestamp: now() });
    const limit = {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.001',
      price: '10000',
    };
    const depth = await t.app.inject({ method: 'GET', url: '/api/v3/depth?symbol=NOPEUSDT' });
    expectError({ status: depth.statusCode, body: depth.json(), headers: {} }, 400, -1121);
    const klines = await t.app.inject({ method: 'GET', url: '/api/v3/klines?symbol=BTCUSDT&interval=7m' });
    expectError({ status: klines.statusCode, body: klines.json(), headers: {} }, 400, -1120);
    expectError(await post({ ...limit, symbol: 'NOPE' }), 400, -1121);
    const { quantity: _q, ...noQuantity } = limit;
    expectError(await post(noQuantity), 400, -1102);
    expectError(await post({ ...limit, timeInForce: 'DAY' }), 400, -1115);
    expectError(await post({ ...limit, type: 'STOP_LOSS' }), 400, -1116);
    expectError(await post({ ...limit, price: '10000.001' }), 400, -1013);
    expect((await post({ ...limit, price: '10000.001' })).body).toMatchObject({
      msg: 'Filter failure: PRICE_FILTER',
    });
    expect((await post({ ...limit, quantity: '0.0000001' })).body).toMatchObject({
      msg: 'Filter failure: LOT_SIZE',
    });
    expect((await post({ ...limit, quantity: '0.0001' })).body).toMatchObject({
      msg: 'Filter failure: MIN_NOTIONAL',
    });
    expectError(await post({ ...limit, newClientOrderId: 'has space' }), 400, -1100);
    expectError(await post(limit), 400, -2010);
    expect((await post(limit)).body).toMatchObject({
      msg: 'Account has insufficient balance for requested action.',
    });
    expectError(
      await signed(
        t.app,
        key,
        'GET',
        '/order',
        { symbol: 'BTCUSDT', orderId: 'ord_nope' },
        { timestamp: now() },
      ),
      400,
      -2013,
    );
    expectError(
      await signed(
        t.app,
        key,
        'DELETE',
        '/order',
        { symbol: 'BTCUSDT', orderId: 'ord_nope' },
        { timestamp: now() },
      ),
      400,
      -2011,
    );
    expect(await orderCount(key.customerId)).toBe(0);
  });

  it('falls back to the refusal text with -1000 (or -2010 for a new order) where Binance has no case', () => {
    expect(binanceErrorOf('PRICE_STALE', { symbol: 'BTC/USDT', seconds: 30 }, 'order')).toMatchObject({
      status: 400,
      code: -2010,
    });
    expect(binanceErrorOf('PRICE_STALE', { symbol: 'BTC/USDT', seconds: 30 }, 'other')).toMatchObject({
      status: 400,
      code: -1000,
    });
    expect(binanceErrorOf('PRICE_STALE', { symbol: 'BTC/USDT', seconds: 30 }, 'other').msg).toContain(
      'BTC/USDT',
    );
    expect(binanceErrorOf('NOT_FOUND', {}, 'cancel').code).toBe(-2011);
    expect(binanceErrorOf('NOT_FOUND', {}, 'query').code).toBe(-2013);
  });

  it('a book another process owns (SPOT_LEASES) is -1001 DISCONNECTED with HTTP 503: retry', () => {
    for (const context of ['order', 'cancel', 'other'] as const)
      expect(binanceErrorOf('SPOT_BOOK_MOVED', { symbol: 'BTC/USDT', seconds: 3 }, context)).toEqual({
        status: 503,
        code: -1001,
        msg: 'Internal error; unable to process your request. Please try again.',
      });
  });
});

describe('orders', () => {
  it('places, queries by client id, lists and cancels through the spot service; a test order places nothing', async () => {
    const key = await customerWithKey(t);
    await fund(t, key.customerId, 'USDT', USDT(1000));
    const order = {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.001',
      price: '10000',
    };
    const tested = await signed(t.app, key, 'POST', '/order/test', order, { timestamp: now() });
    expect(tested).toMatchObject({ status: 200, body: {} });
    expect(await orderCount(key.customerId)).toBe(0);
    const placed = await signed(
      t.app,
      key,
      'POST',
      '/order',
      { ...order, newClientOrderId: 'bot-1' },
      { timestamp: now() },
    );
    expect(placed.body).toMatchObject({
      symbol: 'BTCUSDT',
      clientOrderId: 'bot-1',
      status: 'NEW',
      price: '10000',
      origQty: '0.001',
      fills: [],
    });
    expect(placed.headers['x-mbx-order-count-10s']).toBe('1');
    const orderId = (placed.body as { orderId: string }).orderId;
    // The same newClientOrderId again answers the same order (a retried request places nothing new).
    const again = await signed(
      t.app,
      key,
      'POST',
      '/order',
      { ...order, newClientOrderId: 'bot-1' },
      { timestamp: now() },
    );
    expect((again.body as { orderId: string }).orderId).toBe(orderId);
    expect(await orderCount(key.customerId)).toBe(1);
    const q = await signed(
      t.app,
      key,
      'GET',
      '/order',
      { symbol: 'BTCUSDT', origClientOrderId: 'bot-1' },
      { timestamp: now() },
    );
    expect(q.body).toMatchObject({ orderId, status: 'NEW', isWorking: true });
    const wrongSymbol = await signed(
      t.app,
      key,
      'GET',
      '/order',
      { symbol: 'ETHUSDT', orderId },
      { timestamp: now() },
    );
    expectError(wrongSymbol, 400, -2013);
    const open = await signed(t.app, key, 'GET', '/openOrders', {}, { timestamp: now() });
    expect((open.body as Array<{ orderId: string }>).map((o) => o.orderId)).toEqual([orderId]);
    const acct = (await account(key)).body as {
      balances: Array<{ asset: string; free: string; locked: string }>;
    };
    expect(acct.balances.find((b) => b.asset === 'USDT')).toMatchObject({ locked: '10.02', free: '989.98' });

    // Two cancels race: one cancels, the other finds nothing open.
    const [a, b] = await Promise.all(
      [1, 2].map(() =>
        signed(t.app, key, 'DELETE', '/order', { symbol: 'BTCUSDT', orderId }, { timestamp: now() }),
      ),
    );
    expect([a?.status, b?.status].sort()).toEqual([200, 400]);
    const lost = a?.status === 400 ? a : b;
    expect(lost?.body).toMatchObject({ code: -2011 });
    const all = await signed(t.app, key, 'GET', '/allOrders', { symbol: 'BTCUSDT' }, { timestamp: now() });
    expect(all.body).toMatchObject([{ orderId, status: 'CANCELED' }]);
    const usdt = await ledgerOf(t).balance(t.db, {
      book: 'real',
      customerId: key.customerId,
      accountType: 'spot',
      currency: 'USDT',
    });
    expect(usdt).toMatchObject({ availableUnits: USDT(1000), frozenUnits: 0n });
    expect(await t.app.spot.checkFrozen()).toEqual([]);
  });

  it('fills a market order against a resting one; fills and balances from the ledger', async () => {
    const maker = await customerWithKey(t);
    const taker = await customerWithKey(t);
    await fund(t, maker.customerId, 'BTC', 10_000_000n);
    await fund(t, taker.customerId, 'USDT', USDT(100_000));
    // The clock moved on (an expired key above): a fresh tick for the market order's reference price.
    await t.app.market.step();
    const price = mark();
    const ask = await signed(
      t.app,
      maker,
      'POST',
      '/order',
      { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT_MAKER', quantity: '0.01', price },
      { timestamp: now() },
    );
    expect(ask.body).toMatchObject({ type: 'LIMIT_MAKER', status: 'NEW' });
    const buy = await signed(
      t.app,
      taker,
      'POST',
      '/order',
      { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.004' },
      { timestamp: now() },
    );
    expect(buy.body).toMatchObject({
      status: 'FILLED',
      executedQty: '0.004',
      type: 'MARKET',
      timeInForce: 'IOC',
    });
    const fills = (buy.body as { fills: Array<{ price: string; qty: string; commissionAsset: string }> })
      .fills;
    expect(fills).toMatchObject([{ price, qty: '0.004', commissionAsset: 'USDT' }]);
    // The answer's fills came from the order's own batch; read back from the trades (as an order
    // another process answered is), they are the same.
    const orderRow = await t.db
      .selectFrom('spot_order')
      .selectAll()
      .where('id', '=', String((buy.body as { orderId: string }).orderId))
      .executeTakeFirstOrThrow();
    const readBack = await t.app.spot.arrivalFills(
      { customerId: taker.customerId, sessionId: 's', isDemo: false, token: '' },
      orderFromRow(orderRow),
    );
    expect(
      readBack.map((f) => ({
        price: f.price,
        qty: f.quantity,
        commission: f.fee,
        commissionAsset: f.fee_currency,
        tradeId: f.trade_id,
      })),
    ).toEqual(fills);
    const mine = await signed(t.app, taker, 'GET', '/myTrades', { symbol: 'BTCUSDT' }, { timestamp: now() });
    expect(mine.body).toMatchObject([{ price, qty: '0.004', isBuyer: true, isMaker: false }]);
    const theirs = await signed(
      t.app,
      maker,
      'GET',
      '/myTrades',
      { symbol: 'BTCUSDT' },
      { timestamp: now() },
    );
    expect(theirs.body).toMatchObject([{ price, qty: '0.004', isBuyer: false, isMaker: true }]);
    const acct = (await account(taker)).body as { balances: Array<{ asset: string; free: string }> };
    expect(acct.balances.find((b) => b.asset === 'BTC')?.free).toBe('0.004');
    const prints = await t.app.inject({ method: 'GET', url: '/api/v3/trades?symbol=BTCUSDT&limit=5' });
    expect(prints.json().at(-1)).toMatchObject({ price, qty: '0.004', isBuyerMaker: false });
    expect((await ledgerOf(t).verify()).ok).toBe(true);
  });
});

describe('weights', () => {
  it('reports the weight used in the minute, by Binance weights, and starts again the next minute', async () => {
    t.clock.advance(60_000 - (now() % 60_000));
    const ip = { remoteAddress: '192.0.2.10' };
    const info = await t.app.inject({ method: 'GET', url: '/api/v3/exchangeInfo', ...ip });
    expect(info.headers['x-mbx-used-weight-1m']).toBe(String(WEIGHTS.exchangeInfo));
    const depth = await t.app.inject({ method: 'GET', url: '/api/v3/depth?symbol=BTCUSDT&limit=500', ...ip });
    expect(depth.headers['x-mbx-used-weight-1m']).toBe(String(WEIGHTS.exchangeInfo + 25));
    const tickers = await t.app.inject({ method: 'GET', url: '/api/v3/ticker/24hr', ...ip });
    expect(tickers.headers['x-mbx-used-weight-1m']).toBe(String(WEIGHTS.exchangeInfo + 25 + 80));
    t.clock.advance(60_000);
    const ping = await t.app.inject({ method: 'GET', url: '/api/v3/ping', ...ip });
    expect(ping.headers['x-mbx-used-weight-1m']).toBe('1');
  });

  it('refuses 429 / -1003 with Retry-After over the minute limit, and -1015 over the orders in 10 s', async () => {
    t.clock.advance(60_000 - (now() % 60_000));
    const ip = { remoteAddress: '192.0.2.11' };
    for (let i = 0; i < 24; i++) {
      const r = await t.app.inject({ method: 'GET', url: '/api/v3/depth?symbol=BTCUSDT&limit=5000', ...ip });
      expect(r.statusCode).toBe(200);
    }
    const over = await t.app.inject({ method: 'GET', url: '/api/v3/ping', ...ip });
    expectError({ status: over.statusCode, body: over.json(), headers: {} }, 429, -1003);
    expect(over.headers['retry-after']).toBe('60');
    t.clock.advance(30_000);
    expect((await t.app.inject({ method: 'GET', url: '/api/v3/ping', ...ip })).headers['retry-after']).toBe(
      '30',
    );

    const meters = createMeters(t.clock, { weightPerMinute: 10, ordersPer10s: 2 });
    expect([1, 2, 3].map(() => meters.order('c').over)).toEqual([false, false, true]);
    expect(meters.weigh('x', 10).over).toBe(false);
    expect(meters.weigh('x', 1)).toMatchObject({ used: 11, over: true });

    const key = await customerWithKey(t);
    t.clock.advance(10_000 - (now() % 10_000));
    const bad = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '1000' };
    let last: Signed | undefined;
    for (let i = 0; i < 101; i++)
      last = await signed(t.app, key, 'POST', '/order', bad, {
        timestamp: now(),
        remoteAddress: '192.0.2.12',
      });
    expect(last && expectError(last, 429, -1015)).toBeUndefined();
    expect(await orderCount(key.customerId)).toBe(0);
  });
});

describe('documentation', () => {
  it('lists the bot API in the OpenAPI page', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    for (const path of ['/api/v3/exchangeInfo', '/api/v3/klines', '/api/v3/order', '/api/v3/myTrades'])
      expect(doc.paths[path], path).toBeDefined();
    expect(Object.keys(doc.paths['/api/v3/order'] ?? {}).sort()).toEqual(['delete', 'get', 'post']);
    expect(doc.paths['/api/web/createApiKey']).toBeDefined();
  });
});
