import { KLINE_INTERVALS, type KlineInterval } from '@bourse/protocol';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { INTERVAL_MS } from './candles.ts';
import { loadCatalogue } from './catalogue.ts';
import { bySymbol, fixtureInstruments } from './fixtures/instruments.ts';
import { simHistory, writeSimHistory } from './history.ts';
import { isOpenAt } from './schedule.ts';

const instruments = fixtureInstruments();
/** A Wednesday afternoon in New York: every market open. */
const NOW = Date.parse('2026-11-25T18:00:00Z');
const options = { seed: 'bourse', candles: 500, endMs: NOW, feedTickMs: 1_000 };

function history(symbol: string) {
  const h = simHistory(bySymbol(instruments, symbol), options);
  if (!h) throw new Error(`no history for ${symbol}`);
  return h;
}

/** True when some minute of [from, to) is open. */
function openWithin(symbol: string, from: number, to: number): boolean {
  const { schedule } = bySymbol(instruments, symbol);
  for (let t = from; t < to; t += 60_000) if (isOpenAt(schedule, t)) return true;
  return false;
}

describe('sim history (pure)', () => {
  it('is deterministic, gives 500 candles per interval and ends at the reference price', () => {
    for (const symbol of ['BTC/USDT', 'EUR/USD', 'AAPL', 'XAU/USD']) {
      const a = history(symbol);
      expect(simHistory(bySymbol(instruments, symbol), options)).toEqual(a);
      for (const list of a.candles) {
        expect(list.length).toBeGreaterThanOrEqual(500);
        for (const c of list) {
          expect(c.low <= c.open && c.low <= c.close && c.high >= c.open && c.high >= c.close).toBe(true);
          expect(c.volume > 0n && c.ticks > 0).toBe(true);
        }
        expect(list[list.length - 1]?.close).toBe(a.last.priceTicks);
      }
      expect(a.last.priceTicks).toBe(bySymbol(instruments, symbol).refTicks);
    }
    const other = simHistory(bySymbol(instruments, 'BTC/USDT'), { ...options, seed: 'other' });
    expect(other?.candles[0]).not.toEqual(history('BTC/USDT').candles[0]);
  });

  it('a 24/7 instrument has no gap in any interval', () => {
    const { candles } = history('BTC/USDT');
    KLINE_INTERVALS.forEach((interval, k) => {
      const list = candles[k] ?? [];
      for (let i = 1; i < list.length; i++)
        expect((list[i]?.openTime ?? 0) - (list[i - 1]?.openTime ?? 0)).toBe(INTERVAL_MS[interval]);
    });
  });

  it('an instrument that closes has candles in open hours only, with no gap inside them', () => {
    const { candles } = history('AAPL');
    const checked: KlineInterval[] = ['1m', '5m', '15m', '30m', '1h'];
    for (const interval of checked) {
      const list = candles[KLINE_INTERVALS.indexOf(interval)] ?? [];
      const size = INTERVAL_MS[interval];
      for (const c of list) expect(openWithin('AAPL', c.openTime, c.openTime + size)).toBe(true);
      // Every bucket skipped between two candles is closed throughout.
      for (let i = 1; i < list.length; i++)
        for (let b = (list[i - 1]?.openTime ?? 0) + size; b < (list[i]?.openTime ?? 0); b += size)
          expect(openWithin('AAPL', b, b + size), `${interval} ${new Date(b).toISOString()}`).toBe(false);
    }
    // Days: New York's session lies inside the UTC weekday, so only Saturdays and Sundays are skipped.
    const days = candles[KLINE_INTERVALS.indexOf('1d')] ?? [];
    for (let i = 1; i < days.length; i++)
      for (let b = (days[i - 1]?.openTime ?? 0) + 86_400_000; b < (days[i]?.openTime ?? 0); b += 86_400_000)
        expect([0, 6]).toContain(new Date(b).getUTCDay());
  });
});

describe('sim history at first start', () => {
  let t: TestApp;
  let startMs = 0;
  beforeAll(async () => {
    const started = performance.now();
    t = await startTestApp({ feedTickMs: 0, simHistoryCandles: 500 }, { now: new Date(NOW) });
    startMs = performance.now() - started;
  });
  afterAll(async () => t.close());

  const get = (name: string, fields: Record<string, string> = {}) =>
    call(t.app, { method: 'GET', call: name, fields });

  it('every instrument has 500 candles of every interval; the last close is the live price', async () => {
    const counts = await sql<{ n: string; instruments: string }>`
      select count(*) as n, count(distinct instrument_id) as instruments from market_candle`.execute(t.db);
    const catalogue = await loadCatalogue(t.db);
    console.info(
      `first start with history: ${counts.rows[0]?.n} candles for ${counts.rows[0]?.instruments} instruments, app ready in ${Math.round(startMs)} ms`,
    );
    const active = catalogue.filter((i) => i.status !== 'delisted');
    expect(Number(counts.rows[0]?.instruments)).toBe(active.length);
    for (const symbol of ['BTC/USDT', 'AAPL', 'EUR/USD']) {
      const ticker = (await get('getTickers', { symbols: symbol })).data.items[0];
      for (const interval of KLINE_INTERVALS) {
        const kline = await get('getKline', { symbol, interval, limit: '1000' });
        expect(kline.code).toBe(1);
        const items = kline.data.items ?? kline.data;
        expect(items.length, `${symbol} ${interval}`).toBeGreaterThanOrEqual(500);
        expect(items[items.length - 1].close).toBe(ticker.last);
      }
    }
  });

  it('the live sim continues from the history without a jump', async () => {
    const before = (await get('getTickers', { symbols: 'BTC/USDT' })).data.items[0];
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1_000);
      await t.app.market.step();
    }
    await t.app.market.flushRecorder();
    const after = (await get('getTickers', { symbols: 'BTC/USDT' })).data.items[0];
    const move = Math.abs(Number(after.last) / Number(before.last) - 1);
    expect(move).toBeLessThan(0.002);
    const kline = await get('getKline', { symbol: 'BTC/USDT', interval: '1m', limit: '2' });
    const items = kline.data.items ?? kline.data;
    expect(items[items.length - 1].close).toBe(after.last);
  });

  it('a second start writes nothing', async () => {
    const count = async () =>
      (await sql<{ n: string }>`select count(*) as n from market_candle`.execute(t.db)).rows[0]?.n;
    const before = await count();
    const again = await writeSimHistory({
      db: t.db,
      instruments: await loadCatalogue(t.db),
      seed: 'bourse',
      candles: 500,
      nowMs: t.clock.now().getTime(),
      feedTickMs: 1_000,
    });
    expect(again).toEqual({ instruments: 0, candles: 0 });
    expect(await count()).toBe(before);
  });
});
