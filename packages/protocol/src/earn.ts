import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';
import type { JurisdictionProfileId } from './derivatives.ts';
import type { Lang } from './langs.ts';
import type { RiskRating } from './suitability.ts';
import type { RequiredTier, VerificationTier } from './verification.ts';

/**
 * Earn (modules/earn): fixed-term products — the spec's custody ("profit") and VIP products — on one
 * engine. A product is data; the principal stays in the customer's own `earn` ledger account
 * (frozen); the whole reward of an order is moved from the product's named funding account into the
 * product's reward reserve before the order exists; a daily job at a stated cut-off accrues one
 * day's reward per order from the reserve to the customer. Amounts are decimal strings in the
 * product's currency; rates are percent strings ("5.00" is 5 % a year); times are epoch ms.
 */

/** One of `values`: a union of literals on the wire, typed as `T` (as verification.ts does). */
const lit = <T extends string>(values: readonly T[]) =>
  Type.Unsafe<T>(Type.Union(values.map((v) => Type.Literal(v))));

export const EARN_KINDS = ['custody', 'vip'] as const;
export type EarnKind = (typeof EARN_KINDS)[number];

/** draft: created, not on sale; active: on sale inside its window; paused: not on sale; closed: for good (running orders run to term). */
export const EARN_PRODUCT_STATES = ['draft', 'active', 'paused', 'closed'] as const;
export type EarnProductState = (typeof EARN_PRODUCT_STATES)[number];

/**
 * The spec's custody states. No order is ever created and then "rejected": a refused purchase is a
 * refusal naming its rule and changes nothing (docs/architecture.md, "Earn").
 */
export const EARN_ORDER_STATES = ['in_custody', 'redeeming', 'redeemed', 'completed'] as const;
export type EarnOrderState = (typeof EARN_ORDER_STATES)[number];

/**
 * Early-redemption rules. `forfeit_rewards` (the default, every profile): principal back in full,
 * accrued rewards forfeited to the funding account. The spec's principal penalties exist only where
 * the active jurisdiction profile allows them (`earn_principal_penalty`): `principal_percent`
 * (`penalty_rate` % of the principal — the spec's 5 %) and `principal_daily` (`penalty_rate` % ×
 * remaining days × principal, capped at the principal — the spec's 0.4 %); both also forfeit the
 * accrued rewards. `none`: no early redemption (principal back at maturity only).
 */
export const EARN_REDEEM_RULES = ['forfeit_rewards', 'principal_percent', 'principal_daily', 'none'] as const;
export type EarnRedeemRule = (typeof EARN_REDEEM_RULES)[number];

export const EARN_LIMITS = {
  termDaysMin: 1,
  termDaysMax: 3650,
  /** Annual rate ceiling in percent: a higher promise is the pitch of a fraud, whatever the reserve. */
  annualRateMax: '50',
  /** Decimal places of a rate in percent. */
  rateScale: 4,
  penaltyRateMax: '100',
  redeemDelayDaysMax: 30,
  quoteTtlMs: 60_000,
  nameMax: 80,
  textMax: 2000,
  reasonMin: 3,
  reasonMax: 500,
  vipLevelMax: 10,
  pageSizeMax: 100,
} as const;

/** Names and descriptions come in the three languages; the web API answers in the request's. */
export type Localized = Record<Lang, string>;

/** The published VIP threshold of one level: every field that is set must be met (tier) and volume OR balance. */
export type VipLevelData = {
  level: number;
  /** Verification tier required (null: none). */
  min_tier: VerificationTier | null;
  /** Spot + contract traded notional over the last 30 days, USDT. */
  min_volume_30d: string;
  /** Total balance valued in USDT at the recorded reference prices. */
  min_balance: string;
};

/** What the web shows of a product (the rule page is built from these fields alone). */
export type EarnProductData = {
  product_id: string;
  kind: EarnKind;
  state: EarnProductState;
  name: string;
  description: string;
  currency: string;
  term_days: number;
  /** Percent a year, fixed at purchase. */
  annual_rate: string;
  /** annual_rate / 365, shown beside it (rounded to EARN_LIMITS.rateScale). */
  daily_rate: string;
  /** Per customer: the least one purchase, the most one customer may hold in running orders. */
  min_amount: string;
  max_amount: string;
  /** Total principal the product may take. */
  capacity: string;
  /** Principal in running orders. */
  subscribed: string;
  /** What can still be bought: capacity − subscribed, and no more than the funding account can reserve rewards for. */
  capacity_left: string;
  /** Rewards set aside for running orders (the product's reserve balance). */
  reserved: string;
  /** The funding account's balance not yet reserved. */
  funding_available: string;
  funding_account: { funding_id: string; name: string; source: string };
  sale_starts_at: number | null;
  sale_ends_at: number | null;
  redeem_rule: EarnRedeemRule;
  /** Percent, for the principal rules; null otherwise. */
  penalty_rate: string | null;
  /** Days between an early redemption and the money in the available balance (0: at once). */
  redeem_delay_days: number;
  /** The product's own verification tier (null: none of its own). */
  min_tier: VerificationTier | null;
  /**
   * The active jurisdiction profile's `earn` verification rule (modules/verification), asked before
   * `min_tier`: buying needs both. Read once per answer; the back office's product data leaves it out.
   */
  profile_tier: RequiredTier;
  min_rating: RiskRating;
  /** VIP products: the level required (null for custody). */
  vip_level: number | null;
  jurisdictions: JurisdictionProfileId[];
  /** When each day's reward is posted: the hour (0–23) in the time zone. */
  cutoff: { hour: number; time_zone: string };
};

/** The reward of `amount` over the term, and what an early redemption would cost on day 1, in currency. */
export type EarnExampleData = {
  amount: string;
  daily_reward: string;
  total_reward: string;
  /** Penalty (in currency) if redeemed after the first cut-off, forfeited rewards excluded. */
  penalty_day_one: string;
  /** Rewards forfeited if redeemed the day before maturity. */
  forfeit_last_day: string;
};

/** Whether the signed-in customer may buy, and the first rule that refuses (the reason code and params). */
export type EarnEligibilityData = {
  eligible: boolean;
  refusal: { code: string; params: Record<string, string | number> } | null;
  /** Principal the customer may still put in (max_amount − held, capacity, rating cap, available balance). */
  may_buy: string;
  available: string;
  /** VIP: the customer's level computed from the published thresholds (0: none). */
  vip_level: number | null;
};

/** `GET web/getProfitList` (public; `kind` default custody): products on sale or paused, newest first. */
export const GetProfitListQuery = Type.Object(
  { ...CommonFields, kind: Type.Optional(lit(EARN_KINDS)) },
  { additionalProperties: false },
);
export type GetProfitListQuery = Static<typeof GetProfitListQuery>;
export type ProfitListData = { items: EarnProductData[]; vip_levels: VipLevelData[] };

/** `GET web/getProfitInfo` (public; eligibility only when signed in): one product, its example and rules. */
export const GetProfitInfoQuery = Type.Object(
  { ...CommonFields, product_id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export type GetProfitInfoQuery = Static<typeof GetProfitInfoQuery>;
export type ProfitInfoData = {
  product: EarnProductData;
  example: EarnExampleData;
  eligibility: EarnEligibilityData | null;
  /** Whether the active profile allows principal penalties (the rule page says so). */
  principal_penalty_allowed: boolean;
};

/** `GET web/getProfitTotal` (login): per currency, across the kind's orders. */
export const GetProfitTotalQuery = Type.Object(
  { ...CommonFields, kind: Type.Optional(lit(EARN_KINDS)) },
  { additionalProperties: false },
);
export type ProfitTotalRow = {
  currency: string;
  /** Principal of running orders. */
  principal: string;
  /** Rewards accrued on running orders. */
  accrued: string;
  /** Rewards paid out on completed orders. */
  earned: string;
  running: number;
};
export type ProfitTotalData = { items: ProfitTotalRow[] };

/** `POST web/buyProfit` (login, idempotent). `accept_terms` "1": the customer ticked the rule page's terms. */
export const BuyProfitBody = Type.Object(
  {
    ...CommonFields,
    product_id: Type.String({ minLength: 1, maxLength: 64 }),
    amount: Type.String({ minLength: 1, maxLength: 40 }),
    accept_terms: Type.Optional(Type.String({ maxLength: 1 })),
  },
  { additionalProperties: false },
);
export type BuyProfitBody = Static<typeof BuyProfitBody>;

export type EarnOrderData = {
  order_id: string;
  product_id: string;
  kind: EarnKind;
  product_name: string;
  currency: string;
  amount: string;
  term_days: number;
  annual_rate: string;
  daily_rate: string;
  daily_reward: string;
  total_reward: string;
  /** "Profit so far": rewards accrued. */
  accrued: string;
  days_accrued: number;
  days_left: number;
  state: EarnOrderState;
  created_at: number;
  matures_at: number;
  /** Redeemed orders: what came back, the penalty and forfeited rewards, when it arrives. */
  redemption: {
    principal_returned: string;
    rewards_paid: string;
    rewards_forfeited: string;
    penalty: string;
    requested_at: number;
    arrives_at: number;
  } | null;
  completed_at: number | null;
  redeem_rule: EarnRedeemRule;
  penalty_rate: string | null;
  redeem_delay_days: number;
};

/** `GET web/getProfitOrders` (login): my orders, newest first. */
export const GetProfitOrdersQuery = Type.Object(
  {
    ...CommonFields,
    kind: Type.Optional(lit(EARN_KINDS)),
    state: Type.Optional(lit(EARN_ORDER_STATES)),
    page: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
    page_size: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  { additionalProperties: false },
);
export type GetProfitOrdersQuery = Static<typeof GetProfitOrdersQuery>;
export type ProfitOrdersData = { total: number; page: number; page_size: number; items: EarnOrderData[] };

/** `GET web/getProfitOrder` (login): one order with its day-by-day accruals. */
export const GetProfitOrderQuery = Type.Object(
  { ...CommonFields, order_id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export type EarnAccrualDayData = { day: number; amount: string; posted_at: number };
export type ProfitOrderData = { order: EarnOrderData; accruals: EarnAccrualDayData[] };

/** `POST web/quoteRedeem` (login): a binding quote, valid EARN_LIMITS.quoteTtlMs. */
export const QuoteRedeemBody = Type.Object(
  { ...CommonFields, order_id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export type RedeemQuoteData = {
  quote_id: string;
  order_id: string;
  currency: string;
  principal: string;
  rewards_forfeited: string;
  penalty: string;
  /** principal − penalty. */
  returned: string;
  arrives_at: number;
  expires_at: number;
};

/** `POST web/sellProfit` (login, idempotent): posts exactly the quote. */
export const SellProfitBody = Type.Object(
  {
    ...CommonFields,
    order_id: Type.String({ minLength: 1, maxLength: 64 }),
    quote_id: Type.String({ minLength: 1, maxLength: 64 }),
  },
  { additionalProperties: false },
);
export type SellProfitBody = Static<typeof SellProfitBody>;

// ================================================================ back office (/api/admin, JSON)

/** A named funding account: a ledger platform account that pays one or more products' rewards. */
export type AdminFundingAccountData = {
  funding_id: string;
  name: string;
  /** Plain language, three languages: where this money comes from. */
  source: Localized;
  currency: string;
  /** Ledger balance not yet reserved. */
  balance: string;
  /** Rewards reserved from it across its products' reserves. */
  reserved: string;
  /** Paid in by approved fundings, paid out as rewards, returned from reserves (forfeits, unused). */
  funded_total: string;
  rewards_paid: string;
  returned: string;
  created_at: number;
};

export type EarnFundingRequestState = 'pending' | 'approved' | 'rejected';
export type AdminFundingRequestData = {
  request_id: string;
  funding_id: string;
  amount: string;
  currency: string;
  reason: string;
  state: EarnFundingRequestState;
  requested_by: string;
  requested_at: number;
  decided_by: string | null;
  decided_at: number | null;
  decision_reason: string | null;
};

export type AdminEarnProductData = Omit<EarnProductData, 'name' | 'description' | 'profile_tier'> & {
  names: Localized;
  descriptions: Localized;
  orders_running: number;
  rewards_paid: string;
  created_at: number;
  created_by: string;
};

const amount = Type.String({ minLength: 1, maxLength: 40 });
const rate = Type.String({ minLength: 1, maxLength: 12 });
const reason = Type.String({ minLength: EARN_LIMITS.reasonMin, maxLength: EARN_LIMITS.reasonMax });
const localized = (max: number) =>
  Type.Object(
    {
      en: Type.String({ minLength: 1, maxLength: max }),
      zh: Type.String({ minLength: 1, maxLength: max }),
      ft: Type.String({ minLength: 1, maxLength: max }),
    },
    { additionalProperties: false },
  );

/** `POST admin/earn/funding` (earn.write, audited): a new named funding account. */
export const AdminFundingCreateBody = Type.Object(
  {
    ...CommonFields,
    name: Type.String({ minLength: 1, maxLength: EARN_LIMITS.nameMax }),
    source: localized(EARN_LIMITS.textMax),
    currency: Type.String({ minLength: 1, maxLength: 16 }),
    reason,
  },
  { additionalProperties: false },
);
export type AdminFundingCreateBody = Static<typeof AdminFundingCreateBody>;

/** `POST admin/earn/funding/:id/requests` (earn.fund): ask to pay money in; another staff member approves. */
export const AdminFundingRequestBody = Type.Object(
  { ...CommonFields, amount, reason },
  { additionalProperties: false },
);
export type AdminFundingRequestBody = Static<typeof AdminFundingRequestBody>;

/** `POST admin/earn/funding-requests/:id/approve|reject` (earn.fund; never by the requester). */
export const AdminFundingDecisionBody = Type.Object(
  { ...CommonFields, reason },
  { additionalProperties: false },
);
export type AdminFundingDecisionBody = Static<typeof AdminFundingDecisionBody>;

/** `POST admin/earn/products` (earn.write, audited): a new product in `draft`. Nothing of it changes later except its state. */
export const AdminEarnProductBody = Type.Object(
  {
    ...CommonFields,
    kind: lit(EARN_KINDS),
    names: localized(EARN_LIMITS.nameMax),
    descriptions: localized(EARN_LIMITS.textMax),
    funding_id: Type.String({ minLength: 1, maxLength: 64 }),
    term_days: Type.Integer({ minimum: EARN_LIMITS.termDaysMin, maximum: EARN_LIMITS.termDaysMax }),
    annual_rate: rate,
    min_amount: amount,
    max_amount: amount,
    capacity: amount,
    sale_starts_at: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    sale_ends_at: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    redeem_rule: lit(EARN_REDEEM_RULES),
    /** Percent, for the principal rules only (omitted otherwise). */
    penalty_rate: Type.Optional(rate),
    redeem_delay_days: Type.Integer({ minimum: 0, maximum: EARN_LIMITS.redeemDelayDaysMax }),
    min_tier: Type.Union([
      Type.Literal('primary'),
      Type.Literal('advanced'),
      Type.Literal('address'),
      Type.Null(),
    ]),
    min_rating: Type.Union([
      Type.Literal('not_assessed'),
      Type.Literal('conservative'),
      Type.Literal('balanced'),
      Type.Literal('aggressive'),
    ]),
    vip_level: Type.Union([Type.Integer({ minimum: 1, maximum: EARN_LIMITS.vipLevelMax }), Type.Null()]),
    jurisdictions: Type.Array(
      Type.Union([Type.Literal('permissive'), Type.Literal('eu_retail'), Type.Literal('custom')]),
      { minItems: 1, maxItems: 3 },
    ),
    reason,
  },
  { additionalProperties: false },
);
export type AdminEarnProductBody = Static<typeof AdminEarnProductBody>;

/** `POST admin/earn/products/:id/state` (earn.write, audited): open (draft/paused → active), pause, close. */
export const AdminEarnProductStateBody = Type.Object(
  {
    ...CommonFields,
    action: Type.Union([Type.Literal('open'), Type.Literal('pause'), Type.Literal('close')]),
    reason,
  },
  { additionalProperties: false },
);
export type AdminEarnProductStateBody = Static<typeof AdminEarnProductStateBody>;

/** `GET admin/earn/orders` (earn.read) → Paged<AdminEarnOrderData>; filters product, state, uid. */
export const AdminEarnOrdersQuery = Type.Object(
  {
    ...CommonFields,
    product_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    state: Type.Optional(lit(EARN_ORDER_STATES)),
    uid: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    page: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
    page_size: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  { additionalProperties: false },
);
export type AdminEarnOrdersQuery = Static<typeof AdminEarnOrdersQuery>;

/** `GET admin/earn/redemptions` (earn.read) → Paged<AdminEarnOrderData>: orders redeeming or redeemed, newest first. */
/** `GET admin/earn/accruals` and other plain pages of the back office. */
export const AdminEarnPageQuery = Type.Object(
  {
    ...CommonFields,
    page: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
    page_size: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  { additionalProperties: false },
);
export type AdminEarnPageQuery = Static<typeof AdminEarnPageQuery>;

/** `GET admin/earn/funding-requests` (earn.read) → Paged<AdminFundingRequestData>, newest first. */
export const AdminFundingRequestsQuery = Type.Object(
  {
    ...CommonFields,
    funding_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    state: Type.Optional(
      Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]),
    ),
    page: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
    page_size: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  { additionalProperties: false },
);
export type AdminFundingRequestsQuery = Static<typeof AdminFundingRequestsQuery>;
export type AdminEarnOrderData = EarnOrderData & { uid: string; customer_id: string; book: 'real' | 'demo' };

/** `GET admin/earn/accruals` (earn.read): one row per daily run. */
export type AdminAccrualRunData = {
  run_id: string;
  /** The cut-off this run posted for. */
  cutoff_at: number;
  orders: number;
  total: Record<string, string>;
  matured: number;
  /** Demo-book order-days posted for this cut-off (not in `orders` / `total`, which are the real book's). */
  demo_orders: number;
  started_at: number;
  finished_at: number | null;
};

/** `GET admin/earn/settings` (earn.read) / `POST admin/earn/settings` (earn.write, audited): the cut-off (for orders bought from then on) and the VIP thresholds. */
export type AdminEarnSettingsData = { cutoff_hour: number; time_zone: string; vip_levels: VipLevelData[] };
export const AdminEarnSettingsBody = Type.Object(
  {
    ...CommonFields,
    cutoff_hour: Type.Integer({ minimum: 0, maximum: 23 }),
    time_zone: Type.String({ minLength: 1, maxLength: 64 }),
    vip_levels: Type.Array(
      Type.Object(
        {
          level: Type.Integer({ minimum: 1, maximum: EARN_LIMITS.vipLevelMax }),
          min_tier: Type.Union([
            Type.Literal('primary'),
            Type.Literal('advanced'),
            Type.Literal('address'),
            Type.Null(),
          ]),
          min_volume_30d: amount,
          min_balance: amount,
        },
        { additionalProperties: false },
      ),
      { maxItems: EARN_LIMITS.vipLevelMax },
    ),
    reason,
  },
  { additionalProperties: false },
);
export type AdminEarnSettingsBody = Static<typeof AdminEarnSettingsBody>;
