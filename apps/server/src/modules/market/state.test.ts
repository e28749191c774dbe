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

/**
 * A follower's clock runs ahead of the batches it applies (they were stamped by the owner before
 * they reached it): its sweep or a reload may pass a window boundary before a batch stamped earlier
 * arrives. That batch's 24 h figures must still be the owner's.
 */
describe('24 h figures of a batch stamped before a window boundary the follower has passed', () => {
  const BOUNDARY = Date.parse('2026-11-21T04:00:00Z');
  const STAMP = BOUNDARY - 100; // the owner's batch, before the boundary
  const AHEAD = BOUNDARY + 50; // the follower's clock, past it
  const instruments = fixtureInstruments();
  const btc = instruments.find((i) => i.symbol === 'BTC/USDT');
  if (!btc) throw new Error('no BTC/USDT in the fixture');
  const candle = (openTime: number, price: bigint, volume: bigint): Candle => ({
    openTime,
    open: price,
    high: price,
    low: price,
    close: price,
    volume,
    turnover: price * volume,
    ticks: 1,
  });
  // The oldest window candle leaves the window at the boundary; the newest is today's open one.
  const recorded = [
    candle(BOUNDARY - 86_400_000 - 900_000, btc.refTicks - 7n, 30n),
    candle(BOUNDARY - 3_600_000, btc.refTicks, 20n),
    candle(BOUNDARY - 900_000, btc.refTicks + 3n, 10n),
  ];
  const loaded = (nowMs: number) => {
    const state = new MarketState({ staleAfterMs: 30_000 });
    state.setCatalogue(instruments);
    state.load({
      nowMs,
      prices: new Map(),
      candles: recorded.map((c) => ({ instrumentId: btc.id, interval: '15m' as const, candle: { ...c } })),
    });
    return state;
  };
  const batch: Tick[] = [
    {
      instrument: btc,
      seq: 1,
      atMs: STAMP - 10,
      priceTicks: btc.refTicks + 1n,
      bidTicks: btc.refTicks,
      askTicks: btc.refTicks + 2n,
      markTicks: btc.refTicks + 1n,
      sizeUnits: 5n,
      source: 'sim',
    },
  ];
  const applied = (state: MarketState) => {
    state.apply(batch, STAMP);
    return state.get('BTC/USDT')?.stats;
  };

  it('after the follower’s sweep', () => {
    const owner = applied(loaded(STAMP - 1_000));
    const follower = loaded(STAMP - 1_000);
    follower.refresh(AHEAD);
    expect(owner?.volume).toBe(65n);
    expect(applied(follower)).toEqual(owner);
  });

  it('after the follower reloaded the record', () => {
    expect(applied(loaded(AHEAD))).toEqual(applied(loaded(STAMP - 1_000)));
  });
});
