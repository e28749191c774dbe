// @vitest-environment happy-dom
import type { FundModelData, Lang } from '@bourse/protocol';
import { screen, within } from '@testing-library/react';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { renderScreens } from '../../../shared/testing/screens.tsx';
import { ModelRules } from './ModelPanel.tsx';

function model(overrides: Partial<FundModelData> = {}): FundModelData {
  return {
    model_id: 'balanced',
    name: 'Balanced',
    description: 'Half bitcoin, a third ether, the rest cash.',
    state: 'open',
    currency: 'USDT',
    weights: [
      { asset: 'BTC', symbol: 'BTC/USDT', weight_bps: 5000 },
      { asset: 'ETH', symbol: 'ETH/USDT', weight_bps: 3000 },
      { asset: 'USDT', symbol: null, weight_bps: 2000 },
    ],
    drift_bps: 500,
    min_amount: '10',
    max_amount: '100000',
    min_rating: 'balanced',
    profile_tier: 'none',
    nav: '1.0000',
    nav_at: 0,
    started_at: 0,
    fee_rates: { 'BTC/USDT': '0.002', 'ETH/USDT': '0.002' },
    ...overrides,
  };
}

/** The ETF rules list's verification line for `m`, in `lang`. */
async function verificationLine(m: FundModelData, lang: Lang = 'en') {
  const view = await renderScreens(
    { '/etf': createElement(ModelRules, { model: m }) },
    { route: '/etf', lang },
  );
  const rules = await screen.findByTestId('etf-rules');
  const line = within(rules).getByTestId('etf-rule-verification');
  const out = { text: line.textContent, tier: line.dataset.tier };
  view.unmount();
  return out;
}

describe('ETF rules: the verification an order needs (the jurisdiction profile’s earn rule)', () => {
  it('names the tier the profile asks, in every language', async () => {
    expect(await verificationLine(model({ profile_tier: 'primary' }))).toEqual({
      text: 'Verification needed: primary (real-name) verification (this jurisdiction’s rule for earn products)',
      tier: 'primary',
    });
    expect((await verificationLine(model({ profile_tier: 'primary' }), 'zh')).text).toBe(
      '所需认证：初级（实名）认证（本司法辖区对理财产品的规则）',
    );
    expect((await verificationLine(model({ profile_tier: 'advanced' }), 'ft')).text).toBe(
      '所需認證：高級認證（本司法管轄區對理財產品的規則）',
    );
  });

  it('says none is needed only when the profile asks none', async () => {
    expect(await verificationLine(model())).toEqual({
      text: 'Verification needed: none under this jurisdiction’s rules',
      tier: 'none',
    });
  });
});
