import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { expectLogLine, testLogger } from '../../../test/logwatch.ts';
import { hasOptionalPackage } from '../../config.ts';
import { CCXT_LIMITS, createCcxtExchange, createCcxtFeed, redirectUrls } from './feeds/ccxt.ts';
import type { FeedTick } from './feeds/types.ts';
import { type StandIn, startStandIn } from './fixtures/ccxt/standin.ts';
import { fixtureInstruments } from './fixtures/instruments.ts';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'ccxt', 'binance-recorded.json');
const T0 = Date.parse('2026-11-23T15:00:01Z');
const log = testLogger();
/** ccxt is an optional dependency: without it these tests are skipped, and the name says why. */
const HAS_CCXT = hasOptionalPackage('ccxt');
const SKIPPED = HAS_CCXT ? '' : ' (skipped: the optional package ccxt is not installed)';

function show(ticks: FeedTick[]): Record<string, string> {
  return Object.fromEntries(
    ticks.map((t) => [
      t.instrument.symbol,
      `${t.priceTicks} ${t.bidTicks}/${t.askTicks} m${t.markTicks} +${t.sizeUnits}`,
    ]),
  );
}

describe.skipIf(!HAS_CCXT)(`the ccxt adapter against a local stand-in exchange${SKIPPED}`, () => {
  let standIn: StandIn;
  beforeAll(async () => {
    standIn = await startStandIn(FIXTURE);
  });
  afterAll(async () => standIn.close());

  it('sends every API host through the override', () => {
    const rewritten = redirectUrls(
      { a: 'https://api.binance.com/api/v3', b: { c: 'https://fapi.binance.com/fapi/v1' } },
      'http://x:1/',
    );
    expect(rewritten).toEqual({
      a: 'http://x:1/api.binance.com/api/v3',
      b: { c: 'http://x:1/fapi.binance.com/fapi/v1' },
    });
  });

  it('parses the recorded tickers into ticks on our grid, with volume rises as sizes', async () => {
    const exchange = await createCcxtExchange({ exchange: 'binance', apiOverride: standIn.url });
    const feed = createCcxtFeed({ exchangeId: 'binance', exchange, intervalMs: 2_000, log });
    const instruments = fixtureInstruments();
    expect(instruments.filter((i) => feed.covers(i)).every((i) => i.assetClass.startsWith('crypto_'))).toBe(
      true,
    );
    feed.setInstruments(instruments, () => null);

    const first = await feed.poll(T0);
    expect(first.every((t) => t.source === 'ccxt:binance')).toBe(true);
    expect(show(first)).toEqual({
      'BTC/USDT': '9521437 9521436/9521437 m9521436 +0',
      'ETH/USDT': '343108 343107/343108 m343108 +0',
      'SOL/USDT': '18312 18311/18312 m18312 +0',
      'XRP/USDT': '23187 23186/23187 m23186 +0',
      'SHIB/USDT': '2141 2140/2141 m2140 +0',
      // Futures tickers carry no bid/ask: both are the last price.
      'BTC/USDT-PERP': '952304 952304/952304 m952304 +0',
      'ETH/USDT-PERP': '343215 343215/343215 m343215 +0',
      'BTC/USDT-261225': '959112 959112/959112 m959112 +0',
    });
    // BNBUSDT has a ticker but no market at this exchange: BNB/USDT is not priced (it will go stale).
    expect(first.some((t) => t.instrument.symbol === 'BNB/USDT')).toBe(false);

    const second = await feed.poll(T0 + 2_000);
    expect(show(second)).toEqual({
      'BTC/USDT': '9522001 9522000/9522001 m9522000 +25000000', // 24 h volume rose by 0.25 BTC
      'SOL/USDT': '18309 18308/18309 m18308 +0', // volume fell (the window slid): no size
      'XRP/USDT': '23190 23189/23190 m23190 +100000000000',
      'SHIB/USDT': '2142 2141/2142 m2142 +10000000000000',
      'BTC/USDT-PERP': '952361 952361/952361 m952361 +140000000',
      'ETH/USDT-PERP': '343220 343220/343220 m343220 +110000000',
    });
    // Unchanged quotes are re-confirmed (size 0) once CCXT_LIMITS.reconfirmMs has passed.
    const later = await feed.poll(T0 + 2_000 + CCXT_LIMITS.reconfirmMs);
    expect(show(later)['ETH/USDT']).toBe('343108 343107/343108 m343108 +0');
    expect(standIn.requests.slice(0, 4)).toEqual([
      'api.binance.com/api/v3/exchangeInfo',
      'fapi.binance.com/fapi/v1/exchangeInfo',
      'api.binance.com/api/v3/ticker/24hr',
      'fapi.binance.com/fapi/v1/ticker/24hr',
    ]);
    await feed.close();
  });

  it('an exchange that does not answer produces nothing (its instruments go stale), and no exception', async () => {
    expectLogLine(/ccxt feed: poll failed; its instruments will go stale/);
    const exchange = await createCcxtExchange({ exchange: 'binance', apiOverride: 'http://127.0.0.1:9' });
    const feed = createCcxtFeed({ exchangeId: 'binance', exchange, intervalMs: 2_000, log });
    feed.setInstruments(fixtureInstruments(), () => null);
    expect(await feed.poll(T0)).toEqual([]);
  });
});

describe.skipIf(!HAS_CCXT)(`FEED=ccxt in the server${SKIPPED}`, () => {
  let standIn: StandIn;
  let t: TestApp;
  beforeAll(async () => {
    standIn = await startStandIn(FIXTURE);
    t = await startTestApp({
      feed: 'ccxt',
      feedTickMs: 0,
      ccxtApiOverride: standIn.url,
      ccxtExchange: 'binance',
    });
  });
  afterAll(async () => {
    await t.close();
    await standIn.close();
  });

  it('prices crypto from the exchange and the rest from the labelled simulation', async () => {
    t.clock.set(new Date(T0)); // Monday 10:00 New York, a second after the recording
    await t.app.market.step();
    await t.app.market.flushRecorder();
    const answer = await call(t.app, {
      method: 'GET',
      call: 'getTickers',
      fields: { symbols: 'BTC/USDT,BTC/USDT-PERP,BNB/USDT,AAPL,EUR/USD' },
    });
    const bySymbol = Object.fromEntries(answer.data.items.map((i: { symbol: string }) => [i.symbol, i]));
    expect(bySymbol['BTC/USDT']).toMatchObject({
      source: 'ccxt:binance',
      last: '95214.37',
      bid: '95214.36',
      state: 'live',
    });
    expect(bySymbol['BTC/USDT-PERP']).toMatchObject({ source: 'ccxt:binance', last: '95230.4' });
    expect(bySymbol['BNB/USDT']).toMatchObject({ source: 'reference', state: 'stale' });
    expect(bySymbol.AAPL).toMatchObject({ source: 'sim', state: 'live' });
    expect(bySymbol['EUR/USD']).toMatchObject({ source: 'sim', state: 'live' });
    const sources = await t.db.selectFrom('market_tick').select('source').distinct().execute();
    expect(sources.map((r) => r.source).sort()).toEqual(['ccxt:binance', 'sim']);
  });
});
