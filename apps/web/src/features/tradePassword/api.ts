import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';

export type TradeStatus = {
  transaction_password: '0' | '1';
  google: '0' | '1';
  locked_minutes: number;
  max_failures: number;
  lock_minutes: number;
};

/** `GET web/hasTpassword` (spec 7): whether the trade password and the Google code are set. */
export function useTradeStatus() {
  const token = useToken();
  return useQuery({
    queryKey: ['web/hasTpassword', token],
    queryFn: () => apiGet<TradeStatus>('web/hasTpassword'),
    enabled: token !== null,
  });
}

function useRefreshing<I>(call: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => apiPost<unknown>(call, input as Record<string, string>),
    onSuccess: () => client.invalidateQueries(),
  });
}

/** `POST web/bindTradePassword`: first setting, confirmed by the login password. */
export const useBindTrade = () =>
  useRefreshing<{ password: string; trade_password: string; trade_password2: string }>(
    'web/bindTradePassword',
  );

/** `POST web/editTradePassword`. */
export const useEditTrade = () =>
  useRefreshing<{ old_trade_password: string; trade_password: string; trade_password2: string }>(
    'web/editTradePassword',
  );

/** `GET web/googleSecret`: a new key to scan while not enabled. */
export function useGoogleSecret(enabled: boolean) {
  return useQuery({
    queryKey: ['web/googleSecret'],
    queryFn: () => apiGet<{ enabled: '0' | '1'; secret: string; uri: string }>('web/googleSecret'),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export const useGoogleEnable = () => useRefreshing<{ google_code: string }>('web/googleEnable');
export const useGoogleDisable = () => useRefreshing<{ google_code: string }>('web/googleDisable');
