import type { MyPromotionData, Paged, PromotionIncomeData, PromotionInviteeData } from '@bourse/protocol';

/** What the mocked invitation calls answer in the screen tests. */

export const NOW = Date.UTC(2026, 10, 27, 2, 0, 0);

export function promotion(overrides: Partial<MyPromotionData> = {}): MyPromotionData {
  return {
    offered: true,
    depth: 2,
    invitation_code: 'K7M2Q9XP',
    invite_link: 'https://bourse.example/register?invite=K7M2Q9XP',
    levels: [
      { level: 1, share_bps: 2000, headcount: 3, income: [{ currency: 'USDT', amount: '1.2' }] },
      { level: 2, share_bps: 1000, headcount: 1, income: [{ currency: 'USDT', amount: '0.4' }] },
    ],
    total: [{ currency: 'USDT', amount: '1.6' }],
    exclusions: ['self', 'same_device', 'same_payout'],
    ...overrides,
  };
}

export function paged<T>(items: T[], total = items.length): Paged<T> {
  return { total, page: 1, page_size: 10, items };
}

export function invitee(overrides: Partial<PromotionInviteeData> = {}): PromotionInviteeData {
  return {
    uid: '100023',
    name: 'A***',
    contact: 'al***@example.com',
    registered_at: NOW - 86_400_000,
    level: 1,
    ...overrides,
  };
}

export function incomeLine(overrides: Partial<PromotionIncomeData> = {}): PromotionIncomeData {
  return {
    id: 'rfi_01JDX7Q2Z3ABCDEFGHJKMNPQRS',
    amount: '0.8',
    currency: 'USDT',
    level: 1,
    share_bps: 2000,
    fee: '4',
    fee_currency: 'USDT',
    trade_id: 'stt_01JDX7Q2Z3ABCDEFGH',
    remark: 'Level 1: 20 % of the 4 USDT fee on trade stt_01JDX7Q2Z3ABCDEFGH',
    created_at: NOW - 60_000,
    ...overrides,
  };
}
