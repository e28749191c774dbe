import type { SigninFundingState, SigninVerification } from '@bourse/protocol';

/** Kysely types of the sign-in tables (migrations.ts); times timestamptz, amounts NUMERIC minor units as strings. */
export type SigninTables = {
  /** One row: the programme's settings. */
  signin_settings: {
    id: 'signin';
    enabled: boolean;
    time_zone: string;
    currency: string;
    /** Day 1 … day 7, minor units. */
    amount_units: string[];
    verification: SigninVerification;
    condition_en: string;
    condition_zh: string;
    condition_ft: string;
    updated_at: Date;
    updated_by: string | null;
  };
  /** One row per customer and customer-day: the primary key is the "once per day" rule. */
  signin_claim: {
    customer_id: string;
    /** The customer-day `YYYY-MM-DD` in the programme's zone at the time. */
    day: string;
    streak: number;
    amount_units: string;
    currency: string;
    book: 'real' | 'demo';
    time_zone: string;
    at: Date;
    entry_id: string;
  };
  /** A payment into the budget: asked by one staff member, decided by another. */
  signin_funding_request: {
    id: string;
    amount_units: string;
    currency: string;
    reason: string;
    state: SigninFundingState;
    requested_by: string;
    requested_at: Date;
    decided_by: string | null;
    decided_at: Date | null;
    decision_reason: string | null;
    entry_id: string | null;
  };
};
