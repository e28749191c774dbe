import {
  KLINE_INTERVALS,
  type KlineInterval,
  MARKET_CHANNEL,
  type TradeData,
  type WsCandlesData,
  type WsTickersData,
  type WsTradesData,
} from '@bourse/protocol';
import type { ChannelRefusal, ChannelRegistry } from '../../ws/index.ts';
import { candleData, INTERVAL_INDEX } from './candles.ts';
import { qtyToString, ticksToPrice } from './instrument.ts';
import type { Changes, InstrumentState, MarketState, Tick } from './state.ts';
import { wsTicker } from './tickers.ts';

/**
 * The market's websocket channels: `tickers`, `candles:<symbol>:<interval>`, `trades:<symbol>`.
 * Messages are built only for channels somebody on this process listens to.
 */
export function tradeData(tick: Tick): TradeData {
  const i = tick.instrument;
  const side = tick.priceTicks >= tick.askTicks ? 'buy' : tick.priceTicks <= tick.bidTicks ? 'sell' : 'mid';
  return {
    seq: tick.seq,
    time: tick.atMs,
    price: ticksToPrice(i, tick.priceTicks),
    size: qtyToString(tick.sizeUnits),
    side,
  };
}

/** `candles:BTC/USDT:1m` → symbol and interval; the interval is after the last `:`. */
function parseCandles(channel: string): { symbol: string; interval: string } {
  const rest = channel.slice('candles:'.length);
  const cut = rest.lastIndexOf(':');
  return cut < 0
    ? { symbol: rest, interval: '' }
    : { symbol: rest.slice(0, cut), interval: rest.slice(cut + 1) };
}

export type MarketChannels = {
  /** Publishes what `changes` (one applied batch) changed, plus instruments whose state changed otherwise. */
  publish(changes: Changes | null, alsoTickers: readonly number[], timeMs: number): void;
  /** After the state was replaced (catalogue reload, resync): every ticker goes out, no snapshot is reused. */
  refreshAll(timeMs: number): void;
};

export function registerMarketChannels(registry: ChannelRegistry, market: MarketState): MarketChannels {
  const unknown = (symbol: string): ChannelRefusal => ({ reason: 'INSTRUMENT_UNKNOWN', params: { symbol } });
  let lastTimeMs = 0;

  registry.provide(MARKET_CHANNEL.tickers, {
    check: () => null,
    snapshot: (): WsTickersData => ({ time: lastTimeMs, items: market.all().map(wsTicker) }),
  });

  registry.provide('candles:', {
    check(channel) {
      const { symbol, interval } = parseCandles(channel);
      if (!market.get(symbol)) return unknown(symbol);
      if (!(KLINE_INTERVALS as readonly string[]).includes(interval)) {
        return { reason: 'BAD_INPUT', params: { field: 'interval' } };
      }
      return null;
    },
    snapshot(channel): WsCandlesData {
      const { symbol, interval } = parseCandles(channel);
      const s = market.get(symbol) as InstrumentState;
      const candle = s.candles[INTERVAL_INDEX[interval as KlineInterval]];
      return {
        symbol,
        interval: interval as KlineInterval,
        items: candle ? [candleData(s.instrument, candle)] : [],
      };
    },
  });

  registry.provide('trades:', {
    check(channel) {
      const symbol = channel.slice('trades:'.length);
      return market.get(symbol) ? null : unknown(symbol);
    },
    snapshot(channel): WsTradesData {
      const symbol = channel.slice('trades:'.length);
      const s = market.get(symbol) as InstrumentState;
      return { symbol, items: s.prints.map(tradeData) };
    },
  });

  return {
    refreshAll(timeMs) {
      registry.invalidateSnapshots();
      this.publish(
        null,
        market.all().map((s) => s.instrument.index),
        timeMs,
      );
    },
    publish(changes, alsoTickers, timeMs) {
      lastTimeMs = Math.max(lastTimeMs, timeMs);
      const changed = new Set<number>(changes?.touched ?? []);
      for (const index of alsoTickers) changed.add(index);
      if (changed.size > 0) {
        registry.publish(MARKET_CHANNEL.tickers, (): WsTickersData => {
          const items = [];
          for (const index of [...changed].sort((a, b) => a - b)) {
            const s = market.at(index);
            if (s) items.push(wsTicker(s));
          }
          return { time: lastTimeMs, items };
        });
      }
      if (!changes) return;
      // Only channels someone listens to: thousands of instruments times eight intervals otherwise.
      const touched = new Set(changes.touched);
      for (const channel of registry.subscribed('candles:')) {
        const { symbol, interval } = parseCandles(channel);
        const s = market.get(symbol);
        if (!s || !touched.has(s.instrument.index)) continue;
        const candles = s.batchCandles[INTERVAL_INDEX[interval as KlineInterval]] ?? [];
        registry.publish(
          channel,
          (): WsCandlesData => ({
            symbol,
            interval: interval as KlineInterval,
            items: candles.map((c) => candleData(s.instrument, c)),
          }),
        );
      }
      for (const channel of registry.subscribed('trades:')) {
        const symbol = channel.slice('trades:'.length);
        const s = market.get(symbol);
        const prints = s ? changes.prints.get(s.instrument.index) : undefined;
        if (!prints) continue;
        registry.publish(channel, (): WsTradesData => ({ symbol, items: prints.map(tradeData) }));
      }
    },
  };
}
