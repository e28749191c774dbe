import type {
  FundLegPhase,
  FundLegState,
  FundModelId,
  FundModelState,
  FundOrderState,
  RiskRating,
} from '@bourse/protocol';

/** A stored target weight: a spot market's base asset (or the USDT cash slice, `symbol` null). */
export type StoredWeight = { asset: string; symbol: string | null; weight_bps: number };
/** A stored refusal of a leg: reason code and its params. */
export type StoredRefusal = { code: string; params: Record<string, string | number> };

/**
 * Kysely types of the funds tables (migrations.ts). Amounts are NUMERIC minor units of their asset
 * (`@bourse/money` scales), read as strings; NAV and units are USDT-scale (8 decimals) units.
 */
export type FundsTables = {
  funds_model: {
    id: FundModelId;
    names: Record<string, string>;
    descriptions: Record<string, string>;
    /** Fixed at creation, sum 10,000 with the cash slice. */
    weights: StoredWeight[];
    drift_bps: number;
    min_amount_units: string;
    max_amount_units: string;
    min_rating: RiskRating;
    state: FundModelState;
    state_reason: string | null;
    /** The hypothetical holdings of NAV_BASE units (nav.ts): asset → minor units, USDT the cash. */
    positions: Record<string, string>;
    /** The hour the last NAV row was written for. */
    nav_through: Date;
    created_at: Date;
    updated_at: Date;
  };
  funds_nav: {
    model_id: FundModelId;
    at: Date;
    /** NAV per unit, USDT minor units (1.0000 = 100000000). */
    nav_units: string;
    /** The recorded marks it was computed from: symbol → price. */
    prices: Record<string, string>;
    rebalanced: boolean;
  };
  funds_order: {
    id: string;
    customer_id: string;
    book: 'real' | 'demo';
    model_id: FundModelId;
    client_oid: string | null;
    state: FundOrderState;
    amount_units: string;
    cost_units: string | null;
    fee_units: string;
    units: string | null;
    nav_units: string;
    proceeds_units: string | null;
    /** The targets at purchase (the model's, fixed). */
    weights: StoredWeight[];
    created_at: Date;
    bought_at: Date | null;
    redeem_requested_at: Date | null;
    redeemed_at: Date | null;
    rebalancing: string | null;
  };
  funds_order_holding: {
    order_id: string;
    asset: string;
    quantity_units: string;
  };
  funds_order_leg: {
    id: string;
    order_id: string;
    phase: FundLegPhase;
    rebalance_id: string | null;
    seq: number;
    asset: string;
    symbol: string;
    side: 'buy' | 'sell';
    /** Planned quantity (base minor units, on the lot grid) and, for buys, the USDT moved out for it. */
    quantity_units: string;
    funded_units: string;
    reference_price: string;
    spot_client_oid: string;
    spot_order_id: string | null;
    filled_units: string;
    value_units: string;
    fee_units: string;
    state: FundLegState;
    refusal: StoredRefusal | null;
    created_at: Date;
    updated_at: Date;
  };
  funds_rebalance: {
    id: string;
    order_id: string;
    model_id: FundModelId;
    customer_id: string;
    state: 'running' | 'done';
    drift_bps: number;
    before: Array<{ asset: string; weight_bps: number }>;
    after: Array<{ asset: string; weight_bps: number }> | null;
    started_at: Date;
    done_at: Date | null;
  };
};
