import type {
  AdminReferralFlagData,
  AdminReferralIncomeData,
  AdminReferralSettingsData,
  AdminReferralTotalsData,
  Paged,
} from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api.ts';

/**
 * The referral programme's calls (`/api/admin/referral/*`, packages/protocol/src/referral.ts):
 * reading needs `referral.read`; the settings and clearing a flag `referral.write` (audited, with
 * the reason typed).
 */

export const PAGE_SIZE = 20;
export const READ_PERMISSION = 'referral.read';
export const WRITE_PERMISSION = 'referral.write';

export const referralKeys = {
  all: ['referral'] as const,
  settings: ['referral', 'settings'] as const,
  income: (filter: IncomeFilter, page: number) => ['referral', 'income', filter, page] as const,
  flags: (state: FlagState, page: number) => ['referral', 'flags', state, page] as const,
  totals: ['referral', 'totals'] as const,
};

export type IncomeFilter = { inviter: string; invitee: string; status: '' | 'paid' | 'excluded' };
export type FlagState = 'open' | 'cleared' | 'all';

export function useReferralSettings() {
  return useQuery({
    queryKey: referralKeys.settings,
    queryFn: () => api.get<AdminReferralSettingsData>('referral/settings'),
  });
}

export function useSaveSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { enabled: boolean; depth: number; sharesBps: number[]; reason: string }) =>
      api.post<AdminReferralSettingsData>('referral/settings', {
        enabled: input.enabled ? '1' : '0',
        depth: String(input.depth),
        shares_bps: input.sharesBps.join(','),
        reason: input.reason,
      }),
    onSuccess: (data) => client.setQueryData(referralKeys.settings, data),
  });
}

export function useReferralIncome(filter: IncomeFilter, page: number) {
  return useQuery({
    queryKey: referralKeys.income(filter, page),
    queryFn: () =>
      api.get<Paged<AdminReferralIncomeData>>('referral/income', {
        inviter: filter.inviter || undefined,
        invitee: filter.invitee || undefined,
        status: filter.status || undefined,
        page,
        page_size: PAGE_SIZE,
      }),
  });
}

export function useReferralFlags(state: FlagState, page: number) {
  return useQuery({
    queryKey: referralKeys.flags(state, page),
    queryFn: () =>
      api.get<Paged<AdminReferralFlagData>>('referral/flags', { state, page, page_size: PAGE_SIZE }),
  });
}

export function useClearFlag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; reason: string }) =>
      api.post<AdminReferralFlagData>(`referral/flags/${encodeURIComponent(input.id)}/clear`, {
        reason: input.reason,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: referralKeys.all }),
  });
}

export function useReferralTotals() {
  return useQuery({
    queryKey: referralKeys.totals,
    queryFn: () => api.get<AdminReferralTotalsData>('referral/totals'),
  });
}
