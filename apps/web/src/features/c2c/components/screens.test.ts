// @vitest-environment happy-dom
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setNowSource } from '../../../lib/serverClock.ts';
import { type Handler, mockApi, Refusal } from '../../../shared/testing/api.ts';
import {
  account,
  EXPIRED,
  message,
  NOW,
  offer,
  order,
  PAID_AS_RECEIVER,
  REAL_NAME,
  RULES,
  SELL_OFFER,
  SPREAD_OFFER,
  verification,
} from '../test/fixtures.ts';
import { renderC2c } from '../test/render.tsx';

const FIXED = offer();

function api(over: Record<string, Handler> = {}) {
  return mockApi({
    c2cOffers: () => [FIXED, SPREAD_OFFER, SELL_OFFER],
    c2cOffer: (call) =>
      [FIXED, SPREAD_OFFER, SELL_OFFER].find((o) => o.offer_id === call.params.offer_id) ??
      new Refusal('NOT_FOUND'),
    c2cRules: () => RULES,
    getVerification: () => verification(),
    info: () => ({ is_demo: 0, uid: '100001' }),
    c2cAccounts: () => [account()],
    c2cOrders: () => ({ total: 3, page: 1, page_size: 20, items: [order(), PAID_AS_RECEIVER, EXPIRED] }),
    c2cOrder: (call) =>
      [order(), PAID_AS_RECEIVER, EXPIRED].find((o) => o.order_id === call.params.order_id) ??
      new Refusal('NOT_FOUND'),
    c2cMessages: () => [message(1), message(2, { from: 'customer', body: 'Paid just now' })],
    ...over,
  });
}

describe('/c2c_index: the offers', () => {
  it('desktop: each offer with merchant record, price (fixed or spread with its feed), limits, methods, terms, and the order button', async () => {
    const mocked = api();
    await renderC2c({ route: '/c2c_index' });
    const rows = await screen.findAllByTestId('c2c-offer');
    expect(screen.getByTestId('c2c-offers-table')).toBeInTheDocument();
    expect(rows).toHaveLength(3);
    const fixed = rows[0] as HTMLElement;
    expect(within(fixed).getByTestId('offer-merchant')).toHaveTextContent('Harbour Desk');
    expect(within(fixed).getByTestId('offer-completion')).toHaveTextContent('98.50% completed');
    expect(within(fixed).getByTestId('offer-release')).toHaveTextContent('7 min');
    expect(within(fixed).getByTestId('offer-pricing')).toHaveAttribute('data-kind', 'fixed');
    expect(within(fixed).getByTestId('offer-limits')).toHaveTextContent('10 – 5,000 USDT');
    expect(within(fixed).getByTestId('offer-methods')).toHaveTextContent('Bank transfer: pay within 180 min');
    expect(within(fixed).getByTestId('offer-terms')).toHaveTextContent('Pay from your own account only.');
    expect(within(fixed).getByTestId('offer-order')).toHaveAttribute(
      'href',
      '/c2c_create?offer_id=cof_fixed',
    );
    const spread = rows[1] as HTMLElement;
    expect(within(spread).getByTestId('offer-pricing')).toHaveTextContent('-0.5% to the USDT/USD price');
    expect(within(spread).getByTestId('offer-feed')).toHaveTextContent('USDT/USD 1.0000');
    expect(screen.getByTestId('c2c-no-fee')).toBeInTheDocument();
    expect(screen.getByTestId('c2c-rules-link')).toHaveAttribute('href', '/c2c_rule');
    expect(mocked.callsTo('c2cOffers').some((c) => c.params.side === 'buy')).toBe(true);
  });

  it('phone: cards; the Sell tab asks for the sell side', async () => {
    const mocked = api();
    const { user } = await renderC2c({ route: '/c2c_index', viewport: 'phone' });
    expect(await screen.findByTestId('c2c-offers-cards')).toBeInTheDocument();
    await user.click(screen.getByText('Sell coins'));
    await waitFor(() => expect(mocked.callsTo('c2cOffers').some((c) => c.params.side === 'sell')).toBe(true));
  });

  it('empty and failed states', async () => {
    api({ c2cOffers: () => [] });
    await renderC2c({ route: '/c2c_index' });
    expect(await screen.findByTestId('c2c-offers-empty')).toBeInTheDocument();
  });
});

describe('/c2c_create: ordering', () => {
  it('shows the live quote, the verified name, the window and the deadline rule before ordering; confirms, then opens the order', async () => {
    const mocked = api({ c2cCreateOrder: () => order({ order_id: 'cod_9' }) });
    const { user } = await renderC2c({ route: '/c2c_create?offer_id=cof_fixed' });
    const input = await screen.findByTestId('c2c-create-amount');
    expect(await screen.findByTestId('c2c-create-rule-name')).toHaveTextContent(REAL_NAME);
    expect(screen.getByTestId('c2c-create-rule-window')).toHaveTextContent('180 min');
    expect(screen.getByTestId('c2c-create-rule-deadline')).toHaveTextContent('cannot be restored');
    expect(screen.getByTestId('c2c-create-submit')).toBeDisabled();
    await user.type(input, '5');
    expect(screen.getByText('The least this offer takes is 10 USDT.')).toBeInTheDocument();
    await user.clear(input);
    await user.type(input, '100');
    expect(screen.getByTestId('c2c-create-fiat')).toHaveAttribute('data-value', '101.00');
    await user.click(screen.getByTestId('c2c-create-method-alipay'));
    expect(screen.getByTestId('c2c-create-rule-window')).toHaveTextContent('30 min');
    await user.click(screen.getByTestId('c2c-create-submit'));
    expect(await screen.findByTestId('c2c-create-confirm-text')).toHaveTextContent(
      'Buy 100 USDT for 101.00 USD',
    );
    await user.click(screen.getByTestId('c2c-create-confirm-button'));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/c2c_submit?order_id=cod_9'),
    );
    expect(mocked.callsTo('c2cCreateOrder')[0]?.params).toMatchObject({
      offer_id: 'cof_fixed',
      amount: '100',
      method: 'alipay',
    });
  });

  it('selling: picks my collection account of the method and sends it', async () => {
    const mocked = api({ c2cCreateOrder: () => order({ order_id: 'cod_8', side: 'sell', i_pay: false }) });
    const { user } = await renderC2c({ route: '/c2c_create?offer_id=cof_sell', viewport: 'phone' });
    await user.type(await screen.findByTestId('c2c-create-amount'), '20');
    expect(await screen.findByTestId('c2c-create-account')).toBeInTheDocument();
    await user.click(screen.getByTestId('c2c-create-submit'));
    await user.click(await screen.findByTestId('c2c-create-confirm-button'));
    await waitFor(() => expect(mocked.callsTo('c2cCreateOrder')).toHaveLength(1));
    expect(mocked.callsTo('c2cCreateOrder')[0]?.params.account_id).toBe('cac_1');
  });

  it('a demo account is refused by the server: the refusal is shown', async () => {
    api({
      info: () => ({ is_demo: 1, uid: '100001' }),
      c2cCreateOrder: () => new Refusal('REAL_ACCOUNT_REQUIRED'),
    });
    const { user } = await renderC2c({ route: '/c2c_create?offer_id=cof_fixed' });
    expect(await screen.findByTestId('c2c-demo')).toBeInTheDocument();
    await user.type(await screen.findByTestId('c2c-create-amount'), '100');
    await user.click(screen.getByTestId('c2c-create-submit'));
    await user.click(await screen.findByTestId('c2c-create-confirm-button'));
    expect(await screen.findByTestId('c2c-refusal')).toHaveAttribute('data-reason', 'REAL_ACCOUNT_REQUIRED');
    expect(screen.getByTestId('c2c-refusal')).toHaveTextContent('Please switch to a real account');
  });

  it('an offer no longer active says so', async () => {
    api();
    await renderC2c({ route: '/c2c_create?offer_id=cof_gone' });
    expect(await screen.findByTestId('c2c-create-gone')).toBeInTheDocument();
  });
});

describe('/c2c_order: my orders', () => {
  it('lists them with states, totals and a countdown on live ones; filters; opens one', async () => {
    const mocked = api();
    const { user } = await renderC2c({ route: '/c2c_order' });
    const rows = await screen.findAllByTestId('c2c-order-row');
    expect(rows.map((r) => r.dataset.state)).toEqual(['matched', 'paid', 'expired']);
    expect(within(rows[0] as HTMLElement).getByTestId('order-countdown')).toHaveTextContent('02:59:58');
    expect(within(rows[2] as HTMLElement).queryByTestId('order-countdown')).toBeNull();
    expect(within(rows[0] as HTMLElement).getByTestId('order-total')).toHaveTextContent('101.00 USD');
    await user.click(within(rows[0] as HTMLElement).getByTestId('order-open'));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/c2c_submit?order_id=cod_1'),
    );
    expect(mocked.callsTo('c2cOrders')[0]?.params.state).toBeUndefined();
  });

  it('empty', async () => {
    api({ c2cOrders: () => ({ total: 0, page: 1, page_size: 20, items: [] }) });
    await renderC2c({ route: '/c2c_order', viewport: 'phone' });
    expect(await screen.findByTestId('c2c-orders-empty')).toBeInTheDocument();
  });
});

describe('/c2c_submit: one order', () => {
  it('payer: escrow statement, countdown, pay-to details with copy buttons, the form prefilled with the verified name', async () => {
    api();
    await renderC2c({ route: '/c2c_submit?order_id=cod_1' });
    expect(await screen.findByTestId('order-escrow')).toHaveTextContent('100 USDT are held in escrow');
    expect(screen.getByTestId('order-countdown')).toHaveTextContent('02:59:58');
    expect(screen.getByTestId('pay-to-name')).toHaveTextContent('Harbour Desk Ltd');
    expect(screen.getByTestId('pay-to-account_no')).toHaveTextContent('123456789');
    expect(screen.getByTestId('pay-to-swift-copy')).toBeInTheDocument();
    expect(screen.getByTestId('c2c-safety')).toBeInTheDocument();
    // Customer service in the app, linked to this order.
    expect(screen.getByTestId('order-support')).toHaveAttribute(
      'href',
      '/service?ref_type=c2c_order&ref_id=cod_1',
    );
    await waitFor(() => expect(screen.getByTestId('payer-name')).toHaveValue(REAL_NAME));
    expect(screen.getByTestId('order-paid')).toBeDisabled();
    expect(screen.getByTestId('payer-proof-input')).toBeInTheDocument();
  });

  it('payer: the countdown follows the injected clock', async () => {
    api();
    await renderC2c({ route: '/c2c_submit?order_id=cod_1' });
    expect(await screen.findByTestId('order-countdown')).toHaveTextContent('02:59:58');
    act(() => setNowSource(() => NOW + 3 * 3_600_000));
    await waitFor(() => expect(screen.getByTestId('order-countdown')).toHaveTextContent('00:00:00'), {
      timeout: 3_000,
    });
    expect(screen.getByTestId('order-countdown')).toHaveAttribute('data-over', 'true');
    expect(screen.getByTestId('order-deadline-passed')).toBeInTheDocument();
  });

  it('payer: cancel before paying asks first', async () => {
    const mocked = api({
      c2cCancel: () => order({ state: 'cancelled', pay_to: null, end_reason: 'cancelled_by_payer' }),
    });
    const { user } = await renderC2c({ route: '/c2c_submit?order_id=cod_1', viewport: 'phone' });
    await user.click(await screen.findByTestId('order-cancel'));
    await user.click(await screen.findByTestId('order-cancel-confirm-yes'));
    await waitFor(() => expect(mocked.callsTo('c2cCancel')).toHaveLength(1));
  });

  it('receiver: the warning, confirm received with a dialog, the dispute form', async () => {
    let current = PAID_AS_RECEIVER;
    const mocked = api({
      c2cOrder: () => current,
      c2cConfirm: () => {
        current = { ...PAID_AS_RECEIVER, state: 'completed', end_reason: 'confirmed', pay_to: null };
        return current;
      },
    });
    const { user } = await renderC2c({ route: '/c2c_submit?order_id=cod_2' });
    expect(await screen.findByTestId('c2c-received-warning')).toHaveTextContent('not a payment');
    expect(screen.getByTestId('order-paid-info')).toHaveTextContent('HARBOUR DESK LTD');
    expect(screen.getByTestId('order-deadline')).toHaveAttribute('data-kind', 'confirm_by');
    await user.click(screen.getByTestId('order-dispute'));
    expect(screen.getByTestId('c2c-dispute-form')).toBeInTheDocument();
    expect(screen.getByTestId('dispute-submit')).toBeDisabled();
    await user.click(screen.getByTestId('order-received'));
    await user.click(await screen.findByTestId('order-received-confirm-yes'));
    await waitFor(() => expect(mocked.callsTo('c2cConfirm')).toHaveLength(1));
    expect(await screen.findByTestId('order-end-reason')).toHaveAttribute('data-reason', 'confirmed');
  });

  it('chat: messages, sending one adds it without a reload', async () => {
    const mocked = api({
      c2cSendMessage: () => message(3, { from: 'customer', body: 'Sent from the test' }),
    });
    const { user } = await renderC2c({ route: '/c2c_submit?order_id=cod_1' });
    expect(await screen.findAllByTestId('chat-message')).toHaveLength(2);
    await user.type(screen.getByTestId('chat-input'), 'Sent from the test');
    await user.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(screen.getAllByTestId('chat-message')).toHaveLength(3));
    expect(mocked.callsTo('c2cSendMessage')[0]?.params.body).toBe('Sent from the test');
    expect(mocked.callsTo('c2cMessages')).toHaveLength(1);
  });

  it('finished: no payment details, the escrow went back, how it ended', async () => {
    api();
    await renderC2c({ route: '/c2c_submit?order_id=cod_3' });
    expect(await screen.findByTestId('order-end-reason')).toHaveTextContent('Not paid by the deadline');
    expect(screen.queryByTestId('c2c-pay-to')).toBeNull();
    expect(screen.queryByTestId('c2c-payer-form')).toBeNull();
    expect(screen.getByTestId('order-escrow')).toHaveAttribute('data-held', 'false');
  });

  it('an order that is not mine is refused', async () => {
    api();
    await renderC2c({ route: '/c2c_submit?order_id=cod_x' });
    expect(await screen.findByTestId('c2c-refusal')).toHaveAttribute('data-reason', 'NOT_FOUND');
  });
});

describe('/c2c_account: collection accounts', () => {
  it('lists, checks an IBAN in the browser, saves with the verified name', async () => {
    const mocked = api({ c2cAccountSave: () => account({ account_id: 'cac_2' }) });
    const { user } = await renderC2c({ route: '/c2c_account' });
    expect(await screen.findAllByTestId('c2c-account')).toHaveLength(1);
    expect(await screen.findByTestId('account-name')).toHaveValue(REAL_NAME);
    await user.type(screen.getByTestId('account-bank-name'), 'Deutsche Bank');
    await user.type(screen.getByTestId('account-number'), 'DE89 3704 0044 0532 0130 01');
    await user.click(screen.getByTestId('account-save'));
    expect(await screen.findByText(/This IBAN is not valid/)).toBeInTheDocument();
    expect(mocked.callsTo('c2cAccountSave')).toHaveLength(0);
    await user.clear(screen.getByTestId('account-number'));
    await user.type(screen.getByTestId('account-number'), 'DE89 3704 0044 0532 0130 00');
    await user.click(screen.getByTestId('account-save'));
    await waitFor(() => expect(mocked.callsTo('c2cAccountSave')).toHaveLength(1));
    expect(mocked.callsTo('c2cAccountSave')[0]?.params).toMatchObject({
      method: 'bank',
      name: REAL_NAME,
      iban: 'DE89370400440532013000',
    });
  });

  it('deletes after asking', async () => {
    const mocked = api({ c2cAccountDelete: () => ({ account_id: 'cac_1' }) });
    const { user } = await renderC2c({ route: '/c2c_account', viewport: 'phone' });
    await user.click(await screen.findByTestId('account-delete'));
    await user.click(await screen.findByTestId('account-delete-yes'));
    await waitFor(() => expect(mocked.callsTo('c2cAccountDelete')).toHaveLength(1));
  });

  it('without a verified name: says so, with the way to fix it', async () => {
    api({ getVerification: () => verification(null), c2cAccounts: () => [] });
    await renderC2c({ route: '/c2c_account' });
    expect(await screen.findByTestId('c2c-accounts-noname')).toBeInTheDocument();
    expect(screen.getByTestId('c2c-accounts-empty')).toBeInTheDocument();
  });
});

describe('/c2c_rule: the rules from c2cRules', () => {
  it('states fees, validity, limits in order, four eyes and the auto rule from the data', async () => {
    api({
      c2cRules: () => ({
        ...RULES,
        default_window_minutes: 175,
        four_eyes_above: '12345',
        order_tier: 'advanced',
      }),
    });
    await renderC2c({ route: '/c2c_rule' });
    expect(await screen.findByTestId('rule-window')).toHaveTextContent('175 min');
    // The verification an order needs under the active profile, from the data.
    expect(screen.getByTestId('rule-order-tier')).toHaveAttribute('data-rule', 'advanced');
    expect(screen.getByTestId('rule-order-tier')).toHaveTextContent('needs advanced verification');
    expect(screen.getByTestId('rule-fee-orderer')).toHaveAttribute('data-value', '0');
    expect(screen.getAllByTestId('rule-limit').map((r) => r.dataset.rule)).toEqual(RULES.limits_order);
    expect(screen.getByTestId('rule-four-eyes')).toHaveTextContent('12,345 USDT');
    expect(screen.getAllByTestId('rule-auto')).toHaveLength(3);
  });
});
