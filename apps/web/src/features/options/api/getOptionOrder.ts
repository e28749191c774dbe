import type { OptionOrderData } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';
import { useToken } from '../../../lib/session.ts';

/** How often an expired option is asked for again until the risk engine has settled it. */
export const SETTLE_POLL_MS = 1_000;

/** `GET web/getOptionOrder`: one option. */
export function fetchOptionOrder(orderId: string): Promise<OptionOrderData> {
  return apiGet<OptionOrderData>('web/getOptionOrder', { order_id: orderId });
}

/** Polls an expired option each second while it is still `open`; stops once it is settled. */
export function useSettlingOption(orderId: string, expired: boolean) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getOptionOrder', orderId, token],
    queryFn: () => fetchOptionOrder(orderId),
    enabled: expired && token !== null,
    refetchInterval: (query) =>
      query.state.data?.status === 'open' || !query.state.data ? SETTLE_POLL_MS : false,
    retry: false,
  });
}
