import type { KlineData, KlineInterval } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api.ts';

export const KLINE_LIMIT = 300;

/** `GET web/getKline`: the latest candles of one instrument and interval, oldest first. */
export function fetchKline(symbol: string, interval: KlineInterval): Promise<KlineData> {
  return apiGet<KlineData>('web/getKline', { symbol, interval, limit: KLINE_LIMIT });
}

export function useKline(symbol: string, interval: KlineInterval) {
  return useQuery({
    queryKey: ['web/getKline', symbol, interval],
    queryFn: () => fetchKline(symbol, interval),
    staleTime: 0,
    gcTime: 60_000,
  });
}
