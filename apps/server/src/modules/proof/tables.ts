import type { ColumnType } from 'kysely';

/**
 * Sums are NUMERIC(78,0) minor units (room for the tree's 256-bit sums); they come back as strings
 * and become bigint. Hashes, ids, nonces and salts are 64 lower-case hex characters.
 */
type Units = ColumnType<string, string, string>;

export type ProofTables = {
  /** One published tree: one currency of one round (a round reads every currency at one instant). */
  proof_snapshot: {
    id: string;
    round_id: string;
    currency: string;
    root_hash: string;
    /** The root's sum: every real-book customer balance of the currency, available + frozen. */
    total: Units;
    /** The ledger's own figure in the same read: minus the platform accounts' balances (the book sums to zero). */
    ledger_total: Units;
    leaf_count: number;
    depth: number;
    /** Per-snapshot salt of the leaf ids (customerLeafId). */
    salt: string;
    published_at: Date;
  };
  /** Whose leaf is where: read only for the leaf's own customer. */
  proof_leaf: {
    snapshot_id: string;
    customer_id: string;
    leaf_index: number;
    leaf_id: string;
    nonce: string;
    balance: Units;
  };
  /** Every node of every level (leaves and pads included), so any path can be served. */
  proof_node: {
    snapshot_id: string;
    level: number;
    idx: number;
    hash: string;
    sum: Units;
  };
};
