// @vitest-environment happy-dom
import type { AdminSigninFundingData, AdminSigninSettingsData } from '@bourse/protocol';
import { LANGS } from '@bourse/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi, STAFF_ID, signIn } from '../../test/api.ts';
import { NOW } from '../../test/fixtures.ts';
import { watchMissingKeys } from '../../test/i18n.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import BudgetScreen from './BudgetScreen.tsx';
import ProgrammeScreen from './ProgrammeScreen.tsx';

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

const SETTINGS: AdminSigninSettingsData = {
  enabled: true,
  time_zone: 'Asia/Hong_Kong',
  currency: 'USDT',
  amounts: ['0.1', '0.2', '0.3', '0.5', '0.8', '1', '2'],
  verification: 'none',
  condition: { en: 'Promotional credit', zh: '推广赠金', ft: '推廣贈金' },
  updated_at: null,
  updated_by: null,
  state: 'on',
  promo_incentives: true,
  budget_remaining: '990',
};

function request(
  id: string,
  by: string,
  state: AdminSigninFundingData['state'] = 'pending',
): AdminSigninFundingData {
  return {
    request_id: id,
    amount: '500',
    currency: 'USDT',
    reason: 'December campaign',
    state,
    requested_by: by,
    requested_at: NOW,
    decided_by: null,
    decided_at: null,
    decision_reason: null,
  };
}

function budgetApi(permissions: string[]) {
  const api = mockApi({
    'signin/budget': () => ({
      account: 'marketing_budget_signin',
      currency: 'USDT',
      balance: '990',
      funded_total: '1000',
      paid_total: '10',
      paid_count: 12,
      pending: 2,
    }),
    'signin/funding-requests': (call) =>
      call.method === 'POST'
        ? request('sgf_new', STAFF_ID)
        : {
            total: 2,
            page: 1,
            page_size: 50,
            items: [request('sgf_mine', STAFF_ID), request('sgf_other', 'stf_other')],
          },
    'signin/funding-requests/sgf_other/approve': () => ({ ...request('sgf_other', 'stf_other', 'approved') }),
    'signin/payouts': () => ({
      total: 1,
      page: 1,
      page_size: 50,
      items: [
        {
          uid: '80012345',
          day: '2026-11-20',
          streak: 3,
          amount: '0.3',
          currency: 'USDT',
          book: 'real',
          at: NOW,
          entry_id: 'len_1',
        },
      ],
    }),
  });
  signIn(api, permissions);
  return api;
}

describe('the sign-in programme screen', () => {
  it('edits the seven amounts with a before → after preview and saves with a reason', async () => {
    const api = mockApi({
      'signin/settings': (call) =>
        call.method === 'POST'
          ? { ...SETTINGS, amounts: (call.body?.amounts as string[]) ?? SETTINGS.amounts }
          : SETTINGS,
    });
    signIn(api, ['content.write']);
    const { user } = await renderAdmin(<ProgrammeScreen />);
    expect(await screen.findByTestId('signin-admin-state')).toHaveAttribute('data-state', 'on');
    expect(screen.getByTestId('signin-preview-before')).toHaveTextContent('A full week pays 4.9 USDT');
    await fill(user, screen.getByTestId('signin-amount-7'), '5');
    expect(screen.getByTestId('signin-preview-after')).toHaveTextContent('A full week pays 7.9 USDT');
    await fill(user, screen.getByTestId('signin-condition-zh'), '');
    expect(screen.getByTestId('signin-save')).toBeDisabled();
    await fill(user, screen.getByTestId('signin-condition-zh'), '推广赠金');
    await user.click(screen.getByTestId('signin-save'));
    await fill(user, await screen.findByTestId('reason-input'), 'Bigger day 7');
    await user.click(screen.getByTestId('reason-confirm'));
    await waitFor(() =>
      expect(api.callsTo('signin/settings').filter((c) => c.method === 'POST')).toHaveLength(1),
    );
    expect(api.callsTo('signin/settings').find((c) => c.method === 'POST')?.body).toMatchObject({
      enabled: true,
      time_zone: 'Asia/Hong_Kong',
      amounts: ['0.1', '0.2', '0.3', '0.5', '0.8', '1', '5'],
      verification: 'none',
      condition: { en: 'Promotional credit', zh: '推广赠金', ft: '推廣贈金' },
      reason: 'Bigger day 7',
    });
    expect(await screen.findByTestId('signin-saved')).toHaveTextContent('Saved and audited');
  });

  it('says when the jurisdiction profile forbids the programme', async () => {
    const api = mockApi({
      'signin/settings': () => ({ ...SETTINGS, state: 'profile_forbids', promo_incentives: false }),
    });
    signIn(api, ['content.write']);
    await renderAdmin(<ProgrammeScreen />);
    expect(await screen.findByTestId('signin-promo-forbidden')).toHaveTextContent(
      'allows no promotional incentives',
    );
    expect(screen.getByTestId('signin-admin-state')).toHaveAttribute('data-state', 'profile_forbids');
  });
});

describe('the sign-in budget screen', () => {
  it('shows the balance, asks for funding, and lets another staff member approve (never one’s own)', async () => {
    const api = budgetApi(['ledger.verify', 'adjustments.create', 'adjustments.approve']);
    const { user } = await renderAdmin(<BudgetScreen />);
    expect(await screen.findByTestId('signin-budget-balance')).toHaveTextContent('990');
    expect(screen.getByTestId('signin-budget-count')).toHaveTextContent('12');
    const rows = await screen.findAllByTestId('signin-request-row');
    expect(within(rows[0] as HTMLElement).getByTestId('signin-own-request')).toBeInTheDocument();
    expect(within(rows[0] as HTMLElement).queryByTestId('signin-approve')).toBeNull();
    await user.click(within(rows[1] as HTMLElement).getByTestId('signin-approve'));
    await fill(user, await screen.findByTestId('reason-input'), 'Checked the plan');
    await user.click(screen.getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('signin/funding-requests/sgf_other/approve')).toHaveLength(1));
    expect(api.callsTo('signin/funding-requests/sgf_other/approve')[0]?.body).toMatchObject({
      reason: 'Checked the plan',
    });

    await fill(user, screen.getByTestId('signin-request-amount'), '250');
    await fill(user, screen.getByTestId('signin-request-reason'), 'January budget');
    await user.click(screen.getByTestId('signin-request-send'));
    await waitFor(() =>
      expect(api.callsTo('signin/funding-requests').filter((c) => c.method === 'POST')).toHaveLength(1),
    );
    expect(api.callsTo('signin/funding-requests').find((c) => c.method === 'POST')?.body).toMatchObject({
      amount: '250',
      reason: 'January budget',
    });
    expect(await screen.findByTestId('signin-requested')).toHaveTextContent('another staff member');
    expect(screen.getAllByTestId('signin-payout-row')[0]).toHaveTextContent('80012345');
  });

  it('a reader without the funding permissions sees figures but no controls', async () => {
    budgetApi(['ledger.verify']);
    await renderAdmin(<BudgetScreen />);
    await screen.findAllByTestId('signin-request-row');
    expect(screen.queryByTestId('signin-request-form')).toBeNull();
    expect(screen.queryByTestId('signin-approve')).toBeNull();
  });

  it.each(LANGS.filter((l) => l !== 'en'))('both screens in %s have no missing key', async (lang) => {
    const api = budgetApi(['ledger.verify', 'adjustments.create', 'adjustments.approve', 'content.write']);
    api.on({ 'signin/settings': () => SETTINGS });
    watch = watchMissingKeys();
    const first = await renderAdmin(<BudgetScreen />, { lang });
    await screen.findAllByTestId('signin-request-row');
    first.unmount?.();
    await renderAdmin(<ProgrammeScreen />, { lang });
    await screen.findByTestId('signin-preview');
    expect(watch.missing).toEqual([]);
  });
});
