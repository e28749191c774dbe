import {
  type ContractMath,
  formatRatioPercent,
  marginFor,
  optionOutcome,
  PositionBook,
  type PositionState,
  type Ratio,
  ratioFromDecimal,
} from '../packages/risk/src/index.ts';
import type { BenchResult } from './run.ts';
import { percentile } from './support.ts';

/**
 * The risk engine's per-tick work (`packages/risk`, pure: no database, no I/O).
 *
 * A book of BENCH_RISK_POSITIONS (100,000) random open positions on a BTC perpetual (price scale 1,
 * 1 lot = 1 BTC): mixed sides, leverage 1–100, 0.001–5 lots, opened near 65,000 (within ±40 % ÷ leverage, so none
 * starts liquidated), a third with take-profit and stop-loss (within 60 % ÷ leverage of the open). Then BENCH_RISK_TICKS (50) ticks of a random walk (±0.3 % a tick),
 * each timed for `revalue` (every position re-valued: P&L at the close price, risk rate at mark) and
 * `evaluate` (which TP/SL/liquidations the tick triggers, from the sorted trigger prices). What
 * `evaluate` returns is removed (as the engine would after closing them) outside the timing.
 * Option settlements: `optionOutcome` over BENCH_RISK_OPTIONS (1,000,000) pre-generated options.
 * Seeded (BENCH_RISK_SEED, 1); one warm-up pass first.
 */
const POSITIONS = Number.parseInt(process.env.BENCH_RISK_POSITIONS ?? '100000', 10);
const TICKS = Number.parseInt(process.env.BENCH_RISK_TICKS ?? '50', 10);
const OPTIONS = Number.parseInt(process.env.BENCH_RISK_OPTIONS ?? '1000000', 10);
const SEED = Number.parseInt(process.env.BENCH_RISK_SEED ?? '1', 10);

const M: ContractMath = { priceScale: 1, contractSizeUnits: 100_000_000n, toUsdt: { num: 1n, den: 1n } };
const LEVEL = ratioFromDecimal('0.8');
const SPREAD = 5n; // 0.5 USDT
const TICK = 1n; // 0.1
const START = 650_000n; // 65,000.0

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

function positions(n: number, seed: number): PositionState[] {
  const r = random(seed);
  const out: PositionState[] = [];
  for (let i = 0; i < n; i++) {
    const side = r.int(2) === 0 ? 'buy' : 'sell';
    const leverage = 1 + r.int(100);
    // Opened near the current price, within ±(40 % ÷ leverage), so none starts at its liquidation level.
    const reach = Math.floor((65_000 * 10 * 0.4) / leverage);
    const open = START + BigInt(r.int(2 * reach + 1) - reach);
    const lots = BigInt(100_000 + r.int(500_000_000)); // 0.001 … 5 lots
    const withLevels = r.int(3) === 0;
    const away = BigInt(1 + r.int(Math.max(1, Math.floor((65_000 * 10 * 0.6) / leverage))));
    out.push({
      id: `pos_${String(i).padStart(7, '0')}`,
      side,
      openUnits: open,
      lotsUnits: lots,
      marginUnits: marginFor(M, open, lots, leverage),
      tpUnits: withLevels ? (side === 'buy' ? open + away : open - away) : null,
      slUnits: withLevels ? (side === 'buy' ? open - away : open + away) : null,
    });
  }
  return out;
}

function walk(n: number, seed: number): { bidUnits: bigint; askUnits: bigint; markUnits: bigint }[] {
  const r = random(seed);
  let price = START;
  const ticks = [];
  for (let i = 0; i < n; i++) {
    price += BigInt(Math.round((r.next() - 0.5) * 2 * 650)); // up to ±0.1 % a tick
    ticks.push({ bidUnits: price - 2n, askUnits: price + 2n, markUnits: price + BigInt(r.int(5) - 2) });
  }
  return ticks;
}

function ms(ns: number): string {
  return (ns / 1e6).toFixed(2);
}

function bookRun(all: PositionState[], ticks: ReturnType<typeof walk>) {
  const t0 = process.hrtime.bigint();
  const book = new PositionBook(M, LEVEL, SPREAD, TICK);
  for (const p of all) book.upsert(p);
  book.evaluate(ticks[0]!); // first query sorts the trigger indexes
  const loadNs = Number(process.hrtime.bigint() - t0);
  const revalue: number[] = [];
  const evaluate: number[] = [];
  let triggered = 0;
  let busiest = 0;
  let worst: Ratio = { num: 0n, den: 1n };
  for (const tick of ticks) {
    const a = process.hrtime.bigint();
    const totals = book.revalue(tick);
    const b = process.hrtime.bigint();
    const hits = book.evaluate(tick);
    const c = process.hrtime.bigint();
    revalue.push(Number(b - a));
    evaluate.push(Number(c - b));
    for (const h of hits) book.remove(h.id);
    triggered += hits.length;
    if (hits.length > busiest) busiest = hits.length;
    worst = totals.maxRiskRate;
  }
  return { loadNs, revalue, evaluate, triggered, busiest, left: book.size, worst };
}

export async function run(): Promise<BenchResult[]> {
  const all = positions(POSITIONS, SEED);
  const ticks = walk(TICKS, SEED + 1);
  bookRun(all.slice(0, Math.min(all.length, 20_000)), ticks); // warm-up
  const m = bookRun(all, ticks);
  const rv = [...m.revalue].sort((x, y) => x - y);
  const ev = [...m.evaluate].sort((x, y) => x - y);
  const lastMark = ticks[ticks.length - 1]?.markUnits ?? START;

  // Options: settle pre-generated (direction, open, settle, stake) tuples.
  const r = random(SEED + 2);
  const rate = ratioFromDecimal('0.85');
  const opts = Array.from({ length: OPTIONS }, () => ({
    up: r.int(2) === 0,
    open: START + BigInt(r.int(200) - 100),
    settle: START + BigInt(r.int(200) - 100),
    stake: BigInt(1_000_000_000 + r.int(1_000_000_000)),
  }));
  let paid = 0n;
  for (let i = 0; i < Math.min(OPTIONS, 100_000); i++) {
    const o = opts[i]!;
    paid += optionOutcome(o.up ? 'up' : 'down', o.open, o.settle, o.stake, rate).payoutUnits;
  }
  paid = 0n;
  const w: Record<string, number> = { won: 0, lost: 0, tied: 0 };
  const s0 = process.hrtime.bigint();
  for (const o of opts) {
    const out = optionOutcome(o.up ? 'up' : 'down', o.open, o.settle, o.stake, rate);
    paid += out.payoutUnits;
    w[out.status] = (w[out.status] ?? 0) + 1;
  }
  const optNs = Number(process.hrtime.bigint() - s0);

  return [
    {
      name: 'risk: book',
      figures: {
        positions: POSITIONS,
        ticks: TICKS,
        load_ms: ms(m.loadNs),
        triggered: m.triggered,
        left: m.left,
        last_max_risk_pct: formatRatioPercent(m.worst, 2),
        last_mark: (Number(lastMark) / 10).toFixed(1),
        seed: SEED,
      },
    },
    {
      name: 'risk: revalue (full, per tick)',
      figures: {
        p50_ms: ms(percentile(rv, 0.5)),
        p99_ms: ms(percentile(rv, 0.99)),
        max_ms: ms(rv[rv.length - 1] ?? 0),
      },
    },
    {
      name: 'risk: evaluate (triggers, per tick)',
      figures: {
        p50_ms: ms(percentile(ev, 0.5)),
        p99_ms: ms(percentile(ev, 0.99)),
        max_ms: ms(ev[ev.length - 1] ?? 0),
        most_triggers_in_a_tick: m.busiest,
      },
    },
    {
      name: 'risk: optionOutcome',
      figures: {
        settlements_per_s: Math.round(OPTIONS / (optNs / 1e9)),
        options: OPTIONS,
        paid_usdt: (Number(paid / 1_000_000n) / 100).toFixed(2),
        won: w.won ?? 0,
        lost: w.lost ?? 0,
        tied: w.tied ?? 0,
      },
    },
  ];
}
