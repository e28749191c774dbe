import type { SpotMarketData } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';

export const SPOT_MARKETS_KEY = ['web/getSpotMarkets'] as const;

/** `GET web/getSpotMarkets`: every spot market with the rules an order is checked against. */
export function fetchSpotMarkets(): Promise<SpotMarketData[]> {
  return apiGet<SpotMarketData[] | { items: SpotMarketData[] }>('web/getSpotMarkets').then((data) =>
    Array.isArray(data) ? data : data.items,
  );
}

export function useSpotMarkets() {
  return useQuery({ queryKey: SPOT_MARKETS_KEY, queryFn: fetchSpotMarkets, staleTime: 30_000 });
}
