// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, Refusal } from '../../../shared/testing/api.ts';
import { BOUNDARY, info, me } from '../test/fixtures.ts';
import { renderSignRule } from '../test/render.tsx';

describe('/signRule', () => {
  it('without login: the programme as data, the rules and a login link', async () => {
    const api = mockApi({ signin: () => info() });
    await renderSignRule({ signedIn: false });
    expect(await screen.findAllByTestId('signin-day')).toHaveLength(7);
    expect(screen.getByTestId('signin-state')).toHaveAttribute('data-state', 'on');
    expect(screen.getByTestId('signin-budget')).toHaveTextContent('987.5');
    expect(screen.getByTestId('signin-budget')).toHaveTextContent('marketing_budget_signin');
    expect(screen.getByTestId('signin-condition')).toHaveTextContent('Promotional credit for trading');
    // The zone as a reader knows it, with its exact name.
    expect(screen.getByTestId('signin-rule-zone')).toHaveTextContent(
      /midnight to midnight in Hong Kong[^()]* Time \(Asia\/Hong_Kong\)/,
    );
    expect(screen.getByTestId('signin-rule-missed')).toHaveTextContent('resets your streak to day 1');
    const local = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
      BOUNDARY,
    );
    expect(screen.getByTestId('signin-rule-local')).toHaveTextContent(local);
    expect(screen.getByTestId('signin-login')).toHaveAttribute('href', '/login');
    expect(screen.queryByTestId('signin-button')).toBeNull();
    expect(api.unhandled).toEqual([]);
  });

  it('signed in: the strip shows the streak and today; signing in pays and marks today signed', async () => {
    let signed = false;
    const api = mockApi({
      signin: (call) => {
        if (call.method === 'POST') {
          signed = true;
          return {
            day: '2026-12-03',
            streak: 3,
            amount: '0.3',
            currency: 'USDT',
            at: 0,
            next_boundary_at: BOUNDARY,
          };
        }
        return info({
          me: signed
            ? me({ streak: 3, signed_today: true, today_streak_day: null, today_amount: null })
            : me(),
        });
      },
    });
    const { user } = await renderSignRule();
    await screen.findByTestId('signin-button');
    const days = screen.getAllByTestId('signin-day');
    expect(days.map((d) => d.getAttribute('data-signed'))).toEqual(['1', '1', '0', '0', '0', '0', '0']);
    expect(days[2]).toHaveAttribute('data-today', '1');
    expect(screen.getByTestId('signin-today')).toHaveTextContent('Today pays 0.3 USDT (day 3)');
    expect(screen.getByTestId('signin-today')).toHaveTextContent('Promotional credit for trading');
    await user.click(screen.getByTestId('signin-button'));
    expect(await screen.findByTestId('signin-paid')).toHaveTextContent(
      'Day 3: 0.3 USDT paid into your spot account',
    );
    await screen.findByTestId('signin-signed-today');
    await waitFor(() =>
      expect(screen.getAllByTestId('signin-day').map((d) => d.getAttribute('data-signed'))).toEqual([
        '1',
        '1',
        '1',
        '0',
        '0',
        '0',
        '0',
      ]),
    );
    expect(screen.queryByTestId('signin-button')).toBeNull();
    expect(api.callsTo('signin').filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('budget empty: the page says so and the button is off', async () => {
    mockApi({ signin: () => info({ state: 'budget_empty', budget_remaining: '0', me: me() }) });
    await renderSignRule();
    expect(await screen.findByTestId('signin-state')).toHaveTextContent(
      'marketing budget for sign-in rewards is used up',
    );
    expect(screen.getByTestId('signin-button')).toBeDisabled();
  });

  it('the profile forbids incentives: the page says so', async () => {
    mockApi({ signin: () => info({ state: 'profile_forbids' }) });
    await renderSignRule({ signedIn: false });
    expect(await screen.findByTestId('signin-state')).toHaveTextContent(
      'does not allow promotional incentives',
    );
  });

  it('verification needed: says so with a link to verify, and the button is off', async () => {
    mockApi({
      signin: (call) =>
        call.method === 'POST'
          ? new Refusal('SIGNIN_ALREADY_TODAY', { day: '2026-12-03' }, 'You have already signed in today')
          : info({ verification: 'primary', me: me({ verified: false }) }),
    });
    await renderSignRule();
    expect(await screen.findByTestId('signin-verification')).toHaveTextContent(
      'Primary identity verification',
    );
    expect(screen.getByTestId('signin-button')).toBeDisabled();
  });

  it('a demo account is told it plays with virtual money; a refusal is shown in the server’s words', async () => {
    mockApi({
      signin: (call) =>
        call.method === 'POST'
          ? new Refusal('SIGNIN_ALREADY_TODAY', { day: '2026-12-03' }, 'You have already signed in today')
          : info({ me: me({ book: 'demo' }) }),
    });
    const { user } = await renderSignRule();
    expect(await screen.findByTestId('signin-demo')).toHaveTextContent('virtual money');
    await user.click(screen.getByTestId('signin-button'));
    expect(await screen.findByTestId('signin-error')).toHaveTextContent('You have already signed in today');
  });
});
