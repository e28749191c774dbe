import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';
import type { ReasonParams } from './envelope.ts';
import type { WsChannelMessage } from './ws.ts';

/**
 * Market data shared by the server and the apps: the instrument catalogue, tickers, K-lines and
 * the websocket channels that carry them. Prices, sizes and volumes are decimal strings on the
 * wire (never JSON numbers); times are milliseconds since the epoch.
 */

export const ASSET_CLASSES = [
  'crypto_spot',
  'crypto_perp',
  'crypto_delivery',
  'forex',
  'metal',
  'energy',
  'stock',
  'etf',
] as const;
export type AssetClass = (typeof ASSET_CLASSES)[number];

export const INSTRUMENT_STATUSES = ['active', 'halted', 'delisted'] as const;
export type InstrumentStatus = (typeof INSTRUMENT_STATUSES)[number];

/** K-line intervals. Buckets are aligned to UTC; weeks start on Monday 00:00 UTC. */
export const KLINE_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w'] as const;
export type KlineInterval = (typeof KLINE_INTERVALS)[number];

export const TICKER_SORTS = ['rank', 'symbol', 'last', 'change', 'volume', 'turnover'] as const;
export type TickerSort = (typeof TICKER_SORTS)[number];

/**
 * Where a price is now: `live` (fresh from the feed), `stale` (the feed has been silent longer
 * than the stale limit while the market is open), `closed` (outside trading hours), `halted`
 * (trading stopped by the operator, or delisted). Only `live` prices are ever traded on.
 */
export const PRICE_STATES = ['live', 'stale', 'closed', 'halted'] as const;
export type PriceState = (typeof PRICE_STATES)[number];

/** Limits of the market calls, shared by the server's checks and the app's lists. */
export const MARKET_LIMITS = {
  symbolMax: 32,
  searchMax: 32,
  klineLimitDefault: 500,
  klineLimitMax: 1000,
  tickersPageSizeDefault: 100,
  tickersPageSizeMax: 500,
  instrumentsPageSizeDefault: 500,
  instrumentsPageSizeMax: 1000,
  /** Channels one websocket may hold at once. */
  subscriptionsPerSocketMax: 64,
  /** Prints kept per instrument for the `trades:<symbol>` snapshot. */
  tradesSnapshotMax: 50,
} as const;

/** Symbols: upper-case letters and digits, with `/`, `-`, `.` or `_` inside; never `:` (the channel separator). */
export const SYMBOL_PATTERN = '^[A-Z0-9][A-Z0-9/._-]{0,31}$';

const digits = (max: number) => Type.String({ pattern: `^[0-9]{1,${max}}$` });
const assetClass = Type.Union(ASSET_CLASSES.map((c) => Type.Literal(c)));
const symbol = Type.String({ minLength: 1, maxLength: MARKET_LIMITS.symbolMax });

export const GetKlineQuery = Type.Object(
  {
    ...CommonFields,
    symbol,
    interval: Type.Union(KLINE_INTERVALS.map((i) => Type.Literal(i))),
    /** Candles to return, newest last; at most `klineLimitMax`. */
    limit: Type.Optional(digits(6)),
    /** Only candles that open at or before this time (ms); for paging back through history. */
    end_time: Type.Optional(digits(15)),
  },
  { additionalProperties: false },
);
export type GetKlineQuery = Static<typeof GetKlineQuery>;

export const GetTickersQuery = Type.Object(
  {
    ...CommonFields,
    class: Type.Optional(assetClass),
    /** Case-insensitive; matches symbol (with or without separators), name and base asset. */
    search: Type.Optional(Type.String({ maxLength: MARKET_LIMITS.searchMax })),
    /** Comma-separated symbols: only these (favourites). */
    symbols: Type.Optional(Type.String({ maxLength: 4000 })),
    sort: Type.Optional(Type.Union(TICKER_SORTS.map((s) => Type.Literal(s)))),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    page: Type.Optional(digits(6)),
    page_size: Type.Optional(digits(6)),
  },
  { additionalProperties: false },
);
export type GetTickersQuery = Static<typeof GetTickersQuery>;

export const GetInstrumentsQuery = Type.Object(
  {
    ...CommonFields,
    class: Type.Optional(assetClass),
    search: Type.Optional(Type.String({ maxLength: MARKET_LIMITS.searchMax })),
    symbol: Type.Optional(symbol),
    page: Type.Optional(digits(6)),
    page_size: Type.Optional(digits(6)),
  },
  { additionalProperties: false },
);
export type GetInstrumentsQuery = Static<typeof GetInstrumentsQuery>;

/** One instrument of the catalogue (`web/getInstruments`). */
export type InstrumentData = {
  symbol: string;
  name: string;
  class: AssetClass;
  base: string;
  quote: string;
  /** Smallest price step, e.g. "0.01"; every price of this instrument is a whole number of ticks. */
  price_tick: string;
  /** Decimal places of a price (of `price_tick`): the app pads prices to this many digits. */
  price_scale: number;
  lot_size: string;
  contract_size: string;
  max_leverage: number;
  /** The schedule as written in the catalogue, e.g. "24/7", "America/New_York Mon-Fri 09:30-16:00". */
  trading_hours: string;
  status: InstrumentStatus;
  /** Delivery contracts only. */
  expiry_at: number | null;
  /** Popularity order for "hot" lists; lower is hotter. */
  rank: number;
};

/** The reference price and rolling 24 h statistics of one instrument (`web/getTickers`). */
export type TickerData = {
  symbol: string;
  name: string;
  class: AssetClass;
  base: string;
  quote: string;
  price_scale: number;
  last: string;
  bid: string;
  ask: string;
  /** Mid of bid and ask (or the source's mark price); what positions are valued at. */
  mark: string;
  open_24h: string;
  high_24h: string;
  low_24h: string;
  change_24h: string;
  /** Percent with two decimals, e.g. "-1.25". */
  change_pct_24h: string;
  volume_24h: string;
  turnover_24h: string;
  /** Time of the last tick; 0 when the instrument has never ticked (prices are the catalogue's seed). */
  updated_at: number;
  state: PriceState;
  stale: boolean;
  /** `sim` (simulated — the app labels it SIMULATED), `ccxt:<exchange>`, `replay`, or `reference` before any tick. */
  source: string;
};

export type TickersPage = { total: number; page: number; page_size: number; items: TickerData[] };
export type InstrumentsPage = { total: number; page: number; page_size: number; items: InstrumentData[] };

/** One candle; `open_time` is the start of its bucket. A bucket without ticks has no candle. */
export type CandleData = {
  open_time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  turnover: string;
  ticks: number;
};

export type KlineData = { symbol: string; interval: KlineInterval; price_scale: number; items: CandleData[] };

// ---- Websocket channels ----------------------------------------------------------------------

/**
 * Channel names: `tickers` (every instrument, batched), `candles:<symbol>:<interval>`,
 * `trades:<symbol>`. A channel message is `{channel, seq, data}`; `seq` rises by exactly one per
 * message on that channel of that connection. The answer to a subscribe is a snapshot
 * `{channel, seq, snapshot: true, data}`; the next message carries `seq + 1`. A client that sees
 * any other number has missed something and subscribes again for a fresh snapshot.
 */
export const MARKET_CHANNEL = {
  tickers: 'tickers',
  candles: (symbol: string, interval: KlineInterval) => `candles:${symbol}:${interval}`,
  trades: (symbol: string) => `trades:${symbol}`,
} as const;

/** A ticker on the `tickers` channel: short keys, because thousands go out twice a second. */
export type WsTicker = {
  /** symbol */ s: string;
  /** last */ p: string;
  /** bid */ b: string;
  /** ask */ a: string;
  /** mark */ m: string;
  /** 24 h open */ o: string;
  /** 24 h high */ h: string;
  /** 24 h low */ l: string;
  /** 24 h change, percent, two decimals */ c: string;
  /** 24 h volume (base) */ v: string;
  /** 24 h turnover (quote) */ q: string;
  /** time of the last tick (ms) */ t: number;
  /** price state */ x: PriceState;
};

/** `tickers`: the instruments that changed since the previous message (all of them in a snapshot). */
export type WsTickersData = { time: number; items: WsTicker[] };
/** `candles:<symbol>:<interval>`: the candles that changed (the open one; the just-closed one too when a bucket rolls). */
export type WsCandlesData = { symbol: string; interval: KlineInterval; items: CandleData[] };
export type TradeData = {
  seq: number;
  time: number;
  price: string;
  size: string;
  side: 'buy' | 'sell' | 'mid';
};
/** `trades:<symbol>`: prints of the feed, oldest first (the snapshot holds the latest ones). */
export type WsTradesData = { symbol: string; items: TradeData[] };

export type WsSubscribe = { main_type: 2; channel: string };
export type WsUnsubscribe = { main_type: 3; channel: string };
/** A refused subscribe: the reason is one of docs/errors.md (the app has its text). */
export type WsSubscribeRefused = { main_type: 2; channel: string; reason: string; params: ReasonParams };
export type WsUnsubscribed = { main_type: 3; channel: string };
export type WsSnapshot<T = unknown> = WsChannelMessage<T> & { snapshot: true };

/** `GET admin/market/hours` (permission `markets.write`): the catalogue's trading hours, filtered by search. */
export const AdminTradingHoursQuery = Type.Object(
  {
    ...CommonFields,
    search: Type.Optional(Type.String({ maxLength: MARKET_LIMITS.searchMax })),
  },
  { additionalProperties: false },
);
export type AdminTradingHoursQuery = Static<typeof AdminTradingHoursQuery>;

/**
 * `POST admin/market/hours` (permission `markets.write`, audited with before/after and reason):
 * replace an instrument's trading hours (schedule text, as in the catalogue CSV). Applied at once
 * in this process; other processes see it within their catalogue check (30 s).
 */
export const AdminTradingHoursBody = Type.Object(
  {
    ...CommonFields,
    symbol,
    hours: Type.String({ minLength: 1, maxLength: 200 }),
    reason: Type.String({ minLength: 3, maxLength: 500 }),
  },
  { additionalProperties: false },
);
export type AdminTradingHoursBody = Static<typeof AdminTradingHoursBody>;

/** One instrument's trading hours in the back office; `state` is its price state now. */
export type AdminTradingHoursData = {
  symbol: string;
  name: string;
  class: AssetClass;
  trading_hours: string;
  status: InstrumentStatus;
  state: PriceState;
};
