import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';

/**
 * Spot trading (docs/api.md, "Spot trading"): markets, orders, trades, the websocket depth, trades
 * and private channels, and the back-office calls. Prices, quantities, amounts, fees and fee rates
 * are decimal strings on the wire (never JSON numbers); times are milliseconds since the epoch.
 *
 * Books: a real customer trades on the real book, a demo customer on the demo book of the same
 * market. The two books are separate engines; nothing ever crosses them. Public calls without a
 * token show the real book; with a demo token they show the demo book.
 */
export const SPOT_LIMITS = {
  decimalMax: 40,
  clientOidMax: 36,
  /** client_oid: letters, digits, `-` and `_`. */
  clientOidPattern: '^[A-Za-z0-9_-]{1,36}$',
  idMax: 40,
  depthLevelsDefault: 20,
  depthLevelsMax: 200,
  /** Levels in the `spot_depth:` snapshot. */
  depthChannelLevels: 50,
  tradesLimitDefault: 50,
  tradesLimitMax: 500,
  pageSizeDefault: 20,
  pageSizeMax: 100,
  /** Open orders a customer may hold per market and book. */
  openOrdersPerMarketMax: 200,
  haltReasonMin: 3,
  haltReasonMax: 500,
} as const;

export const SPOT_SIDES = ['buy', 'sell'] as const;
export type SpotSide = (typeof SPOT_SIDES)[number];
export const SPOT_ORDER_TYPES = ['limit', 'market'] as const;
export type SpotOrderType = (typeof SPOT_ORDER_TYPES)[number];
export const SPOT_TIFS = ['GTC', 'IOC', 'FOK'] as const;
export type SpotTif = (typeof SPOT_TIFS)[number];
/**
 * Order states. The spec's "unfilled" is `unfilled` (nothing traded yet) or `partially_filled`
 * (some traded, the rest still open): both are current orders; `filled` and `cancelled` are history.
 * A cancelled order may have traded part of its quantity (`filled_quantity` > 0).
 */
export const SPOT_ORDER_STATUSES = ['unfilled', 'partially_filled', 'filled', 'cancelled'] as const;
export type SpotOrderStatus = (typeof SPOT_ORDER_STATUSES)[number];
/** Why an order ended cancelled. */
export const SPOT_CANCEL_REASONS = [
  'user',
  'ioc_remainder',
  'fok_unfillable',
  'no_liquidity',
  'price_band',
  'self_trade',
  'market_halted',
  'operator',
  /** Refused by the engine after it was journaled (e.g. the book was full); nothing traded, funds released. */
  'rejected',
] as const;
export type SpotCancelReason = (typeof SPOT_CANCEL_REASONS)[number];
export const SPOT_MARKET_STATUSES = ['enabled', 'halted'] as const;
export type SpotMarketStatus = (typeof SPOT_MARKET_STATUSES)[number];
export type SpotBook = 'real' | 'demo';

const decimal = Type.String({ minLength: 1, maxLength: SPOT_LIMITS.decimalMax });
const symbol = Type.String({ minLength: 1, maxLength: 32 });
const digits = (max: number) => Type.String({ pattern: `^[0-9]{1,${max}}$` });
const id = Type.String({ minLength: 1, maxLength: SPOT_LIMITS.idMax });
const clientOid = Type.String({ pattern: SPOT_LIMITS.clientOidPattern });

// ---------------------------------------------------------------- customer calls

/** `GET web/getSpotMarkets` */
export const SpotMarketsQuery = Type.Object(
  { ...CommonFields, symbol: Type.Optional(symbol) },
  { additionalProperties: false },
);
export type SpotMarketsQuery = Static<typeof SpotMarketsQuery>;

/** One spot market: every rule an order is checked against is here, shown before the customer acts. */
export type SpotMarketData = {
  symbol: string;
  base: string;
  quote: string;
  /** Smallest price step, e.g. "0.01". */
  price_tick: string;
  price_scale: number;
  /** Smallest quantity step (base), e.g. "0.00001". */
  lot_size: string;
  quantity_scale: number;
  /** Smallest order quantity (base). */
  min_quantity: string;
  /** Smallest / largest order value price × quantity (quote). */
  min_notional: string;
  max_notional: string;
  /** Fee rates as decimals of the traded value, e.g. "0.001" = 0.1 %. Fees are paid in the quote currency. */
  maker_fee_rate: string;
  taker_fee_rate: string;
  /** Market-order protection: a market order trades at most this far from the reference price, in basis points. */
  price_band_bps: number;
  status: SpotMarketStatus;
  /** Set when halted: the operator's reason. */
  halt_reason: string | null;
};

/** `POST web/createOrder` */
export const CreateOrderBody = Type.Object(
  {
    ...CommonFields,
    symbol,
    side: Type.Union([Type.Literal('buy'), Type.Literal('sell')]),
    /** Default `limit`. */
    type: Type.Optional(Type.Union([Type.Literal('limit'), Type.Literal('market')])),
    /** Limit orders only (required there); a multiple of `price_tick`. */
    price: Type.Optional(decimal),
    /** Base quantity: a multiple of `lot_size`, at least `min_quantity`. Required for every order. */
    quantity: decimal,
    /** Limit orders: default GTC. Market orders: IOC (default) or FOK. */
    tif: Type.Optional(Type.Union([Type.Literal('GTC'), Type.Literal('IOC'), Type.Literal('FOK')])),
    /** "1": a limit GTC order that is refused if it would trade on arrival. */
    post_only: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1')])),
    /** The customer's own id for the order, unique per customer: a retried submission is one order. */
    client_oid: Type.Optional(clientOid),
  },
  { additionalProperties: false },
);
export type CreateOrderBody = Static<typeof CreateOrderBody>;

/** `POST web/cancelOrder`: `order_id` or `client_oid`. */
export const CancelOrderBody = Type.Object(
  { ...CommonFields, order_id: Type.Optional(id), client_oid: Type.Optional(clientOid) },
  { additionalProperties: false },
);
export type CancelOrderBody = Static<typeof CancelOrderBody>;

/** `POST web/cancelAllOrders`: every open order of the customer (of one market when `symbol`). */
export const CancelAllOrdersBody = Type.Object(
  { ...CommonFields, symbol: Type.Optional(symbol) },
  { additionalProperties: false },
);
export type CancelAllOrdersBody = Static<typeof CancelAllOrdersBody>;

/** `GET web/getOrder`: `order_id` or `client_oid`. */
export const GetOrderQuery = Type.Object(
  { ...CommonFields, order_id: Type.Optional(id), client_oid: Type.Optional(clientOid) },
  { additionalProperties: false },
);
export type GetOrderQuery = Static<typeof GetOrderQuery>;

/** `GET web/getCurrentOrders` (open orders, newest first). */
export const CurrentOrdersQuery = Type.Object(
  {
    ...CommonFields,
    symbol: Type.Optional(symbol),
    page: Type.Optional(digits(6)),
    page_size: Type.Optional(digits(3)),
  },
  { additionalProperties: false },
);
export type CurrentOrdersQuery = Static<typeof CurrentOrdersQuery>;

/** `GET web/getHistoryOrders` (filled and cancelled orders, newest first). */
export const HistoryOrdersQuery = Type.Object(
  {
    ...CommonFields,
    symbol: Type.Optional(symbol),
    status: Type.Optional(Type.Union([Type.Literal('filled'), Type.Literal('cancelled')])),
    side: Type.Optional(Type.Union([Type.Literal('buy'), Type.Literal('sell')])),
    start_time: Type.Optional(digits(15)),
    end_time: Type.Optional(digits(15)),
    page: Type.Optional(digits(6)),
    page_size: Type.Optional(digits(3)),
  },
  { additionalProperties: false },
);
export type HistoryOrdersQuery = Static<typeof HistoryOrdersQuery>;

/** `GET web/getMyTrades` (the customer's fills, newest first). */
export const MyTradesQuery = Type.Object(
  {
    ...CommonFields,
    symbol: Type.Optional(symbol),
    order_id: Type.Optional(id),
    start_time: Type.Optional(digits(15)),
    end_time: Type.Optional(digits(15)),
    page: Type.Optional(digits(6)),
    page_size: Type.Optional(digits(3)),
  },
  { additionalProperties: false },
);
export type MyTradesQuery = Static<typeof MyTradesQuery>;

/**
 * `GET web/exportSpotRecords`: every row (at most ASSET_LIMITS.exportRowsMax) of one spot record list
 * as CSV, with that list's filters: `open` takes `symbol`; `history` the filters of getHistoryOrders;
 * `fills` those of getMyTrades. A filter the list does not take is refused.
 */
export const SpotExportQuery = Type.Object(
  {
    ...CommonFields,
    list: Type.Union([Type.Literal('open'), Type.Literal('history'), Type.Literal('fills')]),
    symbol: Type.Optional(symbol),
    status: Type.Optional(Type.Union([Type.Literal('filled'), Type.Literal('cancelled')])),
    side: Type.Optional(Type.Union([Type.Literal('buy'), Type.Literal('sell')])),
    order_id: Type.Optional(id),
    start_time: Type.Optional(digits(15)),
    end_time: Type.Optional(digits(15)),
  },
  { additionalProperties: false },
);
export type SpotExportQuery = Static<typeof SpotExportQuery>;

/** `GET web/getDepth` (public; the demo book with a demo token). */
export const DepthQuery = Type.Object(
  { ...CommonFields, symbol, limit: Type.Optional(digits(4)) },
  { additionalProperties: false },
);
export type DepthQuery = Static<typeof DepthQuery>;

/** `GET web/getSpotTrades` (public; latest prints of the book, newest first). */
export const SpotTradesQuery = Type.Object(
  { ...CommonFields, symbol, limit: Type.Optional(digits(4)) },
  { additionalProperties: false },
);
export type SpotTradesQuery = Static<typeof SpotTradesQuery>;

/** `GET web/getSpotBalance`: the customer's spot balances of one market's two currencies. */
export const SpotBalanceQuery = Type.Object({ ...CommonFields, symbol }, { additionalProperties: false });
export type SpotBalanceQuery = Static<typeof SpotBalanceQuery>;

export type SpotOrderData = {
  order_id: string;
  client_oid: string | null;
  symbol: string;
  book: SpotBook;
  side: SpotSide;
  type: SpotOrderType;
  tif: SpotTif;
  post_only: boolean;
  /** Limit price; null for market orders. */
  price: string | null;
  quantity: string;
  filled_quantity: string;
  /** Σ price × quantity of the fills (quote). */
  filled_amount: string;
  /** filled_amount / filled_quantity at the price scale, or null before any fill. */
  avg_price: string | null;
  /** Fees paid so far (quote currency). */
  fee: string;
  fee_currency: string;
  /** Funds still held for the open part (quote for buys, base for sells); "0" once done. */
  frozen: string;
  frozen_currency: string;
  status: SpotOrderStatus;
  cancel_reason: SpotCancelReason | null;
  created_at: number;
  updated_at: number;
};

export type SpotOrderPage = { total: number; page: number; page_size: number; items: SpotOrderData[] };

/** One of the customer's fills. */
export type SpotFillData = {
  trade_id: string;
  order_id: string;
  symbol: string;
  side: SpotSide;
  role: 'maker' | 'taker';
  price: string;
  quantity: string;
  /** price × quantity (quote). */
  amount: string;
  fee: string;
  fee_currency: string;
  time: number;
};
export type SpotFillPage = { total: number; page: number; page_size: number; items: SpotFillData[] };

/** A public print. `side` is the taker's side. */
export type SpotTradeData = {
  trade_id: string;
  price: string;
  quantity: string;
  side: SpotSide;
  time: number;
};

/** [price, quantity] */
export type SpotDepthLevel = [string, string];
export type SpotDepthData = {
  symbol: string;
  book: SpotBook;
  /** Best first. */
  bids: SpotDepthLevel[];
  asks: SpotDepthLevel[];
  /** The engine's journal position this view reflects. */
  engine_seq: number;
  time: number;
};

export type SpotBalanceData = {
  symbol: string;
  base: string;
  quote: string;
  base_available: string;
  base_frozen: string;
  quote_available: string;
  quote_frozen: string;
};

export type CancelAllOrdersData = { cancelled: number };

// ---------------------------------------------------------------- websocket channels

/**
 * Channel names. `<symbol>` as in the markets list (e.g. `BTC/USDT`). Depth and trade channels are
 * public; `spot_private:<uid>` needs the socket authenticated first with `{main_type: 4, token}` as the
 * customer `uid`. Demo books have their own channels (`…_demo:`).
 */
export const SPOT_CHANNELS = {
  depth: 'spot_depth:',
  depthDemo: 'spot_depth_demo:',
  trades: 'spot_trades:',
  tradesDemo: 'spot_trades_demo:',
  private: 'spot_private:',
} as const;

/** `spot_depth:<symbol>` snapshot: the top `depthChannelLevels` levels a side. */
export type SpotDepthSnapshot = SpotDepthData;
/**
 * `spot_depth:<symbol>` message: changed levels since the previous message; quantity "0" removes the
 * level. Apply in channel `seq` order; a gap means resubscribe (a fresh snapshot). Levels outside the
 * snapshot's depth may appear in diffs: keep or drop them, but do not show them as the full book.
 */
export type SpotDepthDiff = {
  symbol: string;
  book: SpotBook;
  bids: SpotDepthLevel[];
  asks: SpotDepthLevel[];
  engine_seq: number;
  time: number;
};
/** `spot_trades:<symbol>` snapshot (latest 50, newest first) and messages (new prints, oldest first). */
export type SpotTradesMessage = { symbol: string; book: SpotBook; items: SpotTradeData[] };

export type SpotPrivateBalance = { currency: string; available: string; frozen: string };
/** `spot_private:<uid>` snapshot: open orders (≤ 200, newest first) and spot balances. */
export type SpotPrivateSnapshot = { orders: SpotOrderData[]; balances: SpotPrivateBalance[] };
/** `spot_private:<uid>` messages: an order changed (new, fill, cancel), a fill, or balances changed. */
export type SpotPrivateMessage =
  | { type: 'order'; order: SpotOrderData }
  | { type: 'fill'; fill: SpotFillData }
  | { type: 'balance'; balances: SpotPrivateBalance[] };

/** `{main_type: 4, token}` is answered `{main_type: 4, uid}` or `{main_type: 4, reason: 'LOGIN_REQUIRED'}`. */
export type WsAuthAnswer =
  | { main_type: 4; uid: string }
  | { main_type: 4; reason: string; params: Record<string, never> };

// ---------------------------------------------------------------- back office (/api/admin, permission markets.write)

/** `GET /api/admin/spotMarkets` → `{ items: SpotMarketAdminData[], kill_switch: SpotKillSwitchData }` */
export const AdminSpotMarketsQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });

export type SpotMarketAdminData = SpotMarketData & {
  open_orders_real: number;
  open_orders_demo: number;
  engine_seq_real: number;
  engine_seq_demo: number;
  /** SHA-256 of each book (`MatchingBook.hash()`): equal to a replay of its journal. */
  engine_hash_real: string;
  engine_hash_demo: string;
  updated_at: number;
};

export type SpotKillSwitchData = { engaged: boolean; reason: string | null; engaged_at: number | null };

const reason = Type.String({ minLength: SPOT_LIMITS.haltReasonMin, maxLength: SPOT_LIMITS.haltReasonMax });

/** `POST /api/admin/spotMarketHalt` — halts matching of one market (both books); open orders stay. */
export const AdminSpotHaltBody = Type.Object(
  { ...CommonFields, symbol, reason },
  { additionalProperties: false },
);
export type AdminSpotHaltBody = Static<typeof AdminSpotHaltBody>;

/** `POST /api/admin/spotMarketEnable` */
export const AdminSpotEnableBody = Type.Object(
  { ...CommonFields, symbol, reason: Type.Optional(reason) },
  { additionalProperties: false },
);
export type AdminSpotEnableBody = Static<typeof AdminSpotEnableBody>;

/** `POST /api/admin/spotMarketUpdate` — fees, minimums, band. Tick and lot are fixed once a market exists. */
export const AdminSpotUpdateBody = Type.Object(
  {
    ...CommonFields,
    symbol,
    maker_fee_rate: Type.Optional(decimal),
    taker_fee_rate: Type.Optional(decimal),
    min_quantity: Type.Optional(decimal),
    min_notional: Type.Optional(decimal),
    max_notional: Type.Optional(decimal),
    price_band_bps: Type.Optional(digits(5)),
    reason: Type.Optional(reason),
  },
  { additionalProperties: false },
);
export type AdminSpotUpdateBody = Static<typeof AdminSpotUpdateBody>;

/**
 * `POST /api/admin/spotMarketCreate` — a new market for a `crypto_spot` instrument of the catalogue
 * that has none yet, with its tick and lot (created halted unless `enable` = "1").
 */
export const AdminSpotCreateBody = Type.Object(
  {
    ...CommonFields,
    symbol,
    price_tick: decimal,
    lot_size: decimal,
    min_quantity: decimal,
    min_notional: decimal,
    max_notional: decimal,
    maker_fee_rate: decimal,
    taker_fee_rate: decimal,
    price_band_bps: digits(5),
    enable: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1')])),
  },
  { additionalProperties: false },
);
export type AdminSpotCreateBody = Static<typeof AdminSpotCreateBody>;

/** `POST /api/admin/spotKillSwitch` — `engaged` "1" halts all matching (every market, both books) within a second; "0" releases. */
export const AdminKillSwitchBody = Type.Object(
  { ...CommonFields, engaged: Type.Union([Type.Literal('0'), Type.Literal('1')]), reason },
  { additionalProperties: false },
);
export type AdminKillSwitchBody = Static<typeof AdminKillSwitchBody>;

/** `GET /api/admin/marketMaker` → `MarketMakerData`. */
export const AdminMarketMakerQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });

export type MarketMakerSettingsData = {
  enabled: boolean;
  /** Distance of the first level from the reference price, basis points of it, each side. */
  spread_bps: number;
  /** Further distance between levels, basis points. */
  step_bps: number;
  /** Levels a side. */
  levels: number;
  /** Quote value of one level (quote currency), converted to a quantity at the level's price. */
  level_notional: string;
  /** Stop quoting the side that would push inventory past this share of the base at capital (percent of the initial base). */
  inventory_limit_pct: number;
  /** Minimum time between refreshes of one market's quotes. */
  refresh_ms: number;
};

export type MarketMakerInventoryItem = {
  book: SpotBook;
  currency: string;
  available: string;
  frozen: string;
};

export type MarketMakerData = {
  settings: MarketMakerSettingsData;
  /** The market maker's customer ids: one in each book. */
  accounts: { real: string | null; demo: string | null };
  inventory: MarketMakerInventoryItem[];
  open_orders: { real: number; demo: number };
  last_refresh_at: number | null;
};

/**
 * `GET /api/admin/marketMakerHealth` (permission `risk.read`) → `MarketMakerHealthData`; the same
 * object is `market_maker` in `GET /healthz?detail=1`.
 */
export const AdminMarketMakerHealthQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });

export type MarketMakerHealthItem = {
  symbol: string;
  book: 'real' | 'demo';
  /** When its quotes were last confirmed on the book (placed, or kept because the price had not moved); ISO time. */
  last_quote_at: string | null;
  /** Whole seconds since then, by the server's clock (null: never). */
  last_quote_age_s: number | null;
  /** Failed rounds in the last hour (rolling, by the server's clock). */
  errors_last_hour: number;
  errors_total: number;
  last_error: string | null;
};

export type MarketMakerHealthData = { enabled: boolean; markets: MarketMakerHealthItem[] };

/** `POST /api/admin/marketMakerSettings` — any subset; `enabled` "0" cancels its quotes and stops it. */
export const AdminMarketMakerBody = Type.Object(
  {
    ...CommonFields,
    enabled: Type.Optional(Type.Union([Type.Literal('0'), Type.Literal('1')])),
    spread_bps: Type.Optional(digits(5)),
    step_bps: Type.Optional(digits(5)),
    levels: Type.Optional(digits(2)),
    level_notional: Type.Optional(decimal),
    inventory_limit_pct: Type.Optional(digits(3)),
    refresh_ms: Type.Optional(digits(7)),
    reason,
  },
  { additionalProperties: false },
);
export type AdminMarketMakerBody = Static<typeof AdminMarketMakerBody>;
