import { OrderBook } from 'nodejs-order-book';
import {
  type BookConfig,
  type Command,
  type EngineEvent,
  MatchingBook,
} from '../packages/matching/src/index.ts';
import type { BenchResult } from './run.ts';

/**
 * The matching engine (`packages/matching`) against the npm package `nodejs-order-book` on the
 * same pre-generated, seeded workloads, in the same process and run.
 *
 * Mixed workload — modelled on exchange-core's `TestOrdersGenerator` (its throughput tests): a
 * fill phase grows the book to BENCH_MATCHING_BOOK resting orders around a price that drifts with
 * the trades (not timed), then the timed phase draws, per command, a number q in [0, 40) (or a
 * smaller range while a side lacks orders): q < 2 places an order — a GTC limit near the last trade
 * price if that side lacks orders, else a market order (exchange-core's IOC taker); q = 2 cancels,
 * q = 3 reduces, and otherwise it moves a random live order one step toward the last trade price
 * (cancel + new limit with the same id, which may trade). Sizes are 1 + r6·r6·r6 lots as there.
 * The mix actually drawn is printed. Pure insert: GTC limits that never cross, 1,000 levels a side.
 *
 * Latency is timed with `process.hrtime.bigint()` around batches of BATCH operations (so the
 * timer's own ~50 ns does not dominate sub-microsecond operations); each batch gives one per-
 * operation sample, and p50/p99/p99.9 are over those samples. A warm-up run on a throwaway book
 * comes first for each engine. Knobs: BENCH_MATCHING_OPS (mixed, 1,000,000), BENCH_MATCHING_INSERTS
 * (300,000), BENCH_MATCHING_BOOK (1,000), BENCH_MATCHING_SEED (1).
 */
const OPS = Number.parseInt(process.env.BENCH_MATCHING_OPS ?? '1000000', 10);
const INSERTS = Number.parseInt(process.env.BENCH_MATCHING_INSERTS ?? '300000', 10);
const BOOK_TARGET = Number.parseInt(process.env.BENCH_MATCHING_BOOK ?? '1000', 10);
const SEED = Number.parseInt(process.env.BENCH_MATCHING_SEED ?? '1', 10);
const BATCH = 16;
const USERS = 10_000;
const START_PRICE = 10_000;
const PRICE_DEVIATION = 500; // exchange-core: 5 % of the start price
const MIN_PRICE = START_PRICE - PRICE_DEVIATION * 5;
const MAX_PRICE = START_PRICE + PRICE_DEVIATION * 5;

const CONFIG: BookConfig = {
  market: 'BENCH-USDT',
  minQtyLots: 1,
  maxQtyLots: 1_000_000,
  maxPriceTicks: 1_000_000,
  maxOpenOrders: 1_000_000,
  band: { ticks: PRICE_DEVIATION * 5 }, // like exchange-core's IOC limit at the min/max price
  stpDefault: 'cancel-taker',
};

/** mulberry32: small, fast, seeded. */
function random(seed: number): { next(): number; int(n: number): number } {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return { next, int: (n: number) => Math.floor(next() * n) };
}

/** One workload operation, with the arguments for both engines built ahead of time. */
type Op =
  | { k: 'limit'; cmd: Command; nob: { id: string; side: 'buy' | 'sell'; size: number; price: number } }
  | { k: 'market'; cmd: Command; nob: { side: 'buy' | 'sell'; size: number } }
  | { k: 'cancel'; cmd: Command; id: string }
  | { k: 'reduce'; cmd: Command; id: string; nob: { size: number } }
  | {
      k: 'move';
      cancel: Command;
      place: Command;
      id: string;
      nob: { id: string; side: 'buy' | 'sell'; size: number; price: number };
    };

type Live = { side: 'buy' | 'sell'; price: number; size: number; user: string; index: number };

/** Generates the mixed workload by running it through our engine, as exchange-core does with its naive book. */
function mixedWorkload(total: number, seed: number): { fill: Op[]; bench: Op[] } {
  const r = random(seed);
  const live = new Map<string, Live>();
  const liveIds: string[] = [];
  const sideCount = { buy: 0, sell: 0 };
  let lastTradePrice = START_PRICE;
  let priceDirection = 0;
  const drop = (id: string) => {
    const o = live.get(id);
    if (!o) return;
    live.delete(id);
    sideCount[o.side] -= 1;
    const last = liveIds.pop()!;
    if (last !== id) {
      liveIds[o.index] = last;
      live.get(last)!.index = o.index;
    }
  };
  const onEvent = (e: Readonly<EngineEvent>) => {
    if (e.type === 'rested') {
      live.set(e.orderId, {
        side: e.side,
        price: e.priceTicks,
        size: e.qtyLots,
        user: e.userId,
        index: liveIds.length,
      });
      liveIds.push(e.orderId);
      sideCount[e.side] += 1;
    } else if (e.type === 'trade') {
      const maker = live.get(e.makerOrderId);
      if (maker) maker.size -= e.qtyLots;
      lastTradePrice = Math.min(MAX_PRICE, Math.max(MIN_PRICE, e.priceTicks));
      if (e.priceTicks <= MIN_PRICE) priceDirection = 1;
      else if (e.priceTicks >= MAX_PRICE) priceDirection = -1;
    } else if (e.type === 'filled' || (e.type === 'cancelled' && e.resting)) drop(e.orderId);
    else if (e.type === 'reduced') {
      const o = live.get(e.orderId);
      if (o) o.size = e.remainingLots;
    }
  };
  const book = new MatchingBook(CONFIG, onEvent);
  const half = Math.floor(BOOK_TARGET / 2);
  let seq = 0;
  let nextId = 0;
  let filled = false;
  const fill: Op[] = [];
  const bench: Op[] = [];
  const size = () => 1 + r.int(6) * r.int(6) * r.int(6);
  const limitCmd = (id: string, user: string, side: 'buy' | 'sell', price: number, qty: number): Command => ({
    type: 'place',
    seq: ++seq,
    timestampMs: seq,
    orderId: id,
    userId: user,
    side,
    kind: 'limit',
    priceTicks: price,
    qtyLots: qty,
  });

  while (bench.length < total) {
    const side = r.int(4) + priceDirection >= 2 ? 'buy' : 'sell';
    const lack = half - sideCount[side];
    const fastFill = !filled || lack > Math.min(512, (half * 3) / 4);
    const grow = lack > 0;
    if (!filled && !grow && sideCount.buy >= half && sideCount.sell >= half) filled = true;
    const q = r.int(grow ? (fastFill ? 2 : 10) : 40);
    let op: Op | null = null;
    if (q < 2) {
      const user = `u${r.int(USERS)}`;
      const id = `o${++nextId}`;
      if (grow) {
        const dev = 1 + Math.floor(r.next() ** 2 * PRICE_DEVIATION);
        let p = 0;
        for (let i = 0; i < 4; i += 1) p += r.int(dev);
        p = Math.floor(p / 4) * 2 - dev;
        if (p > 0 !== (side === 'sell')) p = -p;
        const price = Math.max(1, lastTradePrice + p);
        const qty = size();
        op = { k: 'limit', cmd: limitCmd(id, user, side, price, qty), nob: { id, side, size: qty, price } };
      } else {
        const qty = size();
        const cmd: Command = {
          type: 'place',
          seq: ++seq,
          timestampMs: seq,
          orderId: id,
          userId: user,
          side,
          kind: 'market',
          qtyLots: qty,
        };
        op = { k: 'market', cmd, nob: { side, size: qty } };
      }
    } else if (liveIds.length > 0) {
      const id = liveIds[r.int(Math.min(liveIds.length, 512))]!;
      const o = live.get(id)!;
      if (q === 2) {
        op = {
          k: 'cancel',
          cmd: { type: 'cancel', seq: ++seq, timestampMs: seq, orderId: id, userId: o.user },
          id,
        };
      } else if (q === 3) {
        const reduceBy = r.int(o.size) + 1;
        if (reduceBy < o.size) {
          const qty = o.size - reduceBy;
          op = {
            k: 'reduce',
            cmd: { type: 'amend', seq: ++seq, timestampMs: seq, orderId: id, userId: o.user, qtyLots: qty },
            id,
            nob: { size: qty },
          };
        } else
          op = {
            k: 'cancel',
            cmd: { type: 'cancel', seq: ++seq, timestampMs: seq, orderId: id, userId: o.user },
            id,
          };
      } else {
        const move = (lastTradePrice - o.price) * 0.01;
        const step =
          o.price > lastTradePrice
            ? Math.floor(move)
            : o.price < lastTradePrice
              ? Math.ceil(move)
              : r.int(2) * 2 - 1;
        const price = Math.max(1, o.price + step);
        const cancel: Command = { type: 'cancel', seq: ++seq, timestampMs: seq, orderId: id, userId: o.user };
        const place = limitCmd(id, o.user, o.side, price, o.size);
        op = { k: 'move', cancel, place, id, nob: { id, side: o.side, size: o.size, price } };
      }
    }
    if (op === null) continue;
    if (op.k === 'move') {
      book.apply(op.cancel);
      book.apply(op.place);
    } else book.apply(op.cmd);
    (filled ? bench : fill).push(op);
  }
  return { fill, bench };
}

function insertWorkload(total: number, seed: number): Op[] {
  const r = random(seed);
  const ops: Op[] = [];
  for (let i = 0; i < total; i += 1) {
    const side = i % 2 === 0 ? 'buy' : 'sell';
    const price = side === 'buy' ? START_PRICE - 1 - r.int(1_000) : START_PRICE + 1 + r.int(1_000);
    const qty = 1 + r.int(100);
    const id = `i${i}`;
    const cmd: Command = {
      type: 'place',
      seq: i + 1,
      timestampMs: i + 1,
      orderId: id,
      userId: `u${r.int(USERS)}`,
      side,
      kind: 'limit',
      priceTicks: price,
      qtyLots: qty,
    };
    ops.push({ k: 'limit', cmd, nob: { id, side, size: qty, price } });
  }
  return ops;
}

interface Engine {
  name: string;
  fresh(): (op: Op) => void;
}

const ours: Engine = {
  name: 'ours',
  fresh() {
    let trades = 0;
    const book = new MatchingBook(CONFIG, (e) => {
      if (e.type === 'trade') trades += 1;
    });
    return (op) => {
      if (op.k === 'move') {
        book.apply(op.cancel);
        book.apply(op.place);
      } else book.apply(op.cmd);
      if (trades < 0) throw new Error('unreachable');
    };
  },
};

const nob: Engine = {
  name: 'nodejs-order-book',
  fresh() {
    const book = new OrderBook();
    // Its enums are TypeScript enums of the same strings ('buy', 'sell').
    type Args = Parameters<OrderBook['limit']>[0];
    return (op) => {
      switch (op.k) {
        case 'limit':
          book.limit(op.nob as unknown as Args);
          break;
        case 'market':
          book.market(op.nob as unknown as Parameters<OrderBook['market']>[0]);
          break;
        case 'cancel':
          book.cancel(op.id);
          break;
        case 'reduce':
          book.modify(op.id, op.nob);
          break;
        case 'move':
          book.cancel(op.id);
          book.limit(op.nob as unknown as Args);
          break;
      }
    };
  },
};

function measure(engine: Engine, fill: readonly Op[], ops: readonly Op[]) {
  // Warm-up on a throwaway book so both engines are measured after JIT compilation.
  const warm = engine.fresh();
  for (const op of fill) warm(op);
  for (let i = 0; i < Math.min(ops.length, 200_000); i += 1) warm(ops[i]!);

  const step = engine.fresh();
  for (const op of fill) step(op);
  const samples = new Float64Array(Math.ceil(ops.length / BATCH));
  let k = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < ops.length; i += BATCH) {
    const end = Math.min(ops.length, i + BATCH);
    const t0 = process.hrtime.bigint();
    for (let j = i; j < end; j += 1) step(ops[j]!);
    samples[k++] = Number(process.hrtime.bigint() - t0) / (end - i);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  samples.sort();
  const pct = (p: number) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))]!;
  return { opsPerS: ops.length / seconds, seconds, p50: pct(0.5), p99: pct(0.99), p999: pct(0.999) };
}

function compare(label: string, fill: readonly Op[], ops: readonly Op[]): BenchResult[] {
  const a = measure(ours, fill, ops);
  const b = measure(nob, fill, ops);
  const line = (name: string, m: ReturnType<typeof measure>) => ({
    name: `matching: ${label}, ${name}`,
    figures: {
      ops_per_s: Math.round(m.opsPerS),
      p50_ns: Math.round(m.p50),
      p99_ns: Math.round(m.p99),
      'p99.9_ns': Math.round(m.p999),
      ops: ops.length,
      seconds: m.seconds.toFixed(2),
    },
  });
  return [
    line('ours', a),
    line('nodejs-order-book', b),
    {
      name: `matching: ${label}, ours ÷ nodejs-order-book`,
      figures: {
        throughput: `${(a.opsPerS / b.opsPerS).toFixed(1)}x`,
        p50: `${(b.p50 / a.p50).toFixed(1)}x faster`,
        p99: `${(b.p99 / a.p99).toFixed(1)}x faster`,
        'p99.9': `${(b.p999 / a.p999).toFixed(1)}x faster`,
      },
    },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const { fill, bench } = mixedWorkload(OPS, SEED);
  const counts: Record<Op['k'], number> = { limit: 0, market: 0, cancel: 0, reduce: 0, move: 0 };
  for (const op of bench) counts[op.k] += 1;
  const share = (n: number) => `${((n / bench.length) * 100).toFixed(1)}%`;
  const results: BenchResult[] = [
    {
      name: 'matching: mixed workload (timed phase)',
      figures: {
        gtc: share(counts.limit),
        market: share(counts.market),
        cancel: share(counts.cancel),
        reduce: share(counts.reduce),
        move: share(counts.move),
        book_orders: BOOK_TARGET,
        fill_ops: fill.length,
        seed: SEED,
      },
    },
    ...compare('mixed', fill, bench),
  ];
  results.push(...compare('insert', [], insertWorkload(INSERTS, SEED)));
  return results;
}
