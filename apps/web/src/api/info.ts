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

/**
 * The name a customer is shown by: their name, else their phone or e-mail in full, else the UID.
 * (`phone_display` is the legacy API's field, cut to 12 characters; a screen never shows it.)
 */
export function displayName(data: InfoData): string {
  return data.name || data.phone || data.email || data.uid;
}
