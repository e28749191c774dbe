// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Refusal } from '../../test/api.ts';
import { NOW } from '../../test/fixtures.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import DisputesScreen from './DisputesScreen.tsx';
import OrdersScreen from './OrdersScreen.tsx';
import { ALL, c2cApi, DISPUTED, detail, order } from './testing.ts';

const rowOf = async (testId: string, id: string) => {
  const rows = await screen.findAllByTestId(testId);
  const row = rows.find((r) => r.dataset.order === id);
  if (!row) throw new Error(`no row ${id}`);
  return row;
};

/** A disputed order above the four-eyes threshold, its first decision recorded by `by`. */
const awaiting = (by: string) =>
  order({
    ...DISPUTED,
    amount: '25000',
    fiat_amount: '180000.00',
    first_decision: { outcome: 'release', reason: 'Bank slip matches', by, at: NOW - 60_000 },
    awaiting_second: true,
  });

/** The decision dialog (the dispute view is a drawer, itself a dialog). */
async function reasonDialog(): Promise<HTMLElement> {
  const input = await screen.findByTestId('reason-input');
  const dialog = input.closest('[role="dialog"]');
  if (!(dialog instanceof HTMLElement)) throw new Error('no dialog around the reason');
  return dialog;
}

async function openDispute(user: Awaited<ReturnType<typeof renderAdmin>>['user'], id = 'cod_200') {
  await user.click(within(await rowOf('c2c-dispute', id)).getByTestId('c2c-dispute-open'));
  return screen.findByTestId('c2c-dispute-view');
}

describe('C2C live orders', () => {
  it('lists the live orders by default, with number, side, merchant, customer, amounts, state and deadline', async () => {
    const api = c2cApi(ALL);
    const { user } = await renderAdmin(<OrdersScreen />);
    const row = await rowOf('c2c-order', 'cod_100');
    expect(api.callsTo('c2c/orders')[0]?.query).not.toHaveProperty('state');
    expect(row).toHaveTextContent('Customer buys');
    expect(row).toHaveTextContent('Bourse Desk');
    expect(row).toHaveTextContent('80012345');
    expect(within(row).getByTestId('c2c-order-amount')).toHaveTextContent('500.00 USDT');
    expect(within(row).getByTestId('c2c-order-fiat')).toHaveTextContent('3,600.00 CNY');
    expect(row.dataset.state).toBe('paid');
    expect(within(row).getByTestId('c2c-order-deadline')).not.toHaveTextContent('—');
    await user.click(screen.getByTestId('c2c-orders-state'));
    await user.click(await screen.findByRole('option', { name: 'Completed' }));
    await waitFor(() =>
      expect(api.callsTo('c2c/orders').at(-1)?.query).toMatchObject({ state: 'completed', page: '1' }),
    );
  });

  it('opens an order: timeline, chat, the payment submitted with its proof link; no staff box unless disputed', async () => {
    c2cApi(ALL);
    const { user } = await renderAdmin(<OrdersScreen />);
    await user.click(within(await rowOf('c2c-order', 'cod_100')).getByTestId('c2c-order-open'));
    const drawer = await screen.findByTestId('c2c-order-detail');
    const payment = await within(drawer).findByTestId('c2c-order-payment');
    expect(payment).toHaveTextContent('Alice Chan');
    expect(payment).toHaveTextContent('HSBC');
    const proof = within(payment).getByRole('link');
    expect(proof).toHaveAttribute('href', 'https://files.test/upl_proof?sig=1');
    expect(
      within(drawer)
        .getAllByTestId('c2c-event')
        .map((e) => e.dataset.event),
    ).toEqual(['match', 'mark_paid']);
    expect(within(drawer).getByTestId('c2c-order-chat')).toHaveTextContent('No messages.');
    expect(within(drawer).getByTestId('c2c-staff-message-closed')).toBeInTheDocument();
    expect(within(drawer).queryByTestId('c2c-staff-message')).toBeNull();
  });

  it('staff write in a disputed order’s chat: what is posted', async () => {
    const api = c2cApi(ALL, {
      'c2c/orders/cod_200/message': () => ({
        seq: 6,
        from: 'staff',
        kind: 'text',
        body: 'x',
        file_id: null,
        at: NOW,
      }),
    });
    const { user } = await renderAdmin(<OrdersScreen />);
    await user.click(within(await rowOf('c2c-order', 'cod_200')).getByTestId('c2c-order-open'));
    const drawer = await screen.findByTestId('c2c-order-detail');
    const chat = await within(drawer).findByTestId('c2c-order-chat');
    expect(
      within(chat)
        .getAllByTestId('c2c-message')
        .map((m) => m.dataset.from),
    ).toEqual(['customer', 'merchant', 'customer', 'merchant', 'staff']);
    expect(chat).toHaveTextContent('Buyer 80012345');
    expect(chat).toHaveTextContent('Seller 80000001');
    await fill(user, within(drawer).getByTestId('c2c-staff-message-input'), 'Please upload your statement.');
    await user.click(within(drawer).getByTestId('c2c-staff-message-send'));
    await waitFor(() =>
      expect(api.callsTo('c2c/orders/cod_200/message')[0]?.body).toMatchObject({
        body: 'Please upload your statement.',
      }),
    );
    expect(await within(drawer).findByTestId('c2c-staff-message-note')).toHaveTextContent('Message sent');
  });

  it('has no staff message box without c2c.write', async () => {
    c2cApi(['c2c.read']);
    const { user } = await renderAdmin(<OrdersScreen />);
    await user.click(within(await rowOf('c2c-order', 'cod_200')).getByTestId('c2c-order-open'));
    const drawer = await screen.findByTestId('c2c-order-detail');
    await within(drawer).findByTestId('c2c-order-chat');
    expect(within(drawer).queryByTestId('c2c-staff-message')).toBeNull();
  });
});

describe('C2C disputes', () => {
  it('shows both sides’ evidence side by side: notes, payment, uploads through audited links, messages', async () => {
    c2cApi(ALL);
    const { user } = await renderAdmin(<DisputesScreen />);
    const view = await openDispute(user);
    const buyer = await within(view).findByTestId('c2c-evidence-buyer');
    const seller = within(view).getByTestId('c2c-evidence-seller');
    expect(buyer.dataset.uid).toBe('80012345');
    expect(seller.dataset.uid).toBe('80000001');
    expect(within(buyer).getByTestId('c2c-evidence-note')).toHaveTextContent('I paid 3600 CNY at 10:02');
    expect(within(seller).queryByTestId('c2c-evidence-note')).toBeNull();
    expect(within(buyer).getByTestId('c2c-order-payment')).toHaveTextContent('Alice Chan');
    const uploads = within(buyer).getByTestId('c2c-evidence-uploads');
    expect(
      within(uploads)
        .getAllByTestId('c2c-file')
        .map((f) => f.dataset.file),
    ).toEqual(['upl_proof', 'upl_slip']);
    expect(within(uploads).getAllByRole('img')).toHaveLength(2);
    expect(within(seller).getByTestId('c2c-evidence-uploads')).toHaveTextContent(
      'upl_statement: no link available',
    );
    expect(within(buyer).getByTestId('c2c-evidence-messages')).toHaveTextContent('Paid, please release.');
    expect(within(buyer).getByTestId('c2c-evidence-messages')).not.toHaveTextContent('Nothing arrived yet.');
    expect(within(seller).getByTestId('c2c-evidence-messages')).toHaveTextContent('Nothing arrived yet.');
    expect(within(view).getByTestId('c2c-evidence-staff')).toHaveTextContent('We are looking at it.');
    expect(within(view).getByTestId('c2c-dispute-opened')).toHaveTextContent(
      'Opened by Buyer 80012345 (Paid, not confirmed)',
    );
    expect(
      within(view)
        .getAllByTestId('c2c-event')
        .map((e) => e.dataset.event),
    ).toContain('dispute');
  });

  it('puts the merchant in the buyer’s column when the customer sells', async () => {
    const sell = order({ ...DISPUTED, order_id: 'cod_300', side: 'sell' });
    c2cApi(ALL, {
      'c2c/disputes': () => ({ total: 1, page: 1, page_size: 50, items: [sell] }),
      'c2c/orders/cod_300': () => detail(sell),
    });
    const { user } = await renderAdmin(<DisputesScreen />);
    const view = await openDispute(user, 'cod_300');
    const buyer = await within(view).findByTestId('c2c-evidence-buyer');
    expect(buyer.dataset.role).toBe('merchant');
    expect(buyer.dataset.uid).toBe('80000001');
    expect(within(view).getByTestId('c2c-evidence-seller').dataset.uid).toBe('80012345');
  });

  it('releases to the buyer after saying what happens to the money, with a reason', async () => {
    const api = c2cApi(ALL, {
      'c2c/orders/cod_200/decide': () => order({ ...DISPUTED, state: 'completed' }),
    });
    const { user } = await renderAdmin(<DisputesScreen />);
    const view = await openDispute(user);
    await user.click(await within(view).findByTestId('c2c-decide-release'));
    const dialog = await reasonDialog();
    expect(within(dialog).getByTestId('c2c-decide-consequence')).toHaveTextContent(
      'The 500 USDT in this order’s escrow go to the buyer 80012345. The order ends completed. This cannot be undone.',
    );
    expect(within(dialog).getByTestId('c2c-decide-four-eyes')).toHaveTextContent('different staff member');
    await fill(user, within(dialog).getByTestId('reason-input'), 'Bank slip matches the order');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() =>
      expect(api.callsTo('c2c/orders/cod_200/decide')[0]?.body).toMatchObject({
        outcome: 'release',
        reason: 'Bank slip matches the order',
      }),
    );
    expect(await within(view).findByTestId('c2c-decision-note')).toHaveTextContent(
      'Order cod_200 is now Completed',
    );
  });

  it('says what returning to the seller does before confirming', async () => {
    c2cApi(ALL);
    const { user } = await renderAdmin(<DisputesScreen />);
    const view = await openDispute(user);
    await user.click(await within(view).findByTestId('c2c-decide-return'));
    const dialog = await reasonDialog();
    expect(within(dialog).getByTestId('c2c-decide-consequence')).toHaveTextContent(
      'The 500 USDT in this order’s escrow go back to the seller 80000001; the buyer 80012345 receives no coins',
    );
    expect(within(dialog).getByTestId('c2c-decide-consequence')).toHaveTextContent('3,600.00 CNY');
  });

  it('four eyes: the first decision is recorded and then shown as pending, nothing moved', async () => {
    let decided = false;
    const api = c2cApi(ALL, {
      'c2c/orders/cod_200': () => detail(decided ? awaiting('stf_me') : DISPUTED),
      'c2c/orders/cod_200/decide': () => {
        decided = true;
        return awaiting('stf_me');
      },
    });
    const { user } = await renderAdmin(<DisputesScreen />);
    const view = await openDispute(user);
    await user.click(await within(view).findByTestId('c2c-decide-release'));
    const dialog = await reasonDialog();
    await fill(user, within(dialog).getByTestId('reason-input'), 'Bank slip matches');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await within(view).findByTestId('c2c-decision-note')).toHaveTextContent(
      'Decision recorded (release to the buyer): it waits for a different staff member to confirm.',
    );
    expect(api.callsTo('c2c/orders/cod_200/decide')[0]?.body).toMatchObject({
      outcome: 'release',
      reason: 'Bank slip matches',
    });
    const pending = await within(view).findByTestId('c2c-decision-pending');
    expect(pending).toHaveTextContent('Pending: stf_me decided to release to the buyer');
    expect(pending).toHaveTextContent('Nothing has moved');
    expect(within(view).getByTestId('c2c-decision-mine')).toBeInTheDocument();
  });

  it('four eyes: a different staff member confirms the same outcome; a different outcome is refused in place', async () => {
    const api = c2cApi(ALL, {
      'c2c/disputes': () => ({ total: 1, page: 1, page_size: 50, items: [awaiting('stf_other')] }),
      'c2c/orders/cod_200': () => detail(awaiting('stf_other')),
      'c2c/orders/cod_200/decide': (c: { body: Record<string, unknown> | null }) =>
        c.body?.outcome === 'return'
          ? new Refusal(
              'The first decision was release: confirm it or leave it for review',
              'C2C_DECISION_DIFFERS',
            )
          : order({ ...awaiting('stf_other'), state: 'completed', awaiting_second: false }),
    });
    const { user } = await renderAdmin(<DisputesScreen />);
    const view = await openDispute(user);
    const pending = await within(view).findByTestId('c2c-decision-pending');
    expect(pending).toHaveTextContent('stf_other');
    expect(pending.dataset.outcome).toBe('release');
    expect(within(view).queryByTestId('c2c-decision-mine')).toBeNull();
    expect(within(view).getByTestId('c2c-decide-release')).toHaveTextContent('Confirm: release to the buyer');
    await user.click(within(view).getByTestId('c2c-decide-return'));
    let dialog = await reasonDialog();
    await fill(user, within(dialog).getByTestId('reason-input'), 'I think the seller is right');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await within(dialog).findByTestId('error-note')).toHaveTextContent(
      'The first decision was release',
    );
    await user.click(within(dialog).getByText('Cancel'));
    await waitFor(() => expect(screen.queryByTestId('reason-input')).toBeNull());
    await user.click(within(view).getByTestId('c2c-decide-release'));
    dialog = await reasonDialog();
    expect(within(dialog).getByTestId('c2c-decide-four-eyes')).toHaveTextContent(
      'stf_other recorded “release to the buyer”',
    );
    expect(within(dialog).getByTestId('c2c-decide-consequence')).toHaveTextContent('The 25,000 USDT');
    await fill(user, within(dialog).getByTestId('reason-input'), 'Confirmed: slip matches');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() =>
      expect(api.callsTo('c2c/orders/cod_200/decide').at(-1)?.body).toMatchObject({
        outcome: 'release',
        reason: 'Confirmed: slip matches',
      }),
    );
    expect(await within(view).findByTestId('c2c-decision-note')).toHaveTextContent('is now Completed');
  });

  it('four eyes: the one who decided first sees it is theirs, and the self-confirm refusal stays in place', async () => {
    const api = c2cApi(ALL, {
      'c2c/disputes': () => ({ total: 1, page: 1, page_size: 50, items: [awaiting('stf_me')] }),
      'c2c/orders/cod_200': () => detail(awaiting('stf_me')),
      'c2c/orders/cod_200/decide': () =>
        new Refusal('Four eyes: another staff member must confirm this decision', 'C2C_DECIDE_SELF'),
    });
    const { user } = await renderAdmin(<DisputesScreen />);
    expect(await screen.findByTestId('c2c-dispute-awaiting')).toHaveTextContent(
      'First decision: release to the buyer (stf_me)',
    );
    const view = await openDispute(user);
    expect(await within(view).findByTestId('c2c-decision-mine')).toHaveTextContent(
      'You recorded this decision',
    );
    await user.click(within(view).getByTestId('c2c-decide-release'));
    const dialog = await reasonDialog();
    await fill(user, within(dialog).getByTestId('reason-input'), 'Confirming my own');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await within(dialog).findByTestId('error-note')).toHaveTextContent(
      'Four eyes: another staff member must confirm this decision',
    );
    expect(api.callsTo('c2c/orders/cod_200/decide')).toHaveLength(1);
  });

  it('has no decision without c2c.decide', async () => {
    c2cApi(['c2c.read', 'c2c.write']);
    const { user } = await renderAdmin(<DisputesScreen />);
    expect(await screen.findByTestId('c2c-no-permission')).toHaveAttribute('data-permission', 'c2c.decide');
    const view = await openDispute(user);
    await within(view).findByTestId('c2c-evidence-buyer');
    expect(within(view).queryByTestId('c2c-decide-release')).toBeNull();
    expect(within(view).queryByTestId('c2c-decide-return')).toBeNull();
    // c2c.write still lets them write in the chat.
    expect(within(view).getByTestId('c2c-staff-message')).toBeInTheDocument();
  });
});
