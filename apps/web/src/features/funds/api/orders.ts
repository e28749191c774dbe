import type { FundModelId, FundOrderData, Paged } from '@bourse/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../../lib/api.ts';
import { useLang } from '../../../lib/i18n.ts';
import { useToken } from '../../../lib/session.ts';

export type NewEtfOrder = { model_id: FundModelId; amount: string; client_oid: string };

/** A fresh client order id for one confirmed purchase (a retried request is the same order). */
export function newClientOid(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  let out = 'e';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}

/** Everything a purchase or a redemption changes. */
function invalidate(client: ReturnType<typeof useQueryClient>): Promise<void> {
  return Promise.all(
    ['web/getEtfOrders', 'web/getEtfInfo', 'web/getAsset2'].map((key) =>
      client.invalidateQueries({ queryKey: [key] }),
    ),
  ).then(() => undefined);
}

/** `POST web/buyEtf`. A refusal (code 0) rejects with the server's localized message and reason. */
export function useBuyEtf() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (order: NewEtfOrder) => apiPost<FundOrderData>('web/buyEtf', order),
    onSettled: () => invalidate(client),
  });
}

/** `POST web/sellEtf`: redeem an order. */
export function useSellEtf() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) => apiPost<FundOrderData>('web/sellEtf', { order_id: orderId }),
    onSettled: () => invalidate(client),
  });
}

/** `GET web/getEtfOrders`: my orders of one model, newest first; values refresh every 15 s. */
export function useEtfOrders(modelId: FundModelId, page: number, pageSize: number) {
  const token = useToken();
  const lang = useLang();
  return useQuery({
    queryKey: ['web/getEtfOrders', modelId, page, pageSize, token, lang],
    queryFn: () =>
      apiGet<Paged<FundOrderData>>('web/getEtfOrders', {
        model_id: modelId,
        page,
        page_size: pageSize,
        lang,
      }),
    enabled: token !== null,
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
}
