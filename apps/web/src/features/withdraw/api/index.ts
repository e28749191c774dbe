import type { WithdrawalView, WithdrawRuleView } from '@bourse/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_BASE } from '../../../config/app.ts';
import { apiGet, apiPost } from '../../../lib/api.ts';
import { currentLang } from '../../../lib/i18n.ts';
import { getToken, useToken } from '../../../lib/session.ts';

export type WithdrawHeld = {
  code: string;
  params: Record<string, unknown>;
  amount: string;
  release: { trade_more: string };
};

export type WithdrawRules = {
  rules: WithdrawRuleView[];
  available: string;
  /** Exactly what `withdraw` accepts now: available less anything held. */
  withdrawable: string;
  /** Amounts held back, each with its rule and what releases it (before the customer submits). */
  held: WithdrawHeld[];
  used_today: number;
  transaction_password: '0' | '1';
  google: '0' | '1';
  locked_minutes: number;
};

/** `GET web/getWithdrawRules`: every rule, shown before the customer submits. */
export function useWithdrawRules(currency: string, enabled = true) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getWithdrawRules', token, currency],
    queryFn: () => apiGet<WithdrawRules>('web/getWithdrawRules', { currency }),
    enabled: token !== null && enabled,
  });
}

export type Destination = { id: string; label: string; detail: string };

/** Saved addresses of a currency and bound bank cards, for the sheet's destination choice. */
export function useDestinations(currency: string, enabled: boolean) {
  const token = useToken();
  const addresses = useQuery({
    queryKey: ['web/getAddressList', token],
    queryFn: () =>
      apiGet<{
        list: Array<{ id: string; currency: string; chain: string; address: string; remark: string }>;
      }>('web/getAddressList'),
    enabled: token !== null && enabled,
  });
  const banks = useQuery({
    queryKey: ['web/getBankList', token],
    queryFn: () =>
      apiGet<{ list: Array<{ id: string; label: string; payee_name: string }> }>('web/getBankList'),
    enabled: token !== null && enabled,
  });
  const address: Destination[] = (addresses.data?.list ?? [])
    .filter((a) => a.currency === currency)
    .map((a) => ({ id: a.id, label: `${a.chain} · ${a.address}`, detail: a.remark }));
  const bank: Destination[] = (banks.data?.list ?? []).map((b) => ({
    id: b.id,
    label: b.label,
    detail: b.payee_name,
  }));
  return { address, bank, loading: addresses.isLoading || banks.isLoading };
}

export type WithdrawInput = {
  method: 'address' | 'bank';
  destinationId: string;
  currency: string;
  amount: string;
  tradePassword: string;
  googleCode: string;
};

/** `POST web/withdraw`: freezes the amount until staff decide. */
export function useWithdraw() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (i: WithdrawInput) =>
      apiPost<WithdrawalView>('web/withdraw', {
        method: i.method,
        ...(i.method === 'address' ? { address_id: i.destinationId } : { payee_id: i.destinationId }),
        currency: i.currency,
        amount: i.amount,
        trade_password: i.tradePassword,
        ...(i.googleCode ? { google_code: i.googleCode } : {}),
      }),
    onSuccess: () => client.invalidateQueries(),
  });
}

/** `POST web/cancelWithdraw`. */
export function useCancelWithdraw() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (withdrawalId: string) =>
      apiPost<WithdrawalView>('web/cancelWithdraw', { withdrawal_id: withdrawalId }),
    onSuccess: () => client.invalidateQueries(),
  });
}

export type RecordFilter = {
  status?: '0' | '1' | '2';
  method?: 'address' | 'bank';
  start_time?: number;
  end_time?: number;
  page: number;
  page_size: number;
};

/** `GET web/getWithdrawList`. */
export function useWithdrawList(filter: RecordFilter) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getWithdrawList', token, filter],
    queryFn: () =>
      apiGet<{ list: WithdrawalView[]; total: number; page: number; page_size: number }>(
        'web/getWithdrawList',
        filter,
      ),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}

/** `GET web/exportWithdrawList`: a CSV download with the same filters (the token goes in the query). */
export function exportUrl(filter: Omit<RecordFilter, 'page' | 'page_size'>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v !== undefined) search.set(k, String(v));
  search.set('token', getToken() ?? '');
  search.set('lang', currentLang());
  return `${API_BASE}/web/exportWithdrawList?${search.toString()}`;
}
