import type { SigninInfoData, SigninMeData } from '@bourse/protocol';

/** What the mocked sign-in calls answer in the screen tests. */

/** 2026-12-03 10:00 UTC: the 3rd in Hong Kong, whose day ends at 16:00 UTC. */
export const NOW = Date.UTC(2026, 11, 3, 10, 0, 0);
export const BOUNDARY = Date.UTC(2026, 11, 3, 16, 0, 0);

export function me(overrides: Partial<SigninMeData> = {}): SigninMeData {
  return {
    streak: 2,
    signed_today: false,
    today_streak_day: 3,
    today_amount: '0.3',
    last_day: '2026-12-02',
    book: 'real',
    verified: true,
    ...overrides,
  };
}

export function info(overrides: Partial<SigninInfoData> = {}): SigninInfoData {
  return {
    state: 'on',
    time_zone: 'Asia/Hong_Kong',
    currency: 'USDT',
    amounts: ['0.1', '0.2', '0.3', '0.5', '0.8', '1', '2'],
    verification: 'none',
    condition: {
      en: 'Promotional credit for trading',
      zh: '推广赠金，可用于交易',
      ft: '推廣贈金，可用於交易',
    },
    budget_remaining: '987.5',
    cycle_days: 7,
    now: NOW,
    today: '2026-12-03',
    next_boundary_at: BOUNDARY,
    me: null,
    ...overrides,
  };
}
