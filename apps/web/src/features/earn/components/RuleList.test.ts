// @vitest-environment happy-dom
import type { EarnProductData, Lang, ProfitInfoData } from '@bourse/protocol';
import { screen } from '@testing-library/react';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { renderScreens } from '../../../shared/testing/screens.tsx';
import { RuleList } from './RuleList.tsx';

function product(overrides: Partial<EarnProductData> = {}): EarnProductData {
  return {
    product_id: 'epr_usdt30',
    kind: 'custody',
    state: 'active',
    name: 'USDT 30 days',
    description: '',
    currency: 'USDT',
    term_days: 30,
    annual_rate: '5',
    daily_rate: '0.0137',
    min_amount: '100',
    max_amount: '10000',
    capacity: '1000000',
    subscribed: '0',
    capacity_left: '1000000',
    reserved: '0',
    funding_available: '50000',
    funding_account: { funding_id: 'efd_1', name: 'Marketing budget', source: 'The platform’s own money.' },
    sale_starts_at: null,
    sale_ends_at: null,
    redeem_rule: 'forfeit_rewards',
    penalty_rate: null,
    redeem_delay_days: 0,
    min_tier: null,
    profile_tier: 'none',
    min_rating: 'balanced',
    vip_level: null,
    jurisdictions: ['permissive', 'eu_retail'],
    cutoff: { hour: 0, time_zone: 'UTC' },
    ...overrides,
  };
}

function info(p: EarnProductData): ProfitInfoData {
  return {
    product: p,
    example: {
      amount: '100',
      daily_reward: '0.01369863',
      total_reward: '0.4109589',
      penalty_day_one: '0',
      forfeit_last_day: '0.39726027',
    },
    eligibility: null,
    principal_penalty_allowed: true,
  };
}

/** The "who may buy" sentence of the rule page built from `p`, in `lang`. */
async function requires(p: EarnProductData, lang: Lang = 'en') {
  const view = await renderScreens(
    { '/rules': createElement(RuleList, { info: info(p) }) },
    { route: '/rules', lang },
  );
  const text = (await screen.findByTestId('rule-requires')).textContent;
  view.unmount();
  return text;
}

describe('earn rule page: the verification buying needs', () => {
  it('a product without its own tier under a profile asking primary (eu_retail): primary, not "Not required"', async () => {
    expect(await requires(product({ profile_tier: 'primary' }))).toBe(
      'Verification required: Primary verification (this jurisdiction’s rule). Risk rating at least: Balanced.',
    );
    expect(await requires(product({ profile_tier: 'primary' }), 'zh')).toBe(
      '所需认证：初级认证（本司法辖区的规则）。风险评级至少：平衡型。',
    );
    expect(await requires(product({ profile_tier: 'primary' }), 'ft')).toBe(
      '所需認證：初級認證（本司法管轄區的規則）。風險評級至少：平衡型。',
    );
  });

  it('the product’s own tier alone, the same tier asked by both, and two different tiers named both', async () => {
    expect(await requires(product({ min_tier: 'advanced' }))).toBe(
      'Verification required: Advanced verification (this product’s rule). Risk rating at least: Balanced.',
    );
    expect(await requires(product({ min_tier: 'primary', profile_tier: 'primary' }))).toBe(
      'Verification required: Primary verification (this jurisdiction’s rule and this product’s). Risk rating at least: Balanced.',
    );
    expect(await requires(product({ min_tier: 'advanced', profile_tier: 'primary' }))).toBe(
      'Verification required: Primary verification (this jurisdiction’s rule) and Advanced verification (this product’s rule). Risk rating at least: Balanced.',
    );
    expect(await requires(product({ min_tier: 'address', profile_tier: 'advanced' }), 'zh')).toBe(
      '所需认证：高级认证（本司法辖区的规则）及地址认证（本产品的规则）。风险评级至少：平衡型。',
    );
  });

  it('"Not required" only when neither the profile nor the product asks', async () => {
    expect(await requires(product())).toBe(
      'Verification required: Not required. Risk rating at least: Balanced.',
    );
  });
});
