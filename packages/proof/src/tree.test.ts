import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  build,
  customerLeafId,
  depthFor,
  emptyRoot,
  type Leaf,
  leafHash,
  type PathStep,
  ProofError,
  padNode,
  parentNode,
  proofFor,
  SUM_LIMIT,
  siblingPositions,
  type TreeNode,
  verify,
  verifyDetailed,
} from './index.ts';

const hex = (seed: string) => bytesToHex(sha256(new TextEncoder().encode(seed)));
const SALT = hex('salt');

function leaf(i: number, balance: bigint, currency = 'USDT'): Leaf {
  return { id: customerLeafId(SALT, `usr_${i}`), nonce: hex(`nonce-${i}`), currency, balance };
}

const leavesOf = (balances: readonly bigint[], currency = 'USDT') =>
  balances.map((b, i) => leaf(i, b, currency));

describe('construction', () => {
  it('hashes leaves with the currency, id, nonce and balance', () => {
    const base = leaf(1, 5n);
    const h = leafHash(base);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(leafHash({ ...base, balance: 6n })).not.toBe(h);
    expect(leafHash({ ...base, nonce: hex('other') })).not.toBe(h);
    expect(leafHash({ ...base, id: hex('other') })).not.toBe(h);
    expect(leafHash({ ...base, currency: 'BTC' })).not.toBe(h);
  });

  it('rejects a negative leaf, a malformed id and an oversized balance', () => {
    expect(() => build(leavesOf([3n, -1n]))).toThrow(ProofError);
    expect(() => leafHash({ ...leaf(1, 1n), id: 'usr_1' })).toThrow(ProofError);
    expect(() => leafHash({ ...leaf(1, 1n), nonce: 'AB'.repeat(32) })).toThrow(ProofError);
    expect(() => leafHash(leaf(1, SUM_LIMIT))).toThrow(ProofError);
    expect(() => build([leaf(1, 1n, 'USDT'), leaf(2, 1n, 'BTC')])).toThrow(ProofError);
  });

  it('commits both child sums, not only their total', () => {
    const a = { hash: hex('a'), sum: 3n };
    const b = { hash: hex('b'), sum: 7n };
    const p = parentNode(a, b);
    expect(p.sum).toBe(10n);
    expect(parentNode({ ...a, sum: 4n }, { ...b, sum: 6n }).hash).not.toBe(p.hash);
    expect(parentNode(b, a).hash).not.toBe(p.hash);
  });

  it('pads an odd level with a zero-sum node, never a duplicate', () => {
    const tree = build(leavesOf([1n, 2n, 3n]));
    expect(tree.levels.map((l) => l.length)).toEqual([4, 2, 1]);
    expect(tree.levels[0]?.[3]).toEqual(padNode(0));
    expect(tree.root.sum).toBe(6n);
    // five leaves: 5 → pad to 6, 3 → pad to 4, 2, 1
    expect(build(leavesOf([1n, 1n, 1n, 1n, 1n])).levels.map((l) => l.length)).toEqual([6, 4, 2, 1]);
    expect(padNode(0).hash).not.toBe(padNode(1).hash);
  });

  it('has a defined empty root and one-leaf root', () => {
    expect(build([])).toEqual({ root: emptyRoot(), levels: [] });
    const one = build(leavesOf([42n]));
    expect(one.root).toEqual({ hash: leafHash(leaf(0, 42n)), sum: 42n });
    expect(proofFor(one, 0)).toEqual([]);
    expect(verify(leaf(0, 42n), [], one.root, { leafCount: 1 })).toBe(true);
  });

  it('derives leaf ids from a per-snapshot salt', () => {
    expect(customerLeafId(SALT, 'usr_1')).toBe(customerLeafId(SALT, 'usr_1'));
    expect(customerLeafId(SALT, 'usr_1')).not.toBe(customerLeafId(hex('salt2'), 'usr_1'));
    expect(customerLeafId(SALT, 'usr_1')).not.toContain('usr');
  });

  it('computes depths and sibling positions', () => {
    expect([0, 1, 2, 3, 4, 5, 8, 9].map(depthFor)).toEqual([0, 0, 1, 2, 2, 3, 3, 4]);
    expect(siblingPositions(5, 3)).toEqual([
      { level: 0, index: 4, side: 'left' },
      { level: 1, index: 3, side: 'right' },
      { level: 2, index: 0, side: 'left' },
    ]);
  });
});

describe('verification of a fixed tree', () => {
  const leaves = leavesOf([10n, 0n, 25n, 7n, 300n]);
  const tree = build(leaves);

  it('verifies every leaf and shows each step', () => {
    for (const [i, l] of leaves.entries()) {
      const path = proofFor(tree, i);
      const result = verifyDetailed(l, path, tree.root, { leafCount: leaves.length });
      expect(result.ok).toBe(true);
      expect(result.steps).toHaveLength(3);
      expect(result.steps.at(-1)?.sum).toBe(342n);
      expect(result.steps.at(-1)?.hash).toBe(tree.root.hash);
    }
  });

  it('refuses the classic sum-tree cheat: a sibling sum shifted to the other child', () => {
    // The prover counts the two leaves under one parent as max(a, b) instead of a + b. With only the
    // total in the hash (the original scheme), each customer could be shown the other's sum as
    // (parent − own); here both sums are inside the parent hash, so any such path fails.
    const [a, b] = [leaf(0, 10n), leaf(1, 90n)];
    const honest = build([a, b]);
    const forged: PathStep[] = [{ side: 'right', hash: leafHash(b), sum: 0n }];
    expect(verify(a, forged, { hash: honest.root.hash, sum: 90n })).toBe(false);
    expect(verify(a, forged, honest.root)).toBe(false);
  });

  it('refuses a negative sibling even when the hashes would add up', () => {
    const negative = { hash: hex('fake'), sum: -5n };
    const path: PathStep[] = [{ side: 'right', ...negative }];
    const detailed = verifyDetailed(leaf(0, 10n), path, { hash: hex('x'), sum: 5n });
    expect(detailed).toMatchObject({ ok: false, failure: 'negative_sum' });
  });

  it('refuses a path of the wrong depth and malformed steps', () => {
    const path = proofFor(tree, 0);
    expect(verifyDetailed(leaves[0] as Leaf, path.slice(1), tree.root, { leafCount: 5 }).failure).toBe(
      'wrong_depth',
    );
    const bad = [{ ...(path[0] as PathStep), hash: 'zz' }, ...path.slice(1)];
    expect(verifyDetailed(leaves[0] as Leaf, bad, tree.root).failure).toBe('malformed_path');
    const overflow = [{ ...(path[0] as PathStep), sum: SUM_LIMIT - 1n }, ...path.slice(1)];
    expect(verifyDetailed(leaves[0] as Leaf, overflow, tree.root).failure).toBe('sum_overflow');
  });

  it('names the mismatch at the root', () => {
    const path = proofFor(tree, 2);
    expect(verifyDetailed(leaves[2] as Leaf, path, { ...tree.root, sum: 343n }).failure).toBe(
      'root_sum_mismatch',
    );
    expect(verifyDetailed(leaves[2] as Leaf, path, { ...tree.root, hash: hex('no') }).failure).toBe(
      'root_hash_mismatch',
    );
  });
});

// ---- properties ------------------------------------------------------------------------------------

const balances = fc.array(fc.bigInt({ min: 0n, max: 10n ** 30n }), { minLength: 1, maxLength: 40 });
const withIndex = balances.chain((bs) => fc.tuple(fc.constant(bs), fc.nat({ max: bs.length - 1 })));
const delta = fc.bigInt({ min: 1n, max: 10n ** 12n });

function flip(hash: string, at: number): string {
  const i = at % hash.length;
  const c = hash[i] === '0' ? '1' : '0';
  return hash.slice(0, i) + c + hash.slice(i + 1);
}

describe('properties', () => {
  it('every leaf verifies, and the total is the sum of the leaves', () => {
    fc.assert(
      fc.property(balances, (bs) => {
        const leaves = leavesOf(bs);
        const tree = build(leaves);
        expect(tree.root.sum).toBe(bs.reduce((s, b) => s + b, 0n));
        for (const [i, l] of leaves.entries()) {
          expect(verify(l, proofFor(tree, i), tree.root, { leafCount: leaves.length })).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a changed leaf amount fails (up or down)', () => {
    fc.assert(
      fc.property(withIndex, delta, fc.boolean(), ([bs, i], d, up) => {
        const tree = build(leavesOf(bs));
        const own = leaf(i, bs[i] as bigint);
        const changed = up ? own.balance + d : own.balance - d;
        fc.pre(changed >= 0n);
        expect(verify({ ...own, balance: changed }, proofFor(tree, i), tree.root)).toBe(false);
      }),
      { numRuns: 150 },
    );
  });

  it('a changed sibling sum fails, even when the root sum is adjusted to match', () => {
    fc.assert(
      fc.property(withIndex, fc.nat(), delta, ([bs, i], which, d) => {
        fc.pre(bs.length > 1);
        const tree = build(leavesOf(bs));
        const path = proofFor(tree, i);
        const k = which % path.length;
        const step = path[k] as PathStep;
        const forged = path.map((s, j) => (j === k ? { ...s, sum: s.sum + d } : s));
        expect(verify(leaf(i, bs[i] as bigint), forged, tree.root)).toBe(false);
        const root: TreeNode = { hash: tree.root.hash, sum: tree.root.sum + d };
        expect(verify(leaf(i, bs[i] as bigint), forged, root)).toBe(false);
        if (step.sum >= d) {
          const lowered = path.map((s, j) => (j === k ? { ...s, sum: s.sum - d } : s));
          expect(verify(leaf(i, bs[i] as bigint), lowered, { ...tree.root, sum: tree.root.sum - d })).toBe(
            false,
          );
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a changed sibling hash or side fails', () => {
    fc.assert(
      fc.property(withIndex, fc.nat(), fc.nat(), ([bs, i], which, at) => {
        fc.pre(bs.length > 1);
        const tree = build(leavesOf(bs));
        const path = proofFor(tree, i);
        const k = which % path.length;
        const forged = path.map((s, j) => (j === k ? { ...s, hash: flip(s.hash, at) } : s));
        expect(verify(leaf(i, bs[i] as bigint), forged, tree.root)).toBe(false);
        const swapped = path.map((s, j) =>
          j === k ? { ...s, side: s.side === 'left' ? ('right' as const) : ('left' as const) } : s,
        );
        expect(verify(leaf(i, bs[i] as bigint), swapped, tree.root)).toBe(false);
      }),
      { numRuns: 150 },
    );
  });

  it('a changed root hash or root sum fails', () => {
    fc.assert(
      fc.property(withIndex, fc.nat(), delta, ([bs, i], at, d) => {
        const tree = build(leavesOf(bs));
        const path = proofFor(tree, i);
        const own = leaf(i, bs[i] as bigint);
        expect(verify(own, path, { ...tree.root, hash: flip(tree.root.hash, at) })).toBe(false);
        expect(verify(own, path, { ...tree.root, sum: tree.root.sum + d })).toBe(false);
        if (tree.root.sum >= d)
          expect(verify(own, path, { ...tree.root, sum: tree.root.sum - d })).toBe(false);
      }),
      { numRuns: 150 },
    );
  });

  it('a leaf verifies only in its own currency tree', () => {
    fc.assert(
      fc.property(withIndex, ([bs, i]) => {
        const tree = build(leavesOf(bs, 'USDT'));
        expect(verify(leaf(i, bs[i] as bigint, 'BTC'), proofFor(tree, i), tree.root)).toBe(false);
      }),
      { numRuns: 50 },
    );
  });
});

describe('browser safety', () => {
  const dir = fileURLToPath(new URL('.', import.meta.url));
  const sources = readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
  it.each(sources)('%s has no node: imports, Buffer or async hashing', (name) => {
    const text = readFileSync(`${dir}${name}`, 'utf8');
    expect(text).not.toMatch(/from ['"]node:/);
    expect(text).not.toMatch(/\bBuffer\b/);
    expect(text).not.toMatch(/crypto\.subtle/);
  });
});
