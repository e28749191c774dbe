import { build, customerLeafId, type Leaf, proofFor } from '@bourse/proof';
import type { ProofLeaf } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import { shortHash, unitsToDecimal, verifyInBrowser } from './logic.ts';

const SALT = 'ab'.repeat(32);
const customers = ['usr_alice', 'usr_bob', 'usr_carol'];
const balances = [250n * 10n ** 8n, 40n * 10n ** 8n, 1n];
const leaves: Leaf[] = customers.map((c, i) => ({
  id: customerLeafId(SALT, c),
  nonce: String(i + 1).repeat(64),
  currency: 'USDT',
  balance: balances[i] as bigint,
}));
const tree = build(leaves);

/** What web/getProofLeaf serves for customer `i`. */
function served(i: number): ProofLeaf {
  const leaf = leaves[i] as Leaf;
  return {
    snapshot_id: 'por_1',
    currency: 'USDT',
    published_at: 0,
    leaf_index: i,
    leaf_count: leaves.length,
    leaf_id: leaf.id,
    salt: SALT,
    customer_ref: customers[i] as string,
    nonce: leaf.nonce,
    balance: unitsToDecimal(leaf.balance, 'USDT'),
    balance_units: leaf.balance.toString(),
    path: proofFor(tree, i).map((s, level) => ({
      level,
      side: s.side,
      hash: s.hash,
      sum_units: s.sum.toString(),
    })),
    root: { hash: tree.root.hash, sum_units: tree.root.sum.toString() },
  };
}
const published = { total_units: tree.root.sum.toString() };

describe('verify in the browser', () => {
  it('verifies every served leaf against the published root, step by step', () => {
    for (const i of [0, 1, 2]) {
      const r = verifyInBrowser(served(i), published, tree.root.hash);
      expect(r).toMatchObject({ ok: true, failure: null, idMatches: true });
      expect(r.steps).toHaveLength(2);
      expect(r.steps.at(-1)?.sum).toBe(tree.root.sum);
    }
  });

  it('fails when the root shown is edited', () => {
    const edited = `${tree.root.hash.slice(0, 63)}${tree.root.hash.endsWith('0') ? '1' : '0'}`;
    expect(verifyInBrowser(served(0), published, edited)).toMatchObject({
      ok: false,
      failure: 'root_hash_mismatch',
    });
    expect(verifyInBrowser(served(0), published, 'not a hash')).toMatchObject({
      ok: false,
      failure: 'bad_root',
    });
    expect(verifyInBrowser(served(0), published, ` ${tree.root.hash.toUpperCase()} `).ok).toBe(true);
  });

  it('fails when the published total, the balance or a sibling is tampered with', () => {
    const more = { total_units: (tree.root.sum + 1n).toString() };
    expect(verifyInBrowser(served(0), more, tree.root.hash).failure).toBe('root_sum_mismatch');
    const richer = { ...served(1), balance_units: ((balances[1] as bigint) * 2n).toString() };
    expect(verifyInBrowser(richer, published, tree.root.hash).ok).toBe(false);
    const s = served(0);
    const shifted = {
      ...s,
      path: s.path.map((step, k) => (k === 0 ? { ...step, sum_units: '0' } : step)),
    };
    expect(verifyInBrowser(shifted, published, tree.root.hash).ok).toBe(false);
    const negative = { ...s, path: s.path.map((step, k) => (k === 0 ? { ...step, sum_units: '-5' } : step)) };
    expect(verifyInBrowser(negative, published, tree.root.hash).failure).toBe('negative_sum');
    const garbage = { ...s, path: s.path.map((step) => ({ ...step, sum_units: '1.5' })) };
    expect(verifyInBrowser(garbage, published, tree.root.hash).failure).toBe('malformed_path');
  });

  it('fails a valid path that is not derived from the customer’s own id', () => {
    const someoneElse = { ...served(0), customer_ref: 'usr_mallory' };
    expect(verifyInBrowser(someoneElse, published, tree.root.hash)).toMatchObject({
      ok: false,
      failure: 'not_yours',
      idMatches: false,
    });
  });

  it('formats units and hashes', () => {
    expect(unitsToDecimal(12_345n, 'BTC')).toBe('0.00012345');
    expect(shortHash('a'.repeat(64), 4)).toBe('aaaa…aaaa');
  });
});
