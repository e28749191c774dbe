import { toDecimalString } from '@bourse/money';
import type {
  ContractOrderData,
  ContractQuoteData,
  ContractQuoteQuery,
  OpenContractBody,
  OpenContractResult,
} from '@bourse/protocol';
import { DERIVATIVES_LIMITS } from '@bourse/protocol';
import { checkTpSl, feeFor, liquidationPrice, marginFor, notionalQuote, notionalUsdt } from '@bourse/risk';
import { inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import {
  bookOf,
  type ContractsContext,
  checkRatingCap,
  conversionNow,
  maxLeverageOf,
  parseLeverage,
  pricesNow,
  settingOf,
} from './context.ts';
import { type Fill, openPosition, releaseOrder } from './core.ts';
import {
  type InstrumentInfo,
  lotsText,
  mathOf,
  parseLevel,
  parseLots,
  parsePrice,
  priceText,
  storedPrice,
  usdtText,
} from './math.ts';
import {
  insertOrder,
  lockCustomer,
  lockOrder,
  markOrderCancelled,
  type OrderRow,
  openAndPendingCount,
  orderByClientOid,
  positionById,
} from './repo.ts';
import type { Setting } from './settings.ts';
import { orderData, positionData } from './views.ts';

/**
 * Order intake: a quote, a market order (a position at once) or a limit order (pending, its margin
 * and fee frozen), and cancelling a pending order. `client_oid` makes an open idempotent: the same
 * order again answers the first; another order under it is CLIENT_OID_REUSED.
 */

/** An order checked against its setting and priced: what quote and open both start from. */
type Built = {
  i: InstrumentInfo;
  s: Setting;
  type: 'market' | 'limit';
  lots: bigint;
  leverage: number;
  /** Limit price, or the executable open price now (market). */
  priceUnits: bigint;
  tp: bigint | null;
  sl: bigint | null;
  fill: Fill | null;
};

type OrderInput = OpenContractBody | ContractQuoteQuery;

async function buildOrder(ctx: ContractsContext, body: OrderInput, forOpen: boolean): Promise<Built> {
  const { i, s } = await settingOf(ctx, ctx.db, body.symbol);
  ctx.spreads.set(s.symbol, s.spreadUnits);
  if (!s.enabled) refuse('CONTRACT_UNAVAILABLE', { symbol: i.symbol });
  if (i.expiryAt && i.expiryAt.getTime() <= ctx.clock.now().getTime())
    refuse('CONTRACT_EXPIRED', { symbol: i.symbol });
  const leverage = parseLeverage(body.leverage, await maxLeverageOf(ctx, i, s));
  const lots = parseLots(i, body.lots, { minUnits: s.minLotsUnits, maxUnits: s.maxLotsUnits });
  const type = orderTypeOf(body, forOpen);
  const { priceUnits, fill } = type === 'limit' ? limitPrice(ctx, i, body) : marketPrice(ctx, i, s, body);
  const { tp, sl } = takeProfitStopLoss(ctx, { i, s, type, priceUnits }, body);
  return { i, s, type, lots, leverage, priceUnits, tp, sl, fill };
}

/** An open names its type; a quote with a price is a limit quote. */
function orderTypeOf(body: OrderInput, forOpen: boolean): 'market' | 'limit' {
  if ('type' in body && body.type) return body.type;
  return body.price !== undefined && body.price !== '' && !forOpen ? 'limit' : 'market';
}

function limitPrice(ctx: ContractsContext, i: InstrumentInfo, body: OrderInput) {
  if (body.price === undefined || body.price === '') refuse('ORDER_PRICE_REQUIRED');
  const priceUnits = parsePrice(i, 'price', body.price);
  // Outside trading hours nothing is accepted, pending orders included (the refusal names the hours).
  ctx.market.priceForTrading(i.symbol);
  return { priceUnits, fill: null };
}

/** A market order fills now at the executable open price. */
function marketPrice(ctx: ContractsContext, i: InstrumentInfo, s: Setting, body: OrderInput) {
  if (body.price !== undefined && body.price !== '') refuse('ORDER_PRICE_NOT_ALLOWED');
  const now = pricesNow(ctx.market, i, s);
  const priceUnits = body.side === 'buy' ? now.exec.openBuy : now.exec.openSell;
  const fill: Fill = {
    priceUnits,
    source: now.price.source,
    at: now.price.at,
    tickSeq: BigInt(now.price.tickSeq),
    conversion: conversionNow(ctx.market, i),
  };
  return { priceUnits, fill };
}

/** TP/SL of an open (quotes have none), checked against the limit or the executable close price now. */
function takeProfitStopLoss(
  ctx: ContractsContext,
  b: Pick<Built, 'i' | 's' | 'type' | 'priceUnits'>,
  body: OrderInput,
): { tp: bigint | null; sl: bigint | null } {
  if (!('tp_price' in body || 'sl_price' in body)) return { tp: null, sl: null };
  const { i, s } = b;
  const o = body as OpenContractBody;
  const tp = parseLevel(i, 'tp_price', o.tp_price);
  const sl = parseLevel(i, 'sl_price', o.sl_price);
  if (tp !== null || sl !== null) {
    const reference =
      b.type === 'limit'
        ? b.priceUnits
        : (() => {
            const e = pricesNow(ctx.market, i, s).exec;
            return body.side === 'buy' ? e.closeLong : e.closeShort;
          })();
    const bad = checkTpSl(body.side, reference, tp, sl);
    if (bad) refuse(bad.reason, { price: priceText(i, bad.priceUnits) });
  }
  return { tp, sl };
}

export async function quote(
  ctx: ContractsContext,
  auth: AuthContext | null,
  q: ContractQuoteQuery,
): Promise<ContractQuoteData> {
  const b = await buildOrder(ctx, q, false);
  const conversion = b.fill?.conversion ?? conversionNow(ctx.market, b.i);
  const m = mathOf(b.i, conversion.rate);
  const margin = marginFor(m, b.priceUnits, b.lots, b.leverage);
  await checkRatingCap(ctx, auth, { leverage: b.leverage, marginUnits: margin });
  const fee = feeFor(b.s.feePerLotUnits, b.lots);
  const nq = notionalQuote(m, b.priceUnits, b.lots);
  const liq = liquidationPrice(m, q.side, b.priceUnits, b.lots, margin, b.s.level, b.i.tickUnits);
  let available = 0n;
  if (auth) {
    const bal = await ctx.ledger.balance(ctx.db, {
      book: bookOf(auth),
      customerId: auth.customerId,
      accountType: 'contract',
      currency: 'USDT',
    });
    available = bal.availableUnits;
  }
  return {
    symbol: b.i.symbol,
    side: q.side,
    lots: lotsText(b.lots),
    leverage: b.leverage,
    price: priceText(b.i, b.priceUnits),
    notional: toDecimalString(nq.units, nq.scale),
    notional_usdt: usdtText(notionalUsdt(m, b.priceUnits, b.lots)),
    margin: usdtText(margin),
    fee: usdtText(fee),
    required: usdtText(margin + fee),
    available: usdtText(available),
    liquidation_price: liq === null ? '' : priceText(b.i, liq),
    close_fee: usdtText(fee),
  };
}

function sameOrder(o: OrderRow, body: OpenContractBody, b: Built): boolean {
  return (
    o.symbol === body.symbol &&
    o.side === body.side &&
    o.type === b.type &&
    BigInt(o.lots_units) === b.lots &&
    o.leverage === b.leverage &&
    (b.type === 'market' || storedPrice(b.i, o.price) === b.priceUnits)
  );
}

/** The first order under this client_oid, answered again; another order under it is refused. */
async function answerClientOid(
  ctx: ContractsContext,
  customerId: string,
  body: OpenContractBody & { client_oid: string },
  b: Built,
): Promise<OpenContractResult | null> {
  const existing = await orderByClientOid(ctx.db, customerId, body.client_oid);
  if (!existing) return null;
  if (!sameOrder(existing, body, b)) refuse('CLIENT_OID_REUSED', { client_oid: body.client_oid });
  const position = existing.position_id ? await positionById(ctx.db, existing.position_id) : undefined;
  return { order: orderData(ctx, existing), position: position ? positionData(ctx, position) : null };
}

function orderRowOf(
  ctx: ContractsContext,
  auth: AuthContext,
  body: OpenContractBody,
  b: Built,
  now: Date,
): OrderRow {
  const m = mathOf(b.i, (b.fill?.conversion ?? conversionNow(ctx.market, b.i)).rate);
  return {
    id: newId('cor', now.getTime()),
    customer_id: auth.customerId,
    book: bookOf(auth),
    symbol: b.i.symbol,
    client_oid: body.client_oid ?? null,
    side: body.side,
    type: b.type,
    price: priceText(b.i, b.priceUnits),
    lots_units: b.lots.toString(),
    leverage: b.leverage,
    tp_price: b.tp === null ? null : priceText(b.i, b.tp),
    sl_price: b.sl === null ? null : priceText(b.i, b.sl),
    margin_units: marginFor(m, b.priceUnits, b.lots, b.leverage).toString(),
    fee_units: feeFor(b.s.feePerLotUnits, b.lots).toString(),
    fee_per_lot: b.s.feePerLot,
    liquidation_level: b.s.liquidationLevel,
    status: b.fill ? 'filled' : 'pending',
    cancel_reason: null,
    position_id: b.fill ? newId('cpo', now.getTime()) : null,
    created_at: now,
    updated_at: now,
  };
}

/** Inside the customer's lock: the open limit, the order row, then the position (market) or the freeze (limit). */
async function placeOrder(ctx: ContractsContext, tx: Tx, order: OrderRow, b: Built, now: Date) {
  const { book, customer_id: customerId } = order;
  await lockCustomer(tx, customerId);
  const held = await openAndPendingCount(tx, { customerId, symbol: b.i.symbol, book });
  if (held >= DERIVATIVES_LIMITS.openPerInstrumentMax)
    refuse('CONTRACT_OPEN_LIMIT', { max: DERIVATIVES_LIMITS.openPerInstrumentMax });
  await insertOrder(tx, order);
  if (b.fill && order.position_id)
    return openPosition(tx, ctx.ledger, {
      i: b.i,
      order,
      positionId: order.position_id,
      fill: b.fill,
      now,
      frozen: null,
    });
  await ctx.ledger.freeze(tx, {
    book,
    customerId,
    accountType: 'contract',
    currency: 'USDT',
    amountUnits: BigInt(order.margin_units) + BigInt(order.fee_units),
    reason: 'contract.order',
    reference: { type: 'contract_order', id: order.id },
    idempotencyKey: `contracts:order:${order.id}`,
  });
  return null;
}

export async function open(
  ctx: ContractsContext,
  auth: AuthContext,
  body: OpenContractBody,
): Promise<OpenContractResult> {
  const b = await buildOrder(ctx, body, true);
  const withOid = body.client_oid ? (body as OpenContractBody & { client_oid: string }) : null;
  if (withOid) {
    const answer = await answerClientOid(ctx, auth.customerId, withOid, b);
    if (answer) return answer;
  }
  const now = ctx.clock.now();
  const order = orderRowOf(ctx, auth, body, b, now);
  await checkRatingCap(ctx, auth, { leverage: b.leverage, marginUnits: BigInt(order.margin_units) });
  try {
    const position = await inTransaction(ctx.db, (tx) => placeOrder(ctx, tx, order, b, now));
    return { order: orderData(ctx, order), position: position ? positionData(ctx, position) : null };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === '23505' && withOid) {
      // A twin with the same client_oid committed first.
      const answer = await answerClientOid(ctx, auth.customerId, withOid, b);
      if (answer) return answer;
      refuse('CLIENT_OID_REUSED', { client_oid: withOid.client_oid });
    }
    throw error;
  }
}

/** Cancels a pending order of the customer: its margin and fee go back to available. */
export async function cancelOrder(
  ctx: ContractsContext,
  auth: AuthContext,
  orderId: string,
): Promise<ContractOrderData> {
  const row = await inTransaction(ctx.db, async (tx) => {
    await lockCustomer(tx, auth.customerId);
    const o = await lockOrder(tx, orderId);
    if (!o || o.customer_id !== auth.customerId) refuse('NOT_FOUND');
    if (o.status !== 'pending') refuse('CONTRACT_ORDER_NOT_PENDING', { status: o.status });
    await releaseOrder(tx, ctx.ledger, o);
    const now = ctx.clock.now();
    await markOrderCancelled(tx, { id: o.id, reason: 'user', now });
    return { ...o, status: 'cancelled' as const, cancel_reason: 'user', updated_at: now };
  });
  return orderData(ctx, row);
}
