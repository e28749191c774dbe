import { scaleOf, toDecimalString } from '@bourse/money';
import {
  customerLeafId,
  type PathStep,
  type VerifyFailure,
  type VerifyStep,
  verifyDetailed,
} from '@bourse/proof';
import type { ProofLeaf, ProofRoot } from '@bourse/protocol';

/** Why a check in the browser failed: the tree's own reasons, plus two of the page's. */
export type BrowserFailure = VerifyFailure | 'bad_root' | 'not_yours';

export type BrowserVerification = {
  ok: boolean;
  failure: BrowserFailure | null;
  /** The leaf's own node (hash and sum), when it could be computed. */
  leaf: { hash: string; sum: bigint } | null;
  steps: VerifyStep[];
  /** The leaf id is customerLeafId(salt, customer_ref). */
  idMatches: boolean;
};

const HEX32 = /^[0-9a-f]{64}$/;

/**
 * Runs `@bourse/proof`'s verify in the browser: the served leaf and path against the root the page
 * shows (the published root of the leaf's currency; `rootHash` is what the customer left in the
 * field, so editing it must fail). The sum checked is the published total, not the one sent with the
 * leaf. Nothing here trusts the server's own claim that the leaf verifies.
 */
export function verifyInBrowser(
  leaf: ProofLeaf,
  published: Pick<ProofRoot, 'total_units'>,
  rootHash: string,
) {
  const idMatches = safe(() => customerLeafId(leaf.salt, leaf.customer_ref) === leaf.leaf_id, false);
  const hash = rootHash.trim().toLowerCase();
  if (!HEX32.test(hash)) return result(false, 'bad_root', null, [], idMatches);
  let total: bigint;
  let balance: bigint;
  let path: PathStep[];
  try {
    total = BigInt(published.total_units);
    balance = BigInt(leaf.balance_units);
    path = leaf.path.map((s) => ({ side: s.side, hash: s.hash, sum: BigInt(s.sum_units) }));
  } catch {
    return result(false, 'malformed_path', null, [], idMatches);
  }
  const checked = verifyDetailed(
    { id: leaf.leaf_id, nonce: leaf.nonce, currency: leaf.currency, balance },
    path,
    { hash, sum: total },
    { leafCount: leaf.leaf_count },
  );
  if (checked.ok && !idMatches) return result(false, 'not_yours', checked.leaf, checked.steps, idMatches);
  return result(checked.ok, checked.failure, checked.leaf, checked.steps, idMatches);
}

function result(
  ok: boolean,
  failure: BrowserFailure | null,
  leaf: BrowserVerification['leaf'],
  steps: VerifyStep[],
  idMatches: boolean,
): BrowserVerification {
  return { ok, failure, leaf, steps, idMatches };
}

function safe<T>(run: () => T, fallback: T): T {
  try {
    return run();
  } catch {
    return fallback;
  }
}

/** Minor units as the currency's decimal string (exact; never through a float). */
export function unitsToDecimal(units: bigint | string, currency: string): string {
  const value = typeof units === 'bigint' ? units : BigInt(units);
  try {
    return toDecimalString(value, scaleOf(currency));
  } catch {
    return value.toString();
  }
}

/** A long hash shortened for a narrow cell: first and last characters. */
export function shortHash(hash: string, keep = 10): string {
  return hash.length <= keep * 2 + 1 ? hash : `${hash.slice(0, keep)}…${hash.slice(-keep)}`;
}
