import type { ColumnType } from 'kysely';

/** Amounts are NUMERIC(38,0) minor units of the currency, read and written as strings. */
type Units = string;
type Json<T> = ColumnType<T, string, string>;

export type WithdrawalStatus = 'pending' | 'processing' | 'completed' | 'failed' | 'rejected' | 'cancelled';
export type PayoutStatus = 'broadcast' | 'confirmed' | 'failed';
export type PayeeKind = 'bank' | 'wallet';

export type WithdrawalsTables = {
  /** The trade password (argon2id) and its lock-out counter; one row per customer who set one. */
  withdrawals_trade_password: {
    customer_id: string;
    password_hash: string;
    failed_count: number;
    locked_until: Date | null;
    created_at: Date;
    updated_at: Date;
  };
  /** Google authenticator (TOTP): the secret sealed with the server secret; enabled once confirmed. */
  withdrawals_google: {
    customer_id: string;
    secret_sealed: string;
    enabled_at: Date | null;
    last_step: string | null;
    created_at: Date;
  };
  withdrawals_address: {
    id: string;
    customer_id: string;
    currency: string;
    chain: string;
    address: string;
    remark: string;
    memo: string;
    created_at: Date;
  };
  /** Bank cards and e-wallets: every field sealed in one AES-GCM blob; nothing readable at rest. */
  withdrawals_payee: {
    id: string;
    customer_id: string;
    kind: PayeeKind;
    sealed: string;
    created_at: Date;
  };
  /** Operator data: one row per policy rule, seeded with the spec's defaults. */
  withdrawals_rule: {
    code: string;
    position: number;
    enabled: boolean;
    params: Json<Record<string, unknown>>;
    updated_at: Date;
    updated_by: string | null;
  };
  withdrawals_withdrawal: {
    id: string;
    customer_id: string;
    method: 'address' | 'bank';
    destination_id: string;
    /** Address withdrawals: the address itself (not secret); bank ones: the sealed card snapshot. */
    destination: string;
    /** What the customer and staff see: the address, or the bank name and last 4 digits. */
    destination_label: string;
    currency: string;
    chain: string;
    memo: string;
    amount: Units;
    fee: Units;
    received: Units;
    status: WithdrawalStatus;
    /** The Hong Kong (policy time zone) calendar day of the request, for the daily-count rule. */
    policy_day: string;
    reject_reason: string | null;
    decided_by: string | null;
    provider_ref: string | null;
    tx_hash: string | null;
    created_at: Date;
    updated_at: Date;
    decided_at: Date | null;
    settled_at: Date | null;
    /** Why a payout failed: one of PAYOUT_FAIL_REASONS (the customer reads it in their language). */
    fail_reason: string | null;
    /** The bank's reference of a bank withdrawal staff marked paid. */
    bank_reference: string | null;
    /** Four-eyes: the staff member who marked a bank withdrawal above the threshold paid, awaiting a second. */
    paid_requested_by: string | null;
  };
  /** What the embedded payout provider "broadcast": one row per approved withdrawal. */
  withdrawals_payout: {
    id: string;
    withdrawal_id: string;
    chain: string;
    destination_label: string;
    amount: Units;
    currency: string;
    created_at: Date;
    status: PayoutStatus;
    tx_hash: string | null;
    /** When the simulated chain has the network's block count on top of it (null: no chain, a bank). */
    confirm_at: Date | null;
    settled_at: Date | null;
  };
};
