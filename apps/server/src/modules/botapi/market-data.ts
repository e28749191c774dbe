import { type GetKlineQuery, KLINE_INTERVALS, type KlineInterval, SPOT_LIMITS } from '@bourse/protocol';
import { type BotApiDeps, intParam, type Params, symbolOf, symbolsParam } from './context.ts';
import { binanceRefuse, INVALID_INTERVAL } from './errors.ts';
import { binanceSymbol, INTERVAL_MS, klineView, quoteQty, symbolView, ticker24hView } from './views.ts';
import { BOT_LIMITS } from './weights.ts';

/** The public market-data calls: exchange info, depth, prints, K-lines, tickers. */

export function exchangeInfo(deps: BotApiDeps, p: Params) {
  const only = p.symbol ? [symbolOf(deps, p.symbol)] : symbolsParam(deps, p.symbols);
  const limits = deps.limits ?? BOT_LIMITS;
  const markets = deps.spot.markets().filter((m) => !only || only.includes(m.symbol));
  return {
    timezone: 'UTC',
    serverTime: deps.clock.now().getTime(),
    rateLimits: [
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: limits.weightPerMinute },
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: limits.ordersPer10s },
    ],
    exchangeFilters: [],
    symbols: markets.map((m) => symbolView(m, deps.spot.market(m.symbol).math, deps.maxima)),
  };
}

/** Depth of the real book: Binance's default 100 levels, at most 5000 (the book's depth may be less). */
export function depth(deps: BotApiDeps, p: Params) {
  const symbol = symbolOf(deps, p.symbol);
  const limit = intParam(p.limit, 'limit', 100, 1, 5000);
  const d = deps.spot.depthOf(symbol, 'real', limit);
  return { lastUpdateId: d.engine_seq, bids: d.bids, asks: d.asks };
}

export function depthLimit(p: Params): number {
  const n = Number(p.limit ?? 100);
  return Number.isFinite(n) ? n : 100;
}

/** Recent prints of the real book, newest last (Binance's order). */
export function trades(deps: BotApiDeps, p: Params) {
  const symbol = symbolOf(deps, p.symbol);
  const limit = intParam(p.limit, 'limit', 500, 1, 1000);
  const math = deps.spot.market(symbol).math;
  const prints = deps.spot.tradesOf(symbol, 'real', Math.min(limit, SPOT_LIMITS.tradesLimitMax));
  return prints.reverse().map((t) => ({
    id: t.trade_id,
    price: t.price,
    qty: t.quantity,
    quoteQty: quoteQty(math, t.price, t.quantity),
    time: t.time,
    // The taker sold: the buyer was the maker.
    isBuyerMaker: t.side === 'sell',
    isBestMatch: true,
  }));
}

/** K-lines from the market module (the platform's candles), oldest first. */
export async function klines(deps: BotApiDeps, p: Params) {
  const symbol = symbolOf(deps, p.symbol);
  if (!p.interval)
    binanceRefuse({
      status: 400,
      code: -1102,
      msg: "Mandatory parameter 'interval' was not sent, was empty/null, or malformed.",
    });
  if (!(KLINE_INTERVALS as readonly string[]).includes(p.interval)) binanceRefuse(INVALID_INTERVAL);
  const interval = p.interval as KlineInterval;
  const limit = intParam(p.limit, 'limit', 500, 1, 1000);
  const start = p.startTime ? intParam(p.startTime, 'startTime', 0, 0, 9e15) : null;
  const end = p.endTime ? intParam(p.endTime, 'endTime', 0, 0, 9e15) : null;
  const ms = INTERVAL_MS[interval] as number;
  // Binance counts forward from startTime; the market module pages back from an end time.
  const endAt = end ?? (start !== null ? start + ms * (limit - 1) : null);
  const query = {
    symbol,
    interval,
    limit: String(limit),
    ...(endAt !== null ? { end_time: String(endAt) } : {}),
  } as GetKlineQuery;
  const data = await deps.market.kline(query);
  return data.items.filter((c) => start === null || c.open_time >= start).map((c) => klineView(c, ms));
}

function top(deps: BotApiDeps, symbol: string) {
  const d = deps.spot.depthOf(symbol, 'real', 1);
  const [bidPrice, bidQty] = d.bids[0] ?? ['0', '0'];
  const [askPrice, askQty] = d.asks[0] ?? ['0', '0'];
  return { bidPrice, bidQty, askPrice, askQty };
}

/** One symbol (an object) or several / all (an array), as Binance answers. */
function each<T>(deps: BotApiDeps, p: Params, view: (symbol: string) => T): T | T[] {
  if (p.symbol) return view(symbolOf(deps, p.symbol));
  const list = symbolsParam(deps, p.symbols) ?? deps.spot.markets().map((m) => m.symbol);
  return list.map(view);
}

export function ticker24hr(deps: BotApiDeps, p: Params) {
  const now = deps.clock.now().getTime();
  return each(deps, p, (symbol) =>
    ticker24hView(binanceSymbol(symbol), deps.market.ticker(symbol), top(deps, symbol), now),
  );
}

export function tickerPrice(deps: BotApiDeps, p: Params) {
  return each(deps, p, (symbol) => ({
    symbol: binanceSymbol(symbol),
    price: deps.market.ticker(symbol).last,
  }));
}

export function bookTicker(deps: BotApiDeps, p: Params) {
  return each(deps, p, (symbol) => ({ symbol: binanceSymbol(symbol), ...top(deps, symbol) }));
}
