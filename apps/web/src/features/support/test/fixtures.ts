import type { SupportConversationData, SupportInfoData, SupportMessageData } from '@bourse/protocol';

/** What the mocked customer-service calls answer in the screen tests. */

export const NOW = Date.UTC(2026, 10, 23, 2, 0, 0);
export const NEXT_OPEN = Date.UTC(2026, 10, 30, 1, 0, 0);

export function info(overrides: Partial<SupportInfoData> = {}): SupportInfoData {
  return {
    hours: 'Asia/Hong_Kong Mon-Fri 09:00-18:00',
    time_zone: 'Asia/Hong_Kong',
    open_now: true,
    next_open_at: null,
    safety: ['password', 'codes', 'transfers', 'outside_apps'],
    ...overrides,
  };
}

export const CLOSED = info({ open_now: false, next_open_at: NEXT_OPEN });

export function conversation(overrides: Partial<SupportConversationData> = {}): SupportConversationData {
  return {
    id: 'sup_1',
    subject: 'Deposit missing',
    status: 'pending',
    ref_type: null,
    ref_id: null,
    created_at: NOW - 3_600_000,
    updated_at: NOW - 60_000,
    last_seq: 2,
    ...overrides,
  };
}

export function message(seq: number, overrides: Partial<SupportMessageData> = {}): SupportMessageData {
  const staff = seq % 2 === 0;
  return {
    seq,
    from: staff ? 'staff' : 'customer',
    body: staff ? 'Looking into it now' : 'My deposit has not arrived',
    file_id: null,
    staff: staff ? { name: 'Amy Wong', code: 'BS-7K2Q9M' } : null,
    out_of_hours: false,
    at: NOW - 3_600_000 + seq * 60_000,
    ...overrides,
  };
}
