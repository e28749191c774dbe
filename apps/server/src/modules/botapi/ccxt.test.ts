import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { fund, ledgerOf, USDT } from '../assets/testing.ts';
import { customerWithKey } from './testing.ts';

/**
 * The real npm `ccxt` binance class, its URLs pointed at this server on a real TCP port, trading
 * on the real book through the bot API; every answer checked against the platform's own views
 * (the ledger, the spot order list, the market's candles and tickers). ccxt's clock is the test's
 * clock (no wall-clock time reaches the server's timestamp check).
 */

let t: TestApp;
let base: string;
// ccxt is an optional dependency: loaded where it is needed (scripts/check-deps.ts).
let ccxt: typeof import('ccxt');
const BTC = (n: number) => BigInt(Math.round(n * 1e8));

beforeAll(async () => {
  ccxt = await import('ccxt');
  t = await startTestApp({ feedTickMs: 0, simHistoryCandles: 30 });
  await t.app.market.step();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => t?.close());

function client(key: { apiKey: string; secret: string }) {
  const exchange = new ccxt.binance({
    apiKey: key.apiKey,
    secret: key.secret,
    enableRateLimit: false,
    options: {
      defaultType: 'spot',
      fetchMarkets: { types: ['spot'] },
      fetchCurrencies: false,
      fetchMargins: false,
      adjustForTimeDifference: false,
      warnOnFetchOpenOrdersWithoutSymbol: false,
    },
  });
  const api = exchange.urls.api as Record<string, string>;
  api.public = `${base}/api/v3`;
  api.private = `${base}/api/v3`;
  exchange.milliseconds = () => t.clock.now().getTime();
  return exchange;
}

/** The reference mark on the tick grid (2 decimals for BTC/USDT). */
function mark(): number {
  return Math.floor(Number(t.app.market.ticker('BTC/USDT').mark) * 100) / 100;
}

describe('ccxt binance against the bot API', () => {
  it('loads markets, tickers, the book and candles as the platform shows them', async () => {
    const key = await customerWithKey(t, { permission: 'read' });
    const ex = client(key);
    const markets = await ex.loadMarkets();
    const spotMarkets = t.app.spot.markets();
    expect(Object.keys(markets).sort()).toEqual(spotMarkets.map((m) => m.symbol).sort());
    const btc = markets['BTC/USDT'];
    const ours = spotMarkets.find((m) => m.symbol === 'BTC/USDT');
    expect(btc?.id).toBe('BTCUSDT');
    expect(btc?.precision.price).toBe(Number(ours?.price_tick));
    expect(btc?.precision.amount).toBe(Number(ours?.lot_size));
    expect(btc?.limits.amount?.min).toBe(Number(ours?.min_quantity));
    expect(btc?.limits.cost?.min).toBe(Number(ours?.min_notional));
    expect(btc?.active).toBe(true);

    const ticker = await ex.fetchTicker('BTC/USDT');
    expect(ticker.last).toBe(Number(t.app.market.ticker('BTC/USDT').last));

    const ohlcv = await ex.fetchOHLCV('BTC/USDT', '1m', undefined, 10);
    const candles = await t.app.market.kline({ symbol: 'BTC/USDT', interval: '1m', limit: '10' } as never);
    expect(ohlcv.length).toBe(candles.items.length);
    expect(ohlcv.length).toBeGreaterThan(0);
    expect(ohlcv.map((c) => c[0])).toEqual(candles.items.map((c) => c.open_time));
    expect(ohlcv.map((c) => c[4])).toEqual(candles.items.map((c) => Number(c.close)));
  });

  it('trades: limit and market orders, open orders, cancel, balances and fills agree with the ledger and the spot lists', async () => {
    const maker = await customerWithKey(t);
    const taker = await customerWithKey(t);
    await fund(t, maker.customerId, 'BTC', BTC(1));
    await fund(t, taker.customerId, 'USDT', USDT(100_000));
    const ref = mark();
    const mx = client(maker);
    const tx = client(taker);
    await Promise.all([mx.loadMarkets(), tx.loadMarkets()]);

    // The maker rests two asks at the reference price and one tick above.
    const ask1 = await mx.createOrder('BTC/USDT', 'limit', 'sell', 0.01, ref);
    const ask2 = await mx.createOrder('BTC/USDT', 'limit', 'sell', 0.02, ref + 0.01, {
      clientOrderId: 'mm-ask-2',
    });
    expect(ask1.status).toBe('open');
    expect(ask2.clientOrderId).toBe('mm-ask-2');
    const book = await tx.fetchOrderBook('BTC/USDT');
    const depth = t.app.spot.depthOf('BTC/USDT', 'real', 100);
    expect(book.asks.map(([p, q]) => [String(p), String(q)])).toEqual(depth.asks);
    expect(book.asks[0]).toEqual([ref, 0.01]);

    // The taker rests a bid far below, sees it open, cancels it.
    const bid = await tx.createOrder('BTC/USDT', 'limit', 'buy', 0.001, Math.floor(ref * 0.9));
    const open = await tx.fetchOpenOrders('BTC/USDT');
    expect(open.map((o) => o.id)).toEqual([bid.id]);
    const web = await call(t.app, {
      method: 'GET',
      call: 'getCurrentOrders',
      fields: { token: taker.token },
    });
    expect(web.data.items.map((o: { order_id: string }) => o.order_id)).toEqual([bid.id]);
    const cancelled = await tx.cancelOrder(String(bid.id), 'BTC/USDT');
    expect(cancelled.status).toBe('canceled');
    expect(await tx.fetchOpenOrders('BTC/USDT')).toEqual([]);

    // A market buy takes the first ask whole and part of the second.
    const bought = await tx.createOrder('BTC/USDT', 'market', 'buy', 0.015);
    expect(bought.status).toBe('closed');
    expect(bought.filled).toBe(0.015);
    const fills = await tx.fetchMyTrades('BTC/USDT');
    const ours = await call(t.app, { method: 'GET', call: 'getMyTrades', fields: { token: taker.token } });
    expect(fills.map((f) => f.id).sort()).toEqual(
      ours.data.items.map((f: { trade_id: string }) => f.trade_id).sort(),
    );
    expect(fills.map((f) => [f.price, f.amount]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [ref, 0.01],
      [ref + 0.01, 0.005],
    ]);
    expect(fills.every((f) => f.order === bought.id && f.takerOrMaker === 'taker')).toBe(true);

    // Balances: what ccxt reads is the ledger's spot account.
    const balance = (await tx.fetchBalance()) as unknown as Record<'free' | 'used', Record<string, number>>;
    const ledger = ledgerOf(t);
    const [usdt, btc] = await Promise.all(
      ['USDT', 'BTC'].map((currency) =>
        ledger.balance(t.db, { book: 'real', customerId: taker.customerId, accountType: 'spot', currency }),
      ),
    );
    expect(balance.free.BTC).toBe(Number(btc?.availableUnits) / 1e8);
    expect(balance.free.BTC).toBe(0.015);
    expect(balance.free.USDT).toBe(Number(usdt?.availableUnits) / 1e8);
    expect(balance.used.USDT).toBe(0);

    // The maker's remaining ask is still open, as the spot list says.
    const makerOpen = await mx.fetchOpenOrders('BTC/USDT');
    expect(makerOpen.map((o) => [o.id, o.remaining])).toEqual([[ask2.id, 0.015]]);
    expect(await t.app.spot.checkFrozen()).toEqual([]);
    expect((await ledger.verify()).ok).toBe(true);
  });

  it('streams order changes and balances to a listen key; unknown and expired keys are refused', async () => {
    const key = await customerWithKey(t);
    await fund(t, key.customerId, 'USDT', USDT(1000));
    const headers = { 'x-mbx-apikey': key.apiKey };
    const opened = (await (
      await fetch(`${base}/api/v3/userDataStream`, { method: 'POST', headers })
    ).json()) as {
      listenKey: string;
    };
    expect(opened.listenKey).toMatch(/^[\w-]{40}$/);
    const again = await (await fetch(`${base}/api/v3/userDataStream`, { method: 'POST', headers })).json();
    expect((again as { listenKey: string }).listenKey).toBe(opened.listenKey);
    const noKey = await fetch(`${base}/api/v3/userDataStream`, { method: 'POST' });
    expect(noKey.status).toBe(401);

    const events: Array<Record<string, unknown>> = [];
    const socket = new WebSocket(`${base.replace('http', 'ws')}/api/v3/ws/${opened.listenKey}`);
    socket.on('message', (data) => events.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const waitFor = async (match: (e: Record<string, unknown>) => boolean) => {
      for (let i = 0; i < 100; i++) {
        const found = events.find(match);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`no such event in ${JSON.stringify(events)}`);
    };

    const ex = client(key);
    await ex.loadMarkets();
    const bid = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, Math.floor(mark() * 0.9));
    const created = await waitFor((e) => e.e === 'executionReport' && e.i === bid.id);
    expect(created).toMatchObject({ s: 'BTCUSDT', x: 'NEW', X: 'NEW', S: 'BUY', o: 'LIMIT', q: '0.001' });
    const position = await waitFor((e) => e.e === 'outboundAccountPosition');
    const usdt = (position.B as Array<{ a: string; f: string; l: string }>).find((b) => b.a === 'USDT');
    const ledger = await ledgerOf(t).balance(t.db, {
      book: 'real',
      customerId: key.customerId,
      accountType: 'spot',
      currency: 'USDT',
    });
    expect(usdt?.l).toBe(String(Number(ledger.frozenUnits) / 1e8));
    await ex.cancelOrder(String(bid.id), 'BTC/USDT');
    expect(
      await waitFor((e) => e.e === 'executionReport' && e.i === bid.id && e.x === 'CANCELED'),
    ).toMatchObject({ X: 'CANCELED' });

    const keepAlive = await fetch(`${base}/api/v3/userDataStream?listenKey=${opened.listenKey}`, {
      method: 'PUT',
      headers,
    });
    expect(keepAlive.status).toBe(200);
    const unknown = await fetch(`${base}/api/v3/userDataStream?listenKey=nope`, { method: 'PUT', headers });
    expect(await unknown.json()).toEqual({ code: -1125, msg: 'This listenKey does not exist.' });
    const stranger = new WebSocket(`${base.replace('http', 'ws')}/api/v3/ws/nope`);
    const code = await new Promise((resolve) => stranger.once('close', resolve));
    expect(code).toBe(4001);

    // 60 minutes without a keep-alive: the key is gone, the socket told and closed.
    t.clock.advance(60 * 60_000 + 1);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    const late = await fetch(`${base}/api/v3/userDataStream?listenKey=${opened.listenKey}`, {
      method: 'PUT',
      headers,
    });
    expect(((await late.json()) as { code: number }).code).toBe(-1125);
    await closed;
    expect(events.some((e) => e.e === 'listenKeyExpired')).toBe(true);
  });
});
