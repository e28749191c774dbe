// @vitest-environment happy-dom
import { toDecimalString } from '@bourse/money';
import type { SubscriptionInfoData, SubscriptionQuoteData } from '@bourse/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, Refusal } from '../../../shared/testing/api.ts';
import {
  DAY_MS,
  eligibility,
  FAILED,
  FIRST_COME_SOLD_OUT,
  NOW,
  PRO_RATA_ALLOCATED,
  project,
  record,
} from '../test/fixtures.ts';
import { renderLaunchpad } from '../test/render.tsx';

const OPEN = project();

function info(overrides: Partial<SubscriptionInfoData> = {}): SubscriptionInfoData {
  return { project: OPEN, eligibility: eligibility(), ...overrides };
}

/** The server's quote of a whole number of coins: cost = quantity × 0.5, fee 0.2 % of the cost. */
function quote(quantity: string): SubscriptionQuoteData {
  const q = BigInt(quantity);
  const cost = toDecimalString(q * 5n, 1);
  return {
    project_id: OPEN.project_id,
    quantity,
    lots: (q / 10n).toString(),
    cost,
    margin: cost,
    fee: toDecimalString(q, 3),
    frozen: toDecimalString(q * 501n, 3),
    pay_currency: 'USDT',
  };
}

describe('/subscriptionBuy: the rules, my eligibility and the subscribe panel', () => {
  it('shows the risk warning first, every rule as data, and the white paper in a new tab', async () => {
    mockApi({ getSubscriptionInfo: () => info() });
    await renderLaunchpad({ route: '/subscriptionBuy?project_id=lpd_lumen' });
    expect(await screen.findByTestId('launchpad-risk')).toHaveTextContent(
      'Risk warning' + 'New coins can lose all their value.',
    );
    expect(screen.getByTestId('launchpad-issuer')).toHaveTextContent('Issued by Lumen Labs Ltd.');
    const rules = screen.getByTestId('launchpad-rules');
    expect(within(rules).getByTestId('rule-mode')).toHaveTextContent(
      'Pro rata: at the close, every subscription that passed the review shares the supply in proportion',
    );
    expect(within(rules).getByTestId('rule-mode')).toHaveTextContent('the cap of 300 LUM');
    expect(within(rules).getByTestId('rule-remainder')).toHaveTextContent(
      'rounded down to whole lots of 10 LUM. The lots this leaves over go one each to the subscriptions with the largest remainder',
    );
    expect(within(rules).getByTestId('rule-price')).toHaveTextContent('Price: 0.50 USDT per LUM');
    expect(within(rules).getByTestId('rule-lot')).toHaveTextContent('lots of 10 LUM');
    // Pro rata: one may ask for up to the supply; the cap (300) bounds the allocation.
    expect(within(rules).getByTestId('rule-limits')).toHaveTextContent(
      'at least 10 LUM and at most 1,000 LUM',
    );
    expect(within(rules).getByTestId('rule-margin')).toHaveTextContent(
      'Margin 100%: the whole cost is frozen',
    );
    expect(within(rules).getByTestId('rule-fee')).toHaveTextContent('Fee: 0.2% of the cost');
    expect(within(rules).getByTestId('rule-softCap')).toHaveTextContent(
      'less than 200 LUM has been asked for at the close, the project fails and every frozen amount is returned within 48 hours',
    );
    expect(within(rules).getByTestId('rule-lockup')).toHaveTextContent(
      'locked for 30 days after the listing',
    );
    // The fixture's project asks primary and so does every built-in profile's `launchpad` rule.
    expect(within(rules).getByTestId('rule-requires')).toHaveTextContent(
      'Verification required: Primary verification (this jurisdiction’s rule and this project’s). Risk rating at least: Balanced.',
    );
    expect(within(rules).getByTestId('rule-jurisdictions')).toHaveTextContent('Permissive, EU retail');
    const paper = screen.getByTestId('launchpad-whitepaper');
    expect(paper).toHaveAttribute('href', 'https://lumen.example/whitepaper.pdf');
    expect(paper).toHaveAttribute('target', '_blank');
    expect(paper.getAttribute('rel')).toContain('noopener');
    expect(screen.getByTestId('launchpad-eligible')).toHaveTextContent(
      'Yes. You may subscribe up to 300 LUM (available: 1,250.50 USDT).',
    );
  });

  it('says the verification subscribing needs: the jurisdiction profile’s rule as well as the project’s own tier', async () => {
    const requires = async (over: Partial<typeof OPEN>, lang: 'en' | 'zh' | 'ft' = 'en') => {
      mockApi({ getSubscriptionInfo: () => info({ project: project(over) }) });
      const view = await renderLaunchpad({ route: '/subscriptionBuy?project_id=lpd_lumen', lang });
      const text = (await screen.findByTestId('rule-requires')).textContent;
      view.unmount();
      return text;
    };
    const rules = (minTier: 'primary' | 'advanced' | 'address' | null) => ({
      ...OPEN.eligibility,
      min_tier: minTier,
    });
    // A project without its own tier under the default profiles: primary, not "Not required".
    expect(await requires({ eligibility: rules(null), profile_tier: 'primary' })).toBe(
      'Verification required: Primary verification (this jurisdiction’s rule). Risk rating at least: Balanced.',
    );
    expect(await requires({ eligibility: rules(null), profile_tier: 'primary' }, 'zh')).toBe(
      '身份认证要求：初级认证（本司法辖区的规则）。风险评级至少：平衡型。',
    );
    // Two different tiers are two approvals: both are named.
    expect(await requires({ eligibility: rules('advanced'), profile_tier: 'primary' })).toBe(
      'Verification required: Primary verification (this jurisdiction’s rule) and Advanced verification (this project’s rule). Risk rating at least: Balanced.',
    );
    expect(await requires({ eligibility: rules('address'), profile_tier: 'none' }, 'ft')).toBe(
      '身份認證要求：地址認證（本項目的規則）。風險評級至少：平衡型。',
    );
    // Neither the profile nor the project asks: only then "Not required".
    expect(await requires({ eligibility: rules(null), profile_tier: 'none' })).toBe(
      'Verification required: Not required. Risk rating at least: Balanced.',
    );
  });

  it('checks the lot size while typing, previews the cost from the server, and subscribes after the confirm', async () => {
    const api = mockApi({
      getSubscriptionInfo: () => info(),
      getSubscriptionQuote: (call) => quote(call.params.quantity ?? ''),
      subscribe: (call) =>
        record({ quantity: call.params.quantity, coin: 'LUM', frozen: '100.2', state: 'under_review' }),
    });
    const { user } = await renderLaunchpad({ route: '/subscriptionBuy?project_id=lpd_lumen' });
    const field = await screen.findByTestId('launchpad-quantity');
    await user.type(field, '105');
    expect(await screen.findByText('Enter a multiple of 10 LUM.')).toBeInTheDocument();
    expect(api.callsTo('getSubscriptionQuote')).toHaveLength(0);

    await user.clear(field);
    await user.type(field, '200');
    await waitFor(() => expect(screen.getByTestId('launchpad-preview')).toHaveAttribute('data-ready', '1'));
    expect(api.callsTo('getSubscriptionQuote').at(-1)?.params).toMatchObject({
      project_id: 'lpd_lumen',
      quantity: '200',
    });
    expect(screen.getByTestId('preview-cost')).toHaveTextContent('100.00 USDT');
    expect(screen.getByTestId('preview-fee')).toHaveTextContent('0.20 USDT');
    expect(screen.getByTestId('preview-frozen')).toHaveTextContent('100.20 USDT');
    expect(screen.getByTestId('preview-available')).toHaveTextContent('1,250.50 USDT');

    const submit = screen.getByTestId('launchpad-subscribe');
    expect(submit).toBeDisabled();
    await user.click(screen.getByTestId('launchpad-terms'));
    expect(submit).toBeEnabled();
    await user.click(submit);
    const dialog = await screen.findByTestId('launchpad-confirm-body');
    expect(within(dialog).getByTestId('confirm-frozen')).toHaveTextContent('100.20 USDT');
    expect(within(dialog).getByTestId('confirm-statement')).toHaveTextContent(
      '100.20 USDT will be frozen in your spot account now.',
    );
    expect(api.callsTo('subscribe')).toHaveLength(0);
    await user.click(within(dialog).getByTestId('launchpad-confirm-submit'));
    await waitFor(() => expect(api.callsTo('subscribe')).toHaveLength(1));
    expect(api.callsTo('subscribe')[0]).toMatchObject({
      method: 'POST',
      params: { project_id: 'lpd_lumen', quantity: '200', accept_terms: '1' },
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/subscriptionRecord'));
  });

  it('the Max button puts what I may still ask for, rounded down to a lot', async () => {
    mockApi({
      getSubscriptionInfo: () => info({ eligibility: eligibility({ may_subscribe: '147' }) }),
      getSubscriptionQuote: (call) => quote(call.params.quantity ?? ''),
    });
    const { user } = await renderLaunchpad({ route: '/subscriptionBuy?project_id=lpd_lumen' });
    await user.click(await screen.findByTestId('launchpad-quantity-max'));
    expect(screen.getByTestId('launchpad-quantity')).toHaveValue('140');
  });

  it('shows the rule that refuses me, in my words, before I try, with the way to meet it', async () => {
    mockApi({
      getSubscriptionInfo: () =>
        info({
          eligibility: eligibility({
            eligible: false,
            may_subscribe: '0',
            refusal: { code: 'LAUNCHPAD_TIER_REQUIRED', params: { tier: 'advanced' } },
          }),
        }),
    });
    await renderLaunchpad({ route: '/subscriptionBuy?project_id=lpd_lumen', lang: 'zh' });
    const refusal = await screen.findByTestId('launchpad-refusal');
    expect(refusal).toHaveAttribute('data-reason', 'LAUNCHPAD_TIER_REQUIRED');
    expect(refusal).toHaveTextContent('本项目需要完成高级认证');
    expect(within(refusal).getByTestId('launchpad-refusal-fix')).toHaveAttribute('href', '/sfyz');
    expect(screen.getByTestId('launchpad-subscribe')).toBeDisabled();
  });

  it('shows the server’s refusal in place, localized, when subscribing is refused', async () => {
    mockApi({
      getSubscriptionInfo: () => info(),
      getSubscriptionQuote: (call) => quote(call.params.quantity ?? ''),
      subscribe: () =>
        new Refusal('LAUNCHPAD_INSUFFICIENT_USDT', { required: '150.3', available: '20' }, 'raw server text'),
    });
    const { user } = await renderLaunchpad({ route: '/subscriptionBuy?project_id=lpd_lumen' });
    await user.type(await screen.findByTestId('launchpad-quantity'), '300');
    await waitFor(() => expect(screen.getByTestId('launchpad-preview')).toHaveAttribute('data-ready', '1'));
    await user.click(screen.getByTestId('launchpad-terms'));
    await user.click(screen.getByTestId('launchpad-subscribe'));
    await user.click(await screen.findByTestId('launchpad-confirm-submit'));
    const refusal = await screen.findByTestId('launchpad-subscribe-refusal');
    expect(refusal).toHaveTextContent('it needs 150.3 USDT and you have 20 USDT available');
    expect(within(refusal).getByTestId('launchpad-refusal-fix')).toHaveAttribute('data-fix', 'funds');
    expect(screen.getByTestId('location')).toHaveTextContent('/subscriptionBuy');
  });

  it('a sold-out first-come project: the badge, the reason, and no way to subscribe', async () => {
    mockApi({ getSubscriptionInfo: () => info({ project: FIRST_COME_SOLD_OUT }) });
    await renderLaunchpad({ route: '/subscriptionBuy?project_id=lpd_orbit' });
    expect(await screen.findByTestId('project-sold-out')).toHaveTextContent('Sold out');
    expect(screen.getByTestId('launchpad-blocked')).toHaveAttribute('data-blocker', 'soldOut');
    expect(screen.getByTestId('rule-mode')).toHaveTextContent(
      'First come, first served: each subscription takes its coins at once',
    );
    expect(screen.getByTestId('launchpad-quantity')).toBeDisabled();
    expect(screen.getByTestId('launchpad-subscribe')).toBeDisabled();
  });

  it('a failed project: why it failed and when every frozen amount is back; no form', async () => {
    mockApi({ getSubscriptionInfo: () => info({ project: FAILED }) });
    await renderLaunchpad({ route: '/subscriptionBuy?project_id=lpd_dim' });
    const failure = await screen.findByTestId('launchpad-failure');
    expect(failure).toHaveTextContent('Less than the soft cap of 200 DIM was subscribed by the close.');
    expect(within(failure).getByTestId('launchpad-refund-deadline')).toHaveTextContent(
      'within 48 hours of the failure',
    );
    expect(screen.queryByTestId('launchpad-subscribe-form')).toBeNull();
  });

  it('a refunded first-come project says nothing is left to take (only while it can be subscribed)', async () => {
    const refunded = project({
      ...FAILED,
      mode: 'first_come',
      state: 'refunded',
      remaining: '850',
    });
    mockApi({ getSubscriptionInfo: () => info({ project: refunded }) });
    await renderLaunchpad({ route: '/subscriptionBuy?project_id=lpd_dim' });
    expect(await screen.findByTestId('launchpad-refunded')).toBeInTheDocument();
    expect(screen.getByTestId('project-progress')).toBeInTheDocument();
    expect(screen.queryByTestId('project-remaining')).toBeNull();
  });

  it('between the close and the allocation: what happens now, and no form', async () => {
    mockApi({ getSubscriptionInfo: () => info({ project: project({ state: 'closed' }) }) });
    await renderLaunchpad({ route: '/subscriptionBuy?project_id=lpd_lumen' });
    expect(await screen.findByTestId('launchpad-pending')).toHaveTextContent(
      'The subscription window has closed. Every subscription is being reviewed',
    );
    expect(screen.getByTestId('project-state')).toHaveTextContent('Closed, in review');
    expect(screen.queryByTestId('launchpad-subscribe-form')).toBeNull();
  });

  it('after a pro-rata allocation: the published figures, both roots and the link to my check', async () => {
    mockApi({
      getSubscriptionInfo: () =>
        info({ project: PRO_RATA_ALLOCATED, eligibility: eligibility({ held: '370' }) }),
    });
    await renderLaunchpad({ route: '/subscriptionBuy?project_id=lpd_nova' });
    const card = await screen.findByTestId('launchpad-allocation');
    expect(within(card).getByTestId('allocation-supply')).toHaveTextContent('100 lots');
    expect(within(card).getByTestId('allocation-commitments')).toHaveTextContent('5 commitments, 321 lots');
    expect(within(card).getByTestId('allocation-fill')).toHaveTextContent('57.85% (70 / 121)');
    expect(within(card).getByTestId('allocation-capped')).toHaveTextContent(
      '1 customer, who asked for 200 lots',
    );
    expect(within(card).getByTestId('allocation-remainder')).toHaveTextContent('2 lots');
    expect(within(card).getByTestId('allocation-cut')).toHaveTextContent('remainder 49, arrival #3');
    expect(within(card).getByTestId('allocation-allocated')).toHaveTextContent('100 lots · 1,000 NOVA');
    expect(within(card).getByTestId('allocation-commitment-root-hash')).toHaveTextContent(
      PRO_RATA_ALLOCATED.allocation?.commitment_root.hash ?? 'none',
    );
    expect(within(card).getByTestId('launchpad-verify-link')).toHaveAttribute(
      'href',
      '/subscriptionProof?project_id=lpd_nova',
    );
    expect(screen.getByTestId('launchpad-held')).toHaveTextContent(
      'You have asked for 370 NOVA in this project.',
    );
    expect(screen.getByTestId('project-progress')).toHaveTextContent('Oversubscribed ×3.21');
    expect(screen.queryByTestId('launchpad-subscribe-form')).toBeNull();
  });

  it('a distributed project says when its spot market may open, then links it once open', async () => {
    mockApi({ getSubscriptionInfo: () => info({ project: PRO_RATA_ALLOCATED }) });
    const first = await renderLaunchpad({ route: '/subscriptionBuy?project_id=lpd_nova' });
    const later = await screen.findByTestId('launchpad-market');
    expect(later).toHaveAttribute('data-symbol', '');
    expect(later).toHaveTextContent('Spot trading in NOVA may open on or after the listing date');
    expect(within(later).queryByTestId('launchpad-market-trade')).toBeNull();
    first.unmount();

    const opened = { ...PRO_RATA_ALLOCATED, market_symbol: 'NOVA/USDT', market_opened_at: NOW - DAY_MS };
    mockApi({ getSubscriptionInfo: () => info({ project: opened }) });
    await renderLaunchpad({ route: '/subscriptionBuy?project_id=lpd_nova' });
    const note = await screen.findByTestId('launchpad-market');
    expect(note).toHaveAttribute('data-symbol', 'NOVA/USDT');
    expect(note).toHaveTextContent(
      'since June 9, 2026. Its price comes only from that market’s own order book',
    );
    expect(within(note).getByTestId('launchpad-market-trade')).toHaveAttribute(
      'href',
      '/currencyTrade?symbol=NOVA%2FUSDT',
    );
  });

  it('on a phone: eligibility before the rules, the subscribe button held at the bottom', async () => {
    mockApi({ getSubscriptionInfo: () => info() });
    await renderLaunchpad({ route: '/subscriptionBuy?project_id=lpd_lumen', viewport: 'phone' });
    const actions = await screen.findByTestId('launchpad-phone-actions');
    expect(within(actions).getByTestId('launchpad-subscribe')).toBeInTheDocument();
    const eligibilityCard = screen.getByTestId('launchpad-eligibility');
    const rules = screen.getByTestId('launchpad-rules');
    expect(eligibilityCard.compareDocumentPosition(rules) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('logged out: the rules and a login prompt instead of my standing', async () => {
    mockApi({ getSubscriptionInfo: () => info({ eligibility: null }) });
    await renderLaunchpad({ route: '/subscriptionBuy?project_id=lpd_lumen', signedIn: false });
    expect(await screen.findByTestId('launchpad-login')).toBeInTheDocument();
    expect(screen.getByTestId('launchpad-subscribe')).toBeDisabled();
  });

  it('an unknown project says so', async () => {
    mockApi({ getSubscriptionInfo: () => new Refusal('NOT_FOUND') });
    await renderLaunchpad({ route: '/subscriptionBuy?project_id=lpd_none' });
    expect(await screen.findByTestId('launchpad-not-found')).toHaveTextContent('No such project.');
  });
});
