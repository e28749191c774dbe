import fs from 'node:fs';
import { parseDecimal } from '@bourse/money';
import { type Instrument, nearestTicks, QTY_SCALE } from '../instrument.ts';
import { type FeedTick, midTicks, type PriceFeed } from './types.ts';

/**
 * The replay feed: a recorded tick file, one JSON object a line —
 *   {"time": 1763720000000, "symbol": "BTC/USDT", "price": "95000.1", "bid": "95000", "ask": "95000.2", "size": "0.01"}
 * `time` is ms or an ISO string; `bid`, `ask`, `mark` and `size` are optional. The file plays from
 * the first poll, keeping its spacing (divided by `speed`); at the end it starts over when `loop`
 * is set, else it stops — and the instruments go stale, as with any feed that stops.
 */
export const REPLAY_LIMITS = { maxLines: 1_000_000, maxLineBytes: 1_000, maxTicksPerPoll: 100_000 } as const;

type Line = {
  offsetMs: number;
  symbol: string;
  price: string;
  bid?: string;
  ask?: string;
  mark?: string;
  size?: string;
};

export class ReplayFileError extends Error {
  override name = 'ReplayFileError';
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function parseReplayFile(text: string): Line[] {
  const lines: Line[] = [];
  let firstMs: number | null = null;
  let previousMs = Number.NEGATIVE_INFINITY;
  const raw = text.split('\n');
  for (let i = 0; i < raw.length; i++) {
    const source = raw[i]?.trim() ?? '';
    if (source === '' || source.startsWith('#')) continue;
    const where = `replay file line ${i + 1}`;
    if (source.length > REPLAY_LIMITS.maxLineBytes)
      throw new ReplayFileError(`${where}: longer than ${REPLAY_LIMITS.maxLineBytes}`);
    if (lines.length >= REPLAY_LIMITS.maxLines)
      throw new ReplayFileError(`more than ${REPLAY_LIMITS.maxLines} lines`);
    let value: Record<string, unknown>;
    try {
      value = JSON.parse(source);
    } catch {
      throw new ReplayFileError(`${where}: not JSON`);
    }
    const time = typeof value.time === 'number' ? value.time : Date.parse(String(value.time));
    if (!Number.isFinite(time)) throw new ReplayFileError(`${where}: bad time`);
    if (time < previousMs) throw new ReplayFileError(`${where}: time goes backwards`);
    previousMs = time;
    firstMs ??= time;
    const symbol = str(value.symbol);
    const price = str(value.price);
    if (!symbol || !price || !parseDecimal(price, { scale: 12, allowZero: false }).ok) {
      throw new ReplayFileError(`${where}: needs symbol and a positive decimal price (as a string)`);
    }
    lines.push({
      offsetMs: time - firstMs,
      symbol,
      price,
      bid: str(value.bid),
      ask: str(value.ask),
      mark: str(value.mark),
      size: str(value.size),
    });
  }
  if (lines.length === 0) throw new ReplayFileError('replay file has no ticks');
  return lines;
}

export function createReplayFeed(options: {
  file: string;
  intervalMs: number;
  speed?: number;
  loop?: boolean;
}): PriceFeed {
  const lines = parseReplayFile(fs.readFileSync(options.file, 'utf8'));
  const speed = options.speed ?? 1;
  const durationMs = (lines[lines.length - 1]?.offsetMs ?? 0) + 1;
  const bySymbol = new Map<string, Instrument>();
  const known = new Set(lines.map((l) => l.symbol));
  let startMs: number | null = null;
  let next = 0;
  let round = 0;

  function toTick(line: Line, atMs: number): FeedTick | null {
    const instrument = bySymbol.get(line.symbol);
    if (!instrument) return null;
    const price = nearestTicks(instrument, line.price);
    const bid = line.bid ? nearestTicks(instrument, line.bid) : price;
    const ask = line.ask ? nearestTicks(instrument, line.ask) : price;
    if (price === null || bid === null || ask === null || bid > ask) return null;
    const mark = line.mark ? nearestTicks(instrument, line.mark) : null;
    const size = line.size ? parseDecimal(line.size, { scale: QTY_SCALE }) : null;
    return {
      instrument,
      atMs,
      priceTicks: price,
      bidTicks: bid,
      askTicks: ask,
      markTicks: mark ?? midTicks(bid, ask),
      sizeUnits: size?.ok ? size.units : 0n,
      source: 'replay',
    };
  }

  return {
    source: 'replay',
    intervalMs: options.intervalMs,
    covers: (instrument) => known.has(instrument.symbol) || known.has(instrument.feedSymbol),
    setInstruments(list) {
      bySymbol.clear();
      for (const instrument of list) {
        bySymbol.set(instrument.feedSymbol, instrument);
        bySymbol.set(instrument.symbol, instrument);
      }
    },
    async poll(nowMs) {
      startMs ??= nowMs;
      const ticks: FeedTick[] = [];
      for (;;) {
        const line = lines[next];
        if (!line) {
          if (!options.loop) return ticks;
          next = 0;
          round += 1;
          continue;
        }
        const atMs = startMs + Math.floor((round * durationMs + line.offsetMs) / speed);
        if (atMs > nowMs) return ticks;
        if (ticks.length >= REPLAY_LIMITS.maxTicksPerPoll) {
          // Far behind (a long pause): start the file again from now rather than flood the stream.
          startMs = nowMs;
          next = 0;
          round = 0;
          return ticks;
        }
        next += 1;
        const tick = toTick(line, atMs);
        if (tick) ticks.push(tick);
      }
    },
    async close() {},
  };
}
