import type { EtfPreviewData, FundModelId } from '@bourse/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError, apiGet } from '../../../lib/api.ts';

/** `GET web/previewEtf`: what an amount would trade now, with the fees (the server's own plan). */
export function usePreviewEtf(modelId: FundModelId, amount: string) {
  return useQuery({
    queryKey: ['web/previewEtf', modelId, amount],
    queryFn: () => apiGet<EtfPreviewData>('web/previewEtf', { model_id: modelId, amount }),
    enabled: amount !== '',
    placeholderData: keepPreviousData,
    retry: (count, error) => !(error instanceof ApiError && error.kind === 'refused') && count < 2,
    refetchInterval: 15_000,
  });
}
