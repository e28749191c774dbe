import { KLINE_INTERVALS } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import type { Candle } from './candles.ts';
import { fixtureInstruments } from './fixtures/instruments.ts';
import { MarketState, type Tick } from './state.ts';

/** The 24 h figures a running process computes equal what a process loading the recorded candles computes. */
describe('24 h figures after a restart with nothing recorded in the last 24 h', () => {
  it('come from the new candles, not from the price recorded days before', () => {
    const T = Date.parse('2026-11-25T10:00:00Z');
    const instruments = fixtureInstruments();
    const btc = instruments.find((i) => i.symbol === 'BTC/USDT');
    if (!btc) throw new Error('no BTC/USDT in the fixture');
    const old = btc.refTicks * 2n;
    const restored = (
      candles: Array<{ interval: (typeof KLINE_INTERVALS)[number]; candle: Candle }>,
      last: bigint,
    ) => {
      const state = new MarketState({ staleAfterMs: 30_000 });
      state.setCatalogue(instruments);
      state.load({
        nowMs: T,
        prices: new Map([
          [
            btc.id,
            {
              last,
              bid: last,
              ask: last,
              mark: last,
              tickSeq: 1,
              tickAtMs: T - 4 * 86_400_000,
              source: 'sim',
            },
          ],
        ]),
        candles: candles.map((c) => ({ instrumentId: btc.id, ...c })),
      });
      return state;
    };
    // A process restarted today; the last recorded price is four days old.
    const running = restored([], old);
    const tick = (seq: number, price: bigint, atMs: number): Tick => ({
      instrument: btc,
      seq,
      atMs,
      priceTicks: price,
      bidTicks: price,
      askTicks: price,
      markTicks: price,
      sizeUnits: 10n,
      source: 'sim',
    });
    running.apply([tick(2, btc.refTicks, T + 1_000), tick(3, btc.refTicks + 5n, T + 2_000)], T + 2_000);
    const live = running.get('BTC/USDT');
    if (!live) throw new Error('no state');
    // Another process loads what the recorder stored meanwhile.
    const candles = KLINE_INTERVALS.flatMap((interval, k) => {
      const candle = live.candles[k];
      return candle ? [{ interval, candle: { ...candle } }] : [];
    });
    const loaded = restored(candles, live.last).get('BTC/USDT');
    expect(live.stats.open).toBe(btc.refTicks);
    expect(live.stats.high).toBe(btc.refTicks + 5n);
    expect(loaded?.stats).toEqual(live.stats);
  });
});
