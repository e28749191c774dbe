import { SPOT_LIMITS, type SpotDepthData } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';
import { useToken } from '../../../lib/session.ts';

/** `GET web/getDepth`: the book's best levels (the demo book with a demo token). */
export function fetchDepth(
  symbol: string,
  limit: number = SPOT_LIMITS.depthLevelsDefault,
): Promise<SpotDepthData> {
  return apiGet<SpotDepthData>('web/getDepth', { symbol, limit });
}

/** The depth for a quote (convert, quick buy): refreshed every few seconds while shown. */
export function useDepth(symbol: string | null, limit: number = SPOT_LIMITS.depthLevelsMax) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getDepth', symbol, limit, token],
    queryFn: () => fetchDepth(symbol ?? '', limit),
    enabled: symbol !== null,
    refetchInterval: 3_000,
    staleTime: 0,
  });
}
