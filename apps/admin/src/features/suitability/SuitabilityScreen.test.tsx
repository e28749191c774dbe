// @vitest-environment happy-dom
import {
  type AdminSuitabilityData,
  type CapsByRating,
  PRODUCT_CLASSES,
  RISK_RATINGS,
  type ScoringTable,
  SUITABILITY_QUESTIONS,
} from '@bourse/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockedApi, mockApi, Refusal, signIn } from '../../test/api.ts';
import { NOW } from '../../test/fixtures.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import SuitabilityScreen from './SuitabilityScreen.tsx';

const RTOKEN = /^[A-Za-z0-9]{12}$/;

/** Points = the option's position; the leverage question's first answer caps at balanced. */
const TABLE: ScoringTable = {
  questions: Object.fromEntries(
    SUITABILITY_QUESTIONS.map((q) => [
      q.id,
      Object.fromEntries(
        q.options.map((o, i) => [
          o,
          {
            points: i,
            ceiling: q.id === 'leverage_loss' && o === 'ten_percent' ? ('balanced' as const) : null,
          },
        ]),
      ),
    ]),
  ),
  thresholds: { balanced: 10, aggressive: 20 },
  cooling_off_days: 30,
};

function caps(scale: number): CapsByRating {
  return Object.fromEntries(
    RISK_RATINGS.map((r, k) => [
      r,
      Object.fromEntries(
        PRODUCT_CLASSES.map((p) => [
          p,
          { max_leverage: p === 'contracts' ? (k + 1) * 5 : null, max_amount: String((k + 1) * scale) },
        ]),
      ),
    ]),
  ) as CapsByRating;
}

const DATA: AdminSuitabilityData = {
  versions: [
    { ...TABLE, version: 1, created_at: NOW, created_by: null, reason: 'shipped with the platform' },
  ],
  active_profile: 'permissive',
  caps: { permissive: caps(1000), eu_retail: caps(500), custom: caps(1000) },
  counts: { conservative: 3, balanced: 2, aggressive: 1 },
};

function setUp(permissions: string[]): MockedApi {
  const api = mockApi({ suitability: () => DATA });
  signIn(api, permissions);
  return api;
}

describe('the risk questionnaire back office', () => {
  it('shows the scoring table in force read-only without settings.write', async () => {
    setUp(['risk.read']);
    await renderAdmin(<SuitabilityScreen />, { route: '/suitability' });
    expect(await screen.findByTestId('scoring-in-force')).toHaveTextContent('Version 1 in force');
    expect(screen.getByTestId('scoring-in-force')).toHaveTextContent('shipped with the platform');
    expect(screen.getByTestId('count-conservative')).toHaveTextContent('Conservative 3');
    expect(screen.getByTestId('points-amount_band.over_1m')).toHaveValue('4');
    expect(screen.getByTestId('points-amount_band.over_1m')).toBeDisabled();
    expect(screen.getByTestId('ceiling-leverage_loss.ten_percent')).toHaveValue('balanced');
    expect(screen.queryByTestId('scoring-publish')).toBeNull();
    expect(within(screen.getByTestId('scoring-versions')).getAllByTestId('scoring-version-row')).toHaveLength(
      1,
    );
  });

  it('names a bad value as it is typed and publishes a new version with a reason', async () => {
    const api = setUp(['risk.read', 'settings.write']);
    api.on({ 'suitability/scoring': () => DATA });
    const { user } = await renderAdmin(<SuitabilityScreen />, { route: '/suitability' });
    const aggressive = await screen.findByTestId('scoring-aggressive');
    await fill(user, aggressive, '5');
    expect(screen.getByTestId('scoring-tab')).toHaveTextContent('A whole number 11–1000');
    expect(screen.getByTestId('scoring-publish')).toBeDisabled();
    await fill(user, aggressive, '22');
    await fill(user, screen.getByTestId('points-occupation.finance_professional'), '101');
    expect(screen.getByTestId('scoring-publish')).toBeDisabled();
    await fill(user, screen.getByTestId('points-occupation.finance_professional'), '6');
    await user.selectOptions(screen.getByTestId('ceiling-option_expiry.unsure'), 'conservative');
    await user.click(screen.getByTestId('scoring-publish'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Publish scoring version 2');
    await fill(user, within(dialog).getByTestId('reason-input'), 'Stricter aggressive threshold');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await screen.findByTestId('suitability-saved')).toBeInTheDocument();
    const [sent] = api.callsTo('suitability/scoring');
    expect(sent?.body).toMatchObject({
      thresholds: { balanced: 10, aggressive: 22 },
      cooling_off_days: 30,
      reason: 'Stricter aggressive threshold',
    });
    const questions = sent?.body?.questions as ScoringTable['questions'];
    expect(questions.occupation?.finance_professional).toEqual({ points: 6, ceiling: null });
    expect(questions.option_expiry?.unsure).toEqual({ points: 3, ceiling: 'conservative' });
    expect(sent?.body?.rtoken).toMatch(RTOKEN);
    await waitFor(() => expect(api.callsTo('suitability').length).toBeGreaterThan(1));
  });

  it('edits only the custom caps; the server refusal stays in the dialog', async () => {
    const api = setUp(['risk.read', 'settings.write']);
    api.on({
      'suitability/caps': () =>
        new Refusal(
          'The cap balanced.contracts.max_leverage must not be below the cap of a lower rating',
          'SUITABILITY_CAP_NOT_MONOTONE',
        ),
    });
    const { user } = await renderAdmin(<SuitabilityScreen />, { route: '/suitability', lang: 'en' });
    await user.click(await screen.findByTestId('tab-caps'));
    expect(await screen.findByTestId('cap-balanced-contracts')).toHaveTextContent('15×');
    expect(screen.getByTestId('cap-balanced-contracts')).toHaveTextContent('3,000 USDT');
    expect(screen.queryByTestId('caps-save')).toBeNull();
    await user.click(screen.getByTestId('caps-profile-custom'));
    const lev = await screen.findByTestId('cap-input-balanced.contracts.max_leverage');
    await fill(user, lev, '1.5');
    expect(screen.getByTestId('caps-save')).toBeDisabled();
    await fill(user, lev, '2');
    await user.click(screen.getByTestId('caps-save'));
    const dialog = await screen.findByRole('dialog');
    await fill(user, within(dialog).getByTestId('reason-input'), 'Tighter leverage');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    expect(await within(dialog).findByTestId('error-note')).toHaveTextContent('must not be below');
    const [sent] = api.callsTo('suitability/caps');
    const body = sent?.body as { caps: CapsByRating; reason: string };
    expect(body.caps.balanced.contracts).toEqual({ max_leverage: 2, max_amount: '3000' });
    expect(body.caps.aggressive.loans).toEqual({ max_leverage: null, max_amount: '4000' });
    expect(body.reason).toBe('Tighter leverage');
  });

  it('reads in Chinese', async () => {
    setUp(['risk.read']);
    await renderAdmin(<SuitabilityScreen />, { route: '/suitability', lang: 'zh' });
    expect(await screen.findByTestId('scoring-in-force')).toHaveTextContent('第 1 版');
    expect(screen.getByTestId('suitability-screen')).toHaveTextContent('风险评估问卷：评分与额度');
    expect(screen.getByTestId('count-balanced')).toHaveTextContent('平衡型 2');
  });
});
