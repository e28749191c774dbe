import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';

/**
 * Proof of liabilities (packages/proof): the published roots of the Merkle sum trees, one per
 * currency, and a customer's own leaf with its path. Amounts travel twice: `*_units` are the integer
 * minor units the tree commits to (what the browser verifies), the others are decimal strings for
 * reading. Hashes are 64 lower-case hex characters; times are milliseconds since the epoch.
 */

export const PROOF_CURRENCY_PATTERN = '^[A-Z0-9]{1,16}$';

export const GetProofRootsQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
export type GetProofRootsQuery = Static<typeof GetProofRootsQuery>;

export const GetProofLeafQuery = Type.Object(
  {
    ...CommonFields,
    currency: Type.Optional(Type.String({ pattern: PROOF_CURRENCY_PATTERN, maxLength: 16 })),
  },
  { additionalProperties: false },
);
export type GetProofLeafQuery = Static<typeof GetProofLeafQuery>;

export type ProofRoot = {
  snapshot_id: string;
  round_id: string;
  currency: string;
  /** Sum of every real-book customer balance of the currency (available + frozen). */
  total: string;
  total_units: string;
  /** The ledger's own figure in the same read; always equal to `total` (a snapshot is not published otherwise). */
  ledger_total: string;
  root_hash: string;
  leaf_count: number;
  depth: number;
  published_at: number;
};

export type GetProofRootsData = { roots: ProofRoot[] };

export type ProofPathStep = {
  level: number;
  /** Where the sibling sits: `left` means sibling ‖ ours, `right` means ours ‖ sibling. */
  side: 'left' | 'right';
  hash: string;
  sum_units: string;
};

export type ProofLeaf = {
  snapshot_id: string;
  currency: string;
  published_at: number;
  leaf_index: number;
  leaf_count: number;
  /** customerLeafId(salt, customer_ref): the app recomputes it to see the leaf is the customer's. */
  leaf_id: string;
  salt: string;
  customer_ref: string;
  nonce: string;
  balance: string;
  balance_units: string;
  path: ProofPathStep[];
  root: { hash: string; sum_units: string };
};

export type GetProofLeafData = { leaves: ProofLeaf[] };
