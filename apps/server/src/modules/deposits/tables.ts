import type { ColumnType, Generated } from 'kysely';

type Units = ColumnType<string, string, string>;

export type DepositsTables = {
  /** A deposit channel: a currency on a chain (or by bank); operator data shown before it refuses. */
  deposits_channel: {
    currency: string;
    /** ERC20, TRC20, BTC (crypto) or BANK. */
    chain: string;
    kind: 'crypto' | 'bank';
    open: boolean;
    /** Smallest deposit credited, in minor units; smaller confirmed deposits are held. */
    min_units: Units;
    /** Confirmations before a crypto deposit is credited. */
    confirmations: number;
    /** Bank channels: remittance instructions (payee, account, SWIFT) shown to the customer. */
    instructions: string;
    sort: number;
    updated_at: Date;
  };
  /** One non-hardened child index per customer, assigned once, never reused. */
  deposits_key: {
    customer_id: string;
    child_index: Generated<number>;
    created_at: Date;
  };
  deposits_address: {
    /** Normalized (EVM lower-cased) for look-ups; `address` is the display form. */
    address_key: string;
    address: string;
    family: 'evm' | 'btc' | 'tron';
    customer_id: string;
    child_index: number;
    created_at: Date;
  };
  deposits_crypto: {
    id: string;
    customer_id: string;
    chain: string;
    currency: string;
    txid: string;
    output_index: number;
    address: string;
    amount_units: Units;
    confirmations: number;
    /** pending (waiting for confirmations), held (confirmed, below the minimum), credited, failed. */
    status: 'pending' | 'held' | 'credited' | 'failed';
    entry_id: string | null;
    /** `threshold`, `cumulative` (held deposits reached the minimum together) or the staff id who released it. */
    released_by: string | null;
    events: Generated<number>;
    created_at: Date;
    updated_at: Date;
  };
  deposits_bank: {
    id: string;
    customer_id: string;
    currency: string;
    amount_units: Units;
    reference: string;
    /** The remittance proof: an `uploads_file` id (purpose `deposit_proof`), claimed once. */
    proof_id: string;
    status: 'pending' | 'confirmed' | 'rejected';
    reject_reason: string | null;
    decided_by: string | null;
    decided_at: Date | null;
    entry_id: string | null;
    created_at: Date;
  };
};
