// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, Refusal } from '../../../shared/testing/api.ts';
import { ANNOUNCED, FAILED, FIRST_COME_SOLD_OUT, PRO_RATA_ALLOCATED, project } from '../test/fixtures.ts';
import { renderLaunchpad } from '../test/render.tsx';

const OPEN = project();
const LIST = { items: [OPEN, ANNOUNCED, FIRST_COME_SOLD_OUT, PRO_RATA_ALLOCATED, FAILED] };

const rowOf = async (projectId: string) => {
  const rows = await screen.findAllByTestId('launchpad-project');
  const row = rows.find((r) => r.dataset.project === projectId);
  if (!row) throw new Error(`no row ${projectId}`);
  return row;
};

describe('/subscription: the projects', () => {
  it('on a desktop: a table with state badges, countdowns, price, supply, progress, mode and listing', async () => {
    mockApi({ getSubscriptionList: () => LIST });
    await renderLaunchpad({ route: '/subscription' });
    expect(await screen.findByTestId('launchpad-projects-table')).toBeInTheDocument();

    const open = await rowOf('lpd_lumen');
    expect(within(open).getByTestId('project-state')).toHaveTextContent('Open');
    expect(within(open).getByTestId('project-countdown')).toHaveTextContent('Closes in 2 days 03:04:05');
    expect(within(open).getByTestId('project-price')).toHaveTextContent('0.50 USDT');
    expect(within(open).getByTestId('project-supply')).toHaveTextContent('1,000 LUM');
    expect(within(open).getByTestId('project-progress')).toHaveTextContent('60% subscribed');
    expect(open).toHaveTextContent('Pro rata');

    const soon = await rowOf('lpd_soon');
    expect(within(soon).getByTestId('project-countdown')).toHaveTextContent('Opens in 1 day 12:00:00');

    const soldOut = await rowOf('lpd_orbit');
    expect(within(soldOut).getByTestId('project-sold-out')).toHaveTextContent('Sold out');
    expect(soldOut).toHaveTextContent('First come, first served');

    const allocated = await rowOf('lpd_nova');
    expect(within(allocated).getByTestId('project-state')).toHaveTextContent('Allocated');
    expect(within(allocated).getByTestId('project-progress')).toHaveTextContent('Oversubscribed ×3.21');
    expect(within(allocated).getByTestId('project-progress')).toHaveAttribute('data-over', '1');
    expect(within(allocated).getByTestId('project-countdown')).toHaveAttribute('data-kind', 'past');

    const failed = await rowOf('lpd_dim');
    expect(within(failed).getByTestId('project-state')).toHaveTextContent('Failed');
  });

  it('a click on a row opens the project', async () => {
    mockApi({ getSubscriptionList: () => LIST });
    const { user } = await renderLaunchpad({ route: '/subscription' });
    await user.click(within(await rowOf('lpd_orbit')).getByText('Orbit Pay'));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/subscriptionBuy?project_id=lpd_orbit'),
    );
  });

  it('on a phone: a card per project, the whole card a link', async () => {
    mockApi({ getSubscriptionList: () => LIST });
    await renderLaunchpad({ route: '/subscription', viewport: 'phone' });
    const cards = await screen.findByTestId('launchpad-projects-cards');
    expect(screen.queryByTestId('launchpad-projects-table')).toBeNull();
    const card = within(cards).getAllByTestId('launchpad-project')[0];
    expect(card).toHaveAttribute('href', '/subscriptionBuy?project_id=lpd_lumen');
    expect(within(cards).getAllByTestId('launchpad-project')).toHaveLength(5);
  });

  it('says so when nothing is announced, and offers a retry when the list fails', async () => {
    const api = mockApi({ getSubscriptionList: () => ({ items: [] }) });
    const first = await renderLaunchpad({ route: '/subscription' });
    expect(await screen.findByTestId('launchpad-projects-empty')).toHaveTextContent(
      'No projects are announced yet.',
    );
    first.unmount();
    api.on({ getSubscriptionList: () => new Refusal('RATE_LIMITED') });
    await renderLaunchpad({ route: '/subscription' });
    expect(await screen.findByTestId('launchpad-projects-failed')).toBeInTheDocument();
  });
});
