import { ACCESS_LIMITS, type PublicConfigData } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../lib/api.ts';

/** `GET web/publicConfig`: the rules forms show before the server refuses. */
export function fetchPublicConfig(): Promise<PublicConfigData> {
  return apiGet<PublicConfigData>('web/publicConfig');
}

export function usePublicConfig() {
  return useQuery({
    queryKey: ['web/publicConfig'],
    queryFn: fetchPublicConfig,
    staleTime: 5 * 60_000,
  });
}

/** The password length rule: the server's when known, the shared limits until then. */
export function usePasswordRule(): { min: number; max: number } {
  const { data } = usePublicConfig();
  return {
    min: data?.password_min ?? ACCESS_LIMITS.passwordMin,
    max: data?.password_max ?? ACCESS_LIMITS.passwordMax,
  };
}
