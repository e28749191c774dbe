import type { CreateOrderBody, SpotMarketData, SpotOrderData } from '@bourse/protocol';
import type { AuthContext } from '../../http/context.ts';
import type { StaffContext } from '../../http/staff.ts';
import type { BookCursor } from '../market/index.ts';
import * as admin from './admin.ts';
import { amendFor } from './amend.ts';
import { cancelAll, cancelFor } from './cancel.ts';
import { checkFrozen } from './frozen.ts';
import { buildOrder, PRICE_TICKS_MAX, placeFor, QTY_LOTS_MAX } from './intake.ts';
import {
  BOOKS,
  createSpotState,
  loadKillSwitch,
  loadMarkets,
  marketData,
  marketOf,
  refreshControls,
  runnerOf,
  type SpotDeps,
  type SpotEvents,
  type SpotState,
  seedMarkets,
} from './markets.ts';
import type { Book, OrderState } from './order.ts';
import * as queries from './queries.ts';

export { SPOT_DEFAULTS, type SpotEvents, type SpotMarketRow } from './markets.ts';

/**
 * The spot service: wires the parts together over one shared state (`markets.ts`). Order intake
 * `intake.ts`, cancels `cancel.ts`, what customers read `queries.ts`, the back office `admin.ts`, the
 * frozen check `frozen.ts`; each book's queue, journal, matching and settlement `runner.ts`.
 */
export function createSpot(deps: SpotDeps) {
  const s = createSpotState(deps);
  const bookOf = (auth: AuthContext | null): Book => (auth?.isDemo ? 'demo' : 'real');
  const orderData = queries.orderData.bind(null, s);
  return {
    listen(l: SpotEvents) {
      s.listeners.push(l);
    },
    start: () => start(s),
    async close(): Promise<void> {
      for (const m of s.markets.values()) for (const b of BOOKS) await m.runners[b].drained();
      await s.bookLeases?.close();
    },
    /**
     * SPOT_LEASES: `listener` runs whenever this process reads the back office's controls again (each
     * lease round, and when another process announces a change); `controlsChanged` announces one.
     */
    onControls(listener: () => Promise<void>): void {
      s.controlListeners.push(listener);
    },
    controlsChanged(): void {
      s.bookLeases?.controlsChanged();
    },
    /** Reads the controls again now (what a lease round does; tests). */
    refreshControls: () => refreshControls(s),
    /** Whether this process takes orders for the book (SPOT_LEASES=on: it owns the book; off: always). */
    owns: (symbol: string, book: Book): boolean => s.bookLeases?.owns(symbol, book) ?? true,
    markets(symbol?: string): SpotMarketData[] {
      return [...s.markets.values()].filter((m) => !symbol || m.symbol === symbol).map(marketData);
    },
    market: (symbol: string) => marketOf(s, symbol),
    runner: (symbol: string, book: Book) => runnerOf(s, symbol, book),
    bookOf,
    orderData,

    // ---- orders
    async createOrder(auth: AuthContext, body: CreateOrderBody): Promise<SpotOrderData> {
      return orderData(await placeFor(s, auth.customerId, bookOf(auth), body));
    },
    placeFor: (customerId: string, book: Book, body: CreateOrderBody) => placeFor(s, customerId, book, body),
    /** A customer's resting orders on one market out and `bodies` in, in one batch (`amend.ts`). */
    amendFor: (
      customerId: string,
      book: Book,
      symbol: string,
      bodies: CreateOrderBody[],
      reason?: 'user' | 'operator',
    ) => amendFor(s, customerId, book, symbol, bodies, reason),
    /** An order checked against its market's rules (the bot API's test order); nothing is written. */
    checkOrder(customerId: string, book: Book, body: CreateOrderBody): void {
      buildOrder(s, customerId, book, body);
    },
    /** The largest price (ticks) and quantity (lots) an order may carry: the engine's limits. */
    orderMaxima: { priceTicksMax: PRICE_TICKS_MAX, qtyLotsMax: QTY_LOTS_MAX },
    cancelFor: (customerId: string, q: OrderKey, reason?: 'user' | 'operator') =>
      cancelFor(s, customerId, q, reason),
    async cancelOrder(auth: AuthContext, q: OrderKey): Promise<SpotOrderData> {
      return orderData(await cancelFor(s, auth.customerId, q));
    },
    cancelAll: (customerId: string, symbol?: string, reason?: 'user' | 'operator') =>
      cancelAll(s, customerId, symbol, reason),

    // ---- reads
    getOrder: (auth: AuthContext, q: OrderKey) => queries.getOrder(s, auth, q),
    orders: (auth: AuthContext, q: queries.OrdersQuery, open: boolean, window?: queries.ExportWindow) =>
      queries.orders(s, auth, q, open, window),
    myTrades: (auth: AuthContext, q: queries.FillsQuery, window?: queries.ExportWindow) =>
      queries.myTrades(s, auth, q, window),
    arrivalFills: (auth: AuthContext, o: OrderState) => queries.arrivalFills(s, auth, o),
    depth: (symbol: string, book: Book, limit?: string) => queries.depth(s, symbol, book, limit),
    trades: (symbol: string, book: Book, limit?: string) => queries.trades(s, symbol, book, limit),
    tradesOf: (symbol: string, book: Book, limit: number) => queries.tradesOf(s, symbol, book, limit),
    depthOf: (symbol: string, book: Book, limit: number) => queries.depthOf(s, symbol, book, limit),
    balance: (auth: AuthContext, symbol: string) => queries.balance(s, auth, bookOf(auth), symbol),
    /** The price source of instruments priced by their own book (market `setBookSource`). */
    bookSource: {
      prints: (symbol: string, after: BookCursor, limit: number) =>
        queries.recordedPrints(s, symbol, after, limit),
      top: (symbol: string) => queries.topOf(s, symbol),
    },

    // ---- back office
    adminMarkets: () => admin.adminMarkets(s),
    halt: (staff: StaffContext, symbol: string, reason: string) => admin.halt(s, staff, symbol, reason),
    enable: (staff: StaffContext, symbol: string, reason?: string) => admin.enable(s, staff, symbol, reason),
    update: (staff: StaffContext, symbol: string, body: admin.MarketUpdateBody) =>
      admin.update(s, staff, symbol, body),
    createMarket: (staff: StaffContext, body: admin.MarketCreateBody) => admin.createMarket(s, staff, body),
    setKillSwitch: (staff: StaffContext, engaged: boolean, reason: string) =>
      admin.setKillSwitch(s, staff, engaged, reason),
    killSwitch: () => s.kill,

    /** Frozen = what open orders need (`frozen.ts`); the differences, empty when all hold. */
    checkFrozen: () => checkFrozen(s),
  };
}

type OrderKey = { order_id?: string; client_oid?: string };

/** Seeds markets from the catalogue, loads them and the kill switch, rebuilds every book from its journal. */
async function start(s: SpotState): Promise<{ markets: number; replayed: number; settled: number }> {
  await seedMarkets(s);
  await loadMarkets(s);
  await loadKillSwitch(s);
  if (s.bookLeases) {
    // SPOT_LEASES: follow every book as settled, then take (and recover) the free ones (`lease.ts`).
    await s.bookLeases.start();
    s.log.info({ markets: s.markets.size, owner: s.bookLeases.processId }, 'spot books under leases');
    return { markets: s.markets.size, replayed: 0, settled: 0 };
  }
  let replayed = 0;
  let settled = 0;
  for (const m of s.markets.values()) {
    for (const b of BOOKS) {
      const r = await m.runners[b].recover();
      replayed += r.replayed;
      settled += r.settled;
    }
  }
  s.log.info({ markets: s.markets.size, replayed, settled }, 'spot books rebuilt from the journal');
  return { markets: s.markets.size, replayed, settled };
}

export type Spot = ReturnType<typeof createSpot>;
