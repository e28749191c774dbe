import type { SpotFillPage, SpotOrderPage } from '@bourse/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet, type Params } from '../../../lib/api.ts';
import { useToken } from '../../../lib/session.ts';

export type OrderFilter = {
  symbol?: string;
  status?: 'filled' | 'cancelled';
  side?: 'buy' | 'sell';
  start_time?: number;
  end_time?: number;
  page?: number;
  page_size?: number;
};

/** `GET web/getCurrentOrders`: open orders, newest first. */
export function fetchCurrentOrders(filter: OrderFilter): Promise<SpotOrderPage> {
  const { symbol, page, page_size } = filter;
  return apiGet<SpotOrderPage>('web/getCurrentOrders', { symbol, page, page_size } as Params);
}
/** `GET web/getHistoryOrders`: filled and cancelled orders, newest first. */
export function fetchHistoryOrders(filter: OrderFilter): Promise<SpotOrderPage> {
  return apiGet<SpotOrderPage>('web/getHistoryOrders', filter as Params);
}
/** `GET web/getMyTrades`: the customer's fills, newest first. */
export function fetchMyTrades(filter: OrderFilter): Promise<SpotFillPage> {
  const { status: _status, side: _side, ...rest } = filter;
  return apiGet<SpotFillPage>('web/getMyTrades', rest as Params);
}

export function useCurrentOrders(filter: OrderFilter) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getCurrentOrders', filter, token],
    queryFn: () => fetchCurrentOrders(filter),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}
export function useHistoryOrders(filter: OrderFilter) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getHistoryOrders', filter, token],
    queryFn: () => fetchHistoryOrders(filter),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}
export function useMyTrades(filter: OrderFilter) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getMyTrades', filter, token],
    queryFn: () => fetchMyTrades(filter),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}
