import { allocateProRata, checkLaunchpadProof, expectedAllocation } from '@bourse/proof';
import type { SubscriptionProofData } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import { formulaOf, proofDownload, shortHash, stepStatuses, totalsOf } from './proof.ts';
import { PROOF } from './test/fixtures.ts';

const tampered = (change: (p: SubscriptionProofData) => void): SubscriptionProofData => {
  const copy = structuredClone(PROOF);
  change(copy);
  return copy;
};

describe('stepStatuses: which of the five steps passed', () => {
  it('a genuine proof passes every step', () => {
    const check = checkLaunchpadProof(PROOF);
    expect(check.ok).toBe(true);
    expect(stepStatuses(check)).toEqual({
      leaves: 'ok',
      commitment: 'ok',
      allocation: 'ok',
      totals: 'ok',
      formula: 'ok',
    });
  });

  it('an allocation leaf raised by one lot fails at its path; the steps after it are not reached', () => {
    const check = checkLaunchpadProof(tampered((p) => (p.allocation.balance = '23')));
    expect(check.failure).toBe('allocation_path');
    expect(stepStatuses(check)).toEqual({
      leaves: 'ok',
      commitment: 'ok',
      allocation: 'failed',
      totals: 'unchecked',
      formula: 'unchecked',
    });
  });

  it('a published cut that would not serve me fails at the formula', () => {
    const check = checkLaunchpadProof(
      tampered((p) => {
        p.published.remainder_cut = { remainder: '50', seq: 3 };
      }),
    );
    expect(check.failure).toBe('formula');
    expect(stepStatuses(check).formula).toBe('failed');
    expect(stepStatuses(check).totals).toBe('ok');
  });

  it('leaves of two customers fail at the leaves, with both paths still shown as they verify', () => {
    const check = checkLaunchpadProof(tampered((p) => (p.allocation.id = 'ab'.repeat(32))));
    expect(check.failure).toBe('leaf_mismatch');
    const status = stepStatuses(check);
    expect(status.leaves).toBe('failed');
    expect(status.commitment).toBe('ok');
    // The allocation leaf with another id no longer hashes to the root.
    expect(status.allocation).toBe('failed');
    expect(status.totals).toBe('unchecked');
  });

  it('totals that claim more allocated than the tree holds fail at the totals', () => {
    const check = checkLaunchpadProof(tampered((p) => (p.published.allocated_lots = '101')));
    expect(check.failure).toBe('totals');
    expect(stepStatuses(check).totals).toBe('failed');
    expect(totalsOf(tampered((p) => (p.published.allocated_lots = '101')).published)).toEqual({
      withinSupply: true,
      allocatedMatches: false,
      committedMatches: true,
    });
  });

  it('an unreadable proof fails at the leaves and reaches nothing else', () => {
    const check = checkLaunchpadProof(tampered((p) => (p.commitment.balance = '-1')));
    expect(check.failure).toBe('malformed');
    expect(stepStatuses(check)).toEqual({
      leaves: 'failed',
      commitment: 'unchecked',
      allocation: 'unchecked',
      totals: 'unchecked',
      formula: 'unchecked',
    });
    expect(totalsOf(tampered((p) => (p.published.supply_lots = 'x')).published)).toBeNull();
  });
});

describe('formulaOf: the working of the published formula', () => {
  it('shows base, remainder and the cut for my line (21 r 49, cut (49, #3) → +1 = 22)', () => {
    const view = formulaOf(PROOF.published, 37n, 3);
    expect(view).toMatchObject({
      kind: 'share',
      s: 70n,
      c: 121n,
      base: 21n,
      remainder: 49n,
      extra: 1n,
      result: 22n,
    });
    expect(view.kind === 'share' && view.cut).toEqual({ remainder: 49n, seq: 3 });
    // The same remainder arriving later is not served.
    expect(formulaOf(PROOF.published, 37n, 4).result).toBe(21n);
  });

  it('names the capped, filled and first-come cases', () => {
    expect(formulaOf(PROOF.published, 200n, 1)).toMatchObject({ kind: 'capped', result: 30n });
    const filled = { ...PROOF.published, fill_numerator: '80', fill_denominator: '60' };
    expect(formulaOf(filled, 40n, 2)).toMatchObject({ kind: 'filled', result: 30n });
    expect(formulaOf(filled, 7n, 2)).toMatchObject({ kind: 'filled', result: 7n });
    expect(formulaOf({ ...PROOF.published, mode: 'first_come' }, 45n, 2)).toMatchObject({
      kind: 'first_come',
      result: 30n,
    });
  });

  it('gives exactly what @bourse/proof expects and allocates, over many random books', () => {
    let seed = 20260610;
    const next = (max: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return BigInt(1 + (seed % max));
    };
    for (let round = 0; round < 200; round++) {
      const count = Number(next(12));
      const commitments = Array.from({ length: count }, (_, i) => ({
        key: `k${i}`,
        seq: i + 1,
        lots: next(500),
      }));
      const supply = next(1_500);
      const cap = next(400);
      const result = allocateProRata(commitments, supply, cap);
      const published = {
        mode: 'pro_rata' as const,
        cap_lots: cap.toString(),
        fill_numerator: result.fillNumerator.toString(),
        fill_denominator: result.fillDenominator.toString(),
        remainder_cut: result.remainderCut
          ? { remainder: result.remainderCut.remainder.toString(), seq: result.remainderCut.seq }
          : null,
      };
      for (const c of commitments) {
        const shown = formulaOf(published, c.lots, c.seq).result;
        expect(shown, `round ${round} ${c.key}`).toBe(result.lots.get(c.key));
        expect(shown).toBe(
          expectedAllocation(
            {
              mode: 'pro_rata',
              capLots: cap,
              fillNumerator: result.fillNumerator,
              fillDenominator: result.fillDenominator,
              remainderCut: result.remainderCut,
            },
            { lots: c.lots, seq: c.seq },
          ),
        );
      }
    }
  });
});

describe('the download', () => {
  it('is the answer exactly as sent, under a safe file name', () => {
    const file = proofDownload({ ...PROOF, project_id: 'lpd_a/../b' });
    expect(file.name).toBe('launchpad-proof-lpd_a____b.json');
    expect(JSON.parse(file.text)).toEqual({ ...PROOF, project_id: 'lpd_a/../b' });
  });

  it('shortens long hashes only', () => {
    expect(shortHash('a'.repeat(64), 4)).toBe('aaaa…aaaa');
    expect(shortHash('abc')).toBe('abc');
  });
});
