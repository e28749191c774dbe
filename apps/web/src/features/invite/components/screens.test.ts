// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../shared/testing/api.ts';
import { incomeLine, invitee, paged, promotion } from '../test/fixtures.ts';
import { renderInvite } from '../test/render.tsx';

function api(overrides: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    getMyPromotion: () => promotion(),
    getPromotionInvitees: () =>
      paged([invitee(), invitee({ uid: '100024', level: 2, contact: '+44***3456' })]),
    getPromotionIncome: () => paged([incomeLine()]),
    ...overrides,
  });
}

describe('/invite', () => {
  it('desktop: code, link and QR; levels with headcount and income; rules; tables naming the fee', async () => {
    const mocked = api();
    await renderInvite();
    expect(await screen.findByTestId('invite-code')).toHaveTextContent('K7M2Q9XP');
    expect(screen.getByTestId('invite-link')).toHaveTextContent('register?invite=K7M2Q9XP');
    const qr = screen.getByTestId('invite-qr');
    expect(qr).toHaveAttribute('aria-label', expect.stringContaining('register?invite=K7M2Q9XP'));
    expect(Number(qr.getAttribute('data-modules'))).toBeGreaterThan(20);
    const levels = screen.getAllByTestId('invite-level');
    expect(levels).toHaveLength(2);
    expect(levels[0]).toHaveTextContent('Level 1');
    expect(levels[0]).toHaveTextContent('20 % of fees paid');
    expect(within(levels[0] as HTMLElement).getByTestId('invite-headcount')).toHaveTextContent('3');
    expect(within(levels[1] as HTMLElement).getByTestId('invite-level-income')).toHaveTextContent('0.4 USDT');
    expect(screen.getByTestId('invite-total')).toHaveTextContent('1.6 USDT');
    const rules = screen.getByTestId('invite-rules');
    expect(rules).toHaveTextContent('share of spot trading fees your friends actually paid');
    expect(screen.getByTestId('invite-depth')).toHaveTextContent('Paid on 2 levels');
    expect(screen.getByTestId('invite-exclusions')).toHaveTextContent('the same device');
    expect(rules).toHaveTextContent('level 1 20 % · level 2 10 %');
    expect(await screen.findByTestId('invite-income-table')).toBeInTheDocument();
    expect(screen.getByTestId('invite-income-remark')).toHaveTextContent('20 % of the 4 USDT fee on trade');
    expect(await screen.findByTestId('invite-invitees-table')).toBeInTheDocument();
    expect(screen.getAllByTestId('invite-invitee')[1]).toHaveTextContent('+44***3456');
    expect(screen.queryByTestId('invite-not-offered')).toBeNull();
    expect(mocked.unhandled).toEqual([]);
  });

  it('phone: the same as cards', async () => {
    api();
    await renderInvite({ viewport: 'phone' });
    expect(await screen.findByTestId('invite-income-cards')).toBeInTheDocument();
    expect(await screen.findByTestId('invite-invitees-cards')).toBeInTheDocument();
    expect(screen.queryByTestId('invite-income-table')).toBeNull();
    expect(screen.getByTestId('invite-income-line')).toHaveTextContent('0.8 USDT');
  });

  it('not offered (programme off or a profile that bans it): says so, states no depth, still shows the code', async () => {
    api({
      getMyPromotion: () =>
        promotion({
          offered: false,
          depth: 0,
          levels: [{ level: 1, share_bps: 0, headcount: 2, income: [] }],
          total: [],
        }),
      getPromotionIncome: () => paged([]),
    });
    await renderInvite();
    expect(await screen.findByTestId('invite-not-offered')).toHaveTextContent('not offered');
    expect(screen.getByTestId('invite-code')).toHaveTextContent('K7M2Q9XP');
    expect(screen.queryByTestId('invite-depth')).toBeNull();
    expect(screen.getByTestId('invite-level')).toHaveTextContent('No share');
    expect(screen.getByTestId('invite-total')).toHaveTextContent('None yet');
    expect(await screen.findByTestId('invite-income-empty')).toHaveTextContent('No referral income yet');
  });

  it('pages through the income lines', async () => {
    const mocked = api({
      getPromotionIncome: (call) =>
        call.params.page === '2'
          ? { ...paged([incomeLine({ id: 'rfi_page2', amount: '0.01' })], 11), page: 2 }
          : paged([incomeLine()], 11),
    });
    const { user } = await renderInvite();
    const pager = await screen.findByTestId('invite-income-pager');
    expect(pager).toHaveTextContent('Page 1 of 2');
    await user.click(within(pager).getByText('Next'));
    await waitFor(() => expect(screen.getByTestId('invite-income-table')).toHaveTextContent('rfi_page2'));
    expect(mocked.callsTo('getPromotionIncome').map((c) => c.params.page)).toEqual(['1', '2']);
  });
});
