import type { AssetAccountType, CurrencyData, TransferData } from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api.ts';

/** `GET web/getCurrencyAll`: currencies with scale and deposit networks. */
export function useCurrencies() {
  return useQuery({
    queryKey: ['web/getCurrencyAll'],
    queryFn: () => apiGet<CurrencyData[]>('web/getCurrencyAll'),
    staleTime: 60_000,
  });
}

/** `POST web/transferAsset`. */
export function useTransfer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { currency: string; amount: string; from: AssetAccountType; to: AssetAccountType }) =>
      apiPost<TransferData>('web/transferAsset', input),
    onSuccess: () => {
      client.invalidateQueries({ queryKey: ['web/getAsset2'] });
      client.invalidateQueries({ queryKey: ['web/getRecords'] });
    },
  });
}
