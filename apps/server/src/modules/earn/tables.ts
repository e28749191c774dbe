import type {
  EarnFundingRequestState,
  EarnKind,
  EarnOrderState,
  EarnProductState,
  EarnRedeemRule,
  JurisdictionProfileId,
  Localized,
  RiskRating,
  VerificationTier,
  VipLevelData,
} from '@bourse/protocol';

/**
 * Kysely types of the earn tables (migrations.ts). Amounts are NUMERIC minor units of the row's
 * currency, read as strings; rates are NUMERIC percent strings; every time is a timestamptz.
 */
export type EarnTables = {
  /** One row (`id = 1`): the daily cut-off and the published VIP thresholds. */
  earn_setting: {
    id: number;
    cutoff_hour: number;
    time_zone: string;
    vip_levels: VipLevelData[];
    updated_at: Date;
    updated_by: string | null;
  };
  /** A named funding account: its money is the ledger account `earn_fund_<code>` (per book). */
  earn_funding: {
    id: string;
    /** The ledger code's suffix: `earn_fund_<code>`. */
    code: string;
    name: string;
    source: Localized;
    currency: string;
    created_at: Date;
    created_by: string;
  };
  /** A payment into a funding account: asked by one staff member, decided by another. */
  earn_funding_request: {
    id: string;
    funding_id: string;
    amount_units: string;
    reason: string;
    state: EarnFundingRequestState;
    requested_by: string;
    requested_at: Date;
    decided_by: string | null;
    decided_at: Date | null;
    decision_reason: string | null;
    entry_id: string | null;
  };
  earn_product: {
    id: string;
    /** The reserve's ledger code suffix: `earn_reserve_<code>`. */
    code: string;
    kind: EarnKind;
    state: EarnProductState;
    names: Localized;
    descriptions: Localized;
    funding_id: string;
    currency: string;
    term_days: number;
    annual_rate: string;
    min_amount_units: string;
    max_amount_units: string;
    capacity_units: string;
    /** Principal of running orders (in custody or redeeming before their redemption): updated with each order. */
    subscribed_units: string;
    sale_starts_at: Date | null;
    sale_ends_at: Date | null;
    redeem_rule: EarnRedeemRule;
    penalty_rate: string | null;
    redeem_delay_days: number;
    min_tier: VerificationTier | null;
    min_rating: RiskRating;
    vip_level: number | null;
    jurisdictions: JurisdictionProfileId[];
    created_at: Date;
    created_by: string;
    updated_at: Date;
  };
  earn_order: {
    id: string;
    customer_id: string;
    book: 'real' | 'demo';
    product_id: string;
    kind: EarnKind;
    currency: string;
    amount_units: string;
    term_days: number;
    /** Fixed at purchase. */
    annual_rate: string;
    daily_reward_units: string;
    total_reward_units: string;
    accrued_units: string;
    days_accrued: number;
    state: EarnOrderState;
    /** The order's own schedule, fixed at purchase: day k is posted at `first_day` + k − 1, `cutoff_hour`, in `time_zone`. */
    cutoff_hour: number;
    time_zone: string;
    first_day: string;
    /** The next day's cut-off (null once no day is left to accrue). */
    next_accrual_at: Date | null;
    matures_at: Date;
    redeem_rule: EarnRedeemRule;
    penalty_rate: string | null;
    redeem_delay_days: number;
    fund_code: string;
    reserve_code: string;
    created_at: Date;
    buy_entry_id: string;
    completed_at: Date | null;
    /** Early redemption: the quote it posted and what it moved. */
    quote_id: string | null;
    principal_returned_units: string | null;
    rewards_paid_units: string | null;
    rewards_forfeited_units: string | null;
    penalty_units: string | null;
    redeem_requested_at: Date | null;
    arrives_at: Date | null;
  };
  /** One row per order and day posted: the unique key is what makes a day exactly once. */
  earn_accrual: {
    order_id: string;
    day: number;
    amount_units: string;
    cutoff_at: Date;
    posted_at: Date;
    entry_id: string;
  };
  /** Per cut-off: what the job posted for it. */
  earn_accrual_run: {
    id: string;
    cutoff_at: Date;
    orders: number;
    matured: number;
    /** Real book, per currency: minor units as decimal strings. */
    totals: Record<string, string>;
    demo_orders: number;
    started_at: Date;
    finished_at: Date | null;
  };
  /** A binding early-redemption quote: `sellProfit` posts exactly these figures or refuses. */
  earn_quote: {
    id: string;
    order_id: string;
    customer_id: string;
    days_accrued: number;
    principal_units: string;
    forfeited_units: string;
    penalty_units: string;
    returned_units: string;
    arrives_at: Date;
    expires_at: Date;
    created_at: Date;
    used_at: Date | null;
  };
};
