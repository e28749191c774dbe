// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockedApi, mockApi, Refusal, signIn } from '../../test/api.ts';
import { CUSTOMER, NOW } from '../../test/fixtures.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import DepositsScreen from './DepositsScreen.tsx';

const BANK = {
  id: 'bdp_1',
  customer_id: 'usr_alice',
  currency: 'USD',
  amount: '25000',
  reference: 'BRS-7Q2K',
  proof_id: 'upl_proof1',
  state: 'pending',
  reject_reason: null,
  created_at: NOW,
  customer: CUSTOMER,
};
const CRYPTO = {
  id: 'cdp_1',
  customer_id: 'usr_alice',
  chain: 'ERC20',
  currency: 'ETH',
  txid: '0xabc',
  output_index: 0,
  address: '0xdef',
  amount: '0.001',
  confirmations: 12,
  state: 'held',
  created_at: NOW,
  customer: CUSTOMER,
};

function setUp(): MockedApi {
  const api = mockApi({
    'deposits/queue': ({ query }) =>
      query.status === 'open' ? { bank: [BANK], crypto: [CRYPTO] } : { bank: [], crypto: [] },
    'deposits/bank/confirm': () => ({ ok: true }),
    'deposits/crypto/release': () => ({ ok: true }),
    'deposits/proofLink': ({ query }) => ({
      file_id: 'upl_proof1',
      url: `/api/files/upl_proof1?exp=1&by=s%3Astf_1&sig=for-${query.id}`,
      expires_at: NOW + 300_000,
      mime: 'image/png',
    }),
  });
  signIn(api, ['deposits.read', 'deposits.decide']);
  return api;
}

describe('the deposits queue', () => {
  it('lists bank and crypto deposits from the queue answer, amounts formatted', async () => {
    const api = setUp();
    await renderAdmin(<DepositsScreen />, { route: '/deposits' });
    const bank = await screen.findByTestId('deposits-bank');
    expect(bank).toHaveTextContent('25,000.00 USD');
    expect(bank).toHaveTextContent('BRS-7Q2K');
    expect(bank).toHaveTextContent('Alice Chan');
    const crypto = screen.getByTestId('deposits-crypto');
    expect(crypto).toHaveTextContent('0.00100000 ETH');
    expect(crypto).toHaveTextContent('Held below minimum');
    expect(api.callsTo('deposits/queue')[0]?.query).toMatchObject({ status: 'open' });
  });

  it('confirms a bank deposit only after a dialog naming amount, customer and reference, with the reason', async () => {
    const api = setUp();
    const { user } = await renderAdmin(<DepositsScreen />, { route: '/deposits' });
    await user.click(await screen.findByTestId('deposit-confirm'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Confirm bank deposit and credit the customer');
    expect(dialog).toHaveTextContent('25,000 USD · Alice Chan · UID 80012345 · BRS-7Q2K');
    expect(api.callsTo('deposits/bank/confirm')).toHaveLength(0);

    await fill(user, within(dialog).getByTestId('reason-input'), 'Statement line matches');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('deposits/bank/confirm')).toHaveLength(1));
    expect(api.callsTo('deposits/bank/confirm')[0]?.body).toMatchObject({
      id: 'bdp_1',
      reason: 'Statement line matches',
    });
    await waitFor(() => expect(api.callsTo('deposits/queue').length).toBeGreaterThan(1));
  });

  it('releases a held crypto deposit with a reason', async () => {
    const api = setUp();
    const { user } = await renderAdmin(<DepositsScreen />, { route: '/deposits' });
    const crypto = await screen.findByTestId('deposits-crypto');
    await user.click(within(crypto).getByRole('button', { name: 'Release held' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('0.001 ETH · Alice Chan · UID 80012345');
    await fill(user, within(dialog).getByTestId('reason-input'), 'Customer topped up above the minimum');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('deposits/crypto/release')).toHaveLength(1));
    expect(api.callsTo('deposits/crypto/release')[0]?.body).toMatchObject({ id: 'cdp_1' });
    expect(api.callsTo('deposits/bank/confirm')).toHaveLength(0);
  });

  it("shows the remittance proof through the deposit's audited link, never the bytes directly", async () => {
    const api = setUp();
    const { user } = await renderAdmin(<DepositsScreen />, { route: '/deposits' });
    await user.click(await screen.findByTestId('deposit-proof'));
    const image = await screen.findByTestId('deposit-proof-image');
    expect(api.callsTo('deposits/proofLink')).toHaveLength(1);
    expect(api.callsTo('deposits/proofLink')[0]?.query).toMatchObject({ id: 'bdp_1' });
    expect(image.getAttribute('src')).toBe('/api/files/upl_proof1?exp=1&by=s%3Astf_1&sig=for-bdp_1');
  });

  it('a refused proof link is shown as an error, with no image', async () => {
    const api = setUp();
    api.on({ 'deposits/proofLink': () => new Refusal('Not found', 'NOT_FOUND') });
    const { user } = await renderAdmin(<DepositsScreen />, { route: '/deposits' });
    await user.click(await screen.findByTestId('deposit-proof'));
    expect(await screen.findByTestId('error-note')).toHaveTextContent('Not found');
    expect(screen.queryByTestId('deposit-proof-image')).toBeNull();
  });
});
