import type { OptionOrderData, Paged } from '@bourse/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet, type Params } from '../../../lib/api.ts';
import { useToken } from '../../../lib/session.ts';

export type OptionOrderFilter = {
  symbol?: string;
  status?: 'open' | 'settled';
  start_time?: number;
  end_time?: number;
  page?: number;
  page_size?: number;
};

/** `GET web/getOptionOrders`: open or settled options (both when no status), newest first. */
export function fetchOptionOrders(filter: OptionOrderFilter): Promise<Paged<OptionOrderData>> {
  return apiGet<Paged<OptionOrderData>>('web/getOptionOrders', filter as Params);
}

/** Open options refresh every 5 s (another tab may buy); settled ones when something settles here. */
export function useOptionOrders(filter: OptionOrderFilter, options: { refetchMs?: number } = {}) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getOptionOrders', filter, token],
    queryFn: () => fetchOptionOrders(filter),
    enabled: token !== null,
    placeholderData: keepPreviousData,
    refetchInterval: options.refetchMs ?? false,
  });
}
