// @vitest-environment happy-dom
import type {
  AdminEarnProductData,
  AdminFundingAccountData,
  AdminFundingRequestData,
} from '@bourse/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockedApi, mockApi, STAFF_ID, signIn } from '../../test/api.ts';
import { NOW } from '../../test/fixtures.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import FundingScreen from './FundingScreen.tsx';
import ProductsScreen from './ProductsScreen.tsx';

const ACCOUNT: AdminFundingAccountData = {
  funding_id: 'fnd_1',
  name: 'Budget 2026',
  source: { en: 'Operator capital', zh: '运营方资金', ft: '營運方資金' },
  currency: 'USDT',
  balance: '400',
  reserved: '100',
  funded_total: '500',
  rewards_paid: '0',
  returned: '0',
  created_at: NOW,
};

function request(id: string, by: string): AdminFundingRequestData {
  return {
    request_id: id,
    funding_id: 'fnd_1',
    amount: '250',
    currency: 'USDT',
    reason: 'top-up',
    state: 'pending',
    requested_by: by,
    requested_at: NOW,
    decided_by: null,
    decided_at: null,
    decision_reason: null,
  };
}

const PRODUCT: AdminEarnProductData = {
  product_id: 'ern_p1',
  kind: 'custody',
  state: 'active',
  names: { en: 'Weekly USDT', zh: '每周 USDT', ft: '每週 USDT' },
  descriptions: { en: 'd', zh: 'd', ft: 'd' },
  currency: 'USDT',
  term_days: 7,
  annual_rate: '7.3',
  daily_rate: '0.02',
  min_amount: '100',
  max_amount: '5000',
  capacity: '20000',
  subscribed: '1000',
  capacity_left: '19000',
  reserved: '1.4',
  funding_available: '498.6',
  funding_account: { funding_id: 'fnd_1', name: 'Budget 2026', source: 'Operator capital' },
  sale_starts_at: null,
  sale_ends_at: null,
  redeem_rule: 'forfeit_rewards',
  penalty_rate: null,
  redeem_delay_days: 1,
  min_tier: null,
  min_rating: 'not_assessed',
  vip_level: null,
  jurisdictions: ['permissive'],
  cutoff: { hour: 0, time_zone: 'Asia/Hong_Kong' },
  orders_running: 1,
  rewards_paid: '0',
  created_at: NOW,
  created_by: 'stf_other',
};

function fundingApi(permissions: string[]): MockedApi {
  const api = mockApi({
    'earn/funding': () => ({ items: [ACCOUNT] }),
    'earn/funding-requests': () => ({
      total: 2,
      page: 1,
      page_size: 100,
      items: [request('efr_mine', STAFF_ID), request('efr_theirs', 'stf_other')],
    }),
    'earn/funding-requests/efr_theirs/approve': () => ({
      ...request('efr_theirs', 'stf_other'),
      state: 'approved',
    }),
    'earn/funding/fnd_1/requests': () => request('efr_new', STAFF_ID),
  });
  signIn(api, permissions);
  return api;
}

describe('earn funding (four eyes)', () => {
  it('a requester’s own pending request cannot be approved from the screen; another one can, with a reason', async () => {
    const api = fundingApi(['earn.read', 'earn.fund']);
    const { user } = await renderAdmin(<FundingScreen />, { route: '/earn/funding' });
    const pending = await screen.findByTestId('funding-pending');
    const rows = await within(pending).findAllByTestId('funding-request-row');
    const mine = rows.find((r) => r.dataset.request === 'efr_mine');
    const theirs = rows.find((r) => r.dataset.request === 'efr_theirs');
    expect(mine && within(mine).getByTestId('funding-own-request')).toHaveTextContent(
      'another staff member must approve',
    );
    expect(mine && within(mine).queryByTestId('funding-approve')).toBeNull();
    if (!theirs) throw new Error('no row');
    await user.click(within(theirs).getByTestId('funding-approve'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Approve: 250 USDT into “Budget 2026”');
    await fill(user, within(dialog).getByTestId('reason-input'), 'budget confirmed');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('earn/funding-requests/efr_theirs/approve')).toHaveLength(1));
    expect(api.callsTo('earn/funding-requests/efr_theirs/approve')[0]?.body).toMatchObject({
      reason: 'budget confirmed',
    });
    expect(await screen.findByTestId('earn-admin-note')).toHaveTextContent('Approved');
  });

  it('a funding request is confirmed with amount, currency, account and who asks, then only asks', async () => {
    const api = fundingApi(['earn.read', 'earn.fund']);
    const { user } = await renderAdmin(<FundingScreen />, { route: '/earn/funding' });
    await user.click(await screen.findByTestId('funding-request-open'));
    await fill(user, await screen.findByTestId('funding-request-amount'), '1000');
    await fill(user, screen.getByTestId('funding-request-reason'), 'quarterly top-up');
    await user.click(screen.getByTestId('funding-request-next'));
    const confirm = await screen.findByTestId('funding-request-confirm');
    expect(confirm).toHaveTextContent('Pay 1,000 USDT into “Budget 2026”, requested by Ops.');
    expect(confirm).toHaveTextContent('quarterly top-up');
    expect(api.callsTo('earn/funding/fnd_1/requests')).toHaveLength(0);
    await user.click(screen.getByTestId('funding-request-send'));
    await waitFor(() => expect(api.callsTo('earn/funding/fnd_1/requests')).toHaveLength(1));
    expect(api.callsTo('earn/funding/fnd_1/requests')[0]?.body).toMatchObject({
      amount: '1000',
      reason: 'quarterly top-up',
    });
    expect(await screen.findByTestId('earn-admin-note')).toHaveTextContent(
      'another staff member must approve',
    );
  });

  it('without earn.fund there is no request or approve button', async () => {
    fundingApi(['earn.read']);
    await renderAdmin(<FundingScreen />, { route: '/earn/funding' });
    await screen.findAllByTestId('funding-request-row');
    expect(screen.queryByTestId('funding-request-open')).toBeNull();
    expect(screen.queryByTestId('funding-approve')).toBeNull();
  });
});

describe('earn products', () => {
  it('shows reserve coverage and closes a product with a reason after a confirmation', async () => {
    const api = mockApi({
      'earn/products': () => ({ items: [PRODUCT] }),
      'earn/funding': () => ({ items: [ACCOUNT] }),
      'earn/products/ern_p1/state': () => ({ ...PRODUCT, state: 'closed' }),
    });
    signIn(api, ['earn.read', 'earn.write']);
    const { user } = await renderAdmin(<ProductsScreen />, { route: '/earn/products' });
    const row = await screen.findByTestId('earn-admin-product');
    expect(within(row).getByTestId('earn-admin-capacity-left')).toHaveTextContent('19,000.00');
    expect(within(row).getByTestId('earn-admin-reserved')).toHaveTextContent('1.40');
    expect(within(row).queryByTestId('earn-product-open')).toBeNull();
    await user.click(within(row).getByTestId('earn-product-close'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('can never be sold again');
    await fill(user, within(dialog).getByTestId('reason-input'), 'product ends');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('earn/products/ern_p1/state')).toHaveLength(1));
    expect(api.callsTo('earn/products/ern_p1/state')[0]?.body).toMatchObject({
      action: 'close',
      reason: 'product ends',
    });
  });

  it('without earn.write: no new product and no state buttons', async () => {
    const api = mockApi({
      'earn/products': () => ({ items: [PRODUCT] }),
      'earn/funding': () => ({ items: [] }),
    });
    signIn(api, ['earn.read']);
    await renderAdmin(<ProductsScreen />, { route: '/earn/products' });
    await screen.findByTestId('earn-admin-product');
    expect(screen.queryByTestId('earn-product-new')).toBeNull();
    expect(screen.queryByTestId('earn-product-close')).toBeNull();
  });
});
