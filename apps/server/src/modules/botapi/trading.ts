import { compareDecimal, divRound, parseDecimal, scaleOf, toDecimalString } from '@bourse/money';
import { type CreateOrderBody, SPOT_LIMITS } from '@bourse/protocol';
import type { KeyPrincipal } from '../apikeys/index.ts';
import { authFor, type BotApiDeps, intParam, type Params, symbolOf } from './context.ts';
import { binanceMandatory, binanceRefuse, illegal } from './errors.ts';
import { binanceSymbol, fillView, newOrderView, orderView } from './views.ts';

/** The signed calls: orders through the spot service (the web's rules, books and ledger), balances, fills. */

const CLIENT_OID = new RegExp(SPOT_LIMITS.clientOidPattern);
const PAGE = 100;

const notRequired = (field: string) =>
  binanceRefuse({ status: 400, code: -1106, msg: `Parameter '${field}' sent when not required.` });

/** A Binance new-order request as the spot service's order body; -11xx for what Binance refuses by form. */
export function orderBody(deps: BotApiDeps, p: Params): CreateOrderBody {
  const symbol = symbolOf(deps, p.symbol);
  if (!p.side) binanceMandatory('side');
  if (p.side !== 'BUY' && p.side !== 'SELL')
    binanceRefuse({ status: 400, code: -1117, msg: 'Invalid side.' });
  if (!p.type) binanceMandatory('type');
  if (!['LIMIT', 'MARKET', 'LIMIT_MAKER'].includes(p.type))
    binanceRefuse({ status: 400, code: -1116, msg: 'Invalid orderType.' });
  if (p.quoteOrderQty !== undefined) notRequired('quoteOrderQty');
  for (const field of ['stopPrice', 'icebergQty', 'trailingDelta'] as const)
    if (p[field] !== undefined) notRequired(field);
  if (!p.quantity) binanceMandatory('quantity');
  let tif: 'GTC' | 'IOC' | 'FOK' | undefined;
  if (p.type === 'LIMIT') {
    if (!p.timeInForce) binanceMandatory('timeInForce');
    if (!['GTC', 'IOC', 'FOK'].includes(p.timeInForce))
      binanceRefuse({ status: 400, code: -1115, msg: 'Invalid timeInForce.' });
    tif = p.timeInForce as 'GTC' | 'IOC' | 'FOK';
    if (!p.price) binanceMandatory('price');
  } else {
    if (p.timeInForce !== undefined) notRequired('timeInForce');
    if (p.type === 'MARKET' && p.price !== undefined) notRequired('price');
    if (p.type === 'LIMIT_MAKER' && !p.price) binanceMandatory('price');
  }
  if (p.newClientOrderId !== undefined && !CLIENT_OID.test(p.newClientOrderId))
    binanceRefuse(illegal('newClientOrderId'));
  return {
    symbol,
    side: p.side === 'BUY' ? 'buy' : 'sell',
    type: p.type === 'MARKET' ? 'market' : 'limit',
    quantity: p.quantity,
    ...(p.type !== 'MARKET' ? { price: p.price as string } : {}),
    ...(p.type === 'LIMIT_MAKER' ? { tif: 'GTC' as const, post_only: '1' as const } : tif ? { tif } : {}),
    ...(p.newClientOrderId ? { client_oid: p.newClientOrderId } : {}),
  };
}

export async function newOrder(deps: BotApiDeps, principal: KeyPrincipal, p: Params) {
  const body = orderBody(deps, p);
  const respType = p.newOrderRespType ?? 'FULL';
  if (!['ACK', 'RESULT', 'FULL'].includes(respType)) binanceRefuse(illegal('newOrderRespType'));
  const auth = authFor(principal);
  const placed = await deps.spot.placeFor(principal.customerId, 'real', body);
  const o = deps.spot.orderData(placed);
  if (respType === 'ACK') {
    return {
      symbol: binanceSymbol(o.symbol),
      orderId: o.order_id,
      orderListId: -1,
      clientOrderId: o.client_oid ?? o.order_id,
      transactTime: o.created_at,
    };
  }
  // FULL: the trades it made on arrival (as the taker), as Binance lists them.
  return newOrderView(o, respType === 'FULL' ? await deps.spot.arrivalFills(auth, placed) : null);
}

/** `order/test`: the order is checked against the market's rules and nothing is placed. */
export function testOrder(deps: BotApiDeps, principal: KeyPrincipal, p: Params) {
  deps.spot.checkOrder(principal.customerId, 'real', orderBody(deps, p));
  return {};
}

function orderKey(p: Params, clientField: 'origClientOrderId'): { order_id?: string; client_oid?: string } {
  if (p.orderId) return { order_id: p.orderId };
  if (p[clientField]) return { client_oid: p[clientField] };
  return binanceMandatory('orderId');
}

/** The customer's order on this symbol (another symbol's order is "unknown" here, as on Binance). */
async function ownOrder(deps: BotApiDeps, principal: KeyPrincipal, p: Params, unknown: () => never) {
  const symbol = symbolOf(deps, p.symbol);
  const o = await deps.spot.getOrder(authFor(principal), orderKey(p, 'origClientOrderId'));
  if (o.symbol !== symbol) unknown();
  return o;
}

export async function getOrder(deps: BotApiDeps, principal: KeyPrincipal, p: Params) {
  const o = await ownOrder(deps, principal, p, () =>
    binanceRefuse({ status: 400, code: -2013, msg: 'Order does not exist.' }),
  );
  return orderView(o);
}

export async function cancelOrder(deps: BotApiDeps, principal: KeyPrincipal, p: Params) {
  const found = await ownOrder(deps, principal, p, () =>
    binanceRefuse({ status: 400, code: -2011, msg: 'Unknown order sent.' }),
  );
  const o = deps.spot.orderData(
    await deps.spot.cancelFor(principal.customerId, { order_id: found.order_id }),
  );
  const { time: _t, updateTime: _u, isWorking: _w, workingTime: _k, ...rest } = orderView(o);
  return { ...rest, origClientOrderId: rest.clientOrderId, transactTime: o.updated_at };
}

/** Every page of a list, newest first, up to `max` rows. */
async function collect<T>(
  max: number,
  page: (n: number) => Promise<{ total: number; items: T[] }>,
): Promise<T[]> {
  const out: T[] = [];
  for (let n = 1; out.length < max; n++) {
    const r = await page(n);
    out.push(...r.items);
    if (r.items.length < PAGE || n * PAGE >= r.total) break;
  }
  return out.slice(0, max);
}

export async function openOrders(deps: BotApiDeps, principal: KeyPrincipal, p: Params) {
  const symbol = p.symbol ? symbolOf(deps, p.symbol) : undefined;
  const auth = authFor(principal);
  const max = SPOT_LIMITS.openOrdersPerMarketMax * deps.spot.markets().length;
  const rows = await collect(max, (n) =>
    deps.spot.orders(auth, { ...(symbol ? { symbol } : {}), page: String(n), page_size: String(PAGE) }, true),
  );
  return rows.reverse().map(orderView);
}

function range(p: Params) {
  // Binance's endTime is inclusive; the platform's ranges are half-open.
  return {
    ...(p.startTime ? { start_time: String(intParam(p.startTime, 'startTime', 0, 0, 9e15)) } : {}),
    ...(p.endTime ? { end_time: String(intParam(p.endTime, 'endTime', 0, 0, 9e15) + 1) } : {}),
  };
}

/** Open and closed orders of one symbol, oldest first; from `orderId` on when given. */
export async function allOrders(deps: BotApiDeps, principal: KeyPrincipal, p: Params) {
  const symbol = symbolOf(deps, p.symbol);
  const limit = intParam(p.limit, 'limit', 500, 1, 1000);
  const auth = authFor(principal);
  const q = { symbol, ...range(p), page_size: String(PAGE) };
  const [open, closed] = await Promise.all(
    [true, false].map((isOpen) =>
      collect(1000, (n) => deps.spot.orders(auth, { ...q, page: String(n) }, isOpen)),
    ),
  );
  const all = [...(open ?? []), ...(closed ?? [])]
    .filter((o) => !p.orderId || o.order_id >= p.orderId)
    .sort((a, b) => a.created_at - b.created_at || (a.order_id < b.order_id ? -1 : 1));
  return (p.orderId ? all.slice(0, limit) : all.slice(-limit)).map(orderView);
}

export async function myTrades(deps: BotApiDeps, principal: KeyPrincipal, p: Params) {
  const symbol = symbolOf(deps, p.symbol);
  const limit = intParam(p.limit, 'limit', 500, 1, 1000);
  const auth = authFor(principal);
  const q = { symbol, ...range(p), ...(p.orderId ? { order_id: p.orderId } : {}), page_size: String(PAGE) };
  const rows = await collect(p.fromId ? 1000 : limit, (n) =>
    deps.spot.myTrades(auth, { ...q, page: String(n) }),
  );
  const asc = rows.reverse().filter((f) => !p.fromId || f.trade_id >= p.fromId);
  return (p.fromId ? asc.slice(0, limit) : asc.slice(-limit)).map(fillView);
}

/** Fee rates carry at most this many decimals (spot admin's `checkRate`). */
const RATE_SCALE = 8;

/**
 * A rate as Binance's integer commission (units of 0.01 %), exactly: a rate between two whole basis
 * points is rounded up, so the integer never states less than is charged (the exact rate is beside it).
 */
export function basisPointsUp(rate: string): number {
  const units = parseDecimal(rate, { scale: RATE_SCALE });
  if (!units.ok) throw new Error(`fee rate ${rate} is not a decimal of ${RATE_SCALE} places`);
  return Number(divRound(units.units, 10n ** BigInt(RATE_SCALE - 4), 'ceil'));
}

/** Rates as Binance's integers (units of 0.01 %) and decimals: the highest of the markets (each market's own are in exchangeInfo). */
function commission(deps: BotApiDeps) {
  const markets = deps.spot.markets();
  const highest = (pick: (m: (typeof markets)[number]) => string) =>
    markets.map(pick).reduce((a, b) => (compareDecimal(b, a) > 0 ? b : a), '0');
  const maker = highest((m) => m.maker_fee_rate);
  const taker = highest((m) => m.taker_fee_rate);
  return { maker, taker, makerCommission: basisPointsUp(maker), takerCommission: basisPointsUp(taker) };
}

/** The spot account's balances from the ledger (real book), and what the key may do. */
export async function account(deps: BotApiDeps, principal: KeyPrincipal, p: Params) {
  const rows = await deps.ledger.balances(deps.db, { customerId: principal.customerId, accountType: 'spot' });
  const balances = rows
    .filter((b) => b.book === 'real')
    .filter((b) => p.omitZeroBalances !== 'true' || b.availableUnits !== 0n || b.frozenUnits !== 0n)
    .map((b) => ({
      asset: b.currency,
      free: toDecimalString(b.availableUnits, scaleOf(b.currency)),
      locked: toDecimalString(b.frozenUnits, scaleOf(b.currency)),
    }));
  const c = commission(deps);
  return {
    makerCommission: c.makerCommission,
    takerCommission: c.takerCommission,
    buyerCommission: 0,
    sellerCommission: 0,
    commissionRates: { maker: c.maker, taker: c.taker, buyer: '0', seller: '0' },
    canTrade: principal.permission === 'trade',
    canWithdraw: false,
    canDeposit: false,
    brokered: false,
    requireSelfTradePrevention: false,
    preventSor: false,
    updateTime: deps.clock.now().getTime(),
    accountType: 'SPOT',
    balances,
    permissions: ['SPOT'],
  };
}
