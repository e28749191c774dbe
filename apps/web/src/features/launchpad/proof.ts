import type { LaunchpadCheck, LaunchpadCheckFailure } from '@bourse/proof';
import type { LaunchpadAllocationData, SubscriptionProofData } from '@bourse/protocol';

/**
 * What the proof page shows of `checkLaunchpadProof` (`@bourse/proof`): which of the five steps
 * passed, failed or was not reached, and the formula line recomputed from the published figures with
 * every intermediate number (the package answers only with the result). Pure bigint arithmetic.
 */

export const PROOF_STEPS = ['leaves', 'commitment', 'allocation', 'totals', 'formula'] as const;
export type ProofStep = (typeof PROOF_STEPS)[number];
export type StepStatus = 'ok' | 'failed' | 'unchecked';

/** The step each failure of the package belongs to (an unreadable proof fails at the leaves). */
const FAILURE_STEP: Record<LaunchpadCheckFailure, ProofStep> = {
  malformed: 'leaves',
  leaf_mismatch: 'leaves',
  commitment_path: 'commitment',
  allocation_path: 'allocation',
  totals: 'totals',
  formula: 'formula',
};

/**
 * Each step's status. Steps before the failing one passed and the ones after it were not reached,
 * except the two paths: the package verifies both whatever else fails, so their own result is shown.
 */
export function stepStatuses(check: LaunchpadCheck): Record<ProofStep, StepStatus> {
  const failedAt =
    check.failure === null ? PROOF_STEPS.length : PROOF_STEPS.indexOf(FAILURE_STEP[check.failure]);
  const out = {} as Record<ProofStep, StepStatus>;
  PROOF_STEPS.forEach((step, index) => {
    out[step] = index < failedAt ? 'ok' : index === failedAt ? 'failed' : 'unchecked';
  });
  if (check.failure !== 'malformed') {
    if (check.commitment && out.commitment === 'unchecked')
      out.commitment = check.commitment.ok ? 'ok' : 'failed';
    if (check.allocation && out.allocation === 'unchecked')
      out.allocation = check.allocation.ok ? 'ok' : 'failed';
  }
  return out;
}

/** The first step that failed (null when the whole check passed). */
export function failedStep(check: LaunchpadCheck): ProofStep | null {
  return check.failure === null ? null : FAILURE_STEP[check.failure];
}

type Published = Pick<
  LaunchpadAllocationData,
  'mode' | 'cap_lots' | 'fill_numerator' | 'fill_denominator' | 'remainder_cut'
>;

/**
 * One customer's allocation from the published figures, with its working:
 * - `first_come`: every passed commitment is filled, at most the cap;
 * - `filled`: pro rata with S′ ≥ C′ — every uncapped commitment is filled, at most the cap;
 * - `capped`: c × S′ ≥ cap × C′ — the share reaches the cap, so the cap;
 * - `share`: base = ⌊c × S′ / C′⌋, remainder r = c × S′ mod C′, plus one lot when (r, seq) is served
 *   by the remainder rule: r > r* or r = r* and seq ≤ seq* (larger remainders first, ties to the
 *   earlier arrival).
 * The same rule as `expectedAllocation` in `@bourse/proof` (the tests hold them together).
 */
export type FormulaView =
  | {
      kind: 'first_come' | 'filled' | 'capped';
      committed: bigint;
      cap: bigint;
      s: bigint;
      c: bigint;
      result: bigint;
    }
  | {
      kind: 'share';
      committed: bigint;
      cap: bigint;
      s: bigint;
      c: bigint;
      base: bigint;
      remainder: bigint;
      cut: { remainder: bigint; seq: number } | null;
      seq: number;
      extra: 0n | 1n;
      result: bigint;
    };

const smaller = (a: bigint, b: bigint) => (a < b ? a : b);

export function formulaOf(published: Published, committed: bigint, seq: number): FormulaView {
  const cap = BigInt(published.cap_lots);
  const s = BigInt(published.fill_numerator);
  const c = BigInt(published.fill_denominator);
  const plain = { committed, cap, s, c };
  if (published.mode === 'first_come')
    return { kind: 'first_come', ...plain, result: smaller(committed, cap) };
  if (s >= c) return { kind: 'filled', ...plain, result: smaller(committed, cap) };
  if (committed * s >= cap * c) return { kind: 'capped', ...plain, result: cap };
  const base = (committed * s) / c;
  const remainder = (committed * s) % c;
  const cut = published.remainder_cut
    ? { remainder: BigInt(published.remainder_cut.remainder), seq: published.remainder_cut.seq }
    : null;
  const served =
    cut !== null && (remainder > cut.remainder || (remainder === cut.remainder && seq <= cut.seq));
  const extra = served ? 1n : 0n;
  return { kind: 'share', ...plain, base, remainder, cut, seq, extra, result: base + extra };
}

export type TotalsView = { withinSupply: boolean; allocatedMatches: boolean; committedMatches: boolean };

const WHOLE = /^[0-9]{1,78}$/;

/** The totals step's three comparisons, from the published figures (sums count lots); null when unreadable. */
export function totalsOf(published: SubscriptionProofData['published']): TotalsView | null {
  const figures = [
    published.allocation_root.sum,
    published.commitment_root.sum,
    published.supply_lots,
    published.allocated_lots,
    published.committed_lots,
  ];
  if (!figures.every((f) => WHOLE.test(f))) return null;
  const allotSum = BigInt(published.allocation_root.sum);
  const commitSum = BigInt(published.commitment_root.sum);
  return {
    withinSupply: allotSum <= BigInt(published.supply_lots),
    allocatedMatches: allotSum === BigInt(published.allocated_lots),
    committedMatches: commitSum === BigInt(published.committed_lots),
  };
}

/** The downloaded proof: the answer exactly as the server sent it, indented, and a file name for it. */
export function proofDownload(data: SubscriptionProofData): { name: string; text: string } {
  const safe = data.project_id.replace(/[^A-Za-z0-9_-]/g, '_');
  return { name: `launchpad-proof-${safe}.json`, text: `${JSON.stringify(data, null, 2)}\n` };
}

/** A long hash shortened for a narrow cell: first and last characters. */
export function shortHash(hash: string, keep = 10): string {
  return hash.length <= keep * 2 + 1 ? hash : `${hash.slice(0, keep)}…${hash.slice(-keep)}`;
}
