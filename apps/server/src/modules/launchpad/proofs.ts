import { toDecimalString } from '@bourse/money';
import { buildLaunchpadTrees, type LaunchpadTrees, proofFor, type Tree } from '@bourse/proof';
import type { LaunchpadLeafData, SubscriptionProofData } from '@bourse/protocol';
import type { Db, Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { LaunchpadDeps } from './context.ts';
import type { ProjectRow, SubscriptionRow } from './repo.ts';
import * as repo from './repo.ts';

/**
 * Proofs (README.md, "Verifiable"): the trees are rebuilt from the stored leaves (in their stored
 * order, with their stored nonces) — the published roots must come out again, and a customer gets
 * their two leaves and paths, which their browser checks against the published roots and formula.
 */

type Leafed = SubscriptionRow & {
  leaf_index: number;
  leaf_id: string;
  commit_nonce: string;
  allot_nonce: string;
};

/** Both trees of a project, rebuilt from the database. */
export async function rebuildTrees(
  q: Db | Tx,
  p: ProjectRow,
): Promise<{ trees: LaunchpadTrees; rows: Leafed[] }> {
  const rows = (await repo.passed(q, p.id))
    .filter((s): s is Leafed => s.leaf_index !== null)
    .sort((a, b) => a.leaf_index - b.leaf_index);
  const trees = buildLaunchpadTrees(
    rows.map((s) => ({
      key: s.id,
      id: s.leaf_id,
      commitNonce: s.commit_nonce,
      allotNonce: s.allot_nonce,
      committed: BigInt(s.lots),
      allocated: BigInt(s.allocated_lots ?? '0'),
    })),
  );
  return { trees, rows };
}

function wireLeaf(tree: Tree, index: number, s: Leafed, tag: 'LPCOMMIT' | 'LPALLOT'): LaunchpadLeafData {
  return {
    id: s.leaf_id,
    nonce: tag === 'LPCOMMIT' ? s.commit_nonce : s.allot_nonce,
    currency: tag,
    balance: tag === 'LPCOMMIT' ? s.lots : (s.allocated_lots ?? '0'),
    path: proofFor(tree, index).map((x) => ({ side: x.side, hash: x.hash, sum: x.sum.toString() })),
  };
}

export async function customerProof(
  deps: LaunchpadDeps,
  customerId: string,
  projectId: string,
): Promise<SubscriptionProofData> {
  const p = await repo.findProject(deps.db, projectId);
  if (!p || p.state === 'draft') refuse('NOT_FOUND');
  const mine = await repo.subscriptionOf(deps.db, p.id, customerId);
  if (!p.allocation || !mine || mine.leaf_index === null) refuse('LAUNCHPAD_NOT_ALLOCATED');
  const { trees, rows } = await rebuildTrees(deps.db, p);
  if (trees.commitment.root.hash !== p.allocation.commitment_root.hash) {
    // Our own stored leaves no longer give the published root: never hand out a proof of something else.
    deps.log.error({ project: p.id }, 'LAUNCHPAD ALARM: stored leaves differ from the published root');
    refuse('LAUNCHPAD_NOT_ALLOCATED');
  }
  const index = mine.leaf_index;
  const me = rows[index] as Leafed;
  return {
    project_id: p.id,
    coin: p.coin,
    lot_size: toDecimalString(BigInt(p.lot_units), p.coin_scale),
    seq: me.seq,
    commitment: wireLeaf(trees.commitment, index, me, 'LPCOMMIT'),
    allocation: wireLeaf(trees.allocation, index, me, 'LPALLOT'),
    published: p.allocation,
  };
}
