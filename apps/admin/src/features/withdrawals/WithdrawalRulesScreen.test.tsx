// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockedApi, mockApi, Refusal, signIn } from '../../test/api.ts';
import { RULES } from '../../test/fixtures.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import WithdrawalRulesScreen from './WithdrawalRulesScreen.tsx';

function setUp(): MockedApi {
  const api = mockApi({ 'withdrawals/rules': () => ({ rules: RULES }) });
  signIn(api, ['settings.write']);
  return api;
}

describe('the withdrawal policy form', () => {
  it('renders each rule with its saved values; nothing to review until something changes', async () => {
    setUp();
    await renderAdmin(<WithdrawalRulesScreen />, { route: '/withdrawals/rules' });
    expect(await screen.findByTestId('policy-fee-bank_bps')).toHaveValue('5');
    expect(screen.getByTestId('policy-fee-address_bps')).toHaveValue('0');
    expect(screen.getByTestId('policy-min_amount-amount')).toHaveValue('100');
    expect(screen.getByTestId('policy-turnover-percent')).toHaveValue('90');
    for (const code of ['min_amount', 'max_amount', 'fee', 'turnover'])
      expect(screen.getByTestId(`rule-review-${code}`)).toBeDisabled();
    expect(screen.getByTestId('rule-fee')).toHaveTextContent('Fee: 0% to an address, 5% to a bank card');
  });

  it('names a bad value as it is typed and will not review it', async () => {
    const api = setUp();
    const { user } = await renderAdmin(<WithdrawalRulesScreen />, { route: '/withdrawals/rules' });
    const bank = await screen.findByTestId('policy-fee-bank_bps');
    await fill(user, bank, '60');
    expect(screen.getByTestId('rule-fee')).toHaveTextContent(
      'A percentage from 0 to 50, at most two decimals',
    );
    expect(screen.getByTestId('rule-review-fee')).toBeDisabled();

    await fill(user, screen.getByTestId('policy-min_amount-amount'), '300000');
    expect(screen.getByTestId('rule-min_amount')).toHaveTextContent(
      'The minimum (300000 USDT) cannot be above the maximum (200000 USDT)',
    );
    expect(screen.getByTestId('rule-review-min_amount')).toBeDisabled();

    await fill(user, screen.getByTestId('policy-min_amount-amount'), '0.000000001');
    expect(screen.getByTestId('rule-review-min_amount')).toBeDisabled();
    expect(api.callsTo('withdrawals/rules/update')).toHaveLength(0);
  });

  it('reviews a fee change (old → new, what the customer reads, the fee on a sample) and saves it with a reason', async () => {
    const api = setUp();
    api.on({ 'withdrawals/rules/update': () => ({ ok: true }) });
    const { user } = await renderAdmin(<WithdrawalRulesScreen />, { route: '/withdrawals/rules' });
    await fill(user, await screen.findByTestId('policy-fee-bank_bps'), '2.5');
    await user.click(screen.getByTestId('rule-review-fee'));

    const dialog = await screen.findByRole('dialog');
    const diff = within(screen.getByTestId('policy-diff')).getAllByRole('row');
    expect(diff).toHaveLength(2);
    expect(diff[1]).toHaveTextContent('Fee to a bank card');
    expect(diff[1]).toHaveTextContent('5%');
    expect(diff[1]).toHaveTextContent('2.5%');
    expect(screen.getByTestId('policy-effect')).toHaveTextContent(
      'They will read: Fee: 0% to an address, 2.5% to a bank card',
    );
    const preview = screen.getByTestId('fee-preview');
    expect(preview).toHaveTextContent('On a withdrawal of 1000 USDT');
    // 5 % and 2.5 % of 1,000: the fee 50 → 25, the customer receives 950 → 975.
    expect(preview).toHaveTextContent('50 → 25');
    expect(preview).toHaveTextContent('950 → 975');
    expect(api.callsTo('withdrawals/rules/update')).toHaveLength(0);

    await fill(user, within(dialog).getByTestId('reason-input'), 'Cheaper bank payouts from March');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await screen.findByTestId('rule-saved')).toHaveTextContent('Saved: Fee');
    const [sent] = api.callsTo('withdrawals/rules/update');
    expect(sent?.body).toMatchObject({
      code: 'fee',
      enabled: '1',
      params: JSON.stringify({ address_bps: 0, bank_bps: 250 }),
      reason: 'Cheaper bank payouts from March',
    });
    expect(sent?.body?.rtoken).toMatch(/^[A-Za-z0-9]{12}$/);
    await waitFor(() => expect(api.callsTo('withdrawals/rules').length).toBeGreaterThan(1));
  });

  it("keeps the dialog open with the server's refusal", async () => {
    const api = setUp();
    api.on({
      'withdrawals/rules/update': () => new Refusal('Reason cannot be empty', 'BAD_INPUT'),
    });
    const { user } = await renderAdmin(<WithdrawalRulesScreen />, { route: '/withdrawals/rules' });
    await fill(user, await screen.findByTestId('policy-turnover-percent'), '120');
    await user.click(screen.getByTestId('rule-review-turnover'));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await within(dialog).findByTestId('error-note')).toHaveTextContent('Reason cannot be empty');
    expect(screen.queryByTestId('rule-saved')).toBeNull();
    expect(api.callsTo('withdrawals/rules/update')[0]?.body).toMatchObject({
      code: 'turnover',
      enabled: '0',
      params: JSON.stringify({ percent: 120 }),
    });
  });
});
