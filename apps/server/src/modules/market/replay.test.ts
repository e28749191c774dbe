import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { createReplayFeed, parseReplayFile, ReplayFileError } from './feeds/replay.ts';
import { fixtureInstruments } from './fixtures/instruments.ts';

const SAMPLE = path.join(import.meta.dirname, 'fixtures', 'replay-sample.jsonl');
const START = Date.parse('2026-11-23T15:00:00Z');

describe('the replay feed', () => {
  it('plays the file with its spacing, snapped to our ticks, and stops at the end', async () => {
    const feed = createReplayFeed({ file: SAMPLE, intervalMs: 1_000, loop: false });
    feed.setInstruments(fixtureInstruments(), () => null);
    const first = await feed.poll(START);
    expect(first.map((t) => t.instrument.symbol)).toEqual(['BTC/USDT']);
    const next = await feed.poll(START + 1_000);
    expect(next.map((t) => t.atMs)).toEqual([
      START + 100,
      START + 200,
      START + 500,
      START + 600,
      START + 700,
      START + 1_000,
    ]);
    expect(next.every((t) => t.source === 'replay' && t.bidTicks <= t.askTicks)).toBe(true);
    const rest = await feed.poll(START + 60_000);
    expect(1 + next.length + rest.length).toBe(120);
    expect(await feed.poll(START + 120_000)).toEqual([]);
  });

  it('loops when asked to, at the speed asked', async () => {
    const feed = createReplayFeed({ file: SAMPLE, intervalMs: 1_000, loop: true, speed: 10 });
    feed.setInstruments(fixtureInstruments(), () => null);
    await feed.poll(START);
    // The file spans 19.7 s; at 10x two rounds take under 4 s.
    expect((await feed.poll(START + 4_000)).length).toBeGreaterThanOrEqual(2 * 120 - 1);
  });

  it.each([
    ['{"time":1,"symbol":"BTC/USDT","price":95000}', /positive decimal price/],
    ['{"time":1,"symbol":"BTC/USDT","price":"-1"}', /positive decimal price/],
    ['not json', /line 1: not JSON/],
    ['{"time":"soon","symbol":"X","price":"1"}', /bad time/],
    [
      '{"time":5,"symbol":"X","price":"1"}\n{"time":4,"symbol":"X","price":"1"}',
      /line 2: time goes backwards/,
    ],
    ['', /no ticks/],
  ])('refuses a bad file: %j', (text, message) => {
    expect(() => parseReplayFile(text)).toThrow(ReplayFileError);
    expect(() => parseReplayFile(text)).toThrow(message);
  });
});

describe('FEED=replay in the server, with a file that ends', () => {
  let t: TestApp;
  const STALE_MS = 5_000;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-replay-'));
    const file = path.join(dir, 'ticks.jsonl');
    fs.copyFileSync(SAMPLE, file);
    t = await startTestApp({
      feed: 'replay',
      replayFile: file,
      replayLoop: false,
      feedTickMs: 0,
      staleAfterMs: STALE_MS,
    });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('prices from the file, then the prices go stale and trading is refused', async () => {
    t.clock.set(new Date(START));
    for (let i = 0; i <= 20; i++) {
      if (i > 0) t.clock.advance(1_000);
      await t.app.market.step();
    }
    const live = await call(t.app, {
      method: 'GET',
      call: 'getTickers',
      fields: { symbols: 'BTC/USDT,EUR/USD,ETH/USDT' },
    });
    for (const item of live.data.items) expect(item).toMatchObject({ source: 'replay', state: 'live' });
    expect(t.app.market.priceForTrading('EUR/USD').source).toBe('replay');
    // The file is over: nothing more arrives.
    t.clock.advance(STALE_MS);
    await t.app.market.step();
    t.app.market.sweep();
    const stale = await call(t.app, {
      method: 'GET',
      call: 'getTickers',
      fields: { symbols: 'BTC/USDT,EUR/USD' },
    });
    for (const item of stale.data.items) expect(item).toMatchObject({ stale: true, state: 'stale' });
    expect(() => t.app.market.priceForTrading('BTC/USDT')).toThrow('PRICE_STALE');
    // AAPL is not in the file: it never had a price from this feed.
    const aapl = await call(t.app, { method: 'GET', call: 'getTickers', fields: { symbols: 'AAPL' } });
    expect(aapl.data.items[0]).toMatchObject({ source: 'reference', stale: true });
  });
});
