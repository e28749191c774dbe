// @vitest-environment happy-dom
import { catalogs } from '@bourse/i18n';
import type { SubscriptionProofData } from '@bourse/protocol';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, Refusal } from '../../../shared/testing/api.ts';
import { PROOF } from '../test/fixtures.ts';
import { renderLaunchpad } from '../test/render.tsx';

const ROUTE = '/subscriptionProof?project_id=lpd_nova';

const tampered = (change: (p: SubscriptionProofData) => void): SubscriptionProofData => {
  const copy = structuredClone(PROOF);
  change(copy);
  return copy;
};

const statusOf = (step: string) => screen.getByTestId(`proof-step-${step}`).dataset.status;

describe('/subscriptionProof: my allocation checked in the browser', () => {
  it('a genuine proof passes every step: both paths to the published roots, the totals, the formula line', async () => {
    const api = mockApi({ getSubscriptionProof: () => PROOF });
    await renderLaunchpad({ route: ROUTE });
    expect(await screen.findByTestId('proof-result-ok')).toHaveTextContent(
      'Your allocation checks out: you committed 37 and were allocated 22 (lots; 220 NOVA)',
    );
    expect(api.callsTo('getSubscriptionProof')[0]?.params.project_id).toBe('lpd_nova');
    for (const step of ['leaves', 'commitment', 'allocation', 'totals', 'formula'])
      expect(statusOf(step), step).toBe('ok');

    expect(screen.getByTestId('proof-leaf-id')).toHaveTextContent(PROOF.commitment.id);
    expect(screen.getByTestId('proof-leaf-LPCOMMIT')).toHaveTextContent('37 lots');
    expect(screen.getByTestId('proof-leaf-LPALLOT')).toHaveTextContent('22 lots');
    // Five leaves: three levels of siblings on each path, then the published root.
    const commitment = screen.getByTestId('proof-commitment-path');
    expect(within(commitment).getAllByTestId('proof-path-step')).toHaveLength(3);
    expect(screen.getByTestId('proof-commitment-path-ok')).toBeInTheDocument();
    expect(screen.getByTestId('proof-allocation-path-ok')).toBeInTheDocument();

    const formula = screen.getByTestId('proof-formula');
    expect(formula).toHaveAttribute('data-kind', 'share');
    expect(formula).toHaveTextContent('c × S′ / C′ = 37 × 70 / 121 = 21, remainder 49');
    expect(formula).toHaveTextContent('last served (r*, seq*) = (49, #3); yours (r, seq) = (49, #3) → +1');
    expect(formula).toHaveTextContent('= 22: your allocation by the formula');
    expect(screen.getByTestId('proof-formula-compare')).toHaveAttribute('data-match', '1');
    expect(screen.getByTestId('proof-total-withinSupply')).toHaveTextContent(
      'Allocated in all (lots): 100, no more than the supply of 100.',
    );

    const download = screen.getByTestId('proof-download');
    expect(download).toHaveAttribute('download', 'launchpad-proof-lpd_nova.json');
    const href = download.getAttribute('href') ?? '';
    expect(href.startsWith('data:application/json;charset=utf-8,')).toBe(true);
    expect(JSON.parse(decodeURIComponent(href.slice(href.indexOf(',') + 1)))).toEqual(PROOF);
  });

  it('an allocation leaf raised by one lot fails at the path to the allocation root', async () => {
    mockApi({ getSubscriptionProof: () => tampered((p) => (p.allocation.balance = '23')) });
    await renderLaunchpad({ route: ROUTE });
    const failed = await screen.findByTestId('proof-result-failed');
    expect(failed).toHaveAttribute('data-step', 'allocation');
    expect(failed).toHaveTextContent(
      'The check failed at “Path to the allocation root”: your allocation leaf does not lead to the published allocation root.',
    );
    expect(statusOf('leaves')).toBe('ok');
    expect(statusOf('commitment')).toBe('ok');
    expect(statusOf('allocation')).toBe('failed');
    expect(statusOf('totals')).toBe('unchecked');
    expect(statusOf('formula')).toBe('unchecked');
    expect(screen.getByTestId('proof-allocation-path-failure')).toHaveAttribute(
      'data-failure',
      'root_sum_mismatch',
    );
  });

  it('a remainder cut that would not serve me fails at the formula, showing +0 against the leaf', async () => {
    mockApi({
      getSubscriptionProof: () =>
        tampered((p) => {
          p.published.remainder_cut = { remainder: '50', seq: 3 };
        }),
    });
    await renderLaunchpad({ route: ROUTE });
    expect(await screen.findByTestId('proof-result-failed')).toHaveAttribute('data-step', 'formula');
    expect(statusOf('totals')).toBe('ok');
    expect(statusOf('formula')).toBe('failed');
    expect(screen.getByTestId('proof-formula')).toHaveTextContent('→ +0');
    expect(screen.getByTestId('proof-formula-compare')).toHaveTextContent(
      'Your allocation leaf holds 22, but the formula gives 21.',
    );
  });

  it('a commitment leaf with another customer’s id fails at the leaves', async () => {
    mockApi({ getSubscriptionProof: () => tampered((p) => (p.commitment.id = 'cd'.repeat(32))) });
    await renderLaunchpad({ route: ROUTE, viewport: 'phone' });
    expect(await screen.findByTestId('proof-result-failed')).toHaveAttribute('data-step', 'leaves');
    expect(statusOf('leaves')).toBe('failed');
    expect(statusOf('commitment')).toBe('failed');
    expect(statusOf('allocation')).toBe('ok');
    // On a phone the path is one card per level.
    expect(
      within(screen.getByTestId('proof-allocation-path')).getAllByTestId('proof-path-step'),
    ).toHaveLength(3);
  });

  it('before the allocation: the server’s refusal in my words', async () => {
    mockApi({ getSubscriptionProof: () => new Refusal('LAUNCHPAD_NOT_ALLOCATED') });
    await renderLaunchpad({ route: ROUTE, lang: 'ft' });
    expect(await screen.findByTestId('proof-refusal')).toHaveTextContent(
      catalogs.ft.common.reason.LAUNCHPAD_NOT_ALLOCATED,
    );
  });
});
