import type {
  SpotBalanceData,
  SpotDepthData,
  SpotFillData,
  SpotOrderData,
  SpotTradeData,
} from '@bourse/protocol';
import { SPOT_LIMITS } from '@bourse/protocol';
import { baseText, notionalUnits, priceText, qtyText, quoteText } from '@bourse/risk';
import type { AuthContext } from '../../http/context.ts';
import { dateRangeOf, pageOf } from '../../http/paging.ts';
import { refuse } from '../../http/refusal.ts';
import type { BookCursor, BookPrint } from '../market/index.ts';
import { findOrder } from './intake.ts';
import { marketOf, type SpotState } from './markets.ts';
import type { Book, OrderState } from './order.ts';
import { orderFromRow, orderRowsPage, type SpotTradeTableRow, takerTradesOf, tradeRowsPage } from './repo.ts';
import { arrivalTrades } from './runner.ts';
import { tradeColumns } from './settle.ts';

/** What customers read: their orders and fills (pages, or an export window), depth, prints, balances. */

/** Export: these rows instead of a page's (the page fields are then ignored). */
export type ExportWindow = { offset: number; limit: number };

export type OrdersQuery = {
  symbol?: string;
  status?: string;
  side?: string;
  start_time?: string;
  end_time?: string;
  page?: string;
  page_size?: string;
};

export type FillsQuery = {
  symbol?: string;
  order_id?: string;
  start_time?: string;
  end_time?: string;
  page?: string;
  page_size?: string;
};

export function orderData(s: SpotState, o: OrderState): SpotOrderData {
  const m = marketOf(s, o.symbol);
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

export async function getOrder(
  s: SpotState,
  auth: AuthContext,
  q: { order_id?: string; client_oid?: string },
): Promise<SpotOrderData> {
  const o = await findOrder(s, auth.customerId, q);
  if (!o) refuse('NOT_FOUND');
  return orderData(s, o);
}

/** The page (or export window) asked for: page 1 of the window's size at its offset. */
function windowOf(q: { page?: string; page_size?: string }, window?: ExportWindow) {
  const { page, pageSize } = window ? { page: 1, pageSize: window.limit } : pageOf(q, SPOT_LIMITS);
  const offset = window ? window.offset : (page - 1) * pageSize;
  return { page, pageSize, offset };
}

/** A customer's open orders (`open`) or order history, newest first. */
export async function orders(
  s: SpotState,
  auth: AuthContext,
  q: OrdersQuery,
  open: boolean,
  window?: ExportWindow,
) {
  const { page, pageSize, offset } = windowOf(q, window);
  const range = dateRangeOf(q);
  const { total, rows } = await orderRowsPage(
    s.db,
    {
      customerId: auth.customerId,
      open,
      ...(q.status ? { status: q.status } : {}),
      ...(q.symbol ? { symbol: q.symbol } : {}),
      ...(q.side ? { side: q.side } : {}),
      from: range.from,
      to: range.to,
    },
    { offset, limit: pageSize },
  );
  return {
    total,
    page,
    page_size: pageSize,
    items: rows.filter((r) => s.markets.has(r.symbol)).map((r) => orderData(s, orderFromRow(r))),
  };
}

/** A customer's fills (as maker or taker), newest first. */
export async function myTrades(s: SpotState, auth: AuthContext, q: FillsQuery, window?: ExportWindow) {
  const { page, pageSize, offset } = windowOf(q, window);
  const range = dateRangeOf(q);
  const { total, rows } = await tradeRowsPage(
    s.db,
    {
      customerId: auth.customerId,
      ...(q.symbol ? { symbol: q.symbol } : {}),
      ...(q.order_id ? { orderId: q.order_id } : {}),
      from: range.from,
      to: range.to,
    },
    { offset, limit: pageSize },
  );
  const items = rows.map((t) => fillData(s, t, auth.customerId));
  return { total, page, page_size: pageSize, items };
}

/**
 * What an order just placed filled on arrival (its taker trades), oldest first: a bot's FULL answer.
 * From its batch when this process answered it (`arrivalTrades`), else from `spot_trade`.
 */
export async function arrivalFills(s: SpotState, auth: AuthContext, o: OrderState): Promise<SpotFillData[]> {
  if (o.filledLots === 0n) return [];
  const settled = arrivalTrades.get(o);
  const rows: FillRow[] = settled
    ? settled.map((t) => tradeColumns(o.symbol, t))
    : await takerTradesOf(s.db, auth.customerId, o.id, o.createdAt);
  return rows.map((t) => fillData(s, t, auth.customerId));
}

/** What a fill is shown from: a `spot_trade` row, or the same fields of a trade just settled. */
type FillRow = Pick<
  SpotTradeTableRow,
  | 'id'
  | 'symbol'
  | 'maker_order_id'
  | 'taker_order_id'
  | 'maker_customer_id'
  | 'taker_side'
  | 'price_ticks'
  | 'qty_lots'
  | 'amount_units'
  | 'maker_fee_units'
  | 'taker_fee_units'
  | 'created_at'
>;

/** A trade as one side of it sees it: that side's order, role and fee. */
function fillData(s: SpotState, t: FillRow, me: string): SpotFillData {
  const m = marketOf(s, t.symbol);
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
}

export function depthOf(s: SpotState, symbol: string, book: Book, limit: number): SpotDepthData {
  const m = marketOf(s, symbol);
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
    time: s.clock.now().getTime(),
  };
}

export function tradesOf(s: SpotState, symbol: string, book: Book, limit: number): SpotTradeData[] {
  const m = marketOf(s, symbol);
  return m.runners[book].prints.slice(0, limit).map((p) => ({
    trade_id: p.id,
    price: priceText(m.math, p.priceTicks),
    quantity: qtyText(m.math, p.qtyLots),
    side: p.side,
    time: p.time,
  }));
}

/** `limit` of a depth or prints call: the default when absent, 1 to `max`. */
function limitOf(limit: string | undefined, fallback: number, max: number): number {
  const n = Number(limit ?? fallback);
  if (n < 1) refuse('BAD_INPUT', { field: 'limit' });
  if (n > max) refuse('LIMIT_TOO_LARGE', { field: 'limit', max });
  return n;
}

export function depth(s: SpotState, symbol: string, book: Book, limit?: string): SpotDepthData {
  const n = limitOf(limit, SPOT_LIMITS.depthLevelsDefault, SPOT_LIMITS.depthLevelsMax);
  return depthOf(s, symbol, book, n);
}

export function trades(s: SpotState, symbol: string, book: Book, limit?: string) {
  const n = limitOf(limit, SPOT_LIMITS.tradesLimitDefault, SPOT_LIMITS.tradesLimitMax);
  return { symbol: marketOf(s, symbol).symbol, book, items: tradesOf(s, symbol, book, n) };
}

export async function balance(
  s: SpotState,
  auth: AuthContext,
  book: Book,
  symbol: string,
): Promise<SpotBalanceData> {
  const m = marketOf(s, symbol);
  const [b, q] = await Promise.all([
    s.ledger.balance(s.db, { book, customerId: auth.customerId, accountType: 'spot', currency: m.base }),
    s.ledger.balance(s.db, { book, customerId: auth.customerId, accountType: 'spot', currency: m.quote }),
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
}

/**
 * The book feed of a coin that trades only here (market `feeds/book.ts`): recorded real-book trades
 * of a market after an engine trade id, or after a time (where the record's last tick was), oldest
 * first. The demo book never prices anything.
 */
export async function recordedPrints(
  s: SpotState,
  symbol: string,
  after: BookCursor,
  limit: number,
): Promise<BookPrint[]> {
  const m = s.markets.get(symbol);
  if (!m) return [];
  let q = s.db
    .selectFrom('spot_trade')
    .select(['engine_trade_id', 'price_ticks', 'qty_lots', 'created_at'])
    .where('symbol', '=', symbol)
    .where('book', '=', 'real');
  q =
    'afterId' in after
      ? q.where('engine_trade_id', '>', after.afterId.toString())
      : q.where('created_at', '>', new Date(after.afterMs));
  const rows = await q.orderBy('engine_trade_id').limit(limit).execute();
  return rows.map((r) => ({
    tradeId: BigInt(r.engine_trade_id),
    price: priceText(m.math, BigInt(r.price_ticks)),
    quantity: qtyText(m.math, BigInt(r.qty_lots)),
    atMs: r.created_at.getTime(),
  }));
}

/** The real book's best bid and ask now (null: that side is empty, or no such market). */
export function topOf(s: SpotState, symbol: string): { bid: string | null; ask: string | null } {
  const m = s.markets.get(symbol);
  if (!m) return { bid: null, ask: null };
  const d = m.runners.real.engine.depth(1);
  const price = (levels: Array<{ priceTicks: number }>) =>
    levels[0] ? priceText(m.math, BigInt(levels[0].priceTicks)) : null;
  return { bid: price(d.bids), ask: price(d.asks) };
}
