import type { ReferralFlagReason } from '@bourse/protocol';

/** Kysely types of the referral tables (migrations.ts). Amounts NUMERIC minor units read as strings. */
export type ReferralTables = {
  /** One row: the programme (depth and share per level in basis points), each edit audited. */
  referral_settings: {
    id: 'referral';
    enabled: boolean;
    depth: number;
    shares_bps: number[];
    updated_at: Date;
    updated_by: string | null;
  };
  /** Per spot market: the last real-book trade whose fees were shared (advanced with the income rows). */
  referral_cursor: {
    symbol: string;
    seq: string;
    engine_trade_id: string;
    updated_at: Date;
  };
  /** One line per (fee source, invitee, level): paid (with its ledger entry) or excluded (with why). */
  referral_income: {
    id: string;
    inviter_id: string;
    invitee_id: string;
    level: number;
    status: 'paid' | 'excluded';
    excluded_reason: ReferralFlagReason | null;
    source: 'spot_trade';
    source_id: string;
    /** The ledger entry that put the fee into the market's fee account (`fee_income` before markets had one). */
    fee_entry_id: string;
    fee_currency: string;
    fee_units: string;
    share_bps: number;
    amount_units: string;
    /** The `reward.referral` entry (that fee account → the inviter's spot); null when excluded. */
    income_entry_id: string | null;
    created_at: Date;
  };
  /** A pair (inviter, invitee) linked by a reason; while not cleared its income is excluded. */
  referral_flag: {
    id: string;
    inviter_id: string;
    invitee_id: string;
    reason: ReferralFlagReason;
    detail: string;
    flagged_at: Date;
    cleared_at: Date | null;
    cleared_by: string | null;
    clear_reason: string | null;
  };
};
