// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { NOW } from '../../test/fixtures.ts';
import { watchMissingKeys } from '../../test/i18n.ts';
import { renderAdmin } from '../../test/render.tsx';
import DisputesScreen from './DisputesScreen.tsx';
import MerchantsScreen from './MerchantsScreen.tsx';
import OffersScreen from './OffersScreen.tsx';
import OrdersScreen from './OrdersScreen.tsx';
import { ALL, c2cApi, DISPUTED, detail, order } from './testing.ts';

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

const CANCEL = /^(Cancel|取消)$/;
const closeModal = async (user: Awaited<ReturnType<typeof renderAdmin>>['user']) => {
  const buttons = screen.getAllByText(CANCEL);
  await user.click(buttons[buttons.length - 1] as HTMLElement);
};

/** A disputed order above the threshold whose first decision another staff member recorded. */
const AWAITING = order({
  ...DISPUTED,
  order_id: 'cod_400',
  side: 'sell',
  price_kind: 'spread',
  feed: { symbol: 'USD/CNH', price: '7.18', source: 'feed', at: NOW, spread_bps: 20 },
  first_decision: { outcome: 'return', reason: 'No payment found', by: 'stf_other', at: NOW },
  awaiting_second: true,
});
const DONE = order({
  order_id: 'cod_500',
  state: 'rejected',
  end_reason: 'decided',
  outcome: { outcome: 'return', reason: 'No payment', by: 'staff', at: NOW },
  timeline: [
    ...DISPUTED.timeline,
    {
      seq: 4,
      event: 'decide_return',
      from: 'disputed',
      to: 'rejected',
      actor: 'staff',
      reason: 'No payment',
      at: NOW,
    },
  ],
});

describe.each(['zh', 'ft'] as const)('the C2C back office in %s', (lang) => {
  it('renders the merchants, the add form and the state dialog with no missing key', async () => {
    c2cApi(ALL);
    watch = watchMissingKeys();
    const { user } = await renderAdmin(<MerchantsScreen />, { lang });
    const rows = await screen.findAllByTestId('c2c-merchant');
    await user.click(screen.getByTestId('c2c-merchant-add'));
    const form = await screen.findByTestId('c2c-merchant-form');
    await user.click(within(form).getByTestId('c2c-merchant-submit'));
    await closeModal(user);
    await user.click(within(rows[1] as HTMLElement).getByTestId('c2c-merchant-approve'));
    await screen.findByTestId('reason-input');
    await closeModal(user);
    await user.click(within(rows[0] as HTMLElement).getByTestId('c2c-merchant-suspend'));
    await screen.findByTestId('reason-input');
    expect(watch.missing).toEqual([]);
  });

  it('renders the offers, the offer form (with its checks) and the pause dialog with no missing key', async () => {
    c2cApi(ALL);
    watch = watchMissingKeys();
    const { user } = await renderAdmin(<OffersScreen />, { lang });
    const rows = await screen.findAllByTestId('c2c-offer');
    await user.click(screen.getByTestId('c2c-offer-new'));
    const form = await screen.findByTestId('c2c-offer-form');
    await user.click(within(form).getByTestId('c2c-offer-submit'));
    await within(form).findByTestId('c2c-offer-bad');
    await closeModal(user);
    await user.click(within(rows[0] as HTMLElement).getByTestId('c2c-offer-edit'));
    await screen.findByTestId('c2c-offer-spread');
    await closeModal(user);
    await user.click(within(rows[0] as HTMLElement).getByTestId('c2c-offer-pause'));
    await screen.findByTestId('reason-input');
    await closeModal(user);
    await user.click(within(rows[1] as HTMLElement).getByTestId('c2c-offer-resume'));
    await screen.findByTestId('reason-input');
    expect(watch.missing).toEqual([]);
  });

  it('renders the orders and the order drawer (finished and disputed) with no missing key', async () => {
    c2cApi(ALL, {
      'c2c/orders': () => ({ total: 3, page: 1, page_size: 50, items: [order(), DISPUTED, DONE] }),
      'c2c/orders/cod_500': () => detail(DONE),
    });
    watch = watchMissingKeys();
    const { user } = await renderAdmin(<OrdersScreen />, { lang });
    const rows = await screen.findAllByTestId('c2c-order');
    await user.click(within(rows[2] as HTMLElement).getByTestId('c2c-order-open'));
    await screen.findByTestId('c2c-staff-message-closed');
    await user.click(within(rows[1] as HTMLElement).getByTestId('c2c-order-open'));
    await screen.findByTestId('c2c-staff-message');
    expect(watch.missing).toEqual([]);
  });

  it('renders the disputes, the dispute view and the decision dialogs with no missing key', async () => {
    c2cApi(ALL, {
      'c2c/disputes': () => ({ total: 2, page: 1, page_size: 50, items: [DISPUTED, AWAITING] }),
      'c2c/orders/cod_400': () => detail(AWAITING),
    });
    watch = watchMissingKeys();
    const { user } = await renderAdmin(<DisputesScreen />, { lang });
    const rows = await screen.findAllByTestId('c2c-dispute');
    await user.click(within(rows[0] as HTMLElement).getByTestId('c2c-dispute-open'));
    const view = await screen.findByTestId('c2c-dispute-view');
    await user.click(await within(view).findByTestId('c2c-decide-release'));
    await screen.findByTestId('c2c-decide-consequence');
    await closeModal(user);
    await user.click(within(view).getByTestId('c2c-decide-return'));
    await screen.findByTestId('c2c-decide-consequence');
    await closeModal(user);
    await user.click(within(rows[1] as HTMLElement).getByTestId('c2c-dispute-open'));
    await screen.findByTestId('c2c-decision-pending');
    await user.click(screen.getByTestId('c2c-decide-return'));
    await screen.findByTestId('c2c-decide-four-eyes');
    expect(watch.missing).toEqual([]);
  });

  it('renders the read-only screens (no write, no decide) with no missing key', async () => {
    c2cApi(['c2c.read']);
    watch = watchMissingKeys();
    await renderAdmin(<DisputesScreen />, { lang });
    await screen.findAllByTestId('c2c-dispute');
    expect(screen.getByTestId('c2c-no-permission')).toBeInTheDocument();
    expect(watch.missing).toEqual([]);
  });
});
