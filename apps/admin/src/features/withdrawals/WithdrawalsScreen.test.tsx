// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockedApi, mockApi, Refusal, signIn } from '../../test/api.ts';
import { withdrawal } from '../../test/fixtures.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import WithdrawalsScreen from './WithdrawalsScreen.tsx';

function setUp(
  list = [withdrawal(), withdrawal({ id: 'wdr_2', amount: '20', fee: '1', received: '19', risk: [] })],
): MockedApi {
  const api = mockApi({
    'withdrawals/queue': ({ query }) =>
      query.state === 'pending' ? { list, total: list.length } : { list: [], total: 0 },
  });
  signIn(api, ['withdrawals.read', 'withdrawals.decide']);
  return api;
}

describe('the withdrawals queue', () => {
  it('renders the rows the queue answered, with formatted amounts and named risk flags', async () => {
    const api = setUp();
    await renderAdmin(<WithdrawalsScreen />, { route: '/withdrawals' });
    const rows = await screen.findAllByTestId('withdrawal-row');
    expect(rows).toHaveLength(2);
    const first = rows[0] as HTMLElement;
    expect(first).toHaveTextContent('Alice Chan');
    expect(first).toHaveTextContent('UID 80012345');
    expect(first).toHaveTextContent('USDT · TRC20');
    expect(first).toHaveTextContent('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE');
    expect(first).toHaveTextContent('1,500.00');
    expect(first).toHaveTextContent('1,499.00');
    expect(within(first).getByTestId('risk-new_account')).toHaveTextContent(
      'New account: 3 days old (under 7)',
    );
    expect(within(first).getByTestId('risk-shared_destination')).toHaveTextContent(
      'Address used by 2 other customer(s)',
    );
    expect(within(rows[1] as HTMLElement).queryByTestId('risk-flags')).toBeNull();
    expect(api.callsTo('withdrawals/queue')[0]?.query).toMatchObject({
      state: 'pending',
      page: '1',
      page_size: '20',
    });
  });

  it('asks for confirmation with the amount, customer and destination, and approves with the reason', async () => {
    const api = setUp();
    api.on({ 'withdrawals/approve': () => ({ ok: true }) });
    const { user } = await renderAdmin(<WithdrawalsScreen />, { route: '/withdrawals' });
    const [row] = await screen.findAllByTestId('withdrawal-row');
    await user.click(within(row as HTMLElement).getByTestId('withdrawal-approve'));

    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Approve withdrawal');
    const summary = within(dialog).getByTestId('money-summary');
    expect(within(summary).getByTestId('money-amount')).toHaveTextContent('1,500 USDT');
    expect(summary).toHaveTextContent('1,499 USDT');
    expect(summary).toHaveTextContent('Alice Chan · UID 80012345');
    expect(summary).toHaveTextContent('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE');
    expect(api.callsTo('withdrawals/approve')).toHaveLength(0);

    const queueReads = api.callsTo('withdrawals/queue').length;
    await fill(user, within(dialog).getByTestId('reason-input'), 'Deposit seen on chain');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await screen.findByTestId('withdrawal-notice')).toHaveTextContent(
      'Approved and sent to the payout provider',
    );
    expect(api.callsTo('withdrawals/approve')[0]?.body).toMatchObject({
      withdrawal_id: 'wdr_1',
      reason: 'Deposit seen on chain',
    });
    await waitFor(() => expect(api.callsTo('withdrawals/queue').length).toBeGreaterThan(queueReads));
  });

  it('rejects the row chosen, and a refusal stays in the dialog', async () => {
    const api = setUp();
    let refusals = 1;
    api.on({
      'withdrawals/reject': () => (refusals-- > 0 ? new Refusal('Reason cannot be empty') : { ok: true }),
    });
    const { user } = await renderAdmin(<WithdrawalsScreen />, { route: '/withdrawals' });
    const rows = await screen.findAllByTestId('withdrawal-row');
    await user.click(within(rows[1] as HTMLElement).getByTestId('withdrawal-reject'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('money-amount')).toHaveTextContent('20 USDT');

    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await within(dialog).findByTestId('error-note')).toHaveTextContent('Reason cannot be empty');
    await fill(user, within(dialog).getByTestId('reason-input'), 'Destination belongs to a scam report');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await screen.findByTestId('withdrawal-notice')).toHaveTextContent('Rejected; funds unfrozen');
    const sent = api.callsTo('withdrawals/reject');
    expect(sent).toHaveLength(2);
    expect(sent[1]?.body).toMatchObject({
      withdrawal_id: 'wdr_2',
      reason: 'Destination belongs to a scam report',
    });
    expect(api.callsTo('withdrawals/approve')).toHaveLength(0);
  });

  it("opens the customer drawer: identity, activity and the destination's history", async () => {
    setUp();
    const { user } = await renderAdmin(<WithdrawalsScreen />, { route: '/withdrawals' });
    const [row] = await screen.findAllByTestId('withdrawal-row');
    await user.click(within(row as HTMLElement).getByTestId('customer-cell'));
    const drawer = await screen.findByRole('dialog');
    expect(drawer).toHaveTextContent('1,500 USDT · Alice Chan');
    expect(drawer).toHaveTextContent('Level 1 · not verified');
    expect(drawer).toHaveTextContent('2 × · 2,500 USDT');
    expect(drawer).toHaveTextContent('Never: a new destination');
    expect(within(drawer).getByRole('link', { name: 'Open the customer page' })).toHaveAttribute(
      'href',
      '/customers/detail?id=usr_alice',
    );
  });

  it('reads another state when the filter changes, and says when it is empty', async () => {
    const api = setUp();
    const { user } = await renderAdmin(<WithdrawalsScreen />, { route: '/withdrawals' });
    await screen.findAllByTestId('withdrawal-row');
    await user.click(screen.getByText('Sending'));
    expect(await screen.findByText('Nothing here.')).toBeInTheDocument();
    expect(screen.queryByTestId('withdrawal-row')).toBeNull();
    expect(api.callsTo('withdrawals/queue').at(-1)?.query).toMatchObject({ state: 'processing', page: '1' });
  });
});
