import {
  build,
  type Leaf,
  type PathStep,
  proofFor,
  type Tree,
  type Verification,
  verifyDetailed,
} from './tree.ts';

/**
 * The launchpad's allocation formula and its proof (modules/launchpad). Pure and browser-safe: the
 * server allocates with `allocate` and the customer's browser recomputes their own line with
 * `expectedAllocation` from the published figures, then checks both Merkle paths with the proof of
 * liabilities' tree. Everything counts lots (the project's smallest unit); no division is ever
 * rounded any way but down, and the remainder rule is stated below.
 *
 * Pro rata with a cap, water-filling: a commitment whose proportional share reaches the cap gets the
 * cap, and the supply it did not take is shared by the others by commitment, until no new
 * commitment reaches the cap. The uncapped then get floor(c × S′ / C′) lots (S′ the supply left for
 * them, C′ their commitments' total; when S′ ≥ C′ everybody simply gets their commitment). The lots
 * the floors leave (fewer than the uncapped count) go one each to the uncapped commitments with the
 * largest remainder c × S′ mod C′, ties to the earlier arrival (smaller `seq`).
 */

export const COMMIT_TAG = 'LPCOMMIT';
export const ALLOT_TAG = 'LPALLOT';

export type Commitment = { key: string; seq: number; lots: bigint };

export type AllocationResult = {
  /** Lots per commitment key. */
  lots: Map<string, bigint>;
  capped: number;
  cappedCommitted: bigint;
  /** The uncapped share: S′ and C′ (numerator ≥ denominator means everyone uncapped is filled). */
  fillNumerator: bigint;
  fillDenominator: bigint;
  remainderLots: bigint;
  /** The last commitment served by the remainder rule: its remainder and seq (null when none). */
  remainderCut: { remainder: bigint; seq: number } | null;
  allocated: bigint;
};

function assertInput(commitments: readonly Commitment[], supply: bigint, cap: bigint): void {
  if (supply < 0n || cap <= 0n) throw new RangeError('supply must be ≥ 0 and cap > 0');
  const keys = new Set<string>();
  const seqs = new Set<number>();
  for (const c of commitments) {
    if (c.lots <= 0n) throw new RangeError(`commitment ${c.key} must be positive`);
    if (keys.has(c.key) || seqs.has(c.seq)) throw new RangeError(`duplicate commitment ${c.key}`);
    keys.add(c.key);
    seqs.add(c.seq);
  }
}

/** Pro-rata allocation of `supply` lots over `commitments`, each held at `cap` lots (see above). */
export function allocateProRata(
  commitments: readonly Commitment[],
  supply: bigint,
  cap: bigint,
): AllocationResult {
  assertInput(commitments, supply, cap);
  const lots = new Map<string, bigint>();
  // Largest first: if any commitment reaches the cap at the current share, the largest does.
  const rest = [...commitments].sort((a, b) =>
    a.lots === b.lots ? a.seq - b.seq : a.lots > b.lots ? -1 : 1,
  );
  let s = supply;
  let c = rest.reduce((sum, x) => sum + x.lots, 0n);
  let capped = 0;
  let cappedCommitted = 0n;
  while (rest.length > 0) {
    const top = rest[0] as Commitment;
    // Its share is min(top, top × s / c); capped when that reaches the cap.
    const share = s >= c ? top.lots : null;
    const reaches = share !== null ? share >= cap : top.lots * s >= cap * c;
    if (!reaches) break;
    lots.set(top.key, cap);
    s -= cap;
    c -= top.lots;
    capped += 1;
    cappedCommitted += top.lots;
    rest.shift();
  }
  let allocated = supply - s;
  if (s >= c) {
    for (const x of rest) lots.set(x.key, x.lots);
    allocated += c;
    return {
      lots,
      capped,
      cappedCommitted,
      fillNumerator: s,
      fillDenominator: c,
      remainderLots: 0n,
      remainderCut: null,
      allocated,
    };
  }
  const remainders: Array<{ key: string; seq: number; remainder: bigint }> = [];
  let floors = 0n;
  for (const x of rest) {
    const base = (x.lots * s) / c;
    lots.set(x.key, base);
    floors += base;
    remainders.push({ key: x.key, seq: x.seq, remainder: (x.lots * s) % c });
  }
  const left = s - floors;
  remainders.sort((a, b) =>
    a.remainder === b.remainder ? a.seq - b.seq : a.remainder > b.remainder ? -1 : 1,
  );
  let cut: AllocationResult['remainderCut'] = null;
  for (let i = 0n; i < left; i++) {
    const r = remainders[Number(i)] as (typeof remainders)[number];
    lots.set(r.key, (lots.get(r.key) ?? 0n) + 1n);
    cut = { remainder: r.remainder, seq: r.seq };
  }
  allocated += s;
  return {
    lots,
    capped,
    cappedCommitted,
    fillNumerator: s,
    fillDenominator: c,
    remainderLots: left,
    remainderCut: cut,
    allocated,
  };
}

/**
 * First come: commitments are served in arrival order from what is left (the service already refused
 * what did not fit, so at close each gets exactly its commitment; this also serves the recount).
 */
export function allocateFirstCome(
  commitments: readonly Commitment[],
  supply: bigint,
  cap: bigint,
): AllocationResult {
  assertInput(commitments, supply, cap);
  const lots = new Map<string, bigint>();
  let left = supply;
  for (const x of [...commitments].sort((a, b) => a.seq - b.seq)) {
    const take = [x.lots, cap, left].reduce((m, v) => (v < m ? v : m));
    lots.set(x.key, take);
    left -= take;
  }
  const total = commitments.reduce((sum, x) => sum + x.lots, 0n);
  return {
    lots,
    capped: 0,
    cappedCommitted: 0n,
    fillNumerator: supply,
    fillDenominator: total,
    remainderLots: 0n,
    remainderCut: null,
    allocated: supply - left,
  };
}

/** The published figures a customer needs to recompute their own line. */
export type PublishedFormula = {
  mode: 'pro_rata' | 'first_come';
  capLots: bigint;
  fillNumerator: bigint;
  fillDenominator: bigint;
  remainderCut: { remainder: bigint; seq: number } | null;
};

/**
 * One commitment's allocation from the published figures alone (pro rata). First come publishes
 * no formula beyond arrival order: each passed commitment is filled (the recount is `allocateFirstCome`).
 */
export function expectedAllocation(f: PublishedFormula, commitment: { lots: bigint; seq: number }): bigint {
  const { lots } = commitment;
  if (f.mode === 'first_come') return lots < f.capLots ? lots : f.capLots;
  const s = f.fillNumerator;
  const c = f.fillDenominator;
  if (s >= c) return lots < f.capLots ? lots : f.capLots;
  if (lots * s >= f.capLots * c) return f.capLots;
  const base = (lots * s) / c;
  const remainder = (lots * s) % c;
  const cut = f.remainderCut;
  const extra =
    cut !== null && (remainder > cut.remainder || (remainder === cut.remainder && commitment.seq <= cut.seq))
      ? 1n
      : 0n;
  return base + extra;
}

/** The two trees of a project: commitments and allocations, one leaf per passed commitment each. */
export type LaunchpadTrees = { commitment: Tree; allocation: Tree; index: Map<string, number> };

/**
 * Builds both trees with leaves in the same order (the caller shuffles `rows` beforehand). `id` is
 * the salted leaf id (`customerLeafId`), the nonces are per leaf and tree.
 */
export function buildLaunchpadTrees(
  rows: ReadonlyArray<{
    key: string;
    id: string;
    commitNonce: string;
    allotNonce: string;
    committed: bigint;
    allocated: bigint;
  }>,
): LaunchpadTrees {
  const commitLeaves: Leaf[] = rows.map((r) => ({
    id: r.id,
    nonce: r.commitNonce,
    currency: COMMIT_TAG,
    balance: r.committed,
  }));
  const allotLeaves: Leaf[] = rows.map((r) => ({
    id: r.id,
    nonce: r.allotNonce,
    currency: ALLOT_TAG,
    balance: r.allocated,
  }));
  return {
    commitment: build(commitLeaves),
    allocation: build(allotLeaves),
    index: new Map(rows.map((r, i) => [r.key, i])),
  };
}

export { proofFor };

/** The wire form of a leaf and its path (amounts as decimal strings). */
export type WireLeaf = {
  id: string;
  nonce: string;
  currency: string;
  balance: string;
  path: Array<{ side: 'left' | 'right'; hash: string; sum: string }>;
};
export type WireRoot = { hash: string; sum: string; leaf_count: number };

export type LaunchpadProofInput = {
  seq: number;
  commitment: WireLeaf;
  allocation: WireLeaf;
  published: {
    mode: 'pro_rata' | 'first_come';
    supply_lots: string;
    cap_lots: string;
    committed_lots: string;
    fill_numerator: string;
    fill_denominator: string;
    remainder_cut: { remainder: string; seq: number } | null;
    allocated_lots: string;
    commitment_root: WireRoot;
    allocation_root: WireRoot;
  };
};

export type LaunchpadCheckFailure =
  | 'malformed'
  | 'commitment_path'
  | 'allocation_path'
  | 'leaf_mismatch'
  | 'formula'
  | 'totals';

export type LaunchpadCheck = {
  ok: boolean;
  failure: LaunchpadCheckFailure | null;
  commitment: Verification | null;
  allocation: Verification | null;
  committedLots: bigint;
  allocatedLots: bigint;
  expectedLots: bigint | null;
};

const INTEGER = /^[0-9]{1,78}$/;

function big(text: string): bigint {
  if (!INTEGER.test(text)) throw new RangeError('not a whole number');
  return BigInt(text);
}

function leafOf(w: WireLeaf): { leaf: Leaf; path: PathStep[] } {
  return {
    leaf: { id: w.id, nonce: w.nonce, currency: w.currency, balance: big(w.balance) },
    path: w.path.map((s) => ({ side: s.side, hash: s.hash, sum: big(s.sum) })),
  };
}

/**
 * What the browser checks: both leaves carry the same salted id and the right tags, both paths lead
 * to the published roots, the allocation root's total is within the supply and equals the published
 * allocated total, and this customer's allocation is what the published formula gives for their
 * commitment.
 */
export function checkLaunchpadProof(input: LaunchpadProofInput): LaunchpadCheck {
  const out: LaunchpadCheck = {
    ok: false,
    failure: 'malformed',
    commitment: null,
    allocation: null,
    committedLots: 0n,
    allocatedLots: 0n,
    expectedLots: null,
  };
  let c: ReturnType<typeof leafOf>;
  let a: ReturnType<typeof leafOf>;
  let p: LaunchpadProofInput['published'];
  let roots: { commit: { hash: string; sum: bigint }; allot: { hash: string; sum: bigint } };
  try {
    c = leafOf(input.commitment);
    a = leafOf(input.allocation);
    p = input.published;
    roots = {
      commit: { hash: p.commitment_root.hash, sum: big(p.commitment_root.sum) },
      allot: { hash: p.allocation_root.hash, sum: big(p.allocation_root.sum) },
    };
    big(p.supply_lots);
    big(p.cap_lots);
    big(p.fill_numerator);
    big(p.fill_denominator);
  } catch {
    return out;
  }
  out.committedLots = c.leaf.balance;
  out.allocatedLots = a.leaf.balance;
  out.commitment = verifyDetailed(c.leaf, c.path, roots.commit, { leafCount: p.commitment_root.leaf_count });
  out.allocation = verifyDetailed(a.leaf, a.path, roots.allot, { leafCount: p.allocation_root.leaf_count });
  const fail = (failure: LaunchpadCheckFailure) => ({ ...out, failure });
  if (c.leaf.id !== a.leaf.id || c.leaf.currency !== COMMIT_TAG || a.leaf.currency !== ALLOT_TAG)
    return fail('leaf_mismatch');
  if (!out.commitment.ok) return fail('commitment_path');
  if (!out.allocation.ok) return fail('allocation_path');
  if (
    roots.allot.sum > big(p.supply_lots) ||
    roots.allot.sum !== big(p.allocated_lots) ||
    roots.commit.sum !== big(p.committed_lots)
  )
    return fail('totals');
  const formula: PublishedFormula = {
    mode: p.mode,
    capLots: big(p.cap_lots),
    fillNumerator: big(p.fill_numerator),
    fillDenominator: big(p.fill_denominator),
    remainderCut: p.remainder_cut
      ? { remainder: big(p.remainder_cut.remainder), seq: p.remainder_cut.seq }
      : null,
  };
  out.expectedLots = expectedAllocation(formula, { lots: c.leaf.balance, seq: input.seq });
  if (out.expectedLots !== a.leaf.balance) return fail('formula');
  return { ...out, ok: true, failure: null };
}
