import { isKnownAsset, parseDecimal } from '@bourse/money';
import type { SpotKillSwitchData, SpotMarketAdminData, SpotMarketData } from '@bourse/protocol';
import { type MarketMath, mathOf, normalizeDecimal, scaleProblem, toSteps } from '@bourse/risk';
import type { Logger } from 'pino';
import type { ClaimFactory, Db } from '../../db/database.ts';
import { Refusal, refuse } from '../../http/refusal.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Market } from '../market/index.ts';
import { type BookLeases, createBookLeases, type LeaseOptions } from './lease.ts';
import type { BatchOutcome, Book, MarketRef } from './order.ts';
import { insertMarketIfAbsent, readSetting, selectMarkets, settingKey } from './repo.ts';
import { BookRunner, type RunnerHooks } from './runner.ts';

/**
 * The state every part of the spot service shares: the loaded markets (rules and their two book
 * runners), the kill switch, the batch listeners — and how markets are seeded and loaded.
 */

export type SpotMarketRow = {
  symbol: string;
  base: string;
  quote: string;
  priceTick: string;
  lotSize: string;
  minQuantity: string;
  minNotional: string;
  maxNotional: string;
  makerFeeRate: string;
  takerFeeRate: string;
  priceBandBps: number;
  status: 'enabled' | 'halted';
  haltReason: string | null;
  updatedAt: Date;
};

/** A market as the service holds it: its row, its exact-money math and its two books. */
export type LoadedMarket = SpotMarketRow & {
  math: MarketMath;
  minQtyLots: bigint;
  minNotionalUnits: bigint;
  maxNotionalUnits: bigint;
  runners: Record<Book, BookRunner>;
};

/** Defaults for markets seeded from the catalogue (every one of them can be changed in the back office). */
export const SPOT_DEFAULTS = {
  makerFeeRate: '0.001',
  takerFeeRate: '0.002',
  priceBandBps: 500,
  /** In quote units (USDT). */
  minNotional: '5',
  maxNotional: '1000000',
} as const;

export const BOOKS = ['real', 'demo'] as const;

export type SpotEvents = {
  /** A batch was settled: publish depth, trades and private updates. */
  onBatch?(symbol: string, book: Book, outcome: BatchOutcome): void;
};

export type SpotDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  market: Market;
  audit: AuditLog;
  /** Journal commands between snapshots of a book (default RUNNER_LIMITS.snapshotEvery). */
  snapshotEvery?: number;
  /** Commands a book queues before refusing SPOT_BUSY (default RUNNER_LIMITS.queueMax). */
  queueMax?: number;
  /** SPOT_LEASES=on: one owner process per book (`lease.ts`); unset: this process owns every book. */
  leases?: LeaseOptions;
  /** SPOT_LEASES=on: records the idempotency claim of an order another process forwarded to this owner. */
  claims?: ClaimFactory;
};

export type SpotState = SpotDeps & {
  markets: Map<string, LoadedMarket>;
  /** Read by every batch before it journals a new order. */
  kill: SpotKillSwitchData;
  /** The kill switch's row as last read or written here (JSON): `refreshControls` applies only a change. */
  killSeen: string;
  /** Called after each `refreshControls` (the market maker reads its settings again). */
  controlListeners: Array<() => Promise<void>>;
  listeners: SpotEvents[];
  hooks: RunnerHooks;
  /** SPOT_LEASES=on only. */
  bookLeases: BookLeases | null;
};

export function createSpotState(deps: SpotDeps): SpotState {
  const state: SpotState = {
    ...deps,
    markets: new Map(),
    kill: { engaged: false, reason: null, engaged_at: null },
    killSeen: 'null',
    controlListeners: [],
    listeners: [],
    hooks: {
      gate: (symbol) => gate(state, symbol),
      published(runner, outcome) {
        for (const l of state.listeners) {
          try {
            l.onBatch?.(runner.market.symbol, runner.book, outcome);
          } catch (error) {
            deps.log.error({ err: error }, 'spot listener failed');
          }
        }
      },
    },
    bookLeases: null,
  };
  if (deps.leases) {
    const leases = createBookLeases({
      db: deps.db,
      log: deps.log,
      options: deps.leases,
      runner: (symbol, book) => runnerOf(state, symbol, book),
      books: () => [...state.markets.keys()].flatMap((symbol) => BOOKS.map((book) => ({ symbol, book }))),
      publish: (runner, outcome) => state.hooks.published(runner, outcome),
      refresh: () => refreshControls(state),
      adopted: (symbol, book) => reconcileBook(state, symbol, book, true),
      ...(deps.claims ? { claims: deps.claims } : {}),
    });
    state.bookLeases = leases;
    state.listeners.push(leases.listener);
  }
  return state;
}

/** The runners' check right before a new order is journaled. */
function gate(s: SpotState, symbol: string): Refusal | null {
  if (s.kill.engaged) return new Refusal('TRADING_HALTED', { reason: s.kill.reason ?? '' });
  const m = s.markets.get(symbol);
  if (!m) return new Refusal('SPOT_MARKET_UNKNOWN', { symbol });
  if (m.status === 'halted') return new Refusal('SPOT_MARKET_HALTED', { symbol, reason: m.haltReason ?? '' });
  return null;
}

export function marketOf(s: SpotState, symbol: string): LoadedMarket {
  const m = s.markets.get(symbol);
  if (!m) refuse('SPOT_MARKET_UNKNOWN', { symbol });
  return m;
}

export function runnerOf(s: SpotState, symbol: string, book: Book): BookRunner {
  return marketOf(s, symbol).runners[book];
}

export function marketRowOf(r: Record<string, unknown>): SpotMarketRow {
  const n = (v: unknown) => normalizeDecimal(String(v));
  return {
    symbol: String(r.symbol),
    base: String(r.base),
    quote: String(r.quote),
    priceTick: n(r.price_tick),
    lotSize: n(r.lot_size),
    minQuantity: n(r.min_quantity),
    minNotional: n(r.min_notional),
    maxNotional: n(r.max_notional),
    makerFeeRate: n(r.maker_fee_rate),
    takerFeeRate: n(r.taker_fee_rate),
    priceBandBps: Number(r.price_band_bps),
    status: r.status as 'enabled' | 'halted',
    haltReason: (r.halt_reason as string | null) ?? null,
    updatedAt: r.updated_at as Date,
  };
}

/** A row with its math and limits in minor units; the runners are kept from `existing` (or made). */
export function loadedMarket(s: SpotState, row: SpotMarketRow, existing?: LoadedMarket): LoadedMarket {
  const math = mathOf(row);
  const minQty = toSteps(row.minQuantity, math.qtyScale, math.lotUnits);
  const minQtyLots = minQty.ok ? minQty.steps : 1n;
  const parse = (t: string) => {
    const p = parseDecimal(t, { scale: math.quoteScale, maxIntegerDigits: 24 });
    if (!p.ok) throw new Error(`bad notional ${t}`);
    return p.units;
  };
  const ref: MarketRef = {
    symbol: row.symbol,
    base: row.base,
    quote: row.quote,
    math,
    bandBps: row.priceBandBps,
    minQtyLots: Number(minQtyLots),
  };
  const runnerDeps = {
    db: s.db,
    ledger: s.ledger,
    clock: s.clock,
    log: s.log,
    hooks: s.hooks,
    snapshotEvery: s.snapshotEvery,
    queueMax: s.queueMax,
  };
  // SPOT_LEASES: each book's runner checks its own lease (`lease.ts`).
  const leased = (book: Book) =>
    s.bookLeases
      ? {
          fence: s.bookLeases.hooks.fenceFor(row.symbol, book),
          owner: s.bookLeases.hooks.ownerFor(row.symbol, book),
          forward: s.bookLeases.hooks.forwardFor(row.symbol, book),
        }
      : {};
  const runners = existing?.runners ?? {
    real: new BookRunner(ref, 'real', { ...runnerDeps, ...leased('real') }),
    demo: new BookRunner({ ...ref }, 'demo', { ...runnerDeps, ...leased('demo') }),
  };
  return {
    ...row,
    math,
    minQtyLots,
    minNotionalUnits: parse(row.minNotional),
    maxNotionalUnits: parse(row.maxNotional),
    runners,
  };
}

export function marketData(m: LoadedMarket): SpotMarketData {
  return {
    symbol: m.symbol,
    base: m.base,
    quote: m.quote,
    price_tick: m.priceTick,
    price_scale: m.math.priceScale,
    lot_size: m.lotSize,
    quantity_scale: m.math.qtyScale,
    min_quantity: m.minQuantity,
    min_notional: m.minNotional,
    max_notional: m.maxNotional,
    maker_fee_rate: m.makerFeeRate,
    taker_fee_rate: m.takerFeeRate,
    price_band_bps: m.priceBandBps,
    status: m.status,
    halt_reason: m.haltReason,
  };
}

export function adminMarket(m: LoadedMarket): SpotMarketAdminData {
  return {
    ...marketData(m),
    open_orders_real: m.runners.real.open.size,
    open_orders_demo: m.runners.demo.open.size,
    engine_seq_real: m.runners.real.engineSeq,
    engine_seq_demo: m.runners.demo.engineSeq,
    engine_hash_real: m.runners.real.hash(),
    engine_hash_demo: m.runners.demo.hash(),
    updated_at: m.updatedAt.getTime(),
  };
}

export async function loadMarkets(s: SpotState): Promise<void> {
  const rows = await selectMarkets(s.db);
  for (const r of rows) s.markets.set(r.symbol, loadedMarket(s, marketRowOf(r), s.markets.get(r.symbol)));
}

export async function loadKillSwitch(s: SpotState): Promise<void> {
  const value = await readSetting(s.db, 'kill_switch');
  s.killSeen = settingKey(value);
  if (value) s.kill = value as SpotKillSwitchData;
}

/** Whether this process runs `book` of `symbol` (always, unless SPOT_LEASES gives it to another). */
export function runsBook(s: SpotState, symbol: string, book: Book): boolean {
  return !s.bookLeases || s.bookLeases.owns(symbol, book);
}

/**
 * Journals a market's price band and minimum quantity into a book this process runs whose engine
 * holds others (a change saved here, or by another process's back office: SPOT_LEASES).
 */
export async function reconcileBook(
  s: SpotState,
  symbol: string,
  book: Book,
  /** Taken over just now: owned (the fence passes) though not yet taking orders. */
  taking = false,
): Promise<void> {
  const m = s.markets.get(symbol);
  if (!m || !(taking || runsBook(s, symbol, book))) return;
  const runner = m.runners[book];
  const minQtyLots = Number(m.minQtyLots);
  if (runner.market.bandBps !== m.priceBandBps || runner.market.minQtyLots !== minQtyLots)
    await runner.reconfigure(m.priceBandBps, minQtyLots);
}

/** A market's saved settings compared whole (two changes may share a timestamp). */
function rowKey(r: SpotMarketRow): string {
  return JSON.stringify([
    r.priceTick,
    r.lotSize,
    r.minQuantity,
    r.minNotional,
    r.maxNotional,
    r.makerFeeRate,
    r.takerFeeRate,
    r.priceBandBps,
    r.status,
    r.haltReason,
    r.updatedAt.getTime(),
  ]);
}

/**
 * SPOT_LEASES: what any process's back office saved — halts, fees, limits, new markets and the kill
 * switch — read again from the database (each lease round, and at once when a process says so), and
 * the band and minimum journaled into the books this process owns. The database is the truth: a halt
 * this process set in memory but could not save is undone here; only an engaged kill switch that could
 * not be saved stays on (the safe side) until the switch's row changes.
 */
export async function refreshControls(s: SpotState): Promise<void> {
  for (const r of await selectMarkets(s.db)) {
    const row = marketRowOf(r);
    const loaded = s.markets.get(row.symbol);
    if (!loaded || rowKey(loaded) !== rowKey(row)) s.markets.set(row.symbol, loadedMarket(s, row, loaded));
    for (const book of BOOKS) await reconcileBook(s, row.symbol, book);
  }
  const value = await readSetting(s.db, 'kill_switch');
  const seen = settingKey(value);
  if (seen !== s.killSeen) {
    s.killSeen = seen;
    if (value) s.kill = value as SpotKillSwitchData;
  }
  for (const listener of s.controlListeners) await listener();
}

/** Seeds a market for every catalogue `crypto_spot` instrument whose currencies the ledger knows and whose tick/lot fit. */
export async function seedMarkets(s: SpotState): Promise<number> {
  const page = s.market.instruments({ class: 'crypto_spot', page_size: '1000' } as unknown as Parameters<
    Market['instruments']
  >[0]);
  const now = s.clock.now();
  let added = 0;
  for (const i of page.items) {
    // A currency the ledger does not know yet (add it to @bourse/money first): no market for it.
    if (!isKnownAsset(i.base) || !isKnownAsset(i.quote)) continue;
    const math = mathOf({ base: i.base, quote: i.quote, priceTick: i.price_tick, lotSize: i.lot_size });
    if (scaleProblem(math)) continue;
    added += await insertMarketIfAbsent(s.db, {
      symbol: i.symbol,
      base: i.base,
      quote: i.quote,
      price_tick: i.price_tick,
      lot_size: i.lot_size,
      min_quantity: i.lot_size,
      min_notional: SPOT_DEFAULTS.minNotional,
      max_notional: SPOT_DEFAULTS.maxNotional,
      maker_fee_rate: SPOT_DEFAULTS.makerFeeRate,
      taker_fee_rate: SPOT_DEFAULTS.takerFeeRate,
      price_band_bps: SPOT_DEFAULTS.priceBandBps,
      status: 'enabled',
      halt_reason: null,
      created_at: now,
      updated_at: now,
    });
  }
  return added;
}
