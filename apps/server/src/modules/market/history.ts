import { parseUnitsOrThrow } from '@bourse/money';
import { KLINE_INTERVALS, type KlineInterval } from '@bourse/protocol';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { bucketStart, type Candle } from './candles.ts';
import { SIM_CLASS_PARAMS, SIM_LIMITS } from './feeds/sim.ts';
import { midTicks } from './feeds/types.ts';
import { type Instrument, QTY_SCALE, ticksToPrice, turnoverUnits } from './instrument.ts';
import { createPrng, hashUnit } from './prng.ts';
import { candleRow } from './recorder.ts';
import type { PriceRow } from './repo.ts';
import type { Schedule } from './schedule.ts';

/**
 * History at first start (sim feed only). An instrument with nothing recorded (no price, no
 * candle) gets `candles` candles of every interval, ending at the clock's now, drawn from the sim's
 * own model (the same mean-reverting walk, volatility and spread) but walked BACKWARDS from the
 * reference price: the newest candle closes at the price the live sim continues from, so the live
 * price carries on from the chart without a jump. A latest price is written with it.
 *
 * Resolution: the newest `candles` 1-minute buckets carry 8 points each, the 5-minute buckets
 * before them 8 points each, and so on up to the weeks, so every interval has `candles` candles
 * built from several points and coarser candles agree with the finer ones they contain. Trading
 * hours are respected: points fall only in open time, a bucket without open time has no candle.
 *
 * Deterministic (FEED_SEED, the symbol and the clock's now) and written once: one transaction
 * under an advisory lock writes history only for instruments with nothing recorded.
 */
export const HISTORY_LIMITS = {
  pointsPerBucket: 8,
  /** How far back history may reach (a schedule open one minute a week gives fewer candles). */
  maxLookbackMs: 20 * 366 * 86_400_000,
  insertChunkRows: 10_000,
} as const;

const HOUR_MS = 3_600_000;
const WEEK_MS = 7 * 24 * HOUR_MS;
/** 1970-01-05 (a Monday) as a wall-clock instant. */
const MONDAY_MS = 4 * 24 * HOUR_MS;
const YEAR_MS = 365.25 * 24 * HOUR_MS;

// ---- Open time in UTC ---------------------------------------------------------------------

type OffsetCache = Map<string, number>;
const formatters = new Map<string, Intl.DateTimeFormat>();
/** Offsets never change for a past instant: one cache for the process (a few thousand entries per zone). */
const sharedOffsets: OffsetCache = new Map();

/** Local wall clock minus UTC at the start of UTC hour `hour` in `tz` (ms). */
function hourOffset(tz: string, hour: number): number {
  let format = formatters.get(tz);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(tz, format);
  }
  const p: Record<string, number> = {};
  for (const part of format.formatToParts(hour * HOUR_MS)) p[part.type] = Number.parseInt(part.value, 10);
  const wall = Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0);
  return wall - hour * HOUR_MS;
}

/** The offset over [hour, hour + hours) when it is the same at both ends, else NaN (cached). */
function spanOffset(cache: OffsetCache, tz: string, hour: number, hours: number): number {
  const key = `${tz}|${hours}|${hour}`;
  let offset = cache.get(key);
  if (offset === undefined) {
    const first = hourOffset(tz, hour);
    offset = hours === 1 || hourOffset(tz, hour + hours) === first ? first : Number.NaN;
    cache.set(key, offset);
  }
  return offset;
}

/**
 * Local wall clock minus UTC at `utcMs` in `tz` (ms): per UTC week when the offset is the same at
 * both ends of it (a zone changes offset at most twice a year), else per day, else per hour.
 */
function offsetMs(cache: OffsetCache, tz: string, utcMs: number): number {
  const hour = Math.floor(utcMs / HOUR_MS);
  for (const hours of [168, 24, 1]) {
    const offset = spanOffset(cache, tz, hour - (((hour % hours) + hours) % hours), hours);
    if (!Number.isNaN(offset)) return offset;
  }
  return 0;
}

function wallToUtc(cache: OffsetCache, tz: string, wallMs: number): number {
  const guess = wallMs - offsetMs(cache, tz, wallMs);
  return wallMs - offsetMs(cache, tz, guess);
}

/** The open periods [start, end) in UTC inside [fromMs, toMs), ascending, merged. */
export function openPeriods(
  schedule: Schedule,
  fromMs: number,
  toMs: number,
  cache: OffsetCache = sharedOffsets,
): Array<[number, number]> {
  if (schedule.always) return fromMs < toMs ? [[fromMs, toMs]] : [];
  const out: Array<[number, number]> = [];
  const first = Math.floor((fromMs - MONDAY_MS) / WEEK_MS) - 1;
  const last = Math.floor((toMs - MONDAY_MS) / WEEK_MS) + 1;
  for (let week = first; week <= last; week++) {
    const base = MONDAY_MS + week * WEEK_MS;
    for (const [a, b] of schedule.windows) {
      const start = Math.max(fromMs, wallToUtc(cache, schedule.tz, base + a * 60_000));
      const end = Math.min(toMs, wallToUtc(cache, schedule.tz, base + b * 60_000));
      if (start < end) out.push([start, end]);
    }
  }
  out.sort((x, y) => x[0] - y[0]);
  const merged: Array<[number, number]> = [];
  for (const period of out) {
    const previous = merged[merged.length - 1];
    if (previous && period[0] <= previous[1]) previous[1] = Math.max(previous[1], period[1]);
    else merged.push([period[0], period[1]]);
  }
  return merged;
}

// ---- The generator ------------------------------------------------------------------------

export type SimHistory = {
  /** Per interval (KLINE_INTERVALS order), oldest first. */
  candles: Candle[][];
  last: { atMs: number; priceTicks: bigint; bidTicks: bigint; askTicks: bigint; markTicks: bigint };
};

type Period = [number, number];

/** The sampled instants, newest first, with the open time each stands for. */
type Samples = { times: number[]; spans: number[] };

/** How many buckets of `interval` the samples (newest first) fall in, and the oldest one's start. */
function countBuckets(
  times: readonly number[],
  interval: KlineInterval,
): { count: number; previous: number } {
  let count = 0;
  let previous = Number.NaN;
  for (const t of times) {
    const b = bucketStart(t, interval);
    if (b !== previous) count++;
    previous = b;
  }
  return { count, previous };
}

/** The open parts of the bucket [bucket, openEnd), newest first, from period `iv` back. */
function openParts(periods: readonly Period[], iv: number, bucket: number, openEnd: number): Period[] {
  const parts: Period[] = [];
  for (let j = iv; j >= 0 && (periods[j] as Period)[1] > bucket; j--) {
    const [s, e] = periods[j] as Period;
    const part: Period = [Math.max(s, bucket), Math.min(e, openEnd)];
    if (part[0] < part[1]) parts.push(part);
  }
  return parts;
}

/**
 * P points evenly over the bucket's open time (newest first), each standing for total / P; a
 * point is kept when it is older than every sample so far (and before `boundary`).
 */
function spreadPoints(samples: Samples, parts: readonly Period[], boundary: number): void {
  const P = HISTORY_LIMITS.pointsPerBucket;
  const { times, spans } = samples;
  const total = parts.reduce((sum, [s, e]) => sum + (e - s), 0);
  let part = 0;
  let passed = 0;
  for (let p = P - 1; p >= 0; p--) {
    const fromEnd = total - ((p + 0.5) * total) / P;
    while (
      part < parts.length - 1 &&
      fromEnd >= passed + ((parts[part] as Period)[1] - (parts[part] as Period)[0])
    ) {
      const [s, e] = parts[part] as Period;
      passed += e - s;
      part++;
    }
    const at = Math.floor((parts[part] as Period)[1] - (fromEnd - passed));
    const t = Math.min(at, boundary - 1);
    if (t >= (times[times.length - 1] as number)) continue;
    times.push(t);
    spans.push(total / P);
  }
}

/**
 * The sample times, walking back from the end of the latest open period: per interval (finest
 * first) buckets are added until it has `candles` of them. `regionStart[k]`: where interval k's
 * own points end (older points belong to coarser intervals).
 */
function sampleTimes(periods: readonly Period[], candles: number): Samples & { regionStart: number[] } {
  const latest = periods[periods.length - 1] as Period;
  const samples: Samples = { times: [latest[1] - 1], spans: [Math.min(1_000, latest[1] - latest[0])] };
  let boundary = latest[1] - 1;
  let iv = periods.length - 1;
  const regionStart: number[] = [];
  for (const interval of KLINE_INTERVALS) {
    let { count, previous } = countBuckets(samples.times, interval);
    while (count < candles) {
      while (iv >= 0 && (periods[iv] as Period)[0] >= boundary) iv--;
      if (iv < 0) break;
      const openEnd = Math.min((periods[iv] as Period)[1], boundary);
      const b = bucketStart(openEnd - 1, interval);
      spreadPoints(samples, openParts(periods, iv, b, openEnd), boundary);
      if (bucketStart(samples.times[samples.times.length - 1] as number, interval) !== previous) count++;
      previous = b;
      boundary = b;
    }
    regionStart.push(bucketStart(boundary, interval));
  }
  return { ...samples, regionStart };
}

/** The sim's model of one instrument: its class parameters, volatility, reversion and size step. */
function walkModel(instrument: Instrument, feedTickMs: number) {
  const params = SIM_CLASS_PARAMS[instrument.assetClass];
  const contractUnits = 10n ** BigInt(QTY_SCALE);
  const product = instrument.lotUnits * parseUnitsOrThrow(instrument.contractSize, { scale: QTY_SCALE });
  const sizeStep =
    product % contractUnits === 0n && product > 0n ? product / contractUnits : instrument.lotUnits;
  return {
    instrument,
    params,
    vol: params.vol * (0.7 + 0.6 * hashUnit(instrument.symbol)),
    kappa: Math.LN2 / SIM_LIMITS.reversionHalfLifeMs,
    anchor: Math.log(Number(instrument.refTicks)),
    tickValue: Number(instrument.tickUnits) / 10 ** instrument.priceScale,
    sizeStep,
    stepQuantity: Number(sizeStep) / 10 ** QTY_SCALE,
    tickMs: feedTickMs > 0 ? feedTickMs : 1_000,
  };
}

type Model = ReturnType<typeof walkModel>;

/** Per sample (newest first): prices in whole ticks and sizes in whole steps, exact integers (well under 2^53). */
type Points = {
  times: readonly number[];
  price: Float64Array;
  high: Float64Array;
  low: Float64Array;
  steps: Float64Array;
  ticks: Float64Array;
};

/** Prices: the sim's walk, backwards from the reference price. */
function walkPrices(model: Model, rng: ReturnType<typeof createPrng>, samples: Samples): Points {
  const { params, vol, kappa, anchor } = model;
  const { times, spans } = samples;
  const n = times.length;
  const points = {
    times,
    price: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    steps: new Float64Array(n),
    ticks: new Float64Array(n),
  };
  const toTicks = (v: number) => Math.max(2, Math.round(Math.exp(v)));
  let x = anchor;
  for (let i = 0; i < n; i++) {
    if (i > 0) {
      const dtMs = Math.min((times[i - 1] as number) - (times[i] as number), SIM_LIMITS.maxGapMs);
      const decay = Math.exp(-kappa * dtMs);
      const sd = vol * Math.sqrt((1 - decay * decay) / (2 * kappa) / YEAR_MS);
      x = anchor + (x - anchor) * decay + sd * rng.normal();
    }
    const span = spans[i] as number;
    const wick = 0.6 * vol * Math.sqrt(span / YEAR_MS);
    points.price[i] = toTicks(x);
    points.high[i] = toTicks(x + Math.abs(rng.normal()) * wick);
    points.low[i] = toTicks(x - Math.abs(rng.normal()) * wick);
    const prints = Math.max(1, Math.round((params.activity * span) / model.tickMs));
    const quantity =
      (params.notional * prints * Math.exp(0.5 * rng.normal() - 0.125)) /
      ((points.price[i] as number) * model.tickValue);
    points.steps[i] = Math.max(1, Math.min(1e12, Math.round(quantity / model.stepQuantity)));
    points.ticks[i] = prints;
  }
  return points;
}

/** Candles of `interval` from points [from, to) (descending indexes), oldest first. */
function pointCandles(
  model: Model,
  points: Points,
  input: { interval: KlineInterval; from: number; to: number },
): Candle[] {
  const out: Candle[] = [];
  let current: Candle | null = null;
  let sumPS = 0n;
  const settle = () => {
    // Turnover of the points part: Σ price × steps, scaled once per candle.
    if (current && sumPS > 0n) current.turnover += turnoverUnits(model.instrument, sumPS, model.sizeStep);
    sumPS = 0n;
  };
  for (let i = input.to - 1; i >= input.from; i--) {
    const openTime = bucketStart(points.times[i] as number, input.interval);
    const p = BigInt(points.price[i] as number);
    if (!current || current.openTime !== openTime) {
      settle();
      current = { openTime, open: p, high: p, low: p, close: p, volume: 0n, turnover: 0n, ticks: 0 };
      out.push(current);
    }
    const h = BigInt(points.high[i] as number);
    const l = BigInt(points.low[i] as number);
    if (h > current.high) current.high = h;
    if (l < current.low) current.low = l;
    current.close = p;
    const st = BigInt(points.steps[i] as number);
    current.volume += st * model.sizeStep;
    sumPS += p * st;
    current.ticks += points.ticks[i] as number;
  }
  settle();
  return out;
}

/** Folds the finer interval's candles (newer than `out`'s) into `out`'s candles of `interval`. */
function foldFiner(out: Candle[], finer: readonly Candle[], interval: KlineInterval): Candle[] {
  let current: Candle | null = out[out.length - 1] ?? null;
  for (const c of finer) {
    const openTime = bucketStart(c.openTime, interval);
    if (!current || current.openTime !== openTime) {
      current = { ...c, openTime };
      out.push(current);
      continue;
    }
    if (c.high > current.high) current.high = c.high;
    if (c.low < current.low) current.low = c.low;
    current.close = c.close;
    current.volume += c.volume;
    current.turnover += c.turnover;
    current.ticks += c.ticks;
  }
  return out;
}

/** Interval k: its own points (older than interval k-1's region), then interval k-1's candles. */
function allCandles(model: Model, points: Points, regionStart: readonly number[]): Candle[][] {
  const candles: Candle[][] = [];
  let newer = 0;
  KLINE_INTERVALS.forEach((interval, k) => {
    let older = newer;
    while (older < points.times.length && (points.times[older] as number) >= (regionStart[k] as number))
      older++;
    const own = pointCandles(model, points, { interval, from: newer, to: older });
    candles.push(foldFiner(own, k === 0 ? [] : (candles[k - 1] as Candle[]), interval));
    newer = older;
  });
  return candles;
}

/** The latest price, with the sim's spread around it. */
function lastQuote(model: Model, points: Points): SimHistory['last'] {
  const mid = BigInt(points.price[0] as number);
  const half = BigInt(Math.max(1, Math.round((Number(mid) * model.params.spreadBps) / 20_000)));
  const bid = mid - half > 0n ? mid - half : 1n;
  const ask = mid + half;
  return {
    atMs: points.times[0] as number,
    priceTicks: mid,
    bidTicks: bid,
    askTicks: ask,
    markTicks: midTicks(bid, ask),
  };
}

/** The history of one instrument ending at `endMs` (null: never open in the lookback). Pure. */
export function simHistory(
  instrument: Instrument,
  options: { seed: string; candles: number; endMs: number; feedTickMs: number; offsets?: OffsetCache },
): SimHistory | null {
  const end = Math.min(options.endMs, instrument.expiryAt?.getTime() ?? Number.POSITIVE_INFINITY);
  const periods = openPeriods(
    instrument.schedule,
    end - HISTORY_LIMITS.maxLookbackMs,
    end,
    options.offsets ?? sharedOffsets,
  );
  if (periods.length === 0) return null;
  const { regionStart, ...samples } = sampleTimes(periods, options.candles);
  const model = walkModel(instrument, options.feedTickMs);
  const points = walkPrices(model, createPrng(`${options.seed}|${instrument.symbol}|history`), samples);
  return { candles: allCandles(model, points, regionStart), last: lastQuote(model, points) };
}

export function intervalOf(k: number): KlineInterval {
  return KLINE_INTERVALS[k] as KlineInterval;
}

// ---- Writing it ---------------------------------------------------------------------------

const LOCK_KEY = 'bourse:market:sim-history';

/**
 * Writes history for every instrument with nothing recorded; returns how many instruments and
 * candles it wrote. Idempotent: a second run (or a second process) finds them recorded.
 */
export async function writeSimHistory(deps: {
  db: Db;
  instruments: readonly Instrument[];
  seed: string;
  candles: number;
  nowMs: number;
  feedTickMs: number;
}): Promise<{ instruments: number; candles: number }> {
  if (deps.candles <= 0 || deps.instruments.length === 0) return { instruments: 0, candles: 0 };
  return deps.db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${LOCK_KEY}))`.execute(tx);
    const bare = await tx
      .selectFrom('market_instrument as i')
      .select('i.id')
      .where('i.status', '!=', 'delisted')
      .where((eb) =>
        eb.and([
          eb.not(
            eb.exists(
              eb
                .selectFrom('market_price as p')
                .select('p.instrument_id')
                .whereRef('p.instrument_id', '=', 'i.id'),
            ),
          ),
          eb.not(
            eb.exists(
              eb
                .selectFrom('market_candle as c')
                .select('c.instrument_id')
                .whereRef('c.instrument_id', '=', 'i.id'),
            ),
          ),
        ]),
      )
      .execute();
    const wanted = new Set(bare.map((r) => r.id));
    const offsets = sharedOffsets;
    type Columns = {
      instrument_id: string[];
      interval: string[];
      open_time: Date[];
      open: string[];
      high: string[];
      low: string[];
      close: string[];
      volume: string[];
      turnover: string[];
      ticks: number[];
    };
    const empty = (): Columns => ({
      instrument_id: [],
      interval: [],
      open_time: [],
      open: [],
      high: [],
      low: [],
      close: [],
      volume: [],
      turnover: [],
      ticks: [],
    });
    let columns = empty();
    const prices: PriceRow[] = [];
    let written = 0;
    let total = 0;
    // One insert in flight while the next chunk is drawn: the database and the generator overlap.
    let inFlight: Promise<unknown> = Promise.resolve();
    const flush = async () => {
      const c = columns;
      columns = empty();
      if (c.instrument_id.length === 0) return;
      total += c.instrument_id.length;
      await inFlight;
      inFlight = sql`
        insert into market_candle (instrument_id, interval, open_time, open, high, low, close, volume, turnover, ticks)
        select * from unnest(${c.instrument_id}::text[], ${c.interval}::text[],
          ${c.open_time}::timestamptz[], ${c.open}::numeric[], ${c.high}::numeric[],
          ${c.low}::numeric[], ${c.close}::numeric[], ${c.volume}::numeric[],
          ${c.turnover}::numeric[], ${c.ticks}::int[])`.execute(tx);
      // A failed insert fails the transaction at the next await; keep the rejection observed.
      inFlight.catch(() => {});
    };
    for (const instrument of deps.instruments) {
      if (!wanted.has(instrument.id)) continue;
      const history = simHistory(instrument, {
        seed: deps.seed,
        candles: deps.candles,
        endMs: deps.nowMs,
        feedTickMs: deps.feedTickMs,
        offsets,
      });
      if (!history) continue;
      written++;
      history.candles.forEach((list, k) => {
        for (const candle of list) {
          const row = candleRow(instrument, intervalOf(k), candle);
          columns.instrument_id.push(row.instrument_id);
          columns.interval.push(row.interval);
          columns.open_time.push(row.open_time);
          columns.open.push(row.open);
          columns.high.push(row.high);
          columns.low.push(row.low);
          columns.close.push(row.close);
          columns.volume.push(row.volume);
          columns.turnover.push(row.turnover);
          columns.ticks.push(row.ticks);
        }
      });
      const { last } = history;
      prices.push({
        instrument_id: instrument.id,
        last: ticksToPrice(instrument, last.priceTicks),
        bid: ticksToPrice(instrument, last.bidTicks),
        ask: ticksToPrice(instrument, last.askTicks),
        mark: ticksToPrice(instrument, last.markTicks),
        tick_seq: '0',
        tick_at: new Date(last.atMs),
        source: 'sim',
      });
      if (columns.instrument_id.length >= HISTORY_LIMITS.insertChunkRows) await flush();
      // Let the in-flight insert's answer be read between instruments.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await flush();
    await inFlight;
    if (prices.length > 0) await tx.insertInto('market_price').values(prices).execute();
    return { instruments: written, candles: total };
  });
}
