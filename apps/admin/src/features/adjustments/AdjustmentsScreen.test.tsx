// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockedApi, mockApi, Refusal, STAFF_ID, signIn } from '../../test/api.ts';
import { adjustment } from '../../test/fixtures.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import AdjustmentsScreen from './AdjustmentsScreen.tsx';

const RTOKEN = /^[A-Za-z0-9]{12}$/;

const PENDING = [
  adjustment({}),
  adjustment({
    adjustment_id: 'adj_mine',
    maker_id: STAFF_ID,
    amount: '0.5',
    currency: 'BTC',
    value_usdt: null,
  }),
];
const RECENT = [
  adjustment({
    adjustment_id: 'adj_old',
    direction: 'debit',
    amount: '12345.6',
    value_usdt: '12345.6',
    status: 'posted',
    checker_id: 'stf_checker',
    entry_id: 'jnl_9',
  }),
];
const NAMES = { stf_other: 'Olive Maker', stf_checker: 'Chuck Checker', [STAFF_ID]: 'Ops' };

function setUp(permissions = ['adjustments.create', 'adjustments.approve']): MockedApi {
  const api = mockApi({
    getAdjustments: ({ query }) => ({
      list: query.status === 'pending' ? PENDING : RECENT,
      staff_names: NAMES,
      threshold_usdt: '10000',
    }),
  });
  signIn(api, permissions);
  return api;
}

type User = Awaited<ReturnType<typeof renderAdmin>>['user'];

async function fillForm(user: User, values: { customer?: string; amount?: string; reason?: string }) {
  if (values.customer !== undefined) await fill(user, screen.getByTestId('adjust-customer'), values.customer);
  if (values.amount !== undefined) await fill(user, screen.getByTestId('adjust-amount'), values.amount);
  if (values.reason !== undefined) await fill(user, screen.getByTestId('adjust-reason'), values.reason);
}

describe('the balance adjustment form', () => {
  it('refuses to open the confirmation while a required field is empty', async () => {
    const api = setUp();
    const { user } = await renderAdmin(<AdjustmentsScreen />, { route: '/adjustments' });
    await screen.findAllByTestId('adjustment-row');

    await fillForm(user, { customer: 'usr_alice', reason: 'Goodwill' });
    await user.click(screen.getByTestId('adjust-submit'));
    expect(screen.queryByTestId('adjust-summary')).toBeNull();

    await fillForm(user, { customer: '', amount: '10' });
    await user.click(screen.getByTestId('adjust-submit'));
    expect(screen.queryByTestId('adjust-summary')).toBeNull();
    expect(api.callsTo('createAdjustment')).toHaveLength(0);
  });

  it('states what it will do, sends nothing before the confirmation, then posts the body with an rtoken', async () => {
    const api = setUp();
    api.on({
      createAdjustment: () => adjustment({ adjustment_id: 'adj_new', status: 'posted', entry_id: 'jnl_42' }),
    });
    const { user } = await renderAdmin(<AdjustmentsScreen />, { route: '/adjustments?customer=usr_bob' });
    expect(screen.getByTestId('adjust-customer')).toHaveValue('usr_bob');
    await screen.findAllByTestId('adjustment-row');
    const listsBefore = api.callsTo('getAdjustments').length;

    await fillForm(user, { amount: ' 25.5 ', reason: 'Refund of a double fee' });
    await user.click(screen.getByTestId('adjust-submit'));

    expect(await screen.findByTestId('adjust-summary')).toHaveTextContent('+25.5 USDT');
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('usr_bob');
    expect(dialog).toHaveTextContent('Refund of a double fee');
    expect(api.callsTo('createAdjustment')).toHaveLength(0);

    await user.click(screen.getByTestId('adjust-confirm'));
    expect(await screen.findByTestId('adjust-result')).toHaveTextContent('Posted: entry jnl_42');
    const [sent] = api.callsTo('createAdjustment');
    expect(sent?.method).toBe('POST');
    expect(sent?.authorization).toBe('Bearer stk_test');
    const { rtoken, ...body } = sent?.body ?? {};
    expect(rtoken).toMatch(RTOKEN);
    expect(body).toEqual({
      lang: 'en',
      customer_id: 'usr_bob',
      account_type: 'spot',
      currency: 'USDT',
      direction: 'credit',
      amount: '25.5',
      reason: 'Refund of a double fee',
    });
    // The amount and reason are cleared for the next one, and the lists are read again.
    expect(screen.getByTestId('adjust-amount')).toHaveValue('');
    expect(screen.getByTestId('adjust-reason')).toHaveValue('');
    await waitFor(() => expect(api.callsTo('getAdjustments').length).toBeGreaterThan(listsBefore));
  });

  it('sends a debit as a debit, and a cancelled confirmation sends nothing', async () => {
    const api = setUp();
    api.on({ createAdjustment: () => adjustment({ status: 'pending', direction: 'debit' }) });
    const { user } = await renderAdmin(<AdjustmentsScreen />, { route: '/adjustments' });
    await fillForm(user, { customer: 'usr_carol', amount: '7', reason: 'Chargeback' });
    await user.click(screen.getByText('Debit (take)'));
    await user.click(screen.getByTestId('adjust-submit'));
    expect(await screen.findByTestId('adjust-summary')).toHaveTextContent('−7 USDT');

    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('adjust-summary')).toBeNull());
    expect(api.callsTo('createAdjustment')).toHaveLength(0);

    await user.click(screen.getByTestId('adjust-submit'));
    await user.click(await screen.findByTestId('adjust-confirm'));
    expect(await screen.findByTestId('adjust-result')).toHaveTextContent(
      'Waiting for a second staff member to approve',
    );
    expect(api.callsTo('createAdjustment')[0]?.body).toMatchObject({ direction: 'debit', amount: '7' });
  });

  it("shows the server's refusal and keeps what was typed", async () => {
    const api = setUp();
    api.on({ createAdjustment: () => new Refusal('Insufficient balance to debit', 'INSUFFICIENT_BALANCE') });
    const { user } = await renderAdmin(<AdjustmentsScreen />, { route: '/adjustments' });
    await fillForm(user, { customer: 'usr_dan', amount: '99', reason: 'Test' });
    await user.click(screen.getByTestId('adjust-submit'));
    await user.click(await screen.findByTestId('adjust-confirm'));
    expect(await screen.findByTestId('error-note')).toHaveTextContent('Insufficient balance to debit');
    expect(screen.getByTestId('adjust-amount')).toHaveValue('99');
    expect(screen.queryByTestId('adjust-result')).toBeNull();
  });
});

describe('the adjustments tables', () => {
  it('list pending and recent adjustments with formatted amounts, names and statuses', async () => {
    setUp();
    await renderAdmin(<AdjustmentsScreen />, { route: '/adjustments' });
    const [pending, recent] = await screen.findAllByTestId('adjustments-table');
    const pendingRows = within(pending as HTMLElement).getAllByTestId('adjustment-row');
    expect(pendingRows).toHaveLength(2);
    expect(pendingRows[0]).toHaveTextContent('+1,500.00 USDT');
    expect(pendingRows[0]).toHaveTextContent('Olive Maker');
    expect(pendingRows[1]).toHaveTextContent('+0.50000000 BTC');
    expect(pendingRows[1]).toHaveTextContent('no price');
    const recentRow = within(recent as HTMLElement).getByTestId('adjustment-row');
    expect(recentRow).toHaveTextContent('-12,345.60 USDT');
    expect(recentRow).toHaveTextContent('Chuck Checker');
    expect(screen.getByText(/Above 10000 USDT/)).toBeInTheDocument();
  });

  it("offers approve and reject on others' pending adjustments only, and approves with a reason", async () => {
    const api = setUp();
    api.on({ approveAdjustment: () => adjustment({ status: 'posted' }) });
    const { user } = await renderAdmin(<AdjustmentsScreen />, { route: '/adjustments' });
    const [pending] = await screen.findAllByTestId('adjustments-table');
    const rows = within(pending as HTMLElement).getAllByTestId('adjustment-row');
    expect(within(rows[1] as HTMLElement).queryByTestId('adjustment-approve')).toBeNull();
    expect(rows[1]).toHaveTextContent('Yours');

    await user.click(within(rows[0] as HTMLElement).getByTestId('adjustment-approve'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('+1,500 USDT · usr_alice · Goodwill for the outage');
    expect(api.callsTo('approveAdjustment')).toHaveLength(0);
    await fill(user, screen.getByTestId('reason-input'), 'Checked the ticket');
    await user.click(screen.getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('approveAdjustment')).toHaveLength(1));
    expect(api.callsTo('approveAdjustment')[0]?.body).toMatchObject({
      adjustment_id: 'adj_1',
      reason: 'Checked the ticket',
    });
  });

  it('shows no decide buttons to staff who may not approve', async () => {
    setUp(['adjustments.create']);
    await renderAdmin(<AdjustmentsScreen />, { route: '/adjustments' });
    await screen.findAllByTestId('adjustment-row');
    expect(screen.queryByTestId('adjustment-approve')).toBeNull();
  });
});
