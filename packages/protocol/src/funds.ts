import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';
import type { Paged } from './derivatives.ts';
import type { RiskRating } from './suitability.ts';
import type { RequiredTier } from './verification.ts';

/**
 * ETF orders (modules/funds): model portfolios — target weights over listed spot assets plus a USDT
 * cash slice. An order buys the basket in the customer's own account through the spot books (every
 * trade an ordinary spot order, ordinary fees); the bought assets and the cash sit in the customer's
 * `earn` account (frozen), tagged to the order. Value is marked to the recorded feed; nothing here
 * states or promises a return. Amounts are decimal strings; weights are basis points (10000 = 100 %);
 * NAV per unit is a decimal string (the model starts at 1.0000); times are epoch ms.
 */

export const FUND_MODEL_IDS = ['balanced', 'low_risk'] as const;
export type FundModelId = (typeof FUND_MODEL_IDS)[number];

/** open: on sale; paused: no new orders (running orders keep their holdings and can be redeemed). */
export const FUND_MODEL_STATES = ['open', 'paused'] as const;
export type FundModelState = (typeof FUND_MODEL_STATES)[number];

/**
 * buying: the basket is being bought (legs in progress); in_custody: holdings in the customer's earn
 * account; redeeming: being sold; redeemed: proceeds and cash back in the customer's spot account.
 */
export const FUND_ORDER_STATES = ['buying', 'in_custody', 'redeeming', 'redeemed'] as const;
export type FundOrderState = (typeof FUND_ORDER_STATES)[number];

/** A trade of an order: bought at purchase, sold at redemption, or either in a rebalance. */
export const FUND_LEG_PHASES = ['buy', 'redeem', 'rebalance'] as const;
export type FundLegPhase = (typeof FUND_LEG_PHASES)[number];

/**
 * planned → (funded | released) → filled / partial / failed; skipped: too small for the market's
 * minimum (the budget stays as cash); failed: refused (the reason says why; nothing bought or sold).
 */
export const FUND_LEG_STATES = [
  'planned',
  'funded',
  'released',
  'filled',
  'partial',
  'failed',
  'skipped',
] as const;
export type FundLegState = (typeof FUND_LEG_STATES)[number];

export const FUNDS_LIMITS = {
  amountMax: 24,
  reasonMin: 3,
  reasonMax: 500,
  pageSizeMax: 100,
  /** NAV points a history answer carries at most. */
  navPointsMax: 2000,
  idMax: 64,
} as const;

/** One target weight: a listed spot market's base asset, or the cash slice (`symbol` null, asset USDT). */
export type FundWeightData = { asset: string; symbol: string | null; weight_bps: number };

/** What the web shows of a model portfolio (every text in the request's language). */
export type FundModelData = {
  model_id: FundModelId;
  name: string;
  description: string;
  state: FundModelState;
  currency: 'USDT';
  weights: FundWeightData[];
  /** An order is traded back to its targets when one weight is off by more than this. */
  drift_bps: number;
  min_amount: string;
  max_amount: string;
  /** The least risk rating the customer needs (suitability). */
  min_rating: RiskRating;
  /**
   * The verification an order needs: the active jurisdiction profile's `earn` rule
   * (modules/verification; ETF orders are asked as the `earn` feature). Read once per answer.
   */
  profile_tier: RequiredTier;
  /** NAV per unit now (recorded prices), and when the model started at 1.0000. */
  nav: string;
  nav_at: number;
  started_at: number;
  /** Taker fee rate of each market traded (decimal: "0.002" is 0.2 %). */
  fee_rates: Record<string, string>;
};

export type FundNavPoint = { at: number; nav: string };

/** Whether the signed-in customer may buy, and the first rule that refuses (a reason code with its params). */
export type FundEligibilityData = {
  eligible: boolean;
  refusal: { code: string; params: Record<string, string | number> } | null;
  /** USDT available in the customer's spot account (what a purchase is paid from). */
  available: string;
};

/** `GET web/getEtfList` (public): both models. */
export const EtfListQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
export type EtfListQuery = Static<typeof EtfListQuery>;

const modelId = Type.Union([Type.Literal('balanced'), Type.Literal('low_risk')]);
const orderState = Type.Union([
  Type.Literal('buying'),
  Type.Literal('in_custody'),
  Type.Literal('redeeming'),
  Type.Literal('redeemed'),
]);
const decimal = Type.String({ minLength: 1, maxLength: FUNDS_LIMITS.amountMax });
const id = Type.String({ minLength: 1, maxLength: FUNDS_LIMITS.idMax });
const digits = (max: number) => Type.String({ pattern: `^[0-9]{1,${max}}$` });
const clientOid = Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$' });
const page = { page: Type.Optional(digits(6)), page_size: Type.Optional(digits(3)) };

/** `GET web/getEtfInfo` (public; with a token also the customer's eligibility): a model and its NAV history. */
export const EtfInfoQuery = Type.Object(
  {
    ...CommonFields,
    model_id: modelId,
    /** History window: day (hourly points), week, month, all. Default month. */
    range: Type.Optional(
      Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month'), Type.Literal('all')]),
    ),
  },
  { additionalProperties: false },
);
export type EtfInfoQuery = Static<typeof EtfInfoQuery>;
export type EtfInfoData = {
  model: FundModelData;
  nav_history: FundNavPoint[];
  eligibility: FundEligibilityData | null;
};

/** `GET web/previewEtf`: what buying `amount` would trade now — quantities, values and fees; nothing written. */
export const EtfPreviewQuery = Type.Object(
  { ...CommonFields, model_id: modelId, amount: decimal },
  { additionalProperties: false },
);
export type EtfPreviewQuery = Static<typeof EtfPreviewQuery>;

/** One planned purchase: the quantity the budget buys at the reference price, rounded down to the lot. */
export type FundPlanLegData = {
  asset: string;
  symbol: string;
  weight_bps: number;
  budget: string;
  price: string;
  quantity: string;
  value: string;
  fee: string;
  fee_rate: string;
};
export type EtfPreviewData = {
  model_id: FundModelId;
  amount: string;
  legs: FundPlanLegData[];
  /** What stays as USDT cash: the cash weight plus what the lots leave over. */
  cash: string;
  fees: string;
};

/** `POST web/buyEtf` (idempotent with rtoken; `client_oid` answers the same order on a retry). */
export const BuyEtfBody = Type.Object(
  { ...CommonFields, model_id: modelId, amount: decimal, client_oid: Type.Optional(clientOid) },
  { additionalProperties: false },
);
export type BuyEtfBody = Static<typeof BuyEtfBody>;

/** `POST web/sellEtf` (idempotent): redeem an order — every holding sold at market, proceeds and cash back. */
export const SellEtfBody = Type.Object({ ...CommonFields, order_id: id }, { additionalProperties: false });
export type SellEtfBody = Static<typeof SellEtfBody>;

/** `GET web/getEtfOrders`: my orders, newest first. */
export const EtfOrdersQuery = Type.Object(
  {
    ...CommonFields,
    model_id: Type.Optional(modelId),
    state: Type.Optional(orderState),
    ...page,
  },
  { additionalProperties: false },
);
export type EtfOrdersQuery = Static<typeof EtfOrdersQuery>;

/** `GET web/getEtfOrder`: one of my orders with its trades. */
export const EtfOrderQuery = Type.Object({ ...CommonFields, order_id: id }, { additionalProperties: false });
export type EtfOrderQuery = Static<typeof EtfOrderQuery>;

export type FundHoldingData = {
  asset: string;
  quantity: string;
  /** Recorded reference price (USDT; "1" for cash) and the value at it. */
  price: string;
  value: string;
  /** Share of the order's value now, and the model's target. */
  weight_bps: number;
  target_bps: number;
};

export type FundLegData = {
  phase: FundLegPhase;
  rebalance_id: string | null;
  asset: string;
  symbol: string;
  side: 'buy' | 'sell';
  quantity: string;
  filled: string;
  /** Traded value (quote) and fee of the spot order. */
  value: string;
  fee: string;
  state: FundLegState;
  spot_order_id: string | null;
  /** Why a leg failed or was skipped (a reason code and its params). */
  refusal: { code: string; params: Record<string, string | number> } | null;
  at: number;
};

export type FundOrderData = {
  order_id: string;
  client_oid: string | null;
  model_id: FundModelId;
  model_name: string;
  book: 'real' | 'demo';
  state: FundOrderState;
  /** What the customer asked to invest, and what the basket cost (trades + fees + cash kept). */
  amount: string;
  cost: string;
  fees: string;
  units: string;
  nav_at_purchase: string;
  /** The model's NAV per unit now. */
  nav: string;
  /** Holdings marked to the recorded feed now, plus cash (0 once redeemed). */
  value: string;
  /** value − cost while held; proceeds − cost once redeemed. */
  pnl: string;
  pnl_pct: string;
  holdings: FundHoldingData[];
  cash: string;
  /** Paid back to the spot account at redemption (sale proceeds after fees + cash). */
  proceeds: string | null;
  /** Assets a failed sale returned to the spot account as they are. */
  returned_in_kind: Array<{ asset: string; quantity: string }>;
  legs: FundLegData[];
  created_at: number;
  bought_at: number | null;
  redeemed_at: number | null;
};

// ================================================================ back office (funds.read / funds.write)

/** `GET admin/funds/models` (funds.read): both models with their texts in every language and totals. */
export type AdminFundModelData = Omit<FundModelData, 'profile_tier'> & {
  names: Record<string, string>;
  descriptions: Record<string, string>;
  state_reason: string | null;
  orders_in_custody: number;
  value_in_custody: string;
  positions: Array<{ asset: string; quantity: string }>;
};

/** `POST admin/funds/models/state` (funds.write, audited): open or pause a model, with a reason. */
export const AdminFundModelStateBody = Type.Object(
  {
    ...CommonFields,
    model_id: modelId,
    state: Type.Union([Type.Literal('open'), Type.Literal('paused')]),
    reason: Type.String({ minLength: FUNDS_LIMITS.reasonMin, maxLength: FUNDS_LIMITS.reasonMax }),
  },
  { additionalProperties: false },
);
export type AdminFundModelStateBody = Static<typeof AdminFundModelStateBody>;

/** `GET admin/funds/orders` (funds.read) → Paged<AdminFundOrderData>. */
export const AdminFundOrdersQuery = Type.Object(
  {
    ...CommonFields,
    model_id: Type.Optional(modelId),
    state: Type.Optional(orderState),
    book: Type.Optional(Type.Union([Type.Literal('real'), Type.Literal('demo')])),
    customer_id: Type.Optional(id),
    ...page,
  },
  { additionalProperties: false },
);
export type AdminFundOrdersQuery = Static<typeof AdminFundOrdersQuery>;
export type AdminFundOrderData = FundOrderData & { customer_id: string; customer_label: string };

/** `GET admin/funds/rebalances` (funds.read) → Paged<AdminFundRebalanceData>: every rebalance with its trades. */
export const AdminFundRebalancesQuery = Type.Object(
  { ...CommonFields, model_id: Type.Optional(modelId), order_id: Type.Optional(id), ...page },
  { additionalProperties: false },
);
export type AdminFundRebalancesQuery = Static<typeof AdminFundRebalancesQuery>;
export type AdminFundRebalanceData = {
  rebalance_id: string;
  order_id: string;
  model_id: FundModelId;
  customer_id: string;
  state: 'running' | 'done';
  drift_bps: number;
  before: Array<{ asset: string; weight_bps: number }>;
  after: Array<{ asset: string; weight_bps: number }> | null;
  trades: FundLegData[];
  started_at: number;
  done_at: number | null;
};

/** `GET admin/funds/nav` (funds.read): a model's NAV history. */
export const AdminFundNavQuery = Type.Object(
  {
    ...CommonFields,
    model_id: modelId,
    range: Type.Optional(
      Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month'), Type.Literal('all')]),
    ),
  },
  { additionalProperties: false },
);
export type AdminFundNavQuery = Static<typeof AdminFundNavQuery>;

export type FundOrdersPage = Paged<FundOrderData>;
