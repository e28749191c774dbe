import type { InfoData } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../lib/api.ts';
import { useToken } from '../lib/session.ts';

/** `GET web/info`: the logged-in customer (several features show parts of it, so it lives here). */
export function fetchInfo(): Promise<InfoData> {
  return apiGet<InfoData>('web/info');
}

export const infoKey = (token: string | null) => ['web/info', token] as const;

export function useInfo() {
  const token = useToken();
  return useQuery({
    queryKey: infoKey(token),
    queryFn: fetchInfo,
    enabled: token !== null,
    staleTime: 60_000,
  });
}
