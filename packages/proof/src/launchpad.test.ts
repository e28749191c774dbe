import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateFirstCome,
  allocateProRata,
  buildLaunchpadTrees,
  type Commitment,
  checkLaunchpadProof,
  expectedAllocation,
  type LaunchpadProofInput,
  proofFor,
} from './launchpad.ts';

const commitmentsArb = fc
  .array(fc.bigInt({ min: 1n, max: 5_000n }), { minLength: 0, maxLength: 40 })
  .map((lots) => lots.map((l, i): Commitment => ({ key: `c${i}`, seq: i + 1, lots: l })));
const scenario = fc.record({
  commitments: commitmentsArb,
  supply: fc.bigInt({ min: 0n, max: 60_000n }),
  cap: fc.bigInt({ min: 1n, max: 6_000n }),
});

describe('pro-rata allocation', () => {
  it('never hands out more than the supply, nor more than anyone asked or the cap', () => {
    fc.assert(
      fc.property(scenario, ({ commitments, supply, cap }) => {
        const r = allocateProRata(commitments, supply, cap);
        let total = 0n;
        for (const c of commitments) {
          const got = r.lots.get(c.key) ?? -1n;
          expect(got).toBeGreaterThanOrEqual(0n);
          expect(got).toBeLessThanOrEqual(c.lots);
          expect(got).toBeLessThanOrEqual(cap);
          total += got;
        }
        expect(total).toBe(r.allocated);
        expect(total).toBeLessThanOrEqual(supply);
      }),
    );
  });

  it('hands out the whole supply when oversubscribed, and fills everyone (to the cap) when not', () => {
    fc.assert(
      fc.property(scenario, ({ commitments, supply, cap }) => {
        const r = allocateProRata(commitments, supply, cap);
        const demand = commitments.reduce((s, c) => s + (c.lots < cap ? c.lots : cap), 0n);
        expect(r.allocated).toBe(demand < supply ? demand : supply);
      }),
    );
  });

  it('is monotone in commitment: a larger commitment never gets fewer lots', () => {
    fc.assert(
      fc.property(scenario, ({ commitments, supply, cap }) => {
        const r = allocateProRata(commitments, supply, cap);
        for (const a of commitments)
          for (const b of commitments) {
            if (a.lots > b.lots)
              expect(r.lots.get(a.key)).toBeGreaterThanOrEqual(r.lots.get(b.key) as bigint);
          }
      }),
      { numRuns: 60 },
    );
  });

  it('is deterministic whatever the order the commitments are read in', () => {
    fc.assert(
      fc.property(scenario, fc.integer(), ({ commitments, supply, cap }, seed) => {
        const shuffled = [...commitments].sort(
          (a, b) => ((a.seq * 7919 + seed) % 101) - ((b.seq * 7919 + seed) % 101),
        );
        const x = allocateProRata(commitments, supply, cap);
        const y = allocateProRata(shuffled, supply, cap);
        expect([...y.lots.entries()].sort()).toEqual([...x.lots.entries()].sort());
        expect(y.remainderCut).toEqual(x.remainderCut);
      }),
    );
  });

  it('each line follows from the published figures alone (what the browser recomputes)', () => {
    fc.assert(
      fc.property(scenario, ({ commitments, supply, cap }) => {
        const r = allocateProRata(commitments, supply, cap);
        const f = {
          mode: 'pro_rata' as const,
          capLots: cap,
          fillNumerator: r.fillNumerator,
          fillDenominator: r.fillDenominator,
          remainderCut: r.remainderCut,
        };
        for (const c of commitments) expect(expectedAllocation(f, c)).toBe(r.lots.get(c.key));
      }),
    );
  });

  it('a worked example: 3 customers, 100 lots, cap 40', () => {
    // 10 / 60 / 30: 60 reaches the cap at 100/100 → 40; then 60 lots for 40 committed → everyone else filled.
    const r = allocateProRata(
      [
        { key: 'a', seq: 1, lots: 10n },
        { key: 'b', seq: 2, lots: 60n },
        { key: 'c', seq: 3, lots: 30n },
      ],
      100n,
      40n,
    );
    expect(Object.fromEntries(r.lots)).toEqual({ a: 10n, b: 40n, c: 30n });
    // 7 lots over 3 × 1 lot: 2 each and one by the remainder rule, to the earliest.
    const s = allocateProRata(
      [
        { key: 'a', seq: 1, lots: 1n },
        { key: 'b', seq: 2, lots: 1n },
        { key: 'c', seq: 3, lots: 1n },
      ],
      2n,
      5n,
    );
    expect(Object.fromEntries(s.lots)).toEqual({ a: 1n, b: 1n, c: 0n });
    expect(s.remainderCut).toEqual({ remainder: 2n, seq: 2 });
  });
});

describe('first-come allocation', () => {
  it('serves arrival order until the supply runs out', () => {
    fc.assert(
      fc.property(scenario, ({ commitments, supply, cap }) => {
        const r = allocateFirstCome(commitments, supply, cap);
        let left = supply;
        for (const c of commitments) {
          const want = c.lots < cap ? c.lots : cap;
          const got = r.lots.get(c.key) as bigint;
          expect(got).toBe(want < left ? want : left);
          left -= got;
        }
        expect(r.allocated).toBe(supply - left);
      }),
    );
  });
});

function proofInput(rows: Commitment[], supply: bigint, cap: bigint, key: string): LaunchpadProofInput {
  const r = allocateProRata(rows, supply, cap);
  const hex = (n: number, salt: string) => (salt + n.toString(16)).padStart(64, '0');
  const leaves = rows.map((c, i) => ({
    key: c.key,
    id: hex(i + 1, 'a'),
    commitNonce: hex(i + 1, 'b'),
    allotNonce: hex(i + 1, 'c'),
    committed: c.lots,
    allocated: r.lots.get(c.key) as bigint,
  }));
  const trees = buildLaunchpadTrees(leaves);
  const i = trees.index.get(key) as number;
  const me = leaves[i] as (typeof leaves)[number];
  const wire = (tree: typeof trees.commitment, nonce: string, tag: string, balance: bigint) => ({
    id: me.id,
    nonce,
    currency: tag,
    balance: String(balance),
    path: proofFor(tree, i).map((s) => ({ side: s.side, hash: s.hash, sum: String(s.sum) })),
  });
  const root = (tree: typeof trees.commitment) => ({
    hash: tree.root.hash,
    sum: String(tree.root.sum),
    leaf_count: leaves.length,
  });
  return {
    seq: (rows.find((c) => c.key === key) as Commitment).seq,
    commitment: wire(trees.commitment, me.commitNonce, 'LPCOMMIT', me.committed),
    allocation: wire(trees.allocation, me.allotNonce, 'LPALLOT', me.allocated),
    published: {
      mode: 'pro_rata',
      supply_lots: String(supply),
      cap_lots: String(cap),
      committed_lots: String(trees.commitment.root.sum),
      fill_numerator: String(r.fillNumerator),
      fill_denominator: String(r.fillDenominator),
      remainder_cut: r.remainderCut
        ? { remainder: String(r.remainderCut.remainder), seq: r.remainderCut.seq }
        : null,
      allocated_lots: String(r.allocated),
      commitment_root: root(trees.commitment),
      allocation_root: root(trees.allocation),
    },
  };
}

describe('checkLaunchpadProof', () => {
  const rows: Commitment[] = [
    { key: 'a', seq: 1, lots: 7n },
    { key: 'b', seq: 2, lots: 500n },
    { key: 'c', seq: 3, lots: 33n },
    { key: 'd', seq: 4, lots: 33n },
    { key: 'e', seq: 5, lots: 120n },
  ];

  it('passes for every customer of an honest allocation', () => {
    for (const c of rows) {
      const check = checkLaunchpadProof(proofInput(rows, 300n, 150n, c.key));
      expect(check.failure).toBeNull();
      expect(check.ok).toBe(true);
    }
  });

  it('names the step that fails when a figure is changed', () => {
    const honest = proofInput(rows, 300n, 150n, 'c');
    const more = {
      ...honest,
      allocation: { ...honest.allocation, balance: String(BigInt(honest.allocation.balance) + 1n) },
    };
    expect(checkLaunchpadProof(more).failure).toBe('allocation_path');
    const less = { ...honest, commitment: { ...honest.commitment, balance: '1' } };
    expect(checkLaunchpadProof(less).failure).toBe('commitment_path');
    const otherLeaf = { ...honest, allocation: { ...honest.allocation, id: 'f'.repeat(64) } };
    expect(checkLaunchpadProof(otherLeaf).failure).toBe('leaf_mismatch');
    const formula = { ...honest, published: { ...honest.published, fill_numerator: '1' } };
    expect(checkLaunchpadProof(formula).failure).toBe('formula');
    const totals = { ...honest, published: { ...honest.published, supply_lots: '10' } };
    expect(checkLaunchpadProof(totals).failure).toBe('totals');
    const junk = { ...honest, commitment: { ...honest.commitment, balance: '-3' } };
    expect(checkLaunchpadProof(junk).failure).toBe('malformed');
  });
});
