import type {
  AdminAccrualRunData,
  AdminEarnOrderData,
  AdminEarnProductData,
  AdminEarnProductStateBody,
  AdminEarnSettingsBody,
  AdminEarnSettingsData,
  AdminFundingAccountData,
  AdminFundingCreateBody,
  AdminFundingRequestData,
  EarnOrderState,
  Paged,
} from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import type { ProductBody } from './productForm.ts';

/** The back office's earn calls (`/api/admin/earn/*`, packages/protocol/src/earn.ts). */

type Listed<T> = { items: T[] };

export function useEarnProducts() {
  return useQuery({
    queryKey: ['earn/products'],
    queryFn: () => api.get<Listed<AdminEarnProductData>>('earn/products'),
  });
}

export function useFundingAccounts() {
  return useQuery({
    queryKey: ['earn/funding'],
    queryFn: () => api.get<Listed<AdminFundingAccountData>>('earn/funding'),
  });
}

/** `GET earn/funding-requests` (newest first): one account's, or every account's pending ones. */
export function useFundingRequests(filter: {
  funding_id?: string;
  state?: 'pending' | 'approved' | 'rejected';
}) {
  return useQuery({
    queryKey: ['earn/funding-requests', filter],
    queryFn: () =>
      api.get<Paged<AdminFundingRequestData>>('earn/funding-requests', { ...filter, page_size: '100' }),
  });
}

export type OrderFilter = {
  product?: string;
  state?: EarnOrderState;
  uid?: string;
  page: number;
  page_size: number;
};

export function useEarnOrders(filter: OrderFilter) {
  return useQuery({
    queryKey: ['earn/orders', filter],
    queryFn: () => api.get<Paged<AdminEarnOrderData>>('earn/orders', filter),
  });
}

export function useAccrualRuns() {
  return useQuery({
    queryKey: ['earn/accruals'],
    queryFn: () => api.get<Paged<AdminAccrualRunData>>('earn/accruals', { page_size: '100' }),
  });
}

export function useEarnSettings() {
  return useQuery({
    queryKey: ['earn/settings'],
    queryFn: () => api.get<AdminEarnSettingsData>('earn/settings'),
  });
}

/** Every write refreshes the earn screens (reserve coverage moves with each of them). */
function useEarnWrite<I, O>(call: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () =>
      Promise.all(
        ['earn/products', 'earn/funding', 'earn/funding-requests', 'earn/settings'].map((key) =>
          client.invalidateQueries({ queryKey: [key] }),
        ),
      ),
  });
}

export const useCreateProduct = () =>
  useEarnWrite((body: ProductBody) => api.postJson<AdminEarnProductData>('earn/products', body));

export const useProductState = () =>
  useEarnWrite((input: { id: string } & AdminEarnProductStateBody) =>
    api.postJson<AdminEarnProductData>(`earn/products/${encodeURIComponent(input.id)}/state`, {
      action: input.action,
      reason: input.reason,
    }),
  );

export const useCreateFunding = () =>
  useEarnWrite((body: AdminFundingCreateBody) => api.postJson<AdminFundingAccountData>('earn/funding', body));

export const useRequestFunding = () =>
  useEarnWrite((input: { id: string; amount: string; reason: string }) =>
    api.postJson<AdminFundingRequestData>(`earn/funding/${encodeURIComponent(input.id)}/requests`, {
      amount: input.amount,
      reason: input.reason,
    }),
  );

export const useDecideFunding = () =>
  useEarnWrite((input: { id: string; decision: 'approve' | 'reject'; reason: string }) =>
    api.postJson<AdminFundingRequestData>(
      `earn/funding-requests/${encodeURIComponent(input.id)}/${input.decision}`,
      { reason: input.reason },
    ),
  );

export const useSaveSettings = () =>
  useEarnWrite((body: AdminEarnSettingsBody) => api.postJson<AdminEarnSettingsData>('earn/settings', body));
