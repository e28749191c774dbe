import { MARKET_LIMITS, type TickerData, type TickersPage } from '@bourse/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { apiGet } from '../../../lib/api.ts';
import { useTickerMap } from '../../../lib/marketStore.ts';
import { type MarketRow, mergeRow } from '../logic.ts';

export const CATALOGUE_KEY = ['web/getTickers', 'all'] as const;

/**
 * `GET web/getTickers`, every page: the whole catalogue with names, classes and price scales
 * (the websocket's tickers carry prices only). 3,000 instruments are seven pages of 500.
 */
export async function fetchAllTickers(): Promise<TickerData[]> {
  const pageSize = MARKET_LIMITS.tickersPageSizeMax;
  const first = await apiGet<TickersPage>('web/getTickers', { page: 1, page_size: pageSize, sort: 'rank' });
  const pages = Math.ceil(first.total / pageSize);
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, i) =>
      apiGet<TickersPage>('web/getTickers', { page: i + 2, page_size: pageSize, sort: 'rank' }),
    ),
  );
  return [first, ...rest].flatMap((page) => page.items);
}

export function useCatalogue() {
  return useQuery({ queryKey: CATALOGUE_KEY, queryFn: fetchAllTickers, staleTime: 60_000 });
}

/**
 * The catalogue merged with the live tickers. When the socket reports symbols the catalogue has
 * not seen (the operator imported instruments), the catalogue is fetched again.
 */
export function useMarketRows(): { rows: MarketRow[]; query: ReturnType<typeof useCatalogue> } {
  const query = useCatalogue();
  const live = useTickerMap();
  const client = useQueryClient();
  const catalogue = query.data;
  const unknownLive = catalogue !== undefined && live.size > catalogue.length;
  useEffect(() => {
    if (unknownLive && !query.isFetching) void client.invalidateQueries({ queryKey: CATALOGUE_KEY });
  }, [unknownLive, query.isFetching, client]);
  const rows = useMemo(
    () => (catalogue ?? []).map((base, rank) => mergeRow(base, live.get(base.symbol), rank)),
    [catalogue, live],
  );
  return { rows, query };
}
