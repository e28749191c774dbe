import type { CandleData } from '@bourse/protocol';

/** Merges channel candles into a list ordered by open time: same bucket replaced, newer appended. */
export function mergeCandles(list: readonly CandleData[], incoming: readonly CandleData[]): CandleData[] {
  if (incoming.length === 0) return list as CandleData[];
  const out = [...list];
  for (const candle of [...incoming].sort((a, b) => a.open_time - b.open_time)) {
    const last = out.at(-1);
    if (!last || candle.open_time > last.open_time) out.push(candle);
    else if (candle.open_time === last.open_time) out[out.length - 1] = candle;
    else {
      const index = out.findIndex((c) => c.open_time === candle.open_time);
      if (index >= 0) out[index] = candle;
    }
  }
  return out;
}
