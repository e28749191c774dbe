import type { Clock } from '../../lib/clock.ts';

/**
 * Binance's weight-based limits, on the injected clock, in memory (per process): each call costs a
 * weight (`WEIGHTS`), summed per client address per clock minute and reported in
 * `X-MBX-USED-WEIGHT-1M`; over `weightPerMinute` the call is refused 429 / -1003 with `Retry-After`.
 * New orders count per customer per 10 s window (`X-MBX-ORDER-COUNT-10S`); over `ordersPer10s`:
 * 429 / -1015.
 */
export const BOT_LIMITS = { weightPerMinute: 6_000, ordersPer10s: 100, maxKeys: 100_000 } as const;
export type BotLimits = { weightPerMinute: number; ordersPer10s: number };

type Window = { start: number; used: number };

function windowed(clock: Clock, spanMs: number, maxKeys: number) {
  const windows = new Map<string, Window>();
  return {
    add(key: string, amount: number): { used: number; resetMs: number } {
      const now = clock.now().getTime();
      const start = now - (now % spanMs);
      let w = windows.get(key);
      if (!w || w.start !== start) {
        windows.delete(key);
        if (windows.size >= maxKeys) {
          for (const [k, old] of windows) if (old.start !== start) windows.delete(k);
          if (windows.size >= maxKeys) windows.delete(windows.keys().next().value as string);
        }
        w = { start, used: 0 };
        windows.set(key, w);
      }
      w.used += amount;
      return { used: w.used, resetMs: start + spanMs - now };
    },
  };
}

export function createMeters(clock: Clock, limits: BotLimits = BOT_LIMITS) {
  const weight = windowed(clock, 60_000, BOT_LIMITS.maxKeys);
  const orders = windowed(clock, 10_000, BOT_LIMITS.maxKeys);
  return {
    limits,
    /** Adds a call's weight for its address: the minute's total, whether it is over, seconds to wait. */
    weigh(ip: string, amount: number) {
      const { used, resetMs } = weight.add(ip, amount);
      return {
        used,
        over: used > limits.weightPerMinute,
        retryAfter: Math.max(1, Math.ceil(resetMs / 1000)),
      };
    },
    /** Counts a new order of a customer in its 10 s window. */
    order(customerId: string) {
      const { used, resetMs } = orders.add(customerId, 1);
      return {
        count: used,
        over: used > limits.ordersPer10s,
        retryAfter: Math.max(1, Math.ceil(resetMs / 1000)),
      };
    },
  };
}

export type Meters = ReturnType<typeof createMeters>;

/** Binance's weights of the spot calls (2024 table); depth by its limit, tickers by symbol or all. */
export const WEIGHTS = {
  ping: 1,
  time: 1,
  exchangeInfo: 20,
  depth(limit: number): number {
    if (limit <= 100) return 5;
    if (limit <= 500) return 25;
    if (limit <= 1000) return 50;
    return 250;
  },
  trades: 25,
  klines: 2,
  ticker24hr: (all: boolean) => (all ? 80 : 2),
  tickerPrice: (all: boolean) => (all ? 4 : 2),
  bookTicker: (all: boolean) => (all ? 4 : 2),
  order: 1,
  orderTest: 1,
  getOrder: 4,
  openOrders: (all: boolean) => (all ? 80 : 6),
  allOrders: 20,
  account: 20,
  myTrades: 20,
  userDataStream: 2,
} as const;
