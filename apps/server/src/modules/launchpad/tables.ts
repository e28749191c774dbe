import type {
  JurisdictionProfileId,
  LaunchpadAllocationData,
  LaunchpadFailureReason,
  LaunchpadMode,
  LaunchpadProjectState,
  LaunchpadReviewReason,
  LaunchpadSubscriptionState,
  LaunchpadTokenState,
  Localized,
  RiskRating,
  VerificationTier,
} from '@bourse/protocol';

/**
 * Kysely types of the launchpad tables (migrations.ts). USDT amounts are NUMERIC minor units, coin
 * amounts NUMERIC minor units of the coin, quantities NUMERIC lots — all read as strings.
 */
export type LaunchpadTables = {
  launchpad_project: {
    id: string;
    /** The ledger families' suffix: `launchpad_supply_<code>`, `launchpad_escrow_<code>`. */
    code: string;
    coin: string;
    coin_scale: number;
    names: Localized;
    issuer: string;
    descriptions: Localized;
    risk_warnings: Localized;
    whitepaper_url: string;
    mode: LaunchpadMode;
    price_units: string;
    lot_units: string;
    lot_price_units: string;
    circulation_units: string;
    supply_lots: string;
    soft_cap_lots: string;
    cap_lots: string;
    min_lots: string;
    fee_bps: number;
    opens_at: Date;
    closes_at: Date;
    listing_at: Date;
    lockup_days: number;
    release_at: Date;
    refund_hours: number;
    min_tier: VerificationTier | null;
    min_rating: RiskRating;
    jurisdictions: JurisdictionProfileId[];
    state: LaunchpadProjectState;
    subscribed_lots: string;
    subscribers: number;
    next_seq: number;
    failure_reason: LaunchpadFailureReason | null;
    failed_at: Date | null;
    refund_deadline_at: Date | null;
    announced_at: Date | null;
    salt: string | null;
    /** The published allocation (LaunchpadAllocationData), written with the plan in one transaction. */
    allocation: LaunchpadAllocationData | null;
    paid_out_units: string;
    /** The spot market staff opened for the coin on or after the listing date (`COIN/USDT`). */
    market_symbol: string | null;
    market_opened_at: Date | null;
    created_at: Date;
    created_by: string;
  };
  launchpad_subscription: {
    id: string;
    project_id: string;
    customer_id: string;
    seq: number;
    lots: string;
    cost_units: string;
    fee_units: string;
    frozen_units: string;
    state: LaunchpadSubscriptionState;
    review_reason: LaunchpadReviewReason | null;
    allocated_lots: string | null;
    paid_units: string | null;
    fee_paid_units: string | null;
    refunded_units: string | null;
    failure_reason: LaunchpadFailureReason | null;
    token_state: LaunchpadTokenState;
    leaf_index: number | null;
    leaf_id: string | null;
    commit_nonce: string | null;
    allot_nonce: string | null;
    created_at: Date;
    reviewed_at: Date | null;
    allocated_at: Date | null;
    refunded_at: Date | null;
    released_at: Date | null;
  };
  launchpad_run: {
    id: string;
    project_id: string;
    kind: 'review' | 'allocation' | 'refund' | 'release';
    subscriptions: number;
    lots: string;
    amount_units: string;
    started_at: Date;
    finished_at: Date | null;
  };
};
