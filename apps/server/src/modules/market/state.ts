import { KLINE_INTERVALS, type KlineInterval, MARKET_LIMITS, type PriceState } from '@bourse/protocol';
import {
  bucketStart,
  type Candle,
  foldCandle,
  INTERVAL_INDEX,
  INTERVAL_MS,
  openCandle,
  toPrint,
} from './candles.ts';
import type { FeedTick } from './feeds/types.ts';
import type { Instrument } from './instrument.ts';
import { isOpenAt } from './schedule.ts';

/**
 * The in-memory market: the latest price of every instrument, its open candle per interval, its
 * rolling 24 h statistics and its latest prints. Every process holds one and changes it only by
 * applying batches of ticks in batch order, so processes that apply the same batches agree.
 */

/** A tick of record: a feed tick with its place in the stream. */
export type Tick = FeedTick & { seq: number };

/** The 24 h window is kept at this resolution: it starts at the 15-minute boundary 24 h before now. */
export const STATS_INTERVAL: KlineInterval = '15m';
export const STATS_WINDOW_MS = 24 * 3_600_000;
const STATS_INDEX = INTERVAL_INDEX[STATS_INTERVAL];

export type Stats = { open: bigint; high: bigint; low: bigint; volume: bigint; turnover: bigint };

export type InstrumentState = {
  instrument: Instrument;
  last: bigint;
  bid: bigint;
  ask: bigint;
  mark: bigint;
  /** 0 until the first tick: the prices are then the catalogue's reference price. */
  lastTickMs: number;
  lastSeq: number;
  source: string;
  state: PriceState;
  /** The latest candle per interval (KLINE_INTERVALS order); it may belong to an earlier bucket. */
  candles: Array<Candle | null>;
  /** Closed 15-minute candles inside the 24 h window (and the bucket before it: windowKeepFrom), oldest first. */
  window: Candle[];
  stats: Stats;
  /** The window start the stats were computed for. */
  statsFrom: number;
  /** The latest prints (size > 0), oldest first, at most MARKET_LIMITS.tradesSnapshotMax. */
  prints: Tick[];
  /** Candles the current batch touched, per interval; valid until the next apply (see Changes). */
  batchCandles: Candle[][];
  batchNo: number;
};

export type Changes = {
  /**
   * Instruments that ticked, in first-tick order. For each, `batchCandles[k]` of its state holds
   * the candles of interval k this batch touched (two when a bucket rolled over).
   */
  touched: number[];
  prints: Map<number, Tick[]>;
  ticks: Tick[];
};

export function windowStart(nowMs: number): number {
  return bucketStart(nowMs, STATS_INTERVAL) - STATS_WINDOW_MS;
}

/**
 * Where a window is cut on a process's own clock (a sweep, a reload): one bucket before its start.
 * A follower's clock runs ahead of the batches it applies, which the owner stamped before they
 * arrived; a batch stamped before a boundary the follower has passed still counts the candle
 * leaving the window, as the owner did. (Stats always count from `windowStart` only.)
 */
export function windowKeepFrom(nowMs: number): number {
  return windowStart(nowMs) - INTERVAL_MS[STATS_INTERVAL];
}

function computeStats(s: InstrumentState, fromMs: number): Stats {
  const current = s.candles[STATS_INDEX];
  const parts = s.window.filter((c) => c.openTime >= fromMs);
  if (current && current.openTime >= fromMs && parts[parts.length - 1] !== current) parts.push(current);
  const first = parts[0];
  if (!first) return { open: s.last, high: s.last, low: s.last, volume: 0n, turnover: 0n };
  const stats: Stats = { open: first.open, high: first.high, low: first.low, volume: 0n, turnover: 0n };
  for (const c of parts) {
    if (c.high > stats.high) stats.high = c.high;
    if (c.low < stats.low) stats.low = c.low;
    stats.volume += c.volume;
    stats.turnover += c.turnover;
  }
  return stats;
}

export type LoadedPrice = {
  last: bigint;
  bid: bigint;
  ask: bigint;
  mark: bigint;
  tickSeq: number;
  tickAtMs: number;
  source: string;
};

export class MarketState {
  readonly staleAfterMs: number;
  private states: InstrumentState[] = [];
  private bySymbol = new Map<string, InstrumentState>();
  /** The highest tick seq applied: ticks at or below it are already in (a resync replays safely). */
  lastSeq = 0;
  private batchNo = 0;

  constructor(options: { staleAfterMs: number }) {
    this.staleAfterMs = options.staleAfterMs;
  }

  /** Installs a catalogue; instruments already known keep their prices and candles. */
  setCatalogue(instruments: readonly Instrument[]): void {
    const previous = new Map(this.states.map((s) => [s.instrument.id, s]));
    this.states = instruments.map((instrument) => {
      const kept = previous.get(instrument.id);
      if (kept) {
        kept.instrument = instrument;
        return kept;
      }
      const ref = instrument.refTicks;
      return {
        instrument,
        last: ref,
        bid: ref,
        ask: ref,
        mark: ref,
        lastTickMs: 0,
        lastSeq: 0,
        source: 'reference',
        state: 'stale' as PriceState,
        candles: KLINE_INTERVALS.map(() => null),
        window: [],
        stats: { open: ref, high: ref, low: ref, volume: 0n, turnover: 0n },
        statsFrom: 0,
        prints: [],
        batchCandles: KLINE_INTERVALS.map(() => []),
        batchNo: 0,
      };
    });
    this.bySymbol = new Map(this.states.map((s) => [s.instrument.symbol, s]));
  }

  /** Forgets every price and candle (before a reload from the database). */
  reset(instruments: readonly Instrument[]): void {
    this.states = [];
    this.lastSeq = 0;
    this.setCatalogue(instruments);
  }

  /** Restores what the recorder stored: latest prices, open candles, the 24 h window. */
  load(input: {
    nowMs: number;
    prices: ReadonlyMap<string, LoadedPrice>;
    candles: ReadonlyArray<{ instrumentId: string; interval: KlineInterval; candle: Candle }>;
  }): void {
    const byId = new Map(this.states.map((s) => [s.instrument.id, s]));
    for (const s of this.states) {
      const price = input.prices.get(s.instrument.id);
      if (!price) continue;
      Object.assign(s, {
        last: price.last,
        bid: price.bid,
        ask: price.ask,
        mark: price.mark,
        lastTickMs: price.tickAtMs,
        lastSeq: price.tickSeq,
        source: price.source,
      });
      if (price.tickSeq > this.lastSeq) this.lastSeq = price.tickSeq;
    }
    const sorted = [...input.candles].sort((a, b) => a.candle.openTime - b.candle.openTime);
    for (const { instrumentId, interval, candle } of sorted) {
      const s = byId.get(instrumentId);
      if (!s) continue;
      const k = INTERVAL_INDEX[interval];
      const current = s.candles[k];
      if (k === STATS_INDEX && current) s.window.push(current);
      s.candles[k] = candle;
    }
    const from = windowStart(input.nowMs);
    const keep = windowKeepFrom(input.nowMs);
    for (const s of this.states) {
      s.window = s.window.filter((c) => c.openTime >= keep);
      s.stats = computeStats(s, from);
      s.statsFrom = from;
      s.state = this.priceState(s, input.nowMs);
    }
  }

  get size(): number {
    return this.states.length;
  }

  all(): readonly InstrumentState[] {
    return this.states;
  }

  at(index: number): InstrumentState | undefined {
    return this.states[index];
  }

  get(symbol: string): InstrumentState | undefined {
    return this.bySymbol.get(symbol);
  }

  priceState(s: InstrumentState, nowMs: number): PriceState {
    const { instrument } = s;
    if (instrument.status !== 'active') return 'halted';
    if (instrument.expiryAt && nowMs >= instrument.expiryAt.getTime()) return 'halted';
    if (!isOpenAt(instrument.schedule, nowMs)) return 'closed';
    if (s.lastTickMs === 0 || nowMs - s.lastTickMs > this.staleAfterMs) return 'stale';
    return 'live';
  }

  /**
   * Applies ticks in order. Times never go backwards per instrument; a tick seen before is
   * skipped. The returned candles are the live objects: read them before the next apply.
   */
  apply(ticks: readonly Tick[], nowMs: number): Changes {
    const changes: Changes = { touched: [], prints: new Map(), ticks: [] };
    const batchNo = ++this.batchNo;
    const from = windowStart(nowMs);
    for (const raw of ticks) {
      const s = this.bySymbol.get(raw.instrument.symbol);
      if (!s || raw.seq <= s.lastSeq) continue;
      const atMs = Math.max(raw.atMs, s.lastTickMs);
      const same = raw.instrument === s.instrument && atMs === raw.atMs;
      const tick: Tick = same ? raw : { ...raw, instrument: s.instrument, atMs };
      s.last = tick.priceTicks;
      s.bid = tick.bidTicks;
      s.ask = tick.askTicks;
      s.mark = tick.markTicks;
      s.lastTickMs = atMs;
      s.lastSeq = tick.seq;
      s.source = tick.source;
      if (tick.seq > this.lastSeq) this.lastSeq = tick.seq;
      if (s.batchNo !== batchNo) {
        s.batchNo = batchNo;
        for (const list of s.batchCandles) list.length = 0;
        changes.touched.push(s.instrument.index);
      }
      this.foldCandles(s, tick, from);
      if (tick.sizeUnits > 0n) {
        s.prints.push(tick);
        if (s.prints.length > MARKET_LIMITS.tradesSnapshotMax) s.prints.shift();
        const list = changes.prints.get(s.instrument.index);
        if (list) list.push(tick);
        else changes.prints.set(s.instrument.index, [tick]);
      }
      s.state = this.priceState(s, nowMs);
      changes.ticks.push(tick);
    }
    return changes;
  }

  private foldCandles(s: InstrumentState, tick: Tick, from: number): void {
    const print = toPrint(s.instrument, tick);
    let rolled = false;
    for (let k = 0; k < KLINE_INTERVALS.length; k++) {
      const start = bucketStart(tick.atMs, KLINE_INTERVALS[k] as KlineInterval);
      const current = s.candles[k];
      let candle: Candle;
      if (current && current.openTime === start) {
        foldCandle(current, print);
        candle = current;
      } else {
        if (k === STATS_INDEX) {
          if (current) s.window.push(current);
          // Also the first candle in the window: figures taken from a price before it (a restart
          // with nothing recorded in the last 24 h) are recomputed from candles, as a reload would.
          rolled = true;
        }
        candle = openCandle(start, print);
        s.candles[k] = candle;
      }
      const list = s.batchCandles[k] as Candle[];
      if (list[list.length - 1] !== candle) list.push(candle);
    }
    if (rolled || s.statsFrom !== from) {
      s.window = s.window.filter((c) => c.openTime >= from);
      s.stats = computeStats(s, from);
      s.statsFrom = from;
      return;
    }
    // Same window, same bucket: the 24 h figures move by this print alone.
    const stats = s.stats;
    if (print.priceTicks > stats.high) stats.high = print.priceTicks;
    if (print.priceTicks < stats.low) stats.low = print.priceTicks;
    stats.volume += print.sizeUnits;
    stats.turnover += print.turnoverUnits;
  }

  /** Re-evaluates every price state and slides the 24 h windows; returns the instruments that changed. */
  refresh(nowMs: number): number[] {
    const changed: number[] = [];
    const from = windowStart(nowMs);
    const keep = windowKeepFrom(nowMs);
    for (const s of this.states) {
      let dirty = false;
      if (s.statsFrom !== from) {
        s.window = s.window.filter((c) => c.openTime >= keep);
        const stats = computeStats(s, from);
        s.statsFrom = from;
        const before = s.stats;
        s.stats = stats;
        dirty =
          stats.open !== before.open ||
          stats.high !== before.high ||
          stats.low !== before.low ||
          stats.volume !== before.volume ||
          stats.turnover !== before.turnover;
      }
      const state = this.priceState(s, nowMs);
      if (state !== s.state) {
        s.state = state;
        dirty = true;
      }
      if (dirty) changed.push(s.instrument.index);
    }
    return changed;
  }
}
