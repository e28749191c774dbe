import { type CandleData, KLINE_INTERVALS, type KlineInterval } from '@bourse/protocol';
import {
  fixedPoint,
  type Instrument,
  qtyToString,
  TURNOVER_SCALE,
  ticksToPrice,
  turnoverUnits,
} from './instrument.ts';

/**
 * Candles: one pure fold used both live (tick by tick) and by the rebuild from recorded ticks,
 * so the two cannot disagree. Buckets are UTC-aligned; a week starts Monday 00:00 UTC.
 */
const MINUTE = 60_000;
export const INTERVAL_MS: Readonly<Record<KlineInterval, number>> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': 60 * MINUTE,
  '4h': 240 * MINUTE,
  '1d': 1440 * MINUTE,
  '1w': 7 * 1440 * MINUTE,
};
/** 1970-01-05T00:00Z, the first Monday after the epoch. */
const MONDAY_MS = 4 * 1440 * MINUTE;

export const INTERVAL_INDEX: Readonly<Record<KlineInterval, number>> = Object.fromEntries(
  KLINE_INTERVALS.map((interval, i) => [interval, i]),
) as Record<KlineInterval, number>;

export function bucketStart(atMs: number, interval: KlineInterval): number {
  const size = INTERVAL_MS[interval];
  const offset = interval === '1w' ? MONDAY_MS : 0;
  return Math.floor((atMs - offset) / size) * size + offset;
}

/** A candle in integer units: prices in ticks, volume at QTY_SCALE, turnover at TURNOVER_SCALE. */
export type Candle = {
  openTime: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  volume: bigint;
  turnover: bigint;
  ticks: number;
};

/** What a tick contributes to a candle. */
export type CandlePrint = { atMs: number; priceTicks: bigint; sizeUnits: bigint; turnoverUnits: bigint };

export function openCandle(openTime: number, print: CandlePrint): Candle {
  return {
    openTime,
    open: print.priceTicks,
    high: print.priceTicks,
    low: print.priceTicks,
    close: print.priceTicks,
    volume: print.sizeUnits,
    turnover: print.turnoverUnits,
    ticks: 1,
  };
}

/** Folds a print into `candle` (same bucket) in place. */
export function foldCandle(candle: Candle, print: CandlePrint): void {
  if (print.priceTicks > candle.high) candle.high = print.priceTicks;
  if (print.priceTicks < candle.low) candle.low = print.priceTicks;
  candle.close = print.priceTicks;
  candle.volume += print.sizeUnits;
  candle.turnover += print.turnoverUnits;
  candle.ticks += 1;
}

/** The candles of `interval` from prints in (time, seq) order: what the rebuild computes. */
export function aggregate(prints: Iterable<CandlePrint>, interval: KlineInterval): Candle[] {
  const out: Candle[] = [];
  let current: Candle | null = null;
  for (const print of prints) {
    const start = bucketStart(print.atMs, interval);
    if (current && current.openTime === start) foldCandle(current, print);
    else {
      if (current && start < current.openTime) throw new Error('prints out of time order');
      current = openCandle(start, print);
      out.push(current);
    }
  }
  return out;
}

export function toPrint(
  instrument: Instrument,
  tick: { atMs: number; priceTicks: bigint; sizeUnits: bigint },
): CandlePrint {
  return {
    atMs: tick.atMs,
    priceTicks: tick.priceTicks,
    sizeUnits: tick.sizeUnits,
    turnoverUnits: turnoverUnits(instrument, tick.priceTicks, tick.sizeUnits),
  };
}

export function candleData(instrument: Instrument, candle: Candle): CandleData {
  return {
    open_time: candle.openTime,
    open: ticksToPrice(instrument, candle.open),
    high: ticksToPrice(instrument, candle.high),
    low: ticksToPrice(instrument, candle.low),
    close: ticksToPrice(instrument, candle.close),
    volume: qtyToString(candle.volume),
    turnover: fixedPoint(candle.turnover, TURNOVER_SCALE, false),
    ticks: candle.ticks,
  };
}

export function copyCandle(candle: Candle): Candle {
  return { ...candle };
}
