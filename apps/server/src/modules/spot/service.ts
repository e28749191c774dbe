import { isKnownAsset, parseDecimal } from '@bourse/money';
import type {
  CreateOrderBody,
  SpotBalanceData,
  SpotDepthData,
  SpotFillData,
  SpotKillSwitchData,
  SpotMarketAdminData,
  SpotMarketData,
  SpotOrderData,
  SpotTradeData,
} from '@bourse/protocol';
import { SPOT_LIMITS } from '@bourse/protocol';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { Refusal, refuse } from '../../http/refusal.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Market } from '../market/index.ts';
import {
  baseText,
  baseUnits,
  feeOf,
  type MarketMath,
  mathOf,
  normalizeDecimal,
  notionalUnits,
  parseRate,
  priceText,
  qtyText,
  quoteText,
  RATE_MAX,
  scaleProblem,
  toSteps,
} from './amounts.ts';
import {
  type BatchOutcome,
  type Book,
  BookRunner,
  type MarketRef,
  needOf,
  type OrderState,
  orderFromRow,
} from './runner.ts';

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

type Loaded = SpotMarketRow & {
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

export type SpotEvents = {
  /** A batch was settled: publish depth, trades and private updates. */
  onBatch?(symbol: string, book: Book, outcome: BatchOutcome): void;
};

export function createSpot(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  market: Market;
  audit: AuditLog;
  /** Journal commands between snapshots of a book (default RUNNER_LIMITS.snapshotEvery). */
  snapshotEvery?: number;
}) {
  const { db, clock, log, ledger, market, audit } = deps;
  const markets = new Map<string, Loaded>();
  let kill: SpotKillSwitchData = { engaged: false, reason: null, engaged_at: null };
  const listeners: SpotEvents[] = [];

  const hooks = {
    gate(symbol: string): Refusal | null {
      if (kill.engaged) return new Refusal('TRADING_HALTED', { reason: kill.reason ?? '' });
      const m = markets.get(symbol);
      if (!m) return new Refusal('SPOT_MARKET_UNKNOWN', { symbol });
      if (m.status === 'halted')
        return new Refusal('SPOT_MARKET_HALTED', { symbol, reason: m.haltReason ?? '' });
      return null;
    },
    published(runner: BookRunner, outcome: BatchOutcome) {
      for (const l of listeners) {
        try {
          l.onBatch?.(runner.market.symbol, runner.book, outcome);
        } catch (error) {
          log.error({ err: error }, 'spot listener failed');
        }
      }
    },
  };

  function rowOf(r: Record<string, unknown>): SpotMarketRow {
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

  function derive(row: SpotMarketRow, existing?: Loaded): Loaded {
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
    const runners = existing?.runners ?? {
      real: new BookRunner(ref, 'real', { db, ledger, clock, log, hooks, snapshotEvery: deps.snapshotEvery }),
      demo: new BookRunner({ ...ref }, 'demo', {
        db,
        ledger,
        clock,
        log,
        hooks,
        snapshotEvery: deps.snapshotEvery,
      }),
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

  function marketData(m: Loaded): SpotMarketData {
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

  function marketOf(symbol: string): Loaded {
    const m = markets.get(symbol);
    if (!m) refuse('SPOT_MARKET_UNKNOWN', { symbol });
    return m;
  }

  function orderData(o: OrderState): SpotOrderData {
    const m = marketOf(o.symbol);
    const avg =
      o.filledLots > 0n ? priceText(m.math, o.filledAmount / notionalUnits(m.math, 1n, o.filledLots)) : null;
    return {
      order_id: o.id,
      client_oid: o.clientOid,
      symbol: o.symbol,
      book: o.book,
      side: o.side,
      type: o.type,
      tif: o.tif,
      post_only: o.postOnly,
      price: o.priceTicks === null ? null : priceText(m.math, o.priceTicks),
      quantity: qtyText(m.math, o.qtyLots),
      filled_quantity: qtyText(m.math, o.filledLots),
      filled_amount: quoteText(m.math, o.filledAmount),
      avg_price: avg,
      fee: quoteText(m.math, o.fee),
      fee_currency: m.quote,
      frozen: o.side === 'buy' ? quoteText(m.math, o.frozen) : baseText(m.math, o.frozen),
      frozen_currency: o.frozenCurrency,
      status: o.status,
      cancel_reason: o.cancelReason,
      created_at: o.createdAt.getTime(),
      updated_at: o.updatedAt.getTime(),
    };
  }

  async function loadMarkets(): Promise<void> {
    const rows = await db.selectFrom('spot_market').selectAll().orderBy('symbol').execute();
    for (const r of rows) markets.set(r.symbol, derive(rowOf(r), markets.get(r.symbol)));
  }

  /** Seeds a market for every catalogue `crypto_spot` instrument whose currencies the ledger knows and whose tick/lot fit. */
  async function seed(): Promise<number> {
    const page = market.instruments({ class: 'crypto_spot', page_size: '1000' } as unknown as Parameters<
      Market['instruments']
    >[0]);
    const now = clock.now();
    let added = 0;
    for (const i of page.items) {
      // A currency the ledger does not know yet (add it to @bourse/money first): no market for it.
      if (!isKnownAsset(i.base) || !isKnownAsset(i.quote)) continue;
      const math = mathOf({ base: i.base, quote: i.quote, priceTick: i.price_tick, lotSize: i.lot_size });
      if (scaleProblem(math)) continue;
      const result = await db
        .insertInto('spot_market')
        .values({
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
        })
        .onConflict((oc) => oc.column('symbol').doNothing())
        .executeTakeFirst();
      added += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    return added;
  }

  async function loadKill(): Promise<void> {
    const row = await db
      .selectFrom('spot_setting')
      .select('value')
      .where('key', '=', 'kill_switch')
      .executeTakeFirst();
    if (row) kill = row.value as SpotKillSwitchData;
  }

  function runnerOf(symbol: string, book: Book): BookRunner {
    return marketOf(symbol).runners[book];
  }

  function bookOf(auth: AuthContext | null): Book {
    return auth?.isDemo ? 'demo' : 'real';
  }

  async function findOrder(
    customerId: string,
    q: { order_id?: string; client_oid?: string },
  ): Promise<OrderState | null> {
    if (!q.order_id && !q.client_oid) refuse('FIELD_REQUIRED', { field: 'order_id' });
    let query = db.selectFrom('spot_order').selectAll().where('customer_id', '=', customerId);
    query = q.order_id
      ? query.where('id', '=', q.order_id)
      : query.where('client_oid', '=', q.client_oid ?? '');
    const row = await query.executeTakeFirst();
    return row ? orderFromRow(row) : null;
  }

  function sameOrder(o: OrderState, body: CreateOrderBody, built: OrderState): boolean {
    return (
      o.symbol === body.symbol &&
      o.side === built.side &&
      o.type === built.type &&
      o.tif === built.tif &&
      o.postOnly === built.postOnly &&
      o.priceTicks === built.priceTicks &&
      o.qtyLots === built.qtyLots
    );
  }

  /** Validates an order against the market's rules and builds it with the funds it needs; nothing is written. */
  function buildOrder(
    customerId: string,
    book: Book,
    body: CreateOrderBody,
  ): { order: OrderState; referencePriceTicks?: number } {
    if (kill.engaged) refuse('TRADING_HALTED', { reason: kill.reason ?? '' });
    const m = marketOf(body.symbol);
    if (m.status === 'halted') refuse('SPOT_MARKET_HALTED', { symbol: m.symbol, reason: m.haltReason ?? '' });
    const type = body.type ?? 'limit';
    const side = body.side;
    const postOnly = body.post_only === '1';
    const tif = body.tif ?? (type === 'limit' ? 'GTC' : 'IOC');
    if (type === 'market' && tif === 'GTC') refuse('ORDER_TIF_INVALID', { tif, type });
    if (postOnly && (type !== 'limit' || tif !== 'GTC')) refuse('ORDER_POST_ONLY_INVALID');
    let priceTicks: bigint | null = null;
    if (type === 'limit') {
      if (body.price === undefined || body.price === '') refuse('ORDER_PRICE_REQUIRED');
      const p = toSteps(body.price, m.math.priceScale, m.math.tickUnits);
      if (!p.ok) {
        if (p.error === 'OFF_GRID') refuse('ORDER_PRICE_TICK', { tick: m.priceTick });
        if (p.error === 'NOT_POSITIVE') refuse('AMOUNT_NOT_POSITIVE', { field: 'price' });
        refuse('AMOUNT_INVALID', { field: 'price' });
      }
      if (p.steps > 2n ** 39n)
        refuse('AMOUNT_TOO_LARGE', { field: 'price', max: priceText(m.math, 2n ** 39n) });
      priceTicks = p.steps;
    } else if (body.price !== undefined && body.price !== '') refuse('ORDER_PRICE_NOT_ALLOWED');
    const q = toSteps(body.quantity, m.math.qtyScale, m.math.lotUnits);
    if (!q.ok) {
      if (q.error === 'OFF_GRID') refuse('ORDER_QTY_LOT', { lot: m.lotSize });
      if (q.error === 'NOT_POSITIVE') refuse('AMOUNT_NOT_POSITIVE', { field: 'quantity' });
      refuse('AMOUNT_INVALID', { field: 'quantity' });
    }
    const qtyLots = q.steps;
    if (qtyLots < m.minQtyLots) refuse('ORDER_QTY_BELOW_MIN', { min: m.minQuantity });
    if (qtyLots > 9_000_000_000n)
      refuse('AMOUNT_TOO_LARGE', { field: 'quantity', max: qtyText(m.math, 9_000_000_000n) });
    let referencePriceTicks: number | undefined;
    let freezePriceTicks: bigint | null = null;
    let notionalPrice: bigint;
    if (type === 'market') {
      const price = market.priceForTrading(m.symbol);
      const ref = toSteps(price.mark, m.math.priceScale, m.math.tickUnits);
      let refTicks: bigint;
      if (ref.ok) refTicks = ref.steps;
      else {
        const loose = parseDecimal(price.mark, { scale: m.math.priceScale + 12, maxIntegerDigits: 24 });
        if (!loose.ok) throw new Error(`market price ${price.mark} unreadable`);
        refTicks = loose.units / (m.math.tickUnits * 10n ** 12n);
        if (refTicks <= 0n) refTicks = 1n;
      }
      referencePriceTicks = Number(refTicks);
      freezePriceTicks = refTicks + (refTicks * BigInt(m.priceBandBps)) / 10_000n;
      notionalPrice = side === 'buy' ? freezePriceTicks : refTicks;
    } else notionalPrice = priceTicks as bigint;
    const notional = notionalUnits(m.math, notionalPrice, qtyLots);
    if (notional < m.minNotionalUnits)
      refuse('ORDER_NOTIONAL_BELOW_MIN', { min: m.minNotional, currency: m.quote });
    if (notional > m.maxNotionalUnits)
      refuse('ORDER_NOTIONAL_ABOVE_MAX', { max: m.maxNotional, currency: m.quote });
    const now = clock.now();
    const order: OrderState = {
      id: newId('ord', now.getTime()),
      customerId,
      symbol: m.symbol,
      book,
      clientOid: body.client_oid ?? null,
      side,
      type,
      tif,
      postOnly,
      priceTicks,
      freezePriceTicks: side === 'buy' && type === 'market' ? freezePriceTicks : null,
      qtyLots,
      filledLots: 0n,
      filledAmount: 0n,
      fee: 0n,
      frozen: 0n,
      frozenCurrency: side === 'buy' ? m.quote : m.base,
      makerRate: m.makerFeeRate,
      takerRate: m.takerFeeRate,
      status: 'unfilled',
      cancelReason: null,
      seq: 0n,
      createdAt: now,
      updatedAt: now,
    };
    order.frozen = needOf(m.math, order);
    return { order, ...(referencePriceTicks !== undefined ? { referencePriceTicks } : {}) };
  }

  async function placeFor(customerId: string, book: Book, body: CreateOrderBody): Promise<OrderState> {
    const built = buildOrder(customerId, book, body);
    if (body.client_oid) {
      const existing = await findOrder(customerId, { client_oid: body.client_oid });
      if (existing) {
        if (sameOrder(existing, body, built.order)) return existing;
        refuse('CLIENT_OID_REUSED', { client_oid: body.client_oid });
      }
    }
    const runner = runnerOf(body.symbol, book);
    let open = 0;
    for (const o of runner.open.values()) if (o.customerId === customerId) open += 1;
    if (open >= SPOT_LIMITS.openOrdersPerMarketMax)
      refuse('ORDER_OPEN_LIMIT', { max: SPOT_LIMITS.openOrdersPerMarketMax });
    try {
      return await runner.place(built);
    } catch (error) {
      if (error instanceof Refusal && error.reason === 'CLIENT_OID_REUSED' && body.client_oid) {
        // The twin of a concurrent retry won: answer with its order when it is the same order.
        const existing = await findOrder(customerId, { client_oid: body.client_oid });
        if (existing && sameOrder(existing, body, built.order)) return existing;
      }
      throw error;
    }
  }

  async function cancelFor(
    customerId: string,
    q: { order_id?: string; client_oid?: string },
    reason: 'user' | 'operator' = 'user',
  ): Promise<OrderState> {
    const o = await findOrder(customerId, q);
    if (!o) refuse('NOT_FOUND');
    if (o.status === 'filled' || o.status === 'cancelled') refuse('ORDER_NOT_OPEN', { status: o.status });
    try {
      return await runnerOf(o.symbol, o.book).cancel(o.id, customerId, reason);
    } catch (error) {
      if (error instanceof Refusal && error.reason === 'ORDER_NOT_OPEN') {
        const now = await findOrder(customerId, { order_id: o.id });
        refuse('ORDER_NOT_OPEN', { status: now?.status ?? 'filled' });
      }
      throw error;
    }
  }

  function pageOf(q: { page?: string; page_size?: string }) {
    const page = Math.max(1, Number(q.page ?? '1'));
    const pageSize = Number(q.page_size ?? String(SPOT_LIMITS.pageSizeDefault));
    if (pageSize < 1) refuse('BAD_INPUT', { field: 'page_size' });
    if (pageSize > SPOT_LIMITS.pageSizeMax)
      refuse('LIMIT_TOO_LARGE', { field: 'page_size', max: SPOT_LIMITS.pageSizeMax });
    return { page, pageSize };
  }

  function depthOf(symbol: string, book: Book, limit: number): SpotDepthData {
    const m = marketOf(symbol);
    const runner = m.runners[book];
    const d = runner.engine.depth(limit);
    const level = (l: { priceTicks: number; qtyLots: number }): [string, string] => [
      priceText(m.math, BigInt(l.priceTicks)),
      qtyText(m.math, BigInt(l.qtyLots)),
    ];
    return {
      symbol,
      book,
      bids: d.bids.map(level),
      asks: d.asks.map(level),
      engine_seq: runner.engineSeq,
      time: clock.now().getTime(),
    };
  }

  function tradesOf(symbol: string, book: Book, limit: number): SpotTradeData[] {
    const m = marketOf(symbol);
    return m.runners[book].prints.slice(0, limit).map((p) => ({
      trade_id: p.id,
      price: priceText(m.math, p.priceTicks),
      quantity: qtyText(m.math, p.qtyLots),
      side: p.side,
      time: p.time,
    }));
  }

  async function saveMarket(
    staff: StaffContext,
    symbol: string,
    change: Partial<Record<string, unknown>>,
    action: string,
    reason?: string,
  ) {
    const before = marketData(marketOf(symbol));
    await inTransaction(db, async (tx) => {
      await tx
        .updateTable('spot_market')
        .set({ ...change, updated_at: clock.now() })
        .where('symbol', '=', symbol)
        .execute();
      const row = await tx
        .selectFrom('spot_market')
        .selectAll()
        .where('symbol', '=', symbol)
        .executeTakeFirstOrThrow();
      await audit.record(tx, {
        actorId: staff.staffId,
        action,
        targetType: 'spot_market',
        targetId: symbol,
        before,
        after: marketData(derive(rowOf(row), marketOf(symbol))),
        ...(reason ? { reason } : {}),
      });
    });
    const row = await db
      .selectFrom('spot_market')
      .selectAll()
      .where('symbol', '=', symbol)
      .executeTakeFirstOrThrow();
    const previous = marketOf(symbol);
    const next = derive(rowOf(row), previous);
    markets.set(symbol, next);
    if (next.priceBandBps !== previous.priceBandBps || next.minQtyLots !== previous.minQtyLots) {
      for (const b of ['real', 'demo'] as const)
        await next.runners[b].reconfigure(next.priceBandBps, Number(next.minQtyLots));
    }
    return adminMarket(next);
  }

  function adminMarket(m: Loaded): SpotMarketAdminData {
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

  function checkRate(field: string, text: string): string {
    const p = parseDecimal(text, { scale: 8 });
    if (!p.ok) refuse('AMOUNT_INVALID', { field });
    if (p.units > 10_000_000n) refuse('SPOT_FEE_RATE_RANGE', { field, max: RATE_MAX });
    return normalizeDecimal(text);
  }

  return {
    listen(l: SpotEvents) {
      listeners.push(l);
    },
    async start(): Promise<{ markets: number; replayed: number; settled: number }> {
      await seed();
      await loadMarkets();
      await loadKill();
      let replayed = 0;
      let settled = 0;
      for (const m of markets.values()) {
        for (const b of ['real', 'demo'] as const) {
          const r = await m.runners[b].recover();
          replayed += r.replayed;
          settled += r.settled;
        }
      }
      log.info({ markets: markets.size, replayed, settled }, 'spot books rebuilt from the journal');
      return { markets: markets.size, replayed, settled };
    },
    async close(): Promise<void> {
      for (const m of markets.values())
        for (const b of ['real', 'demo'] as const) await m.runners[b].drained();
    },
    markets(symbol?: string): SpotMarketData[] {
      return [...markets.values()].filter((m) => !symbol || m.symbol === symbol).map(marketData);
    },
    market: (symbol: string) => marketOf(symbol),
    runner: runnerOf,
    bookOf,
    orderData,
    async createOrder(auth: AuthContext, body: CreateOrderBody): Promise<SpotOrderData> {
      return orderData(await placeFor(auth.customerId, bookOf(auth), body));
    },
    placeFor,
    cancelFor,
    async cancelOrder(
      auth: AuthContext,
      q: { order_id?: string; client_oid?: string },
    ): Promise<SpotOrderData> {
      return orderData(await cancelFor(auth.customerId, q));
    },
    async cancelAll(
      customerId: string,
      symbol?: string,
      reason: 'user' | 'operator' = 'user',
    ): Promise<number> {
      let query = db
        .selectFrom('spot_order')
        .select('id')
        .where('customer_id', '=', customerId)
        .where('status', 'in', ['unfilled', 'partially_filled']);
      if (symbol) query = query.where('symbol', '=', marketOf(symbol).symbol);
      const rows = await query.execute();
      let n = 0;
      for (const r of rows) {
        try {
          await cancelFor(customerId, { order_id: r.id }, reason);
          n += 1;
        } catch (error) {
          if (!(error instanceof Refusal && error.reason === 'ORDER_NOT_OPEN')) throw error;
        }
      }
      return n;
    },
    async getOrder(auth: AuthContext, q: { order_id?: string; client_oid?: string }): Promise<SpotOrderData> {
      const o = await findOrder(auth.customerId, q);
      if (!o) refuse('NOT_FOUND');
      return orderData(o);
    },
    async orders(
      auth: AuthContext,
      q: {
        symbol?: string;
        status?: string;
        side?: string;
        start_time?: string;
        end_time?: string;
        page?: string;
        page_size?: string;
      },
      open: boolean,
      /** Export: these rows instead of the page's (the page fields are then ignored). */
      window?: { offset: number; limit: number },
    ) {
      const { page, pageSize } = window ? { page: 1, pageSize: window.limit } : pageOf(q);
      const offset = window ? window.offset : (page - 1) * pageSize;
      let query = db.selectFrom('spot_order').where('customer_id', '=', auth.customerId);
      query = open
        ? query.where('status', 'in', ['unfilled', 'partially_filled'])
        : query.where('status', 'in', q.status ? [q.status as 'filled'] : ['filled', 'cancelled']);
      if (q.symbol) query = query.where('symbol', '=', q.symbol);
      if (q.side) query = query.where('side', '=', q.side as 'buy');
      if (q.start_time) query = query.where('created_at', '>=', new Date(Number(q.start_time)));
      if (q.end_time) query = query.where('created_at', '<=', new Date(Number(q.end_time)));
      if (q.start_time && q.end_time && Number(q.start_time) > Number(q.end_time))
        refuse('DATE_RANGE_INVALID');
      const total = Number(
        (await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
      );
      const rows = await query
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset(offset)
        .execute();
      return {
        total,
        page,
        page_size: pageSize,
        items: rows.filter((r) => markets.has(r.symbol)).map((r) => orderData(orderFromRow(r))),
      };
    },
    async myTrades(
      auth: AuthContext,
      q: {
        symbol?: string;
        order_id?: string;
        start_time?: string;
        end_time?: string;
        page?: string;
        page_size?: string;
      },
      /** Export: these rows instead of the page's (the page fields are then ignored). */
      window?: { offset: number; limit: number },
    ) {
      const { page, pageSize } = window ? { page: 1, pageSize: window.limit } : pageOf(q);
      const offset = window ? window.offset : (page - 1) * pageSize;
      const me = auth.customerId;
      let query = db
        .selectFrom('spot_trade')
        .where((eb) => eb.or([eb('maker_customer_id', '=', me), eb('taker_customer_id', '=', me)]));
      if (q.symbol) query = query.where('symbol', '=', q.symbol);
      if (q.order_id)
        query = query.where((eb) =>
          eb.or([eb('maker_order_id', '=', q.order_id ?? ''), eb('taker_order_id', '=', q.order_id ?? '')]),
        );
      if (q.start_time) query = query.where('created_at', '>=', new Date(Number(q.start_time)));
      if (q.end_time) query = query.where('created_at', '<=', new Date(Number(q.end_time)));
      const total = Number(
        (await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
      );
      const rows = await query
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset(offset)
        .execute();
      const items: SpotFillData[] = rows.map((t) => {
        const m = marketOf(t.symbol);
        const maker = t.maker_customer_id === me;
        const side = maker ? (t.taker_side === 'buy' ? 'sell' : 'buy') : t.taker_side;
        return {
          trade_id: t.id,
          order_id: maker ? t.maker_order_id : t.taker_order_id,
          symbol: t.symbol,
          side,
          role: maker ? 'maker' : 'taker',
          price: priceText(m.math, BigInt(t.price_ticks)),
          quantity: qtyText(m.math, BigInt(t.qty_lots)),
          amount: quoteText(m.math, BigInt(t.amount_units)),
          fee: quoteText(m.math, BigInt(maker ? t.maker_fee_units : t.taker_fee_units)),
          fee_currency: m.quote,
          time: t.created_at.getTime(),
        };
      });
      return { total, page, page_size: pageSize, items };
    },
    depth(symbol: string, book: Book, limit?: string): SpotDepthData {
      const n = Number(limit ?? SPOT_LIMITS.depthLevelsDefault);
      if (n < 1) refuse('BAD_INPUT', { field: 'limit' });
      if (n > SPOT_LIMITS.depthLevelsMax)
        refuse('LIMIT_TOO_LARGE', { field: 'limit', max: SPOT_LIMITS.depthLevelsMax });
      return depthOf(symbol, book, n);
    },
    trades(symbol: string, book: Book, limit?: string) {
      const n = Number(limit ?? SPOT_LIMITS.tradesLimitDefault);
      if (n < 1) refuse('BAD_INPUT', { field: 'limit' });
      if (n > SPOT_LIMITS.tradesLimitMax)
        refuse('LIMIT_TOO_LARGE', { field: 'limit', max: SPOT_LIMITS.tradesLimitMax });
      return { symbol: marketOf(symbol).symbol, book, items: tradesOf(symbol, book, n) };
    },
    tradesOf,
    depthOf,
    async balance(auth: AuthContext, symbol: string): Promise<SpotBalanceData> {
      const m = marketOf(symbol);
      const book = bookOf(auth);
      const [b, q] = await Promise.all([
        ledger.balance(db, { book, customerId: auth.customerId, accountType: 'spot', currency: m.base }),
        ledger.balance(db, { book, customerId: auth.customerId, accountType: 'spot', currency: m.quote }),
      ]);
      return {
        symbol: m.symbol,
        base: m.base,
        quote: m.quote,
        base_available: baseText(m.math, b.availableUnits),
        base_frozen: baseText(m.math, b.frozenUnits),
        quote_available: quoteText(m.math, q.availableUnits),
        quote_frozen: quoteText(m.math, q.frozenUnits),
      };
    },

    // ---- back office
    adminMarkets() {
      return { items: [...markets.values()].map(adminMarket), kill_switch: kill };
    },
    async halt(staff: StaffContext, symbol: string, reason: string) {
      marketOf(symbol).status = 'halted'; // matching stops now; the row follows
      marketOf(symbol).haltReason = reason;
      return saveMarket(staff, symbol, { status: 'halted', halt_reason: reason }, 'spot.market.halt', reason);
    },
    async enable(staff: StaffContext, symbol: string, reason?: string) {
      marketOf(symbol);
      return saveMarket(
        staff,
        symbol,
        { status: 'enabled', halt_reason: null },
        'spot.market.enable',
        reason,
      );
    },
    async update(
      staff: StaffContext,
      symbol: string,
      body: {
        maker_fee_rate?: string;
        taker_fee_rate?: string;
        min_quantity?: string;
        min_notional?: string;
        max_notional?: string;
        price_band_bps?: string;
        reason?: string;
      },
    ) {
      const m = marketOf(symbol);
      const change: Record<string, unknown> = {};
      const maker =
        body.maker_fee_rate !== undefined ? checkRate('maker_fee_rate', body.maker_fee_rate) : m.makerFeeRate;
      const taker =
        body.taker_fee_rate !== undefined ? checkRate('taker_fee_rate', body.taker_fee_rate) : m.takerFeeRate;
      if (parseRate(maker).num > parseRate(taker).num)
        refuse('SPOT_FEE_RATE_RANGE', { field: 'maker_fee_rate', max: taker });
      change.maker_fee_rate = maker;
      change.taker_fee_rate = taker;
      if (body.min_quantity !== undefined) {
        const q = toSteps(body.min_quantity, m.math.qtyScale, m.math.lotUnits);
        if (!q.ok) refuse('ORDER_QTY_LOT', { lot: m.lotSize });
        change.min_quantity = normalizeDecimal(body.min_quantity);
      }
      for (const field of ['min_notional', 'max_notional'] as const) {
        const v = body[field];
        if (v === undefined) continue;
        const p = parseDecimal(v, { scale: m.math.quoteScale, maxIntegerDigits: 20 });
        if (!p.ok) refuse('AMOUNT_INVALID', { field });
        change[field] = normalizeDecimal(v);
      }
      if (body.price_band_bps !== undefined) {
        const bps = Number(body.price_band_bps);
        if (bps < 1 || bps > 10_000) refuse('BAD_INPUT', { field: 'price_band_bps' });
        change.price_band_bps = bps;
      }
      const minN = parseDecimal(String(change.min_notional ?? m.minNotional), {
        scale: m.math.quoteScale,
        maxIntegerDigits: 20,
      });
      const maxN = parseDecimal(String(change.max_notional ?? m.maxNotional), {
        scale: m.math.quoteScale,
        maxIntegerDigits: 20,
      });
      if (minN.ok && maxN.ok && (maxN.units <= 0n || minN.units > maxN.units))
        refuse('BAD_INPUT', { field: 'max_notional' });
      return saveMarket(staff, symbol, change, 'spot.market.update', body.reason);
    },
    async createMarket(
      staff: StaffContext,
      body: {
        symbol: string;
        price_tick: string;
        lot_size: string;
        min_quantity: string;
        min_notional: string;
        max_notional: string;
        maker_fee_rate: string;
        taker_fee_rate: string;
        price_band_bps: string;
        enable?: string;
      },
    ) {
      if (markets.has(body.symbol)) refuse('SPOT_MARKET_EXISTS', { symbol: body.symbol });
      // Refuses INSTRUMENT_UNKNOWN for a symbol the catalogue lacks.
      const instrument = market.instrument(body.symbol);
      if (instrument.assetClass !== 'crypto_spot') refuse('INSTRUMENT_UNKNOWN', { symbol: body.symbol });
      for (const field of ['price_tick', 'lot_size'] as const) {
        const p = parseDecimal(body[field], { scale: 18, allowZero: false });
        if (!p.ok) refuse('AMOUNT_INVALID', { field });
      }
      for (const currency of [instrument.base, instrument.quote]) {
        if (!isKnownAsset(currency)) refuse('CURRENCY_UNKNOWN', { currency });
      }
      const math = mathOf({
        base: instrument.base,
        quote: instrument.quote,
        priceTick: normalizeDecimal(body.price_tick),
        lotSize: normalizeDecimal(body.lot_size),
      });
      const problem = scaleProblem(math);
      if (problem) refuse('SPOT_MARKET_SCALE', problem);
      const maker = checkRate('maker_fee_rate', body.maker_fee_rate);
      const taker = checkRate('taker_fee_rate', body.taker_fee_rate);
      if (parseRate(maker).num > parseRate(taker).num)
        refuse('SPOT_FEE_RATE_RANGE', { field: 'maker_fee_rate', max: taker });
      const minQ = toSteps(body.min_quantity, math.qtyScale, math.lotUnits);
      if (!minQ.ok) refuse('ORDER_QTY_LOT', { lot: normalizeDecimal(body.lot_size) });
      const bps = Number(body.price_band_bps);
      if (bps < 1 || bps > 10_000) refuse('BAD_INPUT', { field: 'price_band_bps' });
      for (const field of ['min_notional', 'max_notional'] as const) {
        const p = parseDecimal(body[field], { scale: math.quoteScale, maxIntegerDigits: 20 });
        if (!p.ok) refuse('AMOUNT_INVALID', { field });
      }
      const now = clock.now();
      const enabled = body.enable === '1';
      await inTransaction(db, async (tx) => {
        await tx
          .insertInto('spot_market')
          .values({
            symbol: instrument.symbol,
            base: instrument.base,
            quote: instrument.quote,
            price_tick: normalizeDecimal(body.price_tick),
            lot_size: normalizeDecimal(body.lot_size),
            min_quantity: normalizeDecimal(body.min_quantity),
            min_notional: normalizeDecimal(body.min_notional),
            max_notional: normalizeDecimal(body.max_notional),
            maker_fee_rate: maker,
            taker_fee_rate: taker,
            price_band_bps: bps,
            status: enabled ? 'enabled' : 'halted',
            halt_reason: enabled ? null : 'new market',
            created_at: now,
            updated_at: now,
          })
          .execute();
        await audit.record(tx, {
          actorId: staff.staffId,
          action: 'spot.market.create',
          targetType: 'spot_market',
          targetId: instrument.symbol,
          after: body,
        });
      });
      await loadMarkets();
      const m = marketOf(instrument.symbol);
      for (const b of ['real', 'demo'] as const) await m.runners[b].recover();
      return adminMarket(m);
    },
    async setKillSwitch(staff: StaffContext, engaged: boolean, reason: string): Promise<SpotKillSwitchData> {
      const before = kill;
      const next: SpotKillSwitchData = {
        engaged,
        reason: engaged ? reason : null,
        engaged_at: engaged ? clock.now().getTime() : null,
      };
      kill = next; // matching stops with the next batch, before the audit row is written
      try {
        await inTransaction(db, async (tx) => {
          await tx
            .insertInto('spot_setting')
            .values({ key: 'kill_switch', value: JSON.stringify(next), updated_at: clock.now() })
            .onConflict((oc) =>
              oc.column('key').doUpdateSet({ value: JSON.stringify(next), updated_at: clock.now() }),
            )
            .execute();
          await audit.record(tx, {
            actorId: staff.staffId,
            action: engaged ? 'spot.kill_switch.engage' : 'spot.kill_switch.release',
            targetType: 'spot',
            targetId: 'kill_switch',
            before,
            after: next,
            reason,
          });
        });
      } catch (error) {
        if (!engaged) kill = before; // releasing only counts once recorded; engaging stays on (the safe side)
        throw error;
      }
      return kill;
    },
    killSwitch: () => kill,

    /**
     * Frozen = what open orders need: for every customer with spot orders, per book and currency, the
     * ledger's frozen spot balance equals the sum of the open orders' frozen amounts, and each open
     * order's frozen amount equals its need. Returns the differences (empty when all hold).
     */
    async checkFrozen(): Promise<
      Array<{ customerId: string; book: string; currency: string; ledger: string; orders: string }>
    > {
      const orders = await db
        .selectFrom('spot_order')
        .selectAll()
        .where('status', 'in', ['unfilled', 'partially_filled'])
        .execute();
      const out: Array<{
        customerId: string;
        book: string;
        currency: string;
        ledger: string;
        orders: string;
      }> = [];
      const sums = new Map<string, bigint>();
      for (const r of orders) {
        const o = orderFromRow(r);
        const m = markets.get(o.symbol);
        if (m && needOf(m.math, o) !== o.frozen)
          out.push({
            customerId: o.customerId,
            book: o.book,
            currency: `${o.frozenCurrency} (order ${o.id})`,
            ledger: String(o.frozen),
            orders: String(needOf(m.math, o)),
          });
        const key = `${o.customerId}|${o.book}|${o.frozenCurrency}`;
        sums.set(key, (sums.get(key) ?? 0n) + o.frozen);
      }
      const customers = await db.selectFrom('spot_order').select('customer_id').distinct().execute();
      for (const { customer_id } of customers) {
        const balances = await ledger.balances(db, { customerId: customer_id, accountType: 'spot' });
        const seen = new Set<string>();
        for (const b of balances) {
          const key = `${customer_id}|${b.book}|${b.currency}`;
          seen.add(key);
          const want = sums.get(key) ?? 0n;
          if (b.frozenUnits !== want)
            out.push({
              customerId: customer_id,
              book: b.book,
              currency: b.currency,
              ledger: String(b.frozenUnits),
              orders: String(want),
            });
        }
        for (const [key, want] of sums) {
          if (key.startsWith(`${customer_id}|`) && !seen.has(key) && want !== 0n) {
            const [, book, currency] = key.split('|');
            out.push({
              customerId: customer_id,
              book: book ?? '',
              currency: currency ?? '',
              ledger: '0',
              orders: String(want),
            });
          }
        }
      }
      return out;
    },
    baseUnits,
    feeOf,
  };
}

export type Spot = ReturnType<typeof createSpot>;
