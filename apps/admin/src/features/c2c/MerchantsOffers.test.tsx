// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Refusal } from '../../test/api.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import MerchantsScreen from './MerchantsScreen.tsx';
import OffersScreen from './OffersScreen.tsx';
import { ALL, c2cApi } from './testing.ts';

const rowOf = async (testId: string, key: string, id: string) => {
  const rows = await screen.findAllByTestId(testId);
  const row = rows.find((r) => r.dataset[key] === id);
  if (!row) throw new Error(`no row ${id}`);
  return row;
};
const merchantRow = (id: string) => rowOf('c2c-merchant', 'merchant', id);
const offerRow = (id: string) => rowOf('c2c-offer', 'offer', id);

describe('C2C merchants', () => {
  it('lists merchants with uid, operator flag, state, completion rate, release time and open offers', async () => {
    c2cApi(ALL);
    await renderAdmin(<MerchantsScreen />);
    const desk = await merchantRow('cmr_desk');
    expect(desk).toHaveTextContent('80000001');
    expect(within(desk).getByTestId('c2c-merchant-operator-flag')).toHaveTextContent('Operator desk');
    expect(within(desk).getByTestId('c2c-merchant-rate')).toHaveTextContent('98.50%');
    expect(within(desk).getByTestId('c2c-merchant-rate')).toHaveTextContent('120 orders done');
    expect(within(desk).getByTestId('c2c-merchant-release')).toHaveTextContent('7 min');
    // Two offers of the desk, one active.
    await waitFor(() => expect(within(desk).getByTestId('c2c-merchant-offers')).toHaveTextContent('1'));
    const lee = await merchantRow('cmr_lee');
    expect(lee.dataset.state).toBe('pending');
    expect(within(lee).queryByTestId('c2c-merchant-operator-flag')).toBeNull();
    expect(within(lee).getByTestId('c2c-merchant-rate')).toHaveTextContent('—');
    expect(within(lee).getByTestId('c2c-merchant-approve')).toBeInTheDocument();
    expect(within(desk).queryByTestId('c2c-merchant-approve')).toBeNull();
    expect(within(desk).getByTestId('c2c-merchant-suspend')).toBeInTheDocument();
  });

  it('adds a merchant by uid with a reason, and shows the tier refusal in the form', async () => {
    const api = c2cApi(ALL, {
      'c2c/merchants': () => [],
    });
    api.on({
      'c2c/merchants': (c) =>
        c.method === 'POST'
          ? new Refusal('Merchants need advanced verification approved', 'C2C_MERCHANT_TIER')
          : [],
    });
    const { user } = await renderAdmin(<MerchantsScreen />);
    await user.click(await screen.findByTestId('c2c-merchant-add'));
    const form = await screen.findByTestId('c2c-merchant-form');
    await fill(user, within(form).getByTestId('c2c-merchant-uid'), '80055555');
    await fill(user, within(form).getByTestId('c2c-merchant-name'), 'Wong OTC');
    await user.click(within(form).getByTestId('c2c-merchant-operator'));
    await user.click(within(form).getByTestId('c2c-merchant-submit'));
    // No reason yet: nothing is posted.
    expect(api.calls.filter((c) => c.call === 'c2c/merchants' && c.method === 'POST')).toHaveLength(0);
    await fill(user, within(form).getByTestId('c2c-merchant-reason'), 'Vetted by compliance');
    await user.click(within(form).getByTestId('c2c-merchant-submit'));
    expect(await within(form).findByTestId('error-note')).toHaveTextContent(
      'Merchants need advanced verification approved',
    );
    const posts = api.calls.filter((c) => c.call === 'c2c/merchants' && c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body).toMatchObject({
      uid: '80055555',
      name: 'Wong OTC',
      is_operator: true,
      reason: 'Vetted by compliance',
    });
    api.on({
      'c2c/merchants': (c) => (c.method === 'POST' ? { merchant_id: 'cmr_wong', state: 'approved' } : []),
    });
    await user.click(within(form).getByTestId('c2c-merchant-submit'));
    expect(await screen.findByTestId('c2c-note')).toHaveTextContent(
      'Wong OTC (UID 80055555) is now an approved merchant: cmr_wong',
    );
  });

  it('approves and suspends with a reason, naming the merchant', async () => {
    const api = c2cApi(ALL, {
      'c2c/merchants/cmr_lee/state': () => ({ merchant_id: 'cmr_lee', state: 'approved' }),
      'c2c/merchants/cmr_desk/state': () => ({ merchant_id: 'cmr_desk', state: 'suspended' }),
    });
    const { user } = await renderAdmin(<MerchantsScreen />);
    await user.click(within(await merchantRow('cmr_lee')).getByTestId('c2c-merchant-approve'));
    let dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Approve: Lee Trading');
    await fill(user, within(dialog).getByTestId('reason-input'), 'ok');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await within(dialog).findByTestId('error-note')).toHaveTextContent('at least 3 characters');
    expect(api.callsTo('c2c/merchants/cmr_lee/state')).toHaveLength(0);
    await fill(user, within(dialog).getByTestId('reason-input'), 'KYC advanced approved');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('c2c/merchants/cmr_lee/state')).toHaveLength(1));
    expect(api.callsTo('c2c/merchants/cmr_lee/state')[0]?.body).toMatchObject({
      state: 'approved',
      reason: 'KYC advanced approved',
    });
    expect(await screen.findByTestId('c2c-note')).toHaveTextContent('Lee Trading is now Approved');

    await user.click(within(await merchantRow('cmr_desk')).getByTestId('c2c-merchant-suspend'));
    dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('customers can no longer order on their offers (1 active now)');
    await fill(user, within(dialog).getByTestId('reason-input'), 'Complaints under review');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() =>
      expect(api.callsTo('c2c/merchants/cmr_desk/state')[0]?.body).toMatchObject({
        state: 'suspended',
        reason: 'Complaints under review',
      }),
    );
  });

  it('shows no write buttons without c2c.write', async () => {
    c2cApi(['c2c.read']);
    await renderAdmin(<MerchantsScreen />);
    const lee = await merchantRow('cmr_lee');
    expect(screen.getByTestId('c2c-no-permission')).toHaveAttribute('data-permission', 'c2c.write');
    expect(screen.queryByTestId('c2c-merchant-add')).toBeNull();
    expect(within(lee).queryAllByRole('button')).toHaveLength(0);
  });
});

describe('C2C offers', () => {
  it('lists offers with price (spread and feed), limits, remaining and methods; filters by merchant and state', async () => {
    const api = c2cApi(ALL);
    const { user } = await renderAdmin(<OffersScreen />);
    const spread = await offerRow('cof_1');
    expect(within(spread).getByTestId('c2c-offer-price-cell')).toHaveTextContent('7.2150 CNY');
    expect(within(spread).getByTestId('c2c-offer-spread-text')).toHaveTextContent('50 bps to USD/CNH');
    expect(within(spread).getByTestId('c2c-offer-remaining')).toHaveTextContent('42,000.5');
    expect(spread).toHaveTextContent('Bank transfer: pay within 180 min');
    expect(spread).toHaveTextContent('Alipay: pay within 30 min · at most 1,000 USDT an order');
    expect(api.callsTo('c2c/offers')[0]?.query).toMatchObject({ page_size: '100' });
    await user.click(screen.getByTestId('c2c-offers-state'));
    await user.click(await screen.findByRole('option', { name: 'Paused' }));
    await waitFor(() =>
      expect(screen.getAllByTestId('c2c-offer').map((r) => r.dataset.offer)).toEqual(['cof_2']),
    );
  });

  it('creates an offer: what is posted, with the form’s own checks first', async () => {
    const api = c2cApi(ALL, {
      'c2c/offers': (c: { method: string }) =>
        c.method === 'POST' ? { offer_id: 'cof_9', state: 'active' } : [],
    });
    const { user } = await renderAdmin(<OffersScreen />);
    await user.click(await screen.findByTestId('c2c-offer-new'));
    const form = await screen.findByTestId('c2c-offer-form');
    await user.click(within(form).getByTestId('c2c-offer-submit'));
    const bad = await within(form).findByTestId('c2c-offer-bad');
    expect(bad.dataset.fields?.split(' ')).toEqual(
      expect.arrayContaining(['merchant_id', 'price', 'min_amount', 'max_amount', 'total_amount', 'reason']),
    );
    await user.click(within(form).getByTestId('c2c-offer-merchant'));
    await user.click(await screen.findByRole('option', { name: /Bourse Desk/ }));
    await fill(user, within(form).getByTestId('c2c-offer-price'), '7.25');
    await fill(user, within(form).getByTestId('c2c-offer-min'), '100');
    await fill(user, within(form).getByTestId('c2c-offer-max'), '2000.5');
    await fill(user, within(form).getByTestId('c2c-offer-total'), '10000');
    await fill(user, within(form).getByTestId('c2c-offer-window-bank'), '10');
    await user.click(within(form).getByTestId('c2c-offer-method-alipay'));
    await fill(user, within(form).getByTestId('c2c-offer-window-alipay'), '30');
    await fill(user, within(form).getByTestId('c2c-offer-cap-alipay'), '500');
    await fill(user, within(form).getByTestId('c2c-offer-terms'), 'Own account only.');
    await fill(user, within(form).getByTestId('c2c-offer-reason'), 'Desk launch');
    await user.click(within(form).getByTestId('c2c-offer-submit'));
    // A 10-minute window is under the 15-minute floor.
    expect((await within(form).findByTestId('c2c-offer-bad')).dataset.fields).toBe('window.bank');
    await fill(user, within(form).getByTestId('c2c-offer-window-bank'), '120');
    await user.click(within(form).getByTestId('c2c-offer-submit'));
    await waitFor(() =>
      expect(api.calls.filter((c) => c.call === 'c2c/offers' && c.method === 'POST')).toHaveLength(1),
    );
    const post = api.calls.find((c) => c.call === 'c2c/offers' && c.method === 'POST');
    expect(post?.body).toMatchObject({
      merchant_id: 'cmr_desk',
      side: 'buy',
      coin: 'USDT',
      fiat: 'CNY',
      price_kind: 'fixed',
      price: '7.25',
      min_amount: '100',
      max_amount: '2000.5',
      total_amount: '10000',
      methods: [
        { method: 'bank', window_minutes: 120, max_amount: null },
        { method: 'alipay', window_minutes: 30, max_amount: '500' },
      ],
      terms: 'Own account only.',
      reason: 'Desk launch',
    });
    expect(await screen.findByTestId('c2c-note')).toHaveTextContent('Offer cof_9 (USDT/CNY) created');
  });

  it('edits an offer (spread), posting only what may change; the refusal stays in the form', async () => {
    const api = c2cApi(ALL, {
      'c2c/offers/cof_1': () => new Refusal("The offer's spread_bps is not valid", 'C2C_OFFER_INVALID'),
    });
    const { user } = await renderAdmin(<OffersScreen />);
    await user.click(within(await offerRow('cof_1')).getByTestId('c2c-offer-edit'));
    const form = await screen.findByTestId('c2c-offer-form');
    expect(form.dataset.editing).toBe('true');
    expect(within(form).getByTestId('c2c-offer-coin')).toBeDisabled();
    expect(within(form).getByTestId('c2c-offer-spread')).toHaveValue('50');
    expect(within(form).getByTestId('c2c-offer-cap-alipay')).toHaveValue('1000');
    await fill(user, within(form).getByTestId('c2c-offer-spread'), '-75');
    await fill(user, within(form).getByTestId('c2c-offer-reason'), 'Tighter spread');
    await user.click(within(form).getByTestId('c2c-offer-submit'));
    expect(await within(form).findByTestId('error-note')).toHaveTextContent('spread_bps is not valid');
    const body = api.callsTo('c2c/offers/cof_1')[0]?.body;
    expect(body).toMatchObject({
      price_kind: 'spread',
      spread_bps: -75,
      min_amount: '100',
      max_amount: '5000',
      total_amount: '50000',
      methods: [
        { method: 'bank', window_minutes: 180, max_amount: null },
        { method: 'alipay', window_minutes: 30, max_amount: '1000' },
      ],
      reason: 'Tighter spread',
    });
    expect(body).not.toHaveProperty('merchant_id');
    expect(body).not.toHaveProperty('coin');
    expect(body).not.toHaveProperty('price');
  });

  it('pauses and resumes with a reason', async () => {
    const api = c2cApi(ALL, {
      'c2c/offers/cof_1/state': () => ({ offer_id: 'cof_1', state: 'paused' }),
      'c2c/offers/cof_2/state': () => ({ offer_id: 'cof_2', state: 'active' }),
    });
    const { user } = await renderAdmin(<OffersScreen />);
    await user.click(within(await offerRow('cof_1')).getByTestId('c2c-offer-pause'));
    let dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('The USDT/CNY offer of Bourse Desk stops taking orders');
    await fill(user, within(dialog).getByTestId('reason-input'), 'Bank holiday');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() =>
      expect(api.callsTo('c2c/offers/cof_1/state')[0]?.body).toMatchObject({
        state: 'paused',
        reason: 'Bank holiday',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(within(await offerRow('cof_2')).getByTestId('c2c-offer-resume'));
    dialog = await screen.findByRole('dialog');
    await fill(user, within(dialog).getByTestId('reason-input'), 'Back to normal');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() =>
      expect(api.callsTo('c2c/offers/cof_2/state')[0]?.body).toMatchObject({
        state: 'active',
        reason: 'Back to normal',
      }),
    );
  });

  it('shows no write buttons without c2c.write', async () => {
    c2cApi(['c2c.read']);
    await renderAdmin(<OffersScreen />);
    const row = await offerRow('cof_1');
    expect(screen.queryByTestId('c2c-offer-new')).toBeNull();
    expect(within(row).queryAllByRole('button')).toHaveLength(0);
    expect(screen.getByTestId('c2c-no-permission')).toBeInTheDocument();
  });
});
