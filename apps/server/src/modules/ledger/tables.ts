import type { ColumnType, Generated } from 'kysely';

/**
 * Amounts are NUMERIC(38,0) counts of the currency's minor unit (`@bourse/money` scales). The pg
 * driver returns NUMERIC and INT8 as strings; we write strings too, so no amount is ever a JS number.
 */
type Units = ColumnType<string, string, string>;
type Int8 = ColumnType<string, string | undefined, string>;

export type LedgerTables = {
  /** Pins each customer to one book: a customer's accounts all live in it (composite FK below). */
  ledger_owner: {
    customer_id: string;
    book: 'real' | 'demo';
    created_at: Date;
  };
  ledger_account: {
    id: string;
    book: 'real' | 'demo';
    /** Exactly one of customer_id and platform_code is set. */
    customer_id: string | null;
    platform_code: string | null;
    /** spot, contract, options, earn, funding for customers; `platform` for platform accounts. */
    account_type: string;
    currency: string;
    available: Units;
    frozen: Units;
    /** Only clearing and contra platform accounts; never a customer's (CHECK). */
    allow_negative: boolean;
    /** Counts the entries that changed this row. */
    version: Int8;
    created_at: Date;
    updated_at: Date;
  };
  ledger_entry: {
    id: string;
    /** Commit order within the database; ids sort by creation time, seq by insertion. */
    seq: Generated<string>;
    book: 'real' | 'demo';
    reason: string;
    reference_type: string;
    reference_id: string;
    idempotency_key: string;
    /** SHA-256 of the entry's content: a replay with other content is a bug, not a replay. */
    fingerprint: string;
    reverses_entry_id: string | null;
    actor_id: string | null;
    memo: string | null;
    created_at: Date;
  };
  ledger_posting: {
    id: Generated<string>;
    entry_id: string;
    account_id: string;
    book: 'real' | 'demo';
    currency: string;
    bucket: 'available' | 'frozen';
    /** Signed: positive adds to the bucket, negative takes from it. */
    amount: Units;
  };
};
