import { parseUnitsOrThrow } from '@bourse/money';
import {
  type CandleData,
  type GetInstrumentsQuery,
  type GetKlineQuery,
  type GetTickersQuery,
  type InstrumentsPage,
  type KlineData,
  type KlineInterval,
  MARKET_LIMITS,
  type TickerData,
  type TickersPage,
} from '@bourse/protocol';
import type { Db } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { aggregate, type Candle, candleData, INTERVAL_INDEX, toPrint } from './candles.ts';
import { isBookPriced } from './feeds/book.ts';
import {
  type Instrument,
  instrumentData,
  priceToTicks,
  QTY_SCALE,
  TURNOVER_SCALE,
  ticksToPrice,
} from './instrument.ts';
import { type CandleRow, candlesBetween, klines, ticksBetween } from './repo.ts';
import type { InstrumentState, MarketState } from './state.ts';
import { queryTickers, tickerData } from './tickers.ts';

/** A price fit to trade on: live, from the feed, with its source and time (rule 2 of the architecture). */
export type TradingPrice = Readonly<{
  symbol: string;
  instrumentId: string;
  lastTicks: bigint;
  bidTicks: bigint;
  askTicks: bigint;
  markTicks: bigint;
  last: string;
  bid: string;
  ask: string;
  mark: string;
  at: Date;
  source: string;
  tickSeq: number;
}>;

export type MarketQueries = {
  instrument(symbol: string): Instrument;
  instruments(query: GetInstrumentsQuery): InstrumentsPage;
  tickers(query: GetTickersQuery): TickersPage;
  ticker(symbol: string): TickerData;
  kline(query: GetKlineQuery): Promise<KlineData>;
  /**
   * The price to trade `symbol` at now. Refuses INSTRUMENT_UNKNOWN, INSTRUMENT_HALTED (halted or
   * expired), INSTRUMENT_DELISTED, MARKET_CLOSED (outside trading hours) and PRICE_STALE (no tick
   * within STALE_AFTER_MS) — so nothing ever trades on a stale or invented price.
   */
  priceForTrading(symbol: string): TradingPrice;
  /** Candles recomputed from the recorded ticks of [fromMs, toMs): equal to the stored ones. */
  rebuildCandles(input: {
    symbol: string;
    interval: KlineInterval;
    fromMs: number;
    toMs: number;
  }): Promise<CandleData[]>;
  storedCandles(input: {
    symbol: string;
    interval: KlineInterval;
    fromMs: number;
    toMs: number;
  }): Promise<CandleData[]>;
};

/** A stored price into ticks; a stored price off the tick grid is a bug (tick sizes never change). */
function storedTicks(instrument: Instrument, text: string): bigint {
  const value = priceToTicks(instrument, text);
  if (value === null) throw new Error(`${instrument.symbol}: stored price ${text} is off the tick grid`);
  return value;
}

export function candleFromRow(instrument: Instrument, row: CandleRow): Candle {
  const ticks = (text: string) => storedTicks(instrument, text);
  return {
    openTime: row.open_time.getTime(),
    open: ticks(row.open),
    high: ticks(row.high),
    low: ticks(row.low),
    close: ticks(row.close),
    volume: parseUnitsOrThrow(row.volume, { scale: QTY_SCALE }),
    turnover: parseUnitsOrThrow(row.turnover, { scale: TURNOVER_SCALE }),
    ticks: row.ticks,
  };
}

/** A whole number from a digits-only field (the schema checked the form), within [1, max]. */
function count(field: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined || text === '') return fallback;
  const value = Number.parseInt(text, 10);
  if (value < 1) refuse('BAD_INPUT', { field });
  if (value > max) refuse('LIMIT_TOO_LARGE', { field, max });
  return value;
}

export function createQueries(deps: { db: Db; state: MarketState; clock: Clock }): MarketQueries {
  const { state } = deps;

  function stateOf(symbol: string): InstrumentState {
    const s = state.get(symbol);
    if (!s) refuse('INSTRUMENT_UNKNOWN', { symbol });
    return s;
  }

  return {
    instrument: (symbol) => stateOf(symbol).instrument,

    instruments(query) {
      const pageSize = count(
        'page_size',
        query.page_size,
        MARKET_LIMITS.instrumentsPageSizeDefault,
        MARKET_LIMITS.instrumentsPageSizeMax,
      );
      const page = count('page', query.page, 1, 1_000_000);
      const needle = query.search?.trim().toLowerCase() ?? '';
      const rows = state
        .all()
        .map((s) => s.instrument)
        .filter(
          (i) =>
            (!query.class || i.assetClass === query.class) &&
            (!query.symbol || i.symbol === query.symbol) &&
            (!needle || i.searchText.includes(needle)),
        );
      const start = (page - 1) * pageSize;
      return {
        total: rows.length,
        page,
        page_size: pageSize,
        items: rows.slice(start, start + pageSize).map(instrumentData),
      };
    },

    tickers(query) {
      const symbols = query.symbols
        ?.split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      return queryTickers(state.all(), {
        assetClass: query.class,
        search: query.search,
        symbols,
        sort: query.sort ?? 'rank',
        descending:
          (query.order ??
            (query.sort && query.sort !== 'rank' && query.sort !== 'symbol' ? 'desc' : 'asc')) === 'desc',
        page: count('page', query.page, 1, 1_000_000),
        pageSize: count(
          'page_size',
          query.page_size,
          MARKET_LIMITS.tickersPageSizeDefault,
          MARKET_LIMITS.tickersPageSizeMax,
        ),
        stateOf: (s) => state.priceState(s, deps.clock.now().getTime()),
      });
    },

    ticker(symbol) {
      const s = stateOf(symbol);
      return tickerData(s, state.priceState(s, deps.clock.now().getTime()));
    },

    async kline(query) {
      const s = stateOf(query.symbol);
      const limit = count('limit', query.limit, MARKET_LIMITS.klineLimitDefault, MARKET_LIMITS.klineLimitMax);
      const endMs =
        query.end_time === undefined ? deps.clock.now().getTime() : Number.parseInt(query.end_time, 10);
      const rows = await klines(deps.db, {
        instrumentId: s.instrument.id,
        interval: query.interval,
        endTime: new Date(endMs),
        limit,
      });
      const candles = rows.map((row) => candleFromRow(s.instrument, row));
      // The recorder writes a moment behind the live state: the open candle comes from memory.
      const live = s.candles[INTERVAL_INDEX[query.interval]];
      if (live && live.openTime <= endMs) {
        const last = candles[candles.length - 1];
        if (last && last.openTime === live.openTime) candles[candles.length - 1] = live;
        else if (!last || last.openTime < live.openTime) candles.push(live);
        if (candles.length > limit) candles.shift();
      }
      return {
        symbol: s.instrument.symbol,
        interval: query.interval,
        price_scale: s.instrument.priceScale,
        items: candles.map((c) => candleData(s.instrument, c)),
      };
    },

    priceForTrading(symbol) {
      const s = stateOf(symbol);
      const now = deps.clock.now().getTime();
      const i = s.instrument;
      if (i.status === 'delisted') refuse('INSTRUMENT_DELISTED', { symbol });
      const current = state.priceState(s, now);
      if (current === 'halted') refuse('INSTRUMENT_HALTED', { symbol });
      if (current === 'closed') refuse('MARKET_CLOSED', { symbol, hours: i.schedule.text });
      // A coin priced by its own book (a launchpad listing) has no price until its first trade.
      if (current === 'stale' && s.lastTickMs === 0 && isBookPriced(i))
        refuse('PRICE_NO_TRADE_YET', { symbol });
      if (current === 'stale')
        refuse('PRICE_STALE', { symbol, seconds: Math.floor(state.staleAfterMs / 1000) });
      return Object.freeze({
        symbol,
        instrumentId: i.id,
        lastTicks: s.last,
        bidTicks: s.bid,
        askTicks: s.ask,
        markTicks: s.mark,
        last: ticksToPrice(i, s.last),
        bid: ticksToPrice(i, s.bid),
        ask: ticksToPrice(i, s.ask),
        mark: ticksToPrice(i, s.mark),
        at: new Date(s.lastTickMs),
        source: s.source,
        tickSeq: s.lastSeq,
      });
    },

    async rebuildCandles(input) {
      const i = stateOf(input.symbol).instrument;
      const rows = await ticksBetween(deps.db, {
        instrumentId: i.id,
        from: new Date(input.fromMs),
        to: new Date(input.toMs),
      });
      const prints = rows.map((row) =>
        toPrint(i, {
          atMs: row.at.getTime(),
          priceTicks: storedTicks(i, row.price),
          sizeUnits: parseUnitsOrThrow(row.size, { scale: QTY_SCALE }),
        }),
      );
      return aggregate(prints, input.interval).map((c) => candleData(i, c));
    },

    async storedCandles(input) {
      const i = stateOf(input.symbol).instrument;
      const rows = await candlesBetween(deps.db, {
        instrumentId: i.id,
        interval: input.interval,
        from: new Date(input.fromMs),
        to: new Date(input.toMs),
      });
      return rows.map((row) => candleData(i, candleFromRow(i, row)));
    },
  };
}
