import type {
  AdminSigninBudgetData,
  AdminSigninFundingData,
  AdminSigninPayoutData,
  AdminSigninSettingsData,
  Paged,
  SigninTexts,
  SigninVerification,
} from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api.ts';

/**
 * The sign-in programme's back-office calls (`/api/admin/signin/*`, packages/protocol/src/signin.ts):
 * settings with `content.write` (audited with a reason); the budget, its requests and payouts read
 * with `ledger.verify`; a funding request with `adjustments.create`, its decision (never the
 * requester's) with `adjustments.approve`.
 */

export const signinKeys = {
  all: ['signin'] as const,
  settings: ['signin', 'settings'] as const,
  budget: ['signin', 'budget'] as const,
  requests: ['signin', 'requests'] as const,
  payouts: ['signin', 'payouts'] as const,
};

export type SettingsInput = {
  enabled: boolean;
  time_zone: string;
  amounts: string[];
  verification: SigninVerification;
  condition: SigninTexts;
  reason: string;
};

export function useSigninSettings() {
  return useQuery({
    queryKey: signinKeys.settings,
    queryFn: () => api.get<AdminSigninSettingsData>('signin/settings'),
  });
}

export function useSaveSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SettingsInput) => api.postJson<AdminSigninSettingsData>('signin/settings', input),
    onSuccess: (data) => client.setQueryData(signinKeys.settings, data),
  });
}

export function useSigninBudget() {
  return useQuery({
    queryKey: signinKeys.budget,
    queryFn: () => api.get<AdminSigninBudgetData>('signin/budget'),
  });
}

export function useFundingRequests() {
  return useQuery({
    queryKey: signinKeys.requests,
    queryFn: () =>
      api.get<Paged<AdminSigninFundingData>>('signin/funding-requests', { page: 1, page_size: 50 }),
  });
}

export function usePayouts() {
  return useQuery({
    queryKey: signinKeys.payouts,
    queryFn: () => api.get<Paged<AdminSigninPayoutData>>('signin/payouts', { page: 1, page_size: 50 }),
  });
}

export function useRequestFunding() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { amount: string; reason: string }) =>
      api.post<AdminSigninFundingData>('signin/funding-requests', input),
    onSuccess: () => client.invalidateQueries({ queryKey: signinKeys.all }),
  });
}

export function useDecideFunding() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; decision: 'approve' | 'reject'; reason: string }) =>
      api.post<AdminSigninFundingData>(
        `signin/funding-requests/${encodeURIComponent(input.id)}/${input.decision}`,
        { reason: input.reason },
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: signinKeys.all }),
  });
}
