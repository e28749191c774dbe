import { KLINE_INTERVALS, type KlineInterval } from '@bourse/protocol';
import type { Logger } from 'pino';
import { type Db, inTransaction, isUniqueViolation } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Candle } from './candles.ts';
import {
  fixedPoint,
  type Instrument,
  priceToTicks,
  qtyToString,
  TURNOVER_SCALE,
  ticksToPrice,
} from './instrument.ts';
import { candleFromRow } from './queries.ts';
import { type CandleRow, type Cursor, type PriceRow, persistBatch, type TickRow } from './repo.ts';
import type { Changes, InstrumentState, LoadedPrice, MarketState } from './state.ts';

/**
 * Writes the stream of record: ticks, the candles they touched, latest prices and the cursor,
 * one transaction per write. Writes run one at a time; batches that arrive meanwhile are merged
 * (candles and prices keep only their latest state), so the write rate is bounded by the
 * database, not by the feed. If the backlog passes RECORDER_LIMITS.maxBacklogTicks the service
 * pauses the feed: prices that cannot be recorded are not shown (they go stale instead).
 */
export const RECORDER_LIMITS = {
  maxBacklogTicks: 200_000,
  retryDelayMs: 1_000,
} as const;

type Work = {
  ticks: TickRow[];
  candles: Map<string, CandleRow>;
  prices: Map<string, PriceRow>;
  cursor: Cursor;
};

export type Recorder = {
  record(input: { changes: Changes; batchSeq: number; stateOf: (index: number) => InstrumentState }): void;
  /** Resolves once everything recorded so far is written (or `deadlineMs` passes: returns false). */
  flush(deadlineMs?: number): Promise<boolean>;
  backlog(): number;
  close(deadlineMs: number): Promise<void>;
};

export function candleRow(instrument: Instrument, interval: string, candle: Candle): CandleRow {
  return {
    instrument_id: instrument.id,
    interval,
    open_time: new Date(candle.openTime),
    open: ticksToPrice(instrument, candle.open),
    high: ticksToPrice(instrument, candle.high),
    low: ticksToPrice(instrument, candle.low),
    close: ticksToPrice(instrument, candle.close),
    volume: qtyToString(candle.volume),
    turnover: fixedPoint(candle.turnover, TURNOVER_SCALE, false),
    ticks: candle.ticks,
  };
}

/** What a process reads back from the record, in one snapshot: the cursor and what it covers. */
export type RecordSnapshot = { cursor: Cursor; prices: readonly PriceRow[]; candles: readonly CandleRow[] };

function loadedPrice(i: Instrument, row: PriceRow): LoadedPrice | null {
  const [last, bid, ask, mark] = [row.last, row.bid, row.ask, row.mark].map((p) => priceToTicks(i, p));
  if (last == null || bid == null || ask == null || mark == null) return null;
  return {
    last,
    bid,
    ask,
    mark,
    tickSeq: Number.parseInt(row.tick_seq, 10),
    tickAtMs: row.tick_at.getTime(),
    source: row.source,
  };
}

/**
 * Replaces `state` with the record (a process starting or resynchronising); returns the batch it
 * is at. The stream continues from the cursor, so the cursor must cover exactly what was read.
 */
export function restoreState(
  state: MarketState,
  instruments: readonly Instrument[],
  snapshot: RecordSnapshot,
  nowMs: number,
): { batchSeq: number } {
  const byId = new Map(instruments.map((i) => [i.id, i]));
  const prices = new Map<string, LoadedPrice>();
  for (const row of snapshot.prices) {
    const i = byId.get(row.instrument_id);
    const price = i ? loadedPrice(i, row) : null;
    if (i && price) prices.set(i.id, price);
  }
  const candles: Array<{ instrumentId: string; interval: KlineInterval; candle: Candle }> = [];
  for (const row of snapshot.candles) {
    const i = byId.get(row.instrument_id);
    if (!i) continue;
    candles.push({
      instrumentId: i.id,
      interval: row.interval as KlineInterval,
      candle: candleFromRow(i, row),
    });
  }
  state.reset(instruments);
  state.load({ nowMs, prices, candles });
  state.lastSeq = Math.max(state.lastSeq, snapshot.cursor.tickSeq);
  return { batchSeq: snapshot.cursor.batchSeq };
}

export function createRecorder(deps: { db: Db; log: Logger; clock: Clock; cursorName: string }): Recorder {
  let pending: Work = {
    ticks: [],
    candles: new Map(),
    prices: new Map(),
    cursor: { batchSeq: 0, tickSeq: 0 },
  };
  let hasWork = false;
  let writing: Promise<void> | null = null;
  let closed = false;

  function restore(failed: Work): void {
    // Newer candle and price states win over the failed write's; ticks keep stream order.
    pending.ticks = [...failed.ticks, ...pending.ticks];
    for (const [key, row] of failed.candles) if (!pending.candles.has(key)) pending.candles.set(key, row);
    for (const [key, row] of failed.prices) if (!pending.prices.has(key)) pending.prices.set(key, row);
    pending.cursor = {
      batchSeq: Math.max(pending.cursor.batchSeq, failed.cursor.batchSeq),
      tickSeq: Math.max(pending.cursor.tickSeq, failed.cursor.tickSeq),
    };
    hasWork = true;
  }

  async function drain(): Promise<void> {
    while (hasWork) {
      const work = pending;
      // A cursor of its own: batches recorded while this write is under way must not move the
      // cursor it commits past the ticks and candles it carries (a follower reloads from it).
      pending = { ticks: [], candles: new Map(), prices: new Map(), cursor: { ...work.cursor } };
      hasWork = false;
      try {
        await inTransaction(deps.db, (tx) =>
          persistBatch(tx, {
            ticks: work.ticks,
            candles: [...work.candles.values()],
            prices: [...work.prices.values()],
            cursorName: deps.cursorName,
            cursor: work.cursor,
            now: deps.clock.now(),
          }),
        );
      } catch (error) {
        if (isUniqueViolation(error, 'market_tick_pkey')) {
          // Another owner recorded these tick numbers (two owners for a moment): theirs stands.
          deps.log.error(
            { ticks: work.ticks.length },
            'market recorder: tick numbers taken by another owner; batch dropped',
          );
          continue;
        }
        deps.log.error({ err: error, ticks: work.ticks.length }, 'market recorder: write failed; retrying');
        restore(work);
        if (closed) return;
        await new Promise((resolve) => setTimeout(resolve, RECORDER_LIMITS.retryDelayMs).unref());
      }
    }
  }

  function kick(): void {
    if (writing || !hasWork) return;
    writing = drain().finally(() => {
      writing = null;
      if (hasWork && !closed) kick();
    });
  }

  async function flush(deadlineMs = Number.POSITIVE_INFINITY): Promise<boolean> {
    // A real-time deadline for the database write (wall clock on purpose: not a time of record).
    const until = Date.now() + deadlineMs;
    while (writing || hasWork) {
      kick();
      const current = writing;
      if (!current) return !hasWork;
      const remaining = until - Date.now();
      if (remaining <= 0) return false;
      if (!Number.isFinite(remaining)) {
        await current;
        continue;
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([current, new Promise<void>((resolve) => (timer = setTimeout(resolve, remaining)))]);
      clearTimeout(timer);
    }
    return true;
  }

  return {
    record({ changes, batchSeq, stateOf }) {
      if (closed) return;
      for (const tick of changes.ticks) {
        const i = tick.instrument;
        pending.ticks.push({
          seq: String(tick.seq),
          instrument_id: i.id,
          at: new Date(tick.atMs),
          price: ticksToPrice(i, tick.priceTicks),
          bid: ticksToPrice(i, tick.bidTicks),
          ask: ticksToPrice(i, tick.askTicks),
          mark: ticksToPrice(i, tick.markTicks),
          size: qtyToString(tick.sizeUnits),
          source: tick.source,
        });
        const s = stateOf(i.index);
        pending.prices.set(i.id, {
          instrument_id: i.id,
          last: ticksToPrice(i, s.last),
          bid: ticksToPrice(i, s.bid),
          ask: ticksToPrice(i, s.ask),
          mark: ticksToPrice(i, s.mark),
          tick_seq: String(s.lastSeq),
          tick_at: new Date(s.lastTickMs),
          source: s.source,
        });
        if (tick.seq > pending.cursor.tickSeq) pending.cursor.tickSeq = tick.seq;
      }
      for (const index of changes.touched) {
        const s = stateOf(index);
        for (let k = 0; k < KLINE_INTERVALS.length; k++) {
          const interval = KLINE_INTERVALS[k] as KlineInterval;
          for (const candle of s.batchCandles[k] ?? []) {
            const key = `${s.instrument.id}|${interval}|${candle.openTime}`;
            pending.candles.set(key, candleRow(s.instrument, interval, candle));
          }
        }
      }
      if (batchSeq > pending.cursor.batchSeq) pending.cursor.batchSeq = batchSeq;
      hasWork = true;
      kick();
    },
    flush,
    backlog: () => pending.ticks.length,
    async close(deadlineMs) {
      const done = await flush(deadlineMs);
      closed = true;
      if (!done)
        deps.log.error({ ticks: pending.ticks.length }, 'market recorder: stopped with unwritten ticks');
    },
  };
}
