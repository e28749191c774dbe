import type { FundModelData } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';
import { useLang } from '../../../lib/i18n.ts';

/** `GET web/getEtfList`: both model portfolios with their weights and NAV per unit now. */
export function useEtfList() {
  const lang = useLang();
  return useQuery({
    queryKey: ['web/getEtfList', lang],
    queryFn: () => apiGet<{ items: FundModelData[] }>('web/getEtfList', { lang }).then((r) => r.items),
    refetchInterval: 30_000,
  });
}
