import { scaleOf, toDecimalString } from '@bourse/money';
import type { CandleData, SpotFillData, SpotMarketData, SpotOrderData, TickerData } from '@bourse/protocol';
import { type MarketMath, notionalUnits, priceText, qtyText, quoteText, toSteps } from '@bourse/risk';

/** The platform's spot data in Binance's shapes (docs/bots.md). */

/** `BTC/USDT` ↔ `BTCUSDT`. */
export function binanceSymbol(symbol: string): string {
  return symbol.replace('/', '');
}

export function statusOf(o: SpotOrderData): string {
  switch (o.status) {
    case 'unfilled':
      return 'NEW';
    case 'partially_filled':
      return 'PARTIALLY_FILLED';
    case 'filled':
      return 'FILLED';
    default:
      // What the book ended itself (IOC / FOK remainders) is EXPIRED on Binance; a cancel is CANCELED.
      return o.cancel_reason === 'ioc_remainder' || o.cancel_reason === 'fok_unfillable'
        ? 'EXPIRED'
        : 'CANCELED';
  }
}

export function typeOf(o: Pick<SpotOrderData, 'type' | 'post_only'>): string {
  if (o.post_only) return 'LIMIT_MAKER';
  return o.type === 'market' ? 'MARKET' : 'LIMIT';
}

export function orderView(o: SpotOrderData) {
  const open = o.status === 'unfilled' || o.status === 'partially_filled';
  return {
    symbol: binanceSymbol(o.symbol),
    orderId: o.order_id,
    orderListId: -1,
    clientOrderId: o.client_oid ?? o.order_id,
    price: o.price ?? '0',
    origQty: o.quantity,
    executedQty: o.filled_quantity,
    cummulativeQuoteQty: o.filled_amount,
    status: statusOf(o),
    timeInForce: o.tif,
    type: typeOf(o),
    side: o.side.toUpperCase(),
    stopPrice: '0',
    icebergQty: '0',
    time: o.created_at,
    updateTime: o.updated_at,
    isWorking: open,
    workingTime: o.created_at,
    origQuoteOrderQty: '0',
    selfTradePreventionMode: 'NONE',
  };
}

/** The answer to a new order (RESULT, or FULL with its fills). */
export function newOrderView(o: SpotOrderData, fills: SpotFillData[] | null) {
  const { time: _t, updateTime: _u, isWorking: _w, stopPrice: _s, icebergQty: _i, ...rest } = orderView(o);
  const base = { ...rest, transactTime: o.created_at };
  if (!fills) return base;
  return {
    ...base,
    fills: fills.map((f) => ({
      price: f.price,
      qty: f.quantity,
      commission: f.fee,
      commissionAsset: f.fee_currency,
      tradeId: f.trade_id,
    })),
  };
}

export function fillView(f: SpotFillData) {
  return {
    symbol: binanceSymbol(f.symbol),
    id: f.trade_id,
    orderId: f.order_id,
    orderListId: -1,
    price: f.price,
    qty: f.quantity,
    quoteQty: f.amount,
    commission: f.fee,
    commissionAsset: f.fee_currency,
    time: f.time,
    isBuyer: f.side === 'buy',
    isMaker: f.role === 'maker',
    isBestMatch: true,
  };
}

/** price × quantity in the quote currency, exactly (both on the market's grid). */
export function quoteQty(math: MarketMath, price: string, quantity: string): string {
  const p = toSteps(price, math.priceScale, math.tickUnits);
  const q = toSteps(quantity, math.qtyScale, math.lotUnits);
  if (!p.ok || !q.ok) return '0';
  return quoteText(math, notionalUnits(math, p.steps, q.steps));
}

/** The limits the engine takes (spot intake's maxima), for PRICE_FILTER and LOT_SIZE. */
export type EngineMaxima = { priceTicksMax: bigint; qtyLotsMax: bigint; openOrdersMax: number };

export function symbolView(m: SpotMarketData, math: MarketMath, maxima: EngineMaxima) {
  return {
    symbol: binanceSymbol(m.symbol),
    status: m.status === 'enabled' ? 'TRADING' : 'HALT',
    baseAsset: m.base,
    baseAssetPrecision: scaleOf(m.base),
    quoteAsset: m.quote,
    quotePrecision: scaleOf(m.quote),
    quoteAssetPrecision: scaleOf(m.quote),
    baseCommissionPrecision: scaleOf(m.base),
    quoteCommissionPrecision: scaleOf(m.quote),
    orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET'],
    icebergAllowed: false,
    ocoAllowed: false,
    otoAllowed: false,
    quoteOrderQtyMarketAllowed: false,
    allowTrailingStop: false,
    cancelReplaceAllowed: false,
    isSpotTradingAllowed: true,
    isMarginTradingAllowed: false,
    filters: [
      {
        filterType: 'PRICE_FILTER',
        minPrice: m.price_tick,
        maxPrice: priceText(math, maxima.priceTicksMax),
        tickSize: m.price_tick,
      },
      {
        filterType: 'LOT_SIZE',
        minQty: m.min_quantity,
        maxQty: qtyText(math, maxima.qtyLotsMax),
        stepSize: m.lot_size,
      },
      { filterType: 'MIN_NOTIONAL', minNotional: m.min_notional, applyToMarket: true, avgPriceMins: 0 },
      {
        filterType: 'NOTIONAL',
        minNotional: m.min_notional,
        applyMinToMarket: true,
        maxNotional: m.max_notional,
        applyMaxToMarket: true,
        avgPriceMins: 0,
      },
      { filterType: 'MAX_NUM_ORDERS', maxNumOrders: maxima.openOrdersMax },
    ],
    permissions: ['SPOT'],
    permissionSets: [['SPOT']],
    defaultSelfTradePreventionMode: 'NONE',
    allowedSelfTradePreventionModes: ['NONE'],
  };
}

/** Binance kline: open time, OHLC, base volume, close time, quote volume, trades, taker volumes (not kept: "0"). */
export function klineView(c: CandleData, intervalMs: number) {
  return [
    c.open_time,
    c.open,
    c.high,
    c.low,
    c.close,
    c.volume,
    c.open_time + intervalMs - 1,
    c.turnover,
    c.ticks,
    '0',
    '0',
    '0',
  ];
}

export const INTERVAL_MS: Record<string, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
  '1w': 604_800_000,
};

export type BookTop = { bidPrice: string; bidQty: string; askPrice: string; askQty: string };

/** 24 h statistics: the market module's reference ticker (the web's figures) with the book's best bid and ask. */
export function ticker24hView(symbol: string, t: TickerData, top: BookTop, nowMs: number) {
  return {
    symbol,
    priceChange: t.change_24h,
    priceChangePercent: t.change_pct_24h,
    weightedAvgPrice: weightedAverage(t),
    prevClosePrice: t.open_24h,
    lastPrice: t.last,
    lastQty: '0',
    ...top,
    openPrice: t.open_24h,
    highPrice: t.high_24h,
    lowPrice: t.low_24h,
    volume: t.volume_24h,
    quoteVolume: t.turnover_24h,
    openTime: nowMs - 86_400_000,
    closeTime: nowMs,
    firstId: -1,
    lastId: -1,
    count: 0,
  };
}

/** Turnover ÷ volume at the ticker's price scale (rounded down); the last price when nothing traded. */
function weightedAverage(t: TickerData): string {
  const scale = 18;
  const units = (text: string) => {
    const [whole = '0', frac = ''] = text.split('.');
    return BigInt(whole + frac.padEnd(scale, '0').slice(0, scale));
  };
  const volume = units(t.volume_24h);
  if (volume === 0n) return t.last;
  const avg = (units(t.turnover_24h) * 10n ** BigInt(t.price_scale)) / volume;
  return toDecimalString(avg, t.price_scale);
}
