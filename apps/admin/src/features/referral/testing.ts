import type {
  AdminReferralFlagData,
  AdminReferralIncomeData,
  AdminReferralSettingsData,
  AdminReferralTotalsData,
} from '@bourse/protocol';
import { type MockedApi, mockApi, signIn } from '../../test/api.ts';
import { NOW } from '../../test/fixtures.ts';

/** What the mocked referral calls answer in the component tests. */

export const ALL = ['referral.read', 'referral.write'];

export function settings(overrides: Partial<AdminReferralSettingsData> = {}): AdminReferralSettingsData {
  return {
    enabled: true,
    depth: 1,
    shares_bps: [2000],
    profile_max_depth: 4,
    effective_depth: 1,
    updated_at: null,
    updated_by: null,
    preview: [{ level: 1, amount: '0.2' }],
    ...overrides,
  };
}

export function incomeRow(overrides: Partial<AdminReferralIncomeData> = {}): AdminReferralIncomeData {
  return {
    id: 'rfi_1',
    inviter_uid: '100001',
    invitee_uid: '100002',
    level: 1,
    status: 'paid',
    excluded_reason: null,
    source: 'spot_trade',
    source_id: 'stt_1',
    fee_entry_id: 'len_fee1',
    fee: '4',
    fee_currency: 'USDT',
    share_bps: 2000,
    amount: '0.8',
    income_entry_id: 'len_inc1',
    created_at: NOW,
    ...overrides,
  };
}

export function flag(overrides: Partial<AdminReferralFlagData> = {}): AdminReferralFlagData {
  return {
    id: 'rff_1',
    inviter_uid: '100001',
    invitee_uid: '100003',
    reason: 'same_device',
    detail: '203.0.113.7 · Mozilla/5.0 (iPhone)',
    flagged_at: NOW - 3_600_000,
    cleared_at: null,
    cleared_by: null,
    clear_reason: null,
    ...overrides,
  };
}

export const TOTALS: AdminReferralTotalsData = {
  paid: [{ currency: 'USDT', amount: '12.4', lines: 31 }],
  excluded: [{ currency: 'USDT', amount: '0.8', lines: 1 }],
  flags_open: 1,
  inviters: 7,
};

export function referralApi(permissions: string[] = ALL): MockedApi {
  const api = mockApi({
    'referral/settings': (call) =>
      call.method === 'POST'
        ? settings({
            depth: Number(call.body?.depth),
            shares_bps: String(call.body?.shares_bps ?? '')
              .split(',')
              .filter(Boolean)
              .map(Number),
            effective_depth: Number(call.body?.depth),
            updated_at: NOW,
            updated_by: 'stf_me',
          })
        : settings(),
    'referral/income': () => ({
      total: 2,
      page: 1,
      page_size: 20,
      items: [
        incomeRow(),
        incomeRow({ id: 'rfi_2', status: 'excluded', excluded_reason: 'same_device', income_entry_id: null }),
      ],
    }),
    'referral/flags': () => ({ total: 1, page: 1, page_size: 20, items: [flag()] }),
    'referral/flags/rff_1/clear': (call) =>
      flag({ cleared_at: NOW, cleared_by: 'stf_me', clear_reason: String(call.body?.reason ?? '') }),
    'referral/totals': () => TOTALS,
  });
  signIn(api, permissions);
  return api;
}
