// @vitest-environment happy-dom
import type { LaunchpadSubscriptionData } from '@bourse/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../shared/testing/api.ts';
import { DAY_MS, NOW, record } from '../test/fixtures.ts';
import { renderLaunchpad } from '../test/render.tsx';

/** One subscription in every state, with the figures and reasons each state carries. */
const ITEMS: LaunchpadSubscriptionData[] = [
  record(),
  record({
    subscription_id: 'lps_2',
    state: 'under_review',
    allocated: null,
    paid: null,
    fee_paid: null,
    refunded: null,
    token_state: 'none',
    reviewed_at: null,
    allocated_at: null,
  }),
  record({
    subscription_id: 'lps_3',
    state: 'passed',
    allocated: null,
    paid: null,
    fee_paid: null,
    refunded: null,
    token_state: 'none',
    allocated_at: null,
  }),
  record({
    subscription_id: 'lps_4',
    project_id: 'lpd_orbit',
    project_name: 'Orbit Pay',
    coin: 'ORB',
    state: 'not_passed',
    review_reason: 'rating',
    allocated: '0',
    paid: '0',
    fee_paid: '0',
    refunded: '185.37',
    token_state: 'none',
    allocated_at: null,
    refunded_at: NOW - 3 * DAY_MS,
  }),
  record({
    subscription_id: 'lps_5',
    project_id: 'lpd_dim',
    project_name: 'Dim Protocol',
    coin: 'DIM',
    state: 'refunded',
    failure_reason: 'soft_cap_missed',
    allocated: null,
    paid: null,
    fee_paid: null,
    refunded: '185.37',
    token_state: 'none',
    allocated_at: null,
    refunded_at: NOW - DAY_MS,
  }),
  record({
    subscription_id: 'lps_6',
    state: 'allocated',
    token_state: 'released',
    released_at: NOW - DAY_MS,
  }),
];

const rowOf = async (id: string) => {
  const rows = await screen.findAllByTestId('launchpad-record');
  const row = rows.find((r) => r.dataset.record === id);
  if (!row) throw new Error(`no record ${id}`);
  return row;
};

describe('/subscriptionRecord: my subscriptions', () => {
  it('on a desktop: every state with its reason and figures, the coins locked or released, the proof offered when allocated', async () => {
    mockApi({
      getSubscriptionRecords: () => ({ total: ITEMS.length, page: 1, page_size: 10, items: ITEMS }),
    });
    await renderLaunchpad({ route: '/subscriptionRecord' });
    expect(await screen.findByTestId('launchpad-records-table')).toBeInTheDocument();

    const allocated = await rowOf('lps_1');
    expect(within(allocated).getByTestId('subscription-state')).toHaveTextContent('Allocated');
    expect(within(allocated).getByTestId('record-quantity')).toHaveTextContent('370 NOVA');
    expect(within(allocated).getByTestId('record-frozen')).toHaveTextContent('185.37 USDT');
    expect(within(allocated).getByTestId('record-fee-frozen')).toHaveTextContent('fee 0.37 included');
    expect(within(allocated).getByTestId('record-allocated')).toHaveTextContent('220 NOVA');
    // What was paid is the cost; the fee paid is its own figure (110 + 0.22 + 75.15 = 185.37 frozen).
    expect(within(allocated).getByTestId('record-paid')).toHaveTextContent('110.00 USDT');
    expect(within(allocated).getByTestId('record-fee')).toHaveTextContent('0.22 USDT');
    expect(within(allocated).getByTestId('record-refunded')).toHaveTextContent('75.15 USDT');
    expect(within(allocated).getByTestId('record-token')).toHaveTextContent('Locked until');
    expect(within(allocated).getByTestId('record-verify')).toHaveAttribute(
      'href',
      '/subscriptionProof?project_id=lpd_nova',
    );

    const review = await rowOf('lps_2');
    expect(within(review).getByTestId('subscription-state')).toHaveTextContent('Under review');
    expect(within(review).getByTestId('record-allocated')).toHaveTextContent('--');
    expect(within(review).queryByTestId('record-verify')).toBeNull();

    const refused = await rowOf('lps_4');
    expect(within(refused).getByTestId('record-reason')).toHaveTextContent(
      'Did not pass: your risk rating is below what the project needs.',
    );
    const failed = await rowOf('lps_5');
    expect(within(failed).getByTestId('subscription-state')).toHaveTextContent('Refunded');
    expect(within(failed).getByTestId('record-reason')).toHaveTextContent('The project missed its soft cap');
    const released = await rowOf('lps_6');
    expect(within(released).getByTestId('record-token')).toHaveTextContent('Released');
    expect(screen.getByTestId('launchpad-records-total')).toHaveTextContent('6 subscriptions');
  });

  it('filters by state and pages, asking the server for each', async () => {
    const api = mockApi({
      getSubscriptionRecords: (call) => ({
        total: 23,
        page: Number.parseInt(call.params.page ?? '1', 10),
        page_size: 10,
        items: call.params.state === 'not_passed' ? [ITEMS[3]] : ITEMS,
      }),
    });
    const { user } = await renderLaunchpad({ route: '/subscriptionRecord' });
    await screen.findByTestId('launchpad-records-table');
    expect(api.callsTo('getSubscriptionRecords')[0]?.params).toMatchObject({ page: '1', page_size: '10' });
    expect(api.callsTo('getSubscriptionRecords')[0]?.params.state).toBeUndefined();

    await user.click(screen.getByRole('button', { name: '3' }));
    await waitFor(() => expect(api.callsTo('getSubscriptionRecords').at(-1)?.params.page).toBe('3'));

    await user.click(within(screen.getByTestId('launchpad-records-filter')).getByText('Not passed'));
    await waitFor(() =>
      expect(api.callsTo('getSubscriptionRecords').at(-1)?.params).toMatchObject({
        state: 'not_passed',
        page: '1',
      }),
    );
    await waitFor(() => expect(screen.getAllByTestId('launchpad-record')).toHaveLength(1));
  });

  it('one project only when the address names it, and back to all', async () => {
    const api = mockApi({
      getSubscriptionRecords: () => ({ total: 1, page: 1, page_size: 10, items: [ITEMS[0]] }),
    });
    const { user } = await renderLaunchpad({ route: '/subscriptionRecord?project_id=lpd_nova' });
    await screen.findByTestId('launchpad-records-project');
    expect(api.callsTo('getSubscriptionRecords')[0]?.params.project_id).toBe('lpd_nova');
    await user.click(screen.getByTestId('launchpad-records-all-projects'));
    await waitFor(() =>
      expect(api.callsTo('getSubscriptionRecords').at(-1)?.params.project_id).toBeUndefined(),
    );
  });

  it('on a phone: a card per subscription', async () => {
    mockApi({
      getSubscriptionRecords: () => ({ total: ITEMS.length, page: 1, page_size: 10, items: ITEMS }),
    });
    await renderLaunchpad({ route: '/subscriptionRecord', viewport: 'phone' });
    const cards = await screen.findByTestId('launchpad-records-cards');
    expect(screen.queryByTestId('launchpad-records-table')).toBeNull();
    expect(within(cards).getAllByTestId('launchpad-record')).toHaveLength(ITEMS.length);
    const first = within(cards).getAllByTestId('launchpad-record')[0] as HTMLElement;
    expect(within(first).getByTestId('record-verify')).toBeInTheDocument();
    expect(within(first).getByTestId('record-fee')).toHaveTextContent('0.22 USDT');
    // A refunded subscription paid no fee: the card does not show the fee it had frozen as paid.
    const refunded = within(cards)
      .getAllByTestId('launchpad-record')
      .find((card) => card.getAttribute('data-record') === 'lps_5') as HTMLElement;
    expect(within(refunded).getByTestId('record-fee')).toHaveTextContent('--');
  });

  it('logged out: a login prompt, no call', async () => {
    const api = mockApi();
    await renderLaunchpad({ route: '/subscriptionRecord', signedIn: false });
    expect(await screen.findByTestId('launchpad-login')).toBeInTheDocument();
    expect(api.callsTo('getSubscriptionRecords')).toHaveLength(0);
  });
});
