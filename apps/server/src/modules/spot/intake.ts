import { parseDecimal } from '@bourse/money';
import type { CreateOrderBody } from '@bourse/protocol';
import { SPOT_LIMITS } from '@bourse/protocol';
import { notionalUnits, priceText, qtyText, toSteps } from '@bourse/risk';
import { Refusal, refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import { type LoadedMarket, marketOf, runnerOf, type SpotState } from './markets.ts';
import { type Book, needOf, type OrderState, type PlaceInput } from './order.ts';
import { findOrderRow, orderFromRow } from './repo.ts';

/**
 * Order intake: an order is validated against its market's rules and built with the funds it needs
 * (nothing written), a retried client_oid answers the existing order, and the order is queued on its
 * book — the one order path of customers and the market maker.
 */

/** Largest price (ticks) and quantity (lots) an order may carry: the engine's limits. */
export const PRICE_TICKS_MAX = 2n ** 39n;
export const QTY_LOTS_MAX = 9_000_000_000n;

export async function placeFor(
  s: SpotState,
  customerId: string,
  book: Book,
  body: CreateOrderBody,
): Promise<OrderState> {
  const built = buildOrder(s, customerId, book, body);
  try {
    const runner = runnerOf(s, body.symbol, book);
    let open = 0;
    for (const o of runner.open.values()) if (o.customerId === customerId) open += 1;
    if (open >= SPOT_LIMITS.openOrdersPerMarketMax)
      refuse('ORDER_OPEN_LIMIT', { max: SPOT_LIMITS.openOrdersPerMarketMax });
    return await runner.place(built);
  } catch (error) {
    // A retried client_oid answers the order it placed. Looked up only when the order was refused
    // (the batch refuses a client_oid in use, CLIENT_OID_REUSED, and a retry may meet a limit or a
    // balance its first try now holds): one statement less for every order that goes through.
    if (error instanceof Refusal && body.client_oid) {
      const existing = await findOrder(s, customerId, { client_oid: body.client_oid });
      if (existing && sameOrder(existing, body, built.order)) return existing;
    }
    throw error;
  }
}

/** A customer's order by order_id or client_oid (one of them is required). */
export async function findOrder(
  s: SpotState,
  customerId: string,
  q: { order_id?: string; client_oid?: string },
): Promise<OrderState | null> {
  if (!q.order_id && !q.client_oid) refuse('FIELD_REQUIRED', { field: 'order_id' });
  const row = await findOrderRow(s.db, customerId, q);
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
export function buildOrder(s: SpotState, customerId: string, book: Book, body: CreateOrderBody): PlaceInput {
  if (s.kill.engaged) refuse('TRADING_HALTED', { reason: s.kill.reason ?? '' });
  const m = marketOf(s, body.symbol);
  if (m.status === 'halted') refuse('SPOT_MARKET_HALTED', { symbol: m.symbol, reason: m.haltReason ?? '' });
  const { type, side, tif, postOnly } = orderKind(body);
  const priceTicks = limitPriceOf(m, body, type);
  const qtyLots = quantityOf(m, body);
  let referencePriceTicks: number | undefined;
  let freezePriceTicks: bigint | null = null;
  let notionalPrice: bigint;
  if (type === 'market') {
    const refTicks = referenceTicksOf(s, m);
    referencePriceTicks = Number(refTicks);
    // A market buy is frozen at the band limit: the most it can ever pay.
    freezePriceTicks = refTicks + (refTicks * BigInt(m.priceBandBps)) / 10_000n;
    notionalPrice = side === 'buy' ? freezePriceTicks : refTicks;
  } else notionalPrice = priceTicks as bigint;
  const notional = notionalUnits(m.math, notionalPrice, qtyLots);
  if (notional < m.minNotionalUnits)
    refuse('ORDER_NOTIONAL_BELOW_MIN', { min: m.minNotional, currency: m.quote });
  if (notional > m.maxNotionalUnits)
    refuse('ORDER_NOTIONAL_ABOVE_MAX', { max: m.maxNotional, currency: m.quote });
  const now = s.clock.now();
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

/** Type, side, time in force and post-only, with their defaults and the combinations refused. */
function orderKind(body: CreateOrderBody) {
  const type = body.type ?? 'limit';
  const side = body.side;
  const postOnly = body.post_only === '1';
  const tif = body.tif ?? (type === 'limit' ? 'GTC' : 'IOC');
  if (type === 'market' && tif === 'GTC') refuse('ORDER_TIF_INVALID', { tif, type });
  if (postOnly && (type !== 'limit' || tif !== 'GTC')) refuse('ORDER_POST_ONLY_INVALID');
  return { type, side, tif, postOnly };
}

/** A limit order's price in ticks (on the tick grid, at most the engine's maximum); null for a market order. */
function limitPriceOf(m: LoadedMarket, body: CreateOrderBody, type: 'limit' | 'market'): bigint | null {
  if (type !== 'limit') {
    if (body.price !== undefined && body.price !== '') refuse('ORDER_PRICE_NOT_ALLOWED');
    return null;
  }
  if (body.price === undefined || body.price === '') refuse('ORDER_PRICE_REQUIRED');
  const p = toSteps(body.price, m.math.priceScale, m.math.tickUnits);
  if (!p.ok) {
    if (p.error === 'OFF_GRID') refuse('ORDER_PRICE_TICK', { tick: m.priceTick });
    if (p.error === 'NOT_POSITIVE') refuse('AMOUNT_NOT_POSITIVE', { field: 'price' });
    refuse('AMOUNT_INVALID', { field: 'price' });
  }
  if (p.steps > PRICE_TICKS_MAX)
    refuse('AMOUNT_TOO_LARGE', { field: 'price', max: priceText(m.math, PRICE_TICKS_MAX) });
  return p.steps;
}

/** The quantity in lots: on the lot grid, at least the market's minimum, at most the engine's maximum. */
function quantityOf(m: LoadedMarket, body: CreateOrderBody): bigint {
  const q = toSteps(body.quantity, m.math.qtyScale, m.math.lotUnits);
  if (!q.ok) {
    if (q.error === 'OFF_GRID') refuse('ORDER_QTY_LOT', { lot: m.lotSize });
    if (q.error === 'NOT_POSITIVE') refuse('AMOUNT_NOT_POSITIVE', { field: 'quantity' });
    refuse('AMOUNT_INVALID', { field: 'quantity' });
  }
  const qtyLots = q.steps;
  if (qtyLots < m.minQtyLots) refuse('ORDER_QTY_BELOW_MIN', { min: m.minQuantity });
  if (qtyLots > QTY_LOTS_MAX)
    refuse('AMOUNT_TOO_LARGE', { field: 'quantity', max: qtyText(m.math, QTY_LOTS_MAX) });
  return qtyLots;
}

/** The market module's mark in ticks (off the grid: rounded down, at least one tick). */
function referenceTicksOf(s: SpotState, m: LoadedMarket): bigint {
  const price = s.market.priceForTrading(m.symbol);
  const ref = toSteps(price.mark, m.math.priceScale, m.math.tickUnits);
  if (ref.ok) return ref.steps;
  const loose = parseDecimal(price.mark, { scale: m.math.priceScale + 12, maxIntegerDigits: 24 });
  if (!loose.ok) throw new Error(`market price ${price.mark} unreadable`);
  const refTicks = loose.units / (m.math.tickUnits * 10n ** 12n);
  return refTicks <= 0n ? 1n : refTicks;
}
