import type { SpotBalanceData } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';
import { useToken } from '../../../lib/session.ts';

export const spotBalanceKey = (symbol: string | null, token: string | null) =>
  ['web/getSpotBalance', symbol, token] as const;

/** `GET web/getSpotBalance`: available and frozen base and quote of one market. */
export function fetchSpotBalance(symbol: string): Promise<SpotBalanceData> {
  return apiGet<SpotBalanceData>('web/getSpotBalance', { symbol });
}

export function useSpotBalance(symbol: string | null) {
  const token = useToken();
  return useQuery({
    queryKey: spotBalanceKey(symbol, token),
    queryFn: () => fetchSpotBalance(symbol ?? ''),
    enabled: symbol !== null && token !== null,
    staleTime: 5_000,
  });
}
