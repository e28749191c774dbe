import { ASSET_CLASSES, KLINE_INTERVALS } from '@bourse/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { Refusal } from '../../http/refusal.ts';

/** The clock starts Saturday 2026-11-21 04:00 UTC (set here, whatever BOURSE_TEST_NOW): crypto trades, forex and stocks are closed. */
let t: TestApp;
const STALE_MS = 30_000;
beforeAll(async () => {
  t = await startTestApp(
    { feedTickMs: 0, staleAfterMs: STALE_MS },
    { now: new Date('2026-11-21T04:00:00Z') },
  );
});
afterAll(async () => t.close());

const get = (name: string, fields: Record<string, string> = {}) =>
  call(t.app, { method: 'GET', call: name, fields });

function refusalOf(work: () => unknown): Refusal {
  try {
    work();
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** Steps the feed `n` times, `everyMs` apart, then waits for the recorder. */
async function steps(n: number, everyMs = 1_000): Promise<void> {
  for (let i = 0; i < n; i++) {
    t.clock.advance(everyMs);
    await t.app.market.step();
  }
  await t.app.market.flushRecorder();
}

describe('catalogue', () => {
  it('seeds a default catalogue of at least 60 instruments across every asset class', async () => {
    const all = await get('getInstruments');
    expect(all.code).toBe(1);
    expect(all.data.total).toBeGreaterThanOrEqual(60);
    const classes = new Set(all.data.items.map((i: { class: string }) => i.class));
    expect([...classes].sort()).toEqual([...ASSET_CLASSES].sort());
    const aapl = all.data.items.find((i: { symbol: string }) => i.symbol === 'AAPL');
    expect(aapl).toMatchObject({
      class: 'stock',
      price_tick: '0.01',
      price_scale: 2,
      trading_hours: 'America/New_York Mon-Fri 09:30-16:00',
      status: 'active',
      max_leverage: 20,
    });
    const delivery = all.data.items.find((i: { symbol: string }) => i.symbol === 'BTC/USDT-261225');
    expect(delivery.expiry_at).toBe(Date.parse('2026-12-25T08:00:00Z'));
  });

  it('filters by class and searches symbol (with or without separators), name and base', async () => {
    const forex = await get('getInstruments', { class: 'forex' });
    expect(forex.data.items.every((i: { class: string }) => i.class === 'forex')).toBe(true);
    expect(forex.data.total).toBeGreaterThanOrEqual(10);
    const search = await get('getTickers', { search: 'btcusdt' });
    expect(search.data.items.map((i: { symbol: string }) => i.symbol)).toContain('BTC/USDT');
    const byName = await get('getTickers', { search: 'gold' });
    expect(byName.data.items.map((i: { symbol: string }) => i.symbol)).toContain('XAU/USD');
  });
});

describe('reference prices', () => {
  it('before any tick: the seed price, labelled as the reference, and never tradeable', async () => {
    const answer = await get('getTickers', { symbols: 'BTC/USDT,AAPL' });
    const [btc, aapl] = answer.data.items;
    expect(btc).toMatchObject({
      symbol: 'BTC/USDT',
      last: '95120.50',
      source: 'reference',
      state: 'stale',
      stale: true,
    });
    expect(aapl).toMatchObject({ symbol: 'AAPL', state: 'closed', stale: false });
    expect(refusalOf(() => t.app.market.priceForTrading('BTC/USDT')).reason).toBe('PRICE_STALE');
  });

  it('the feed prices open markets; closed ones stay closed and refuse to trade', async () => {
    await steps(5);
    const btc = (await get('getTickers', { symbols: 'BTC/USDT' })).data.items[0];
    expect(btc).toMatchObject({ state: 'live', stale: false, source: 'sim', price_scale: 2 });
    expect(btc.last).toMatch(/^\d+\.\d{2}$/);
    expect(btc.updated_at).toBe(t.clock.now().getTime());
    for (const field of [
      'bid',
      'ask',
      'mark',
      'open_24h',
      'high_24h',
      'low_24h',
      'volume_24h',
      'turnover_24h',
    ]) {
      expect(typeof btc[field]).toBe('string');
    }
    const price = t.app.market.priceForTrading('BTC/USDT');
    expect(price).toMatchObject({
      symbol: 'BTC/USDT',
      source: 'sim',
      last: btc.last,
      bid: btc.bid,
      ask: btc.ask,
    });
    expect(price.bidTicks).toBeLessThan(price.askTicks);
    const closed = refusalOf(() => t.app.market.priceForTrading('AAPL'));
    expect(closed.reason).toBe('MARKET_CLOSED');
    expect(closed.params).toEqual({ symbol: 'AAPL', hours: 'America/New_York Mon-Fri 09:30-16:00' });
    expect(refusalOf(() => t.app.market.priceForTrading('EUR/USD')).reason).toBe('MARKET_CLOSED');
    expect(refusalOf(() => t.app.market.priceForTrading('NOPE')).reason).toBe('INSTRUMENT_UNKNOWN');
  });

  it('a feed that stops is noticed: stale after STALE_AFTER_MS, in tickers and for trading', async () => {
    t.clock.advance(STALE_MS + 1);
    const changed = t.app.market.sweep();
    expect(changed.length).toBeGreaterThan(0);
    const btc = (await get('getTickers', { symbols: 'BTC/USDT' })).data.items[0];
    expect(btc).toMatchObject({ state: 'stale', stale: true });
    const stale = refusalOf(() => t.app.market.priceForTrading('BTC/USDT'));
    expect(stale.reason).toBe('PRICE_STALE');
    expect(stale.params).toEqual({ symbol: 'BTC/USDT', seconds: 30 });
    await steps(1);
    expect(t.app.market.priceForTrading('BTC/USDT').source).toBe('sim');
  });

  it('stocks open with their exchange and close again', async () => {
    t.clock.set(new Date('2026-11-23T14:29:00Z')); // Monday 09:29 New York
    await steps(3);
    expect((await get('getTickers', { symbols: 'AAPL' })).data.items[0].source).toBe('reference');
    t.clock.set(new Date('2026-11-23T14:30:00Z'));
    await steps(3);
    const open = (await get('getTickers', { symbols: 'AAPL' })).data.items[0];
    expect(open).toMatchObject({ state: 'live', source: 'sim' });
    t.clock.set(new Date('2026-11-23T21:00:00Z')); // 16:00 New York
    t.app.market.sweep();
    await steps(3);
    const after = (await get('getTickers', { symbols: 'AAPL' })).data.items[0];
    expect(after.state).toBe('closed');
    expect(after.updated_at).toBeLessThan(Date.parse('2026-11-23T21:00:00Z'));
  });

  it('sorts and pages the tickers', async () => {
    const byChange = await get('getTickers', { sort: 'change', order: 'desc', page_size: '500' });
    const pct = byChange.data.items.map((i: { change_pct_24h: string }) => i.change_pct_24h);
    const asNumbers = pct.map((p: string) => Math.round(Number(p) * 100));
    expect(asNumbers).toEqual([...asNumbers].sort((a, b) => b - a));
    const page2 = await get('getTickers', { page: '2', page_size: '10' });
    const page1 = await get('getTickers', { page: '1', page_size: '10' });
    expect(page2.data.items[0].symbol).not.toBe(page1.data.items[0].symbol);
    expect(page1.data.total).toBe(byChange.data.total);
  });
});

describe('K-lines', () => {
  it('serves stored candles, newest last, with limit and end_time; the open candle is live', async () => {
    t.clock.set(new Date('2026-11-24T00:00:00Z'));
    await steps(400, 15_000); // 100 minutes
    const kline = await get('getKline', { symbol: 'BTC/USDT', interval: '15m', limit: '4' });
    expect(kline.code).toBe(1);
    expect(kline.data).toMatchObject({ symbol: 'BTC/USDT', interval: '15m', price_scale: 2 });
    const times = kline.data.items.map((c: { open_time: number }) => c.open_time);
    expect(times).toHaveLength(4);
    expect(
      times.every((time: number, i: number) => i === 0 || time - (times[i - 1] as number) === 900_000),
    ).toBe(true);
    const lastCandle = kline.data.items[3];
    expect(lastCandle.close).toBe((await get('getTickers', { symbols: 'BTC/USDT' })).data.items[0].last);
    const earlier = await get('getKline', {
      symbol: 'BTC/USDT',
      interval: '15m',
      limit: '2',
      end_time: String(times[1]),
    });
    expect(earlier.data.items.map((c: { open_time: number }) => c.open_time)).toEqual([times[0], times[1]]);
  });

  it('candles rebuilt from the recorded ticks equal the stored ones, for every interval', async () => {
    const window = { fromMs: 0, toMs: Date.parse('2027-01-01T00:00:00Z') };
    for (const symbol of ['BTC/USDT', 'EUR/USD', 'AAPL', 'SHIB/USDT']) {
      for (const interval of KLINE_INTERVALS) {
        const stored = await t.app.market.storedCandles({ symbol, interval, ...window });
        const rebuilt = await t.app.market.rebuildCandles({ symbol, interval, ...window });
        expect(stored.length, `${symbol} ${interval}`).toBeGreaterThan(0);
        expect(rebuilt, `${symbol} ${interval}`).toEqual(stored);
      }
    }
  });

  it('records every tick with its source and time', async () => {
    const ticks = await t.db.selectFrom('market_tick').select(['source', 'at']).execute();
    expect(ticks.length).toBeGreaterThan(400);
    expect(new Set(ticks.map((r) => r.source))).toEqual(new Set(['sim']));
    const cursor = await t.db.selectFrom('market_feed_cursor').selectAll().executeTakeFirstOrThrow();
    expect(Number(cursor.tick_seq)).toBe(ticks.length);
  });
});

describe('bad input is refused with a reason, never a 500', () => {
  it.each([
    ['getKline', { symbol: 'NOPE/USD', interval: '1m' }, 404, 'INSTRUMENT_UNKNOWN', { symbol: 'NOPE/USD' }],
    ['getKline', { symbol: 'BTC/USDT', interval: '2m' }, 400, 'BAD_INPUT', { field: 'interval' }],
    ['getKline', { symbol: 'BTC/USDT' }, 400, 'FIELD_REQUIRED', { field: 'interval' }],
    ['getKline', { interval: '1m' }, 400, 'FIELD_REQUIRED', { field: 'symbol' }],
    [
      'getKline',
      { symbol: 'BTC/USDT', interval: '1m', limit: '1001' },
      400,
      'LIMIT_TOO_LARGE',
      { field: 'limit', max: 1000 },
    ],
    ['getKline', { symbol: 'BTC/USDT', interval: '1m', limit: '0' }, 400, 'BAD_INPUT', { field: 'limit' }],
    ['getKline', { symbol: 'BTC/USDT', interval: '1m', limit: '-5' }, 400, 'BAD_INPUT', { field: 'limit' }],
    ['getKline', { symbol: 'BTC/USDT', interval: '1m', limit: '1e3' }, 400, 'BAD_INPUT', { field: 'limit' }],
    [
      'getKline',
      { symbol: 'BTC/USDT', interval: '1m', end_time: 'yesterday' },
      400,
      'BAD_INPUT',
      { field: 'end_time' },
    ],
    [
      'getKline',
      { symbol: 'BTC/USDT', interval: '1m', end_time: '9999999999999999' },
      400,
      'BAD_INPUT',
      { field: 'end_time' },
    ],
    [
      'getKline',
      { symbol: 'x'.repeat(40), interval: '1m' },
      400,
      'FIELD_TOO_LONG',
      { field: 'symbol', max: 32 },
    ],
    [
      'getKline',
      { symbol: 'BTC/USDT', interval: '1m', extra: '1' },
      400,
      'UNKNOWN_FIELD',
      { field: 'extra' },
    ],
    ['getTickers', { class: 'bonds' }, 400, 'BAD_INPUT', { field: 'class' }],
    ['getTickers', { sort: 'price' }, 400, 'BAD_INPUT', { field: 'sort' }],
    ['getTickers', { page_size: '501' }, 400, 'LIMIT_TOO_LARGE', { field: 'page_size', max: 500 }],
    ['getTickers', { page: '0' }, 400, 'BAD_INPUT', { field: 'page' }],
    ['getTickers', { search: 's'.repeat(33) }, 400, 'FIELD_TOO_LONG', { field: 'search', max: 32 }],
    ['getInstruments', { page_size: '1001' }, 400, 'LIMIT_TOO_LARGE', { field: 'page_size', max: 1000 }],
  ])('%s %o → %s %s', async (name, fields, status, reason, params) => {
    const answer = await get(name, fields as Record<string, string>);
    expect(answer.status).toBe(status);
    expect(answer.code).toBe(status);
    expect(answer.reason).toBe(reason);
    expect(answer.params).toEqual(params);
    expect(answer.msg).not.toMatch(/\{\{/);
  });

  it('answers in the asked language', async () => {
    const zh = await get('getKline', { symbol: 'NOPE', interval: '1m', lang: 'zh' });
    expect(zh.msg).toBe('不存在代码为 NOPE 的交易品种');
    const ft = await get('getTickers', { page_size: '900', lang: 'ft' });
    expect(ft.msg).toBe('每頁數量最多為500');
  });

  it('lists the market calls in the OpenAPI document', async () => {
    const docs = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: object };
    for (const path of ['/api/web/getKline', '/api/web/getTickers', '/api/web/getInstruments']) {
      expect(Object.keys(docs.paths)).toContain(path);
    }
  });
});
