// @vitest-environment happy-dom
import type { CustomerDetail } from '@bourse/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockedApi, mockApi, signIn } from '../../test/api.ts';
import { DETAIL, profile } from '../../test/fixtures.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import CustomerDetailScreen from './CustomerDetailScreen.tsx';
import CustomersScreen from './CustomersScreen.tsx';

describe('the customers list', () => {
  it('searches what was typed, keeps it in the address, and lists the matches', async () => {
    const api = mockApi({
      searchCustomers: ({ query }) => ({
        list:
          query.q === 'alice'
            ? [
                profile(),
                profile({ customer_id: 'usr_demo', uid: '90000001', is_demo: true, status: 'disabled' }),
              ]
            : [],
      }),
    });
    signIn(api, ['customers.read']);
    const { user } = await renderAdmin(<CustomersScreen />, { route: '/customers' });
    expect(api.callsTo('searchCustomers')).toHaveLength(0);

    await fill(user, screen.getByTestId('customer-search'), '  alice ');
    await user.click(screen.getByTestId('customer-search-submit'));
    const table = await screen.findByTestId('customer-results');
    expect(screen.getByTestId('location')).toHaveTextContent('/customers?q=alice');
    expect(api.callsTo('searchCustomers')[0]?.query).toMatchObject({ q: 'alice', lang: 'en' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('80012345');
    expect(rows[0]).toHaveTextContent('alice@example.test');
    expect(rows[0]).toHaveTextContent('Active');
    expect(rows[0]).toHaveTextContent('Real');
    expect(rows[1]).toHaveTextContent('Login disabled');
    expect(rows[1]).toHaveTextContent('Demo');
    expect(within(rows[0] as HTMLElement).getByTestId('customer-open')).toHaveAttribute(
      'href',
      '/customers/detail?id=usr_alice',
    );
  });

  it('says when nothing matches', async () => {
    const api = mockApi({ searchCustomers: () => ({ list: [] }) });
    signIn(api, ['customers.read']);
    await renderAdmin(<CustomersScreen />, { route: '/customers?q=nobody' });
    expect(await screen.findByText('No customer matches')).toBeInTheDocument();
    expect(screen.getByTestId('customer-search')).toHaveValue('nobody');
    expect(screen.queryByTestId('customer-results')).toBeNull();
  });
});

function setUpDetail(permissions: string[], detail: CustomerDetail = DETAIL): MockedApi {
  const api = mockApi({
    getCustomer: () => detail,
    'suitability/customer': () => ({
      rating: 'balanced',
      assessed_at: 1_700_000_000_000,
      retake_after: 1_702_592_000_000,
      can_retake: false,
      profile: 'permissive',
      allows: {},
      currency: 'USDT',
      history: [
        {
          assessment_id: 'sua_1',
          rating: 'balanced',
          points: 19,
          points_rating: 'balanced',
          ceiling: null,
          scoring_version: 1,
          taken_at: 1_700_000_000_000,
          retake_after: 1_702_592_000_000,
          answers: {},
        },
      ],
    }),
  });
  signIn(api, permissions);
  return api;
}

describe('the customer detail', () => {
  it('shows the profile, the ledger balances and the journal with formatted amounts', async () => {
    const api = setUpDetail(['customers.read']);
    await renderAdmin(<CustomerDetailScreen />, { route: '/customers/detail?id=usr_alice' });
    expect(await screen.findByText('Customer 80012345')).toBeInTheDocument();
    expect(api.callsTo('getCustomer')[0]?.query).toMatchObject({ customer_id: 'usr_alice' });
    expect(screen.getByTestId('customer-status')).toHaveTextContent('Active');
    // The risk rating (suitability) beside the profile.
    expect(await screen.findByTestId('customer-rating-badge')).toHaveTextContent('Balanced');
    expect(api.callsTo('suitability/customer')[0]?.query).toMatchObject({ customer_id: 'usr_alice' });
    const balances = within(screen.getByTestId('customer-balances')).getAllByRole('row').slice(1);
    expect(balances[0]).toHaveTextContent('USDT');
    expect(balances[0]).toHaveTextContent('12,345.6789');
    expect(balances[1]).toHaveTextContent('0.50000000');
    expect(balances[1]).toHaveTextContent('0.01000000');
    expect(screen.getByTestId('customer-journal')).toHaveTextContent('-250.50 USDT');
    // Without the permissions: no disable button, no adjust link.
    expect(screen.queryByTestId('customer-disable')).toBeNull();
    expect(screen.queryByText('Adjust balance')).toBeNull();
  });

  it('disables login only after a confirmation with a reason, then reads the customer again', async () => {
    const api = setUpDetail(['customers.read', 'customers.disable', 'adjustments.create']);
    api.on({ disableCustomer: () => ({ ended_sessions: 2 }) });
    const { user } = await renderAdmin(<CustomerDetailScreen />, { route: '/customers/detail?id=usr_alice' });
    expect(await screen.findByRole('link', { name: 'Adjust balance' })).toHaveAttribute(
      'href',
      '/adjustments?customer=usr_alice',
    );
    await user.click(screen.getByTestId('customer-disable'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Disable login of 80012345');
    expect(api.callsTo('disableCustomer')).toHaveLength(0);
    await fill(user, within(dialog).getByTestId('reason-input'), 'Account takeover reported');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await screen.findByTestId('customer-notice')).toHaveTextContent(
      'Login disabled; 2 sessions ended',
    );
    expect(api.callsTo('disableCustomer')[0]?.body).toMatchObject({
      customer_id: 'usr_alice',
      reason: 'Account takeover reported',
    });
    await waitFor(() => expect(api.callsTo('getCustomer')).toHaveLength(2));
  });
});
