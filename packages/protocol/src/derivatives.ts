import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';
import type { AssetClass } from './market.ts';

/**
 * Contracts (perpetual, delivery and CFD positions) and time-based up/down options (docs/api.md,
 * "Contracts and options"). The platform is the counterparty: a contract opens at the feed's ask
 * (buy/long) or bid (sell/short) widened by the instrument's configured spread; an option opens and
 * settles on recorded feed prices. Margin, fees, stakes and P&L are USDT in the customer's `contract`
 * or `options` account. Every risk number (margin, fee, P&L, risk rate, liquidation price) is computed
 * by the server (`packages/risk`); the app only displays what these calls return.
 *
 * Amounts, prices, lots and rates are decimal strings on the wire; times are milliseconds since the
 * epoch; leverage is a whole number.
 *
 * Risk rate (shown on every position): `max(0, −unrealised P&L at the mark price) ÷ margin`, a decimal
 * fraction ("0.4215" = 42.15 %). 0 while the position is not losing; the position is liquidated on the
 * mark price when it reaches the instrument's `liquidation_level` ("0.8" = the loss has eaten 80 % of
 * the margin).
 */
export const DERIVATIVES_LIMITS = {
  decimalMax: 40,
  idMax: 40,
  clientOidPattern: '^[A-Za-z0-9_-]{1,36}$',
  pageSizeDefault: 20,
  pageSizeMax: 100,
  /** Leverage is a whole number in 1…100 (further capped per instrument and jurisdiction profile). */
  leverageMax: 100,
  /** Open positions plus pending orders a customer may hold per instrument and book. */
  openPerInstrumentMax: 50,
  /** Option durations configurable per instrument. */
  optionDurationsMax: 8,
  optionDurationMinSeconds: 30,
  optionDurationMaxSeconds: 86_400,
  /** Open (unsettled) options a customer may hold at once. */
  openOptionsMax: 50,
} as const;

export const CONTRACT_SIDES = ['buy', 'sell'] as const;
export type ContractSide = (typeof CONTRACT_SIDES)[number];
export const CONTRACT_ORDER_TYPES = ['market', 'limit'] as const;
export type ContractOrderType = (typeof CONTRACT_ORDER_TYPES)[number];
/** `perpetual`: crypto_perp (funding); `delivery`: crypto_delivery (settled at expiry); `cfd`: forex, metal, energy, stock, etf. */
export const CONTRACT_KINDS = ['perpetual', 'delivery', 'cfd'] as const;
export type ContractKind = (typeof CONTRACT_KINDS)[number];
/**
 * A pending (limit) order: `pending` until the executable price reaches its price, then `filled`
 * (it opened a position) or `cancelled` (by the customer, by the operator, or because the fill was refused —
 * `cancel_reason` says which).
 */
export const CONTRACT_ORDER_STATUSES = ['pending', 'filled', 'cancelled'] as const;
export type ContractOrderStatus = (typeof CONTRACT_ORDER_STATUSES)[number];
export const CONTRACT_CANCEL_REASONS = [
  'user',
  'insufficient_balance',
  'market_closed',
  'expired',
  'settings_changed',
] as const;
export type ContractCancelReason = (typeof CONTRACT_CANCEL_REASONS)[number];
/** Position states: `open` (the spec's "trading/holding"), then closed one way or another. */
export const CONTRACT_POSITION_STATUSES = ['open', 'closed', 'liquidated', 'delivered'] as const;
export type ContractPositionStatus = (typeof CONTRACT_POSITION_STATUSES)[number];
/** Why lots of a position were closed. */
export const CONTRACT_CLOSE_REASONS = [
  'user',
  'close_all',
  'take_profit',
  'stop_loss',
  'liquidation',
  'delivery',
] as const;
export type ContractCloseReason = (typeof CONTRACT_CLOSE_REASONS)[number];

/**
 * Leverage classes a jurisdiction profile caps (each instrument belongs to one):
 * `forex_major` both currencies among USD EUR JPY GBP CAD CHF; `forex_minor` other forex; `gold` XAU;
 * `index` index ETFs (SPY QQQ DIA IWM VTI EEM); `commodity` other metals and energy; `stock` stocks and
 * other ETFs; `crypto` crypto perpetual and delivery contracts.
 */
export const LEVERAGE_CLASSES = [
  'forex_major',
  'forex_minor',
  'gold',
  'index',
  'commodity',
  'stock',
  'crypto',
] as const;
export type LeverageClass = (typeof LEVERAGE_CLASSES)[number];
/** Built-in profiles (`permissive` is the default) and one operator-edited `custom` profile. */
export const JURISDICTION_PROFILES = ['permissive', 'eu_retail', 'custom'] as const;
export type JurisdictionProfileId = (typeof JURISDICTION_PROFILES)[number];

export const OPTION_DIRECTIONS = ['up', 'down'] as const;
export type OptionDirection = (typeof OPTION_DIRECTIONS)[number];
/** `open` (the spec's "waiting") until expiry, then settled `won`, `lost` or `tied`. */
export const OPTION_STATUSES = ['open', 'won', 'lost', 'tied'] as const;
export type OptionStatus = (typeof OPTION_STATUSES)[number];

export type DerivativesBook = 'real' | 'demo';

const decimal = Type.String({ minLength: 1, maxLength: DERIVATIVES_LIMITS.decimalMax });
/** A decimal, or "" to clear (take-profit / stop-loss). */
const decimalOrEmpty = Type.String({ maxLength: DERIVATIVES_LIMITS.decimalMax });
const symbol = Type.String({ minLength: 1, maxLength: 32 });
const digits = (max: number) => Type.String({ pattern: `^[0-9]{1,${max}}$` });
const id = Type.String({ minLength: 1, maxLength: DERIVATIVES_LIMITS.idMax });
const clientOid = Type.String({ pattern: DERIVATIVES_LIMITS.clientOidPattern });
const side = Type.Union([Type.Literal('buy'), Type.Literal('sell')]);
const page = { page: Type.Optional(digits(6)), page_size: Type.Optional(digits(3)) };

// ================================================================ contracts: customer calls

/** `GET web/getContracts` (public; with a token the customer's jurisdiction caps are the operator's, same for all). */
export const ContractsQuery = Type.Object(
  { ...CommonFields, symbol: Type.Optional(symbol) },
  { additionalProperties: false },
);
export type ContractsQuery = Static<typeof ContractsQuery>;

/** One tradable contract instrument: every rule an order is checked against, shown before the customer acts. */
export type ContractInstrumentData = {
  symbol: string;
  name: string;
  asset_class: AssetClass;
  kind: ContractKind;
  leverage_class: LeverageClass;
  base: string;
  /** The currency prices are quoted in (USD, USDT, JPY, HKD …). */
  quote: string;
  /** Margin, fees and P&L currency: always USDT. P&L in another quote currency is converted at the recorded rate (see `conversion`). */
  margin_currency: 'USDT';
  price_tick: string;
  /** Lots step, e.g. "0.01". */
  lot_step: string;
  min_lots: string;
  max_lots: string;
  /** 1 lot = contract_size × base ("1 lot = 100,000 EUR"). */
  contract_size: string;
  /** The highest leverage allowed now: min(instrument, operator setting, jurisdiction cap). */
  max_leverage: number;
  /** Choices offered by the leverage selector (every value ≤ max_leverage). */
  leverage_choices: number[];
  /** Added to the ask for buys and subtracted from the bid for sells (price units). */
  spread: string;
  /** USDT charged per lot on opening and again per lot on closing. */
  fee_per_lot: string;
  /** Liquidation when the risk rate reaches this fraction. */
  liquidation_level: string;
  /** The most one margin top-up may add (USDT). */
  margin_topup_max: string;
  /** Perpetuals: the rate charged each funding time (longs pay shorts when positive; the platform is the other side). */
  funding_rate: string | null;
  funding_interval_hours: number | null;
  next_funding_at: number | null;
  /** Delivery contracts: open positions settle at this time on the recorded price. */
  expiry_at: number | null;
  trading_hours: string;
  /** Whether the market is open now (orders outside hours are refused with MARKET_CLOSED, naming the hours). */
  open: boolean;
  /** Operator switch; a disabled contract accepts no new positions (closing is always allowed). */
  enabled: boolean;
  /** Quote → USDT rate used for P&L, margin and fees ("1" for USD and USDT quotes), with its source symbol. */
  conversion: { rate: string; via: string | null };
};

/** `GET web/getContractQuote`: the server's preview of an order (nothing is reserved). */
export const ContractQuoteQuery = Type.Object(
  {
    ...CommonFields,
    symbol,
    side,
    lots: decimal,
    leverage: digits(3),
    /** Limit orders: the order's price; omitted for market orders (priced at the current executable price). */
    price: Type.Optional(decimal),
  },
  { additionalProperties: false },
);
export type ContractQuoteQuery = Static<typeof ContractQuoteQuery>;

export type ContractQuoteData = {
  symbol: string;
  side: ContractSide;
  lots: string;
  leverage: number;
  /** The price the order would open at (ask + spread, bid − spread, or the limit price). */
  price: string;
  /** price × lots × contract_size, in the quote currency and in USDT. */
  notional: string;
  notional_usdt: string;
  /** notional_usdt ÷ leverage, rounded up to the USDT minor unit. */
  margin: string;
  /** fee_per_lot × lots (opening fee). */
  fee: string;
  /** margin + fee: what leaves the contract account's available balance. */
  required: string;
  /** The customer's available USDT in the contract account of their book. */
  available: string;
  /** The mark price at which the risk rate would reach the liquidation level. */
  liquidation_price: string;
  /** Closing fee the customer will pay later (fee_per_lot × lots). */
  close_fee: string;
};

/** `POST web/openContract`: a market order opens a position now; a limit order waits as a pending order. */
export const OpenContractBody = Type.Object(
  {
    ...CommonFields,
    symbol,
    side,
    /** Default `market`. */
    type: Type.Optional(Type.Union([Type.Literal('market'), Type.Literal('limit')])),
    /** Limit orders only (required there); a multiple of `price_tick`. */
    price: Type.Optional(decimal),
    lots: decimal,
    leverage: digits(3),
    /** Optional; validated against the side and the current price (TP above / SL below for buys, the reverse for sells). */
    tp_price: Type.Optional(decimalOrEmpty),
    sl_price: Type.Optional(decimalOrEmpty),
    client_oid: Type.Optional(clientOid),
  },
  { additionalProperties: false },
);
export type OpenContractBody = Static<typeof OpenContractBody>;

/** The answer to `openContract`: the position (market order) or the pending order (limit order). */
export type OpenContractResult = { position: ContractPositionData | null; order: ContractOrderData | null };

/** `POST web/cancelContractOrder` (a pending order: its frozen margin and fee are released). */
export const CancelContractOrderBody = Type.Object(
  { ...CommonFields, order_id: id },
  { additionalProperties: false },
);
export type CancelContractOrderBody = Static<typeof CancelContractOrderBody>;

/** `POST web/closeContract`: close `lots` of a position (all of it when omitted) at the current executable price. */
export const CloseContractBody = Type.Object(
  { ...CommonFields, position_id: id, lots: Type.Optional(decimal) },
  { additionalProperties: false },
);
export type CloseContractBody = Static<typeof CloseContractBody>;

/** `POST web/closeAllContracts`: every open position (of one instrument when `symbol`). */
export const CloseAllContractsBody = Type.Object(
  { ...CommonFields, symbol: Type.Optional(symbol) },
  { additionalProperties: false },
);
export type CloseAllContractsBody = Static<typeof CloseAllContractsBody>;
/** Positions that could not be closed now (e.g. market closed) are listed with the reason. */
export type CloseAllResult = {
  closed: ContractCloseData[];
  failed: { position_id: string; symbol: string; reason: string; message: string }[];
};

/** `POST web/setContractTpSl`: "" clears a level; an omitted field is left as it is. */
export const SetTpSlBody = Type.Object(
  {
    ...CommonFields,
    /** A position or a pending order. */
    position_id: Type.Optional(id),
    order_id: Type.Optional(id),
    tp_price: Type.Optional(decimalOrEmpty),
    sl_price: Type.Optional(decimalOrEmpty),
  },
  { additionalProperties: false },
);
export type SetTpSlBody = Static<typeof SetTpSlBody>;

/** `POST web/addContractMargin`: move `amount` USDT from the contract account into the position's margin (≤ margin_topup_max). */
export const AddMarginBody = Type.Object(
  { ...CommonFields, position_id: id, amount: decimal },
  { additionalProperties: false },
);
export type AddMarginBody = Static<typeof AddMarginBody>;

/** `GET web/getContractPositions`: open positions with the server's live numbers. */
export const ContractPositionsQuery = Type.Object(
  { ...CommonFields, symbol: Type.Optional(symbol) },
  { additionalProperties: false },
);
export type ContractPositionsQuery = Static<typeof ContractPositionsQuery>;

/** `GET web/getContractOrders`: pending orders (`status=pending`, default) or finished ones. */
export const ContractOrdersQuery = Type.Object(
  {
    ...CommonFields,
    symbol: Type.Optional(symbol),
    status: Type.Optional(
      Type.Union([Type.Literal('pending'), Type.Literal('filled'), Type.Literal('cancelled')]),
    ),
    ...page,
  },
  { additionalProperties: false },
);
export type ContractOrdersQuery = Static<typeof ContractOrdersQuery>;

/** `GET web/getContractHistory`: closed, liquidated and delivered positions, newest first. */
export const ContractHistoryQuery = Type.Object(
  {
    ...CommonFields,
    symbol: Type.Optional(symbol),
    status: Type.Optional(
      Type.Union([Type.Literal('closed'), Type.Literal('liquidated'), Type.Literal('delivered')]),
    ),
    start_time: Type.Optional(digits(15)),
    end_time: Type.Optional(digits(15)),
    ...page,
  },
  { additionalProperties: false },
);
export type ContractHistoryQuery = Static<typeof ContractHistoryQuery>;

/** `GET web/getContractCloses`: every close (partial or full) of the customer, or of one position. */
export const ContractClosesQuery = Type.Object(
  { ...CommonFields, position_id: Type.Optional(id), symbol: Type.Optional(symbol), ...page },
  { additionalProperties: false },
);
export type ContractClosesQuery = Static<typeof ContractClosesQuery>;

/** `GET web/getContractFunding`: funding charged and received, newest first. */
export const ContractFundingQuery = Type.Object(
  { ...CommonFields, position_id: Type.Optional(id), symbol: Type.Optional(symbol), ...page },
  { additionalProperties: false },
);
export type ContractFundingQuery = Static<typeof ContractFundingQuery>;

/**
 * `GET web/exportContractRecords`: every row (at most ASSET_LIMITS.exportRowsMax) of one contract
 * record list as CSV, with that list's filters (`status` of that list; `start_time`/`end_time` for
 * `history` only; `position_id` for `closes` and `funding`). A filter the list does not take is refused.
 */
export const ContractExportQuery = Type.Object(
  {
    ...CommonFields,
    list: Type.Union([
      Type.Literal('history'),
      Type.Literal('orders'),
      Type.Literal('closes'),
      Type.Literal('funding'),
    ]),
    symbol: Type.Optional(symbol),
    status: Type.Optional(
      Type.Union([
        Type.Literal('pending'),
        Type.Literal('filled'),
        Type.Literal('cancelled'),
        Type.Literal('closed'),
        Type.Literal('liquidated'),
        Type.Literal('delivered'),
      ]),
    ),
    position_id: Type.Optional(id),
    start_time: Type.Optional(digits(15)),
    end_time: Type.Optional(digits(15)),
  },
  { additionalProperties: false },
);
export type ContractExportQuery = Static<typeof ContractExportQuery>;

export type ContractOrderData = {
  order_id: string;
  client_oid: string | null;
  symbol: string;
  book: DerivativesBook;
  side: ContractSide;
  type: ContractOrderType;
  /** Limit price. */
  price: string;
  lots: string;
  leverage: number;
  tp_price: string | null;
  sl_price: string | null;
  /** Margin + opening fee held while pending (USDT). */
  frozen: string;
  status: ContractOrderStatus;
  cancel_reason: ContractCancelReason | null;
  /** The position it opened, once filled. */
  position_id: string | null;
  created_at: number;
  updated_at: number;
};

export type ContractPositionData = {
  position_id: string;
  symbol: string;
  name: string;
  kind: ContractKind;
  book: DerivativesBook;
  side: ContractSide;
  leverage: number;
  /** Lots still open, and as opened. */
  lots: string;
  opened_lots: string;
  contract_size: string;
  open_price: string;
  /** The position's margin now (USDT): opening margin, less the share released by partial closes, plus top-ups, ± funding. */
  margin: string;
  /** Fees paid so far (opening and closes). */
  fee: string;
  /** Funding paid (negative) or received (positive) so far. */
  funding: string;
  tp_price: string | null;
  sl_price: string | null;
  /** Open positions: the executable close price now (bid − spread for longs, ask + spread for shorts); closed ones: null. */
  current_price: string | null;
  mark_price: string | null;
  /** P&L of the open lots at current_price (what closing now would realise, before the closing fee), USDT. */
  unrealized_pnl: string | null;
  /** Risk rate at the mark price (see the file comment), and the level that liquidates. */
  risk_rate: string | null;
  liquidation_level: string;
  liquidation_price: string | null;
  /** P&L realised by closes so far (after closing fees are counted separately in `fee`), USDT. */
  realized_pnl: string;
  /** Closed positions: the last close's price and time. */
  close_price: string | null;
  close_reason: ContractCloseReason | null;
  status: ContractPositionStatus;
  opened_at: number;
  closed_at: number | null;
  /** Set for positions closed on a recorded price (liquidation, TP/SL, delivery): the price's source and time. */
  close_price_source: string | null;
  close_price_at: number | null;
};

export type ContractCloseData = {
  close_id: string;
  position_id: string;
  symbol: string;
  side: ContractSide;
  lots: string;
  open_price: string;
  close_price: string;
  /** P&L of these lots (USDT, before fee). */
  pnl: string;
  fee: string;
  /** Margin released back to the account (after P&L); for a liquidation, what was left. */
  released: string;
  /** Liquidations: the shortfall the insurance account covered (USDT), else "0". */
  insurance_covered: string;
  reason: ContractCloseReason;
  price_source: string;
  price_at: number;
  closed_at: number;
};

export type ContractFundingData = {
  funding_id: string;
  position_id: string;
  symbol: string;
  side: ContractSide;
  rate: string;
  /** Signed: negative paid, positive received (USDT). */
  amount: string;
  mark_price: string;
  funding_at: number;
};

export type Paged<T> = { total: number; page: number; page_size: number; items: T[] };

// ================================================================ options: customer calls

/** `GET web/getOptions` (public): instruments offering up/down options and their rules. */
export const OptionsQuery = Type.Object(
  { ...CommonFields, symbol: Type.Optional(symbol) },
  { additionalProperties: false },
);
export type OptionsQuery = Static<typeof OptionsQuery>;

export type OptionDurationData = {
  seconds: number;
  /** Profit rate on a win: a win pays stake × (1 + payout_rate). */
  payout_rate: string;
};

export type OptionInstrumentData = {
  symbol: string;
  name: string;
  asset_class: AssetClass;
  /** Stake currency: USDT from the `options` account. */
  currency: 'USDT';
  min_stake: string;
  max_stake: string;
  durations: OptionDurationData[];
  trading_hours: string;
  open: boolean;
  enabled: boolean;
};

/** `POST web/buyOption` */
export const BuyOptionBody = Type.Object(
  {
    ...CommonFields,
    symbol,
    direction: Type.Union([Type.Literal('up'), Type.Literal('down')]),
    stake: decimal,
    /** One of the instrument's configured durations, in seconds. */
    duration: digits(6),
    client_oid: Type.Optional(clientOid),
  },
  { additionalProperties: false },
);
export type BuyOptionBody = Static<typeof BuyOptionBody>;

/** `GET web/getOptionOrders`: open (`status=open`) or settled options, newest first. */
export const OptionOrdersQuery = Type.Object(
  {
    ...CommonFields,
    symbol: Type.Optional(symbol),
    status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('settled')])),
    start_time: Type.Optional(digits(15)),
    end_time: Type.Optional(digits(15)),
    ...page,
  },
  { additionalProperties: false },
);
export type OptionOrdersQuery = Static<typeof OptionOrdersQuery>;

/** `GET web/exportOptionRecords`: getOptionOrders' filters, every row (at most ASSET_LIMITS.exportRowsMax) as CSV. */
export const OptionExportQuery = Type.Object(
  {
    ...CommonFields,
    symbol: Type.Optional(symbol),
    status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('settled')])),
    start_time: Type.Optional(digits(15)),
    end_time: Type.Optional(digits(15)),
  },
  { additionalProperties: false },
);
export type OptionExportQuery = Static<typeof OptionExportQuery>;

/** `GET web/getOptionOrder` */
export const OptionOrderQuery = Type.Object(
  { ...CommonFields, order_id: id },
  { additionalProperties: false },
);
export type OptionOrderQuery = Static<typeof OptionOrderQuery>;

export type OptionOrderData = {
  order_id: string;
  client_oid: string | null;
  symbol: string;
  book: DerivativesBook;
  direction: OptionDirection;
  stake: string;
  currency: 'USDT';
  duration: number;
  payout_rate: string;
  /** The recorded feed price the option opened on, its source and time. */
  open_price: string;
  open_price_source: string;
  open_price_at: number;
  opened_at: number;
  /** The delivery time. */
  expires_at: number;
  status: OptionStatus;
  /** The recorded price at expiry (the last tick at or before `expires_at`), its source and time. */
  settlement_price: string | null;
  settlement_price_source: string | null;
  settlement_price_at: number | null;
  /** What was paid back: stake × (1 + rate) on a win, the stake on a tie, 0 on a loss. */
  payout: string | null;
  /** payout − stake. */
  profit: string | null;
  settled_at: number | null;
};

// ================================================================ jurisdiction

export type JurisdictionProfileData = {
  id: JurisdictionProfileId;
  /** Leverage cap per class (whole numbers, 1…100). */
  leverage_caps: Record<LeverageClass, number>;
  options_enabled: boolean;
  /**
   * Whether earn products may use the principal early-redemption penalties (`principal_percent`,
   * `principal_daily`); when false only `forfeit_rewards` and `none` (modules/earn).
   */
  earn_principal_penalty: boolean;
  /** Levels of inviters that may receive a share of an invitee's trading fees: 0 (banned) … 4 (modules/referral). */
  referral_max_depth: number;
  /** Whether promotional incentives (the sign-in reward) may be offered; false under EU retail (ESMA bans incentives for CFDs and binary options). */
  promo_incentives: boolean;
  /** Always true in Bourse: isolated margin plus the insurance account keep every balance ≥ 0 (docs/architecture.md). */
  negative_balance_protection: true;
  /** Built-in profiles cannot be edited. */
  editable: boolean;
};

/** `GET web/getJurisdiction` (public): the active profile, so the app can explain a capped leverage or missing options. */
export type JurisdictionData = { active: JurisdictionProfileData };

// ================================================================ back office (/api/admin, JSON)

/** `GET admin/contracts/settings` → { items: AdminContractSettingsData[] } */
export type AdminContractSettingsData = {
  symbol: string;
  name: string;
  asset_class: AssetClass;
  kind: ContractKind;
  leverage_class: LeverageClass;
  enabled: boolean;
  spread: string;
  fee_per_lot: string;
  /** Operator's cap (≤ the instrument's max_leverage); the effective cap also applies the jurisdiction profile. */
  max_leverage: number;
  instrument_max_leverage: number;
  effective_max_leverage: number;
  min_lots: string;
  max_lots: string;
  liquidation_level: string;
  margin_topup_max: string;
  funding_rate: string | null;
  funding_interval_hours: number | null;
  updated_at: number;
};

/** `POST admin/contracts/settings` (permission `markets.write`, audited): omitted fields stay. */
export const AdminContractSettingsBody = Type.Object(
  {
    ...CommonFields,
    symbol,
    enabled: Type.Optional(Type.Boolean()),
    spread: Type.Optional(decimal),
    fee_per_lot: Type.Optional(decimal),
    max_leverage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    min_lots: Type.Optional(decimal),
    max_lots: Type.Optional(decimal),
    liquidation_level: Type.Optional(decimal),
    margin_topup_max: Type.Optional(decimal),
    funding_rate: Type.Optional(decimal),
    funding_interval_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 24 })),
    reason: Type.String({ minLength: 3, maxLength: 500 }),
  },
  { additionalProperties: false },
);
export type AdminContractSettingsBody = Static<typeof AdminContractSettingsBody>;

/** `GET admin/contracts/exposure?book=real|demo` → { items: AdminExposureData[] } (permission `risk.read`). */
export type AdminExposureData = {
  symbol: string;
  book: DerivativesBook;
  positions: number;
  long_lots: string;
  short_lots: string;
  /** long − short lots: the platform holds the opposite. */
  net_lots: string;
  margin: string;
  /** Customers' unrealised P&L at the executable prices now (USDT); the platform's is its negative. */
  unrealized_pnl: string;
  mark_price: string | null;
};

/** `GET admin/contracts/positions` → Paged<AdminPositionData> (permission `risk.read`). */
export const AdminPositionsQuery = Type.Object(
  {
    ...CommonFields,
    book: Type.Optional(Type.Union([Type.Literal('real'), Type.Literal('demo')])),
    symbol: Type.Optional(symbol),
    customer_id: Type.Optional(id),
    status: Type.Optional(
      Type.Union([
        Type.Literal('open'),
        Type.Literal('closed'),
        Type.Literal('liquidated'),
        Type.Literal('delivered'),
      ]),
    ),
    ...page,
  },
  { additionalProperties: false },
);
export type AdminPositionsQuery = Static<typeof AdminPositionsQuery>;
export type AdminPositionData = ContractPositionData & { customer_id: string; customer_label: string };

/** `GET admin/contracts/insurance?book=` (permission `risk.read`): the insurance account and its latest movements. */
export type AdminInsuranceData = {
  book: DerivativesBook;
  currency: 'USDT';
  balance: string;
  movements: {
    entry_id: string;
    reason: string;
    /** Signed change of the insurance account (USDT). */
    amount: string;
    reference: string;
    created_at: number;
  }[];
};

/** `POST admin/contracts/insurance/fund` (permission `adjustments.create`, audited): the operator pays capital into the insurance account. */
export const AdminInsuranceFundBody = Type.Object(
  {
    ...CommonFields,
    book: Type.Union([Type.Literal('real'), Type.Literal('demo')]),
    amount: decimal,
    reason: Type.String({ minLength: 3, maxLength: 500 }),
  },
  { additionalProperties: false },
);
export type AdminInsuranceFundBody = Static<typeof AdminInsuranceFundBody>;

/** `GET admin/jurisdiction` → { active: JurisdictionProfileId; profiles: JurisdictionProfileData[] } */
export type AdminJurisdictionData = { active: JurisdictionProfileId; profiles: JurisdictionProfileData[] };

/** `POST admin/jurisdiction` (permission `markets.write`, audited): choose the active profile. */
export const AdminJurisdictionSelectBody = Type.Object(
  {
    ...CommonFields,
    profile: Type.Union(JURISDICTION_PROFILES.map((p) => Type.Literal(p))),
    reason: Type.String({ minLength: 3, maxLength: 500 }),
  },
  { additionalProperties: false },
);
export type AdminJurisdictionSelectBody = Static<typeof AdminJurisdictionSelectBody>;

/** `POST admin/jurisdiction/custom` (permission `markets.write`, audited): edit the custom profile. */
export const AdminJurisdictionCustomBody = Type.Object(
  {
    ...CommonFields,
    leverage_caps: Type.Object(
      Object.fromEntries(LEVERAGE_CLASSES.map((c) => [c, Type.Integer({ minimum: 1, maximum: 100 })])),
      { additionalProperties: false },
    ),
    options_enabled: Type.Boolean(),
    /** Omitted: unchanged. */
    earn_principal_penalty: Type.Optional(Type.Boolean()),
    /** Omitted: unchanged. */
    referral_max_depth: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })),
    /** Omitted: unchanged. */
    promo_incentives: Type.Optional(Type.Boolean()),
    reason: Type.String({ minLength: 3, maxLength: 500 }),
  },
  { additionalProperties: false },
);
export type AdminJurisdictionCustomBody = {
  leverage_caps: Record<LeverageClass, number>;
  options_enabled: boolean;
  earn_principal_penalty?: boolean;
  referral_max_depth?: number;
  promo_incentives?: boolean;
  reason: string;
};

/** `GET admin/options/settings` → { items: AdminOptionSettingsData[] } */
export type AdminOptionSettingsData = {
  symbol: string;
  name: string;
  asset_class: AssetClass;
  enabled: boolean;
  min_stake: string;
  max_stake: string;
  durations: OptionDurationData[];
  updated_at: number;
};

/** `POST admin/options/settings` (permission `markets.write`, audited). `durations`: "60:0.85,300:0.9" (seconds:rate). */
export const AdminOptionSettingsBody = Type.Object(
  {
    ...CommonFields,
    symbol,
    enabled: Type.Optional(Type.Boolean()),
    min_stake: Type.Optional(decimal),
    max_stake: Type.Optional(decimal),
    durations: Type.Optional(Type.String({ minLength: 1, maxLength: 400 })),
    reason: Type.String({ minLength: 3, maxLength: 500 }),
  },
  { additionalProperties: false },
);
export type AdminOptionSettingsBody = Static<typeof AdminOptionSettingsBody>;

/** `GET admin/options/orders` → Paged<AdminOptionOrderData> (permission `risk.read`). */
export const AdminOptionOrdersQuery = Type.Object(
  {
    ...CommonFields,
    book: Type.Optional(Type.Union([Type.Literal('real'), Type.Literal('demo')])),
    symbol: Type.Optional(symbol),
    customer_id: Type.Optional(id),
    status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('settled')])),
    ...page,
  },
  { additionalProperties: false },
);
export type AdminOptionOrdersQuery = Static<typeof AdminOptionOrdersQuery>;
export type AdminOptionOrderData = OptionOrderData & { customer_id: string; customer_label: string };

/** `GET admin/options/exposure?book=` → { items: AdminOptionExposureData[] }: open stakes per instrument and direction. */
export type AdminOptionExposureData = {
  symbol: string;
  book: DerivativesBook;
  open_orders: number;
  up_stake: string;
  down_stake: string;
  /** The platform's largest possible net loss if every open option won: Σ stake × payout rate (USDT; the stakes themselves come back to the winners). */
  max_payout: string;
};
