import type { EtfInfoData, FundModelId } from '@bourse/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';
import { useLang } from '../../../lib/i18n.ts';
import { useToken } from '../../../lib/session.ts';

export type NavRange = 'day' | 'week' | 'month' | 'all';

/** `GET web/getEtfInfo`: the model, its hourly NAV history and (signed in) whether I may buy. */
export function useEtfInfo(modelId: FundModelId, range: NavRange) {
  const token = useToken();
  const lang = useLang();
  return useQuery({
    queryKey: ['web/getEtfInfo', modelId, range, token, lang],
    queryFn: () => apiGet<EtfInfoData>('web/getEtfInfo', { model_id: modelId, range, lang }),
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}
