// @vitest-environment happy-dom
import type { AdminFundModelData, AdminFundOrderData, AdminFundRebalanceData, Paged } from '@bourse/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockedApi, mockApi, signIn } from '../../test/api.ts';
import { NOW } from '../../test/fixtures.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import FundsScreen from './FundsScreen.tsx';

const MODEL: AdminFundModelData = {
  model_id: 'balanced',
  name: 'Balanced ETF',
  description: 'About 40 % Bitcoin …',
  state: 'open',
  currency: 'USDT',
  weights: [
    { asset: 'BTC', symbol: 'BTC/USDT', weight_bps: 4000 },
    { asset: 'ETH', symbol: 'ETH/USDT', weight_bps: 3000 },
    { asset: 'USDT', symbol: null, weight_bps: 3000 },
  ],
  drift_bps: 500,
  min_amount: '100',
  max_amount: '100000',
  min_rating: 'balanced',
  nav: '1.0123',
  nav_at: NOW,
  started_at: NOW,
  fee_rates: { 'BTC/USDT': '0.002', 'ETH/USDT': '0.002' },
  names: { en: 'Balanced ETF', zh: '平衡型 ETF', ft: '平衡型 ETF' },
  descriptions: { en: '…', zh: '…', ft: '…' },
  state_reason: null,
  orders_in_custody: 2,
  value_in_custody: '1500.5',
  positions: [],
};

const ORDER: AdminFundOrderData = {
  order_id: 'etf_1',
  client_oid: null,
  model_id: 'balanced',
  model_name: 'Balanced ETF',
  book: 'real',
  state: 'in_custody',
  amount: '1000',
  cost: '1000',
  fees: '1.4',
  units: '998.5',
  nav_at_purchase: '1.0015',
  nav: '1.0123',
  value: '1010.2',
  pnl: '10.2',
  pnl_pct: '1.02',
  holdings: [],
  cash: '300',
  proceeds: null,
  returned_in_kind: [],
  legs: [],
  created_at: NOW,
  bought_at: NOW,
  redeemed_at: null,
  customer_id: 'usr_1',
  customer_label: 'ann@example.com',
};

const REBALANCE: AdminFundRebalanceData = {
  rebalance_id: 'frb_1',
  order_id: 'etf_1',
  model_id: 'balanced',
  customer_id: 'usr_1',
  state: 'done',
  drift_bps: 812,
  before: [{ asset: 'BTC', weight_bps: 4812 }],
  after: [{ asset: 'BTC', weight_bps: 4001 }],
  trades: [
    {
      phase: 'rebalance',
      rebalance_id: 'frb_1',
      asset: 'BTC',
      symbol: 'BTC/USDT',
      side: 'sell',
      quantity: '0.0008',
      filled: '0.0008',
      value: '120',
      fee: '0.24',
      state: 'filled',
      spot_order_id: 'ord_1',
      refusal: null,
      at: NOW,
    },
  ],
  started_at: NOW,
  done_at: NOW,
};

const page = <T,>(items: T[]): Paged<T> => ({ total: items.length, page: 1, page_size: 20, items });

function setUp(permissions: string[]): MockedApi {
  const api = mockApi({
    'funds/models': () => ({ items: [MODEL] }),
    'funds/orders': () => page([ORDER]),
    'funds/rebalances': () => page([REBALANCE]),
    'funds/nav': () => ({ items: [{ at: NOW, nav: '1.0000' }] }),
  });
  signIn(api, permissions);
  return api;
}

describe('the ETF back office', () => {
  it('shows the models read-only without funds.write, and says nothing here sets a price', async () => {
    setUp(['funds.read']);
    await renderAdmin(<FundsScreen />, { route: '/funds' });
    const card = await screen.findByTestId('funds-model');
    expect(card).toHaveTextContent('BTC 40% · ETH 30% · USDT 30%');
    expect(card).toHaveTextContent('2 orders · 1,500.5 USDT');
    expect(screen.getByTestId('funds-no-control')).toHaveTextContent('No one can set a price');
    expect(screen.queryByTestId('funds-model-toggle')).toBeNull();
  });

  it('pauses a model with a reason', async () => {
    const api = setUp(['funds.read', 'funds.write']);
    api.on({ 'funds/models/state': () => ({ ...MODEL, state: 'paused' }) });
    const { user } = await renderAdmin(<FundsScreen />, { route: '/funds' });
    await user.click(await screen.findByTestId('funds-model-toggle'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Pause Balanced ETF');
    await fill(user, within(dialog).getByTestId('reason-input'), 'Review of the model');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('funds/models/state')).toHaveLength(1));
    expect(api.callsTo('funds/models/state')[0]?.body).toMatchObject({
      model_id: 'balanced',
      state: 'paused',
      reason: 'Review of the model',
    });
  });

  it('lists orders and rebalances with their trades, in Chinese too', async () => {
    setUp(['funds.read']);
    const { user } = await renderAdmin(<FundsScreen />, { route: '/funds', lang: 'zh' });
    await user.click(await screen.findByTestId('funds-tab-orders'));
    const row = await screen.findByTestId('funds-order-row');
    expect(row).toHaveTextContent('ann@example.com');
    expect(row).toHaveTextContent('托管中');
    await user.click(screen.getByTestId('funds-tab-rebalances'));
    const rb = await screen.findByTestId('funds-rebalance-row');
    expect(rb).toHaveTextContent('8.12%');
    expect(rb).toHaveTextContent('卖 0.0008 / 0.0008 BTC');
  });
});
