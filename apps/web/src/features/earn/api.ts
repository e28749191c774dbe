import type {
  EarnKind,
  EarnOrderData,
  EarnOrderState,
  ProfitInfoData,
  ProfitListData,
  ProfitOrderData,
  ProfitOrdersData,
  ProfitTotalData,
  RedeemQuoteData,
} from '@bourse/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api.ts';
import { useLang } from '../../lib/i18n.ts';
import { useToken } from '../../lib/session.ts';

/**
 * The earn calls (packages/protocol/src/earn.ts). Names and descriptions come in the request's
 * language, so the language is part of every product query's key.
 */

/** `GET web/getProfitList` (public): products on sale or paused, and the published VIP levels. */
export function useProfitList(kind: EarnKind) {
  const lang = useLang();
  return useQuery({
    queryKey: ['web/getProfitList', kind, lang],
    queryFn: () => apiGet<ProfitListData>('web/getProfitList', { kind, lang }),
    staleTime: 15_000,
  });
}

/** `GET web/getProfitInfo` (public; eligibility when signed in): one product, its example and rules. */
export function useProfitInfo(productId: string | null) {
  const lang = useLang();
  const token = useToken();
  return useQuery({
    queryKey: ['web/getProfitInfo', productId, lang, token],
    queryFn: () => apiGet<ProfitInfoData>('web/getProfitInfo', { product_id: productId ?? '', lang }),
    enabled: productId !== null && productId !== '',
    staleTime: 10_000,
  });
}

/** `GET web/getProfitTotal` (login): per currency, principal, profit so far and earned. */
export function useProfitTotal(kind: EarnKind) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getProfitTotal', kind, token],
    queryFn: () => apiGet<ProfitTotalData>('web/getProfitTotal', { kind }),
    enabled: token !== null,
    refetchInterval: 30_000,
  });
}

export type OrdersFilter = { kind: EarnKind; state?: EarnOrderState; page: number; page_size: number };

/** `GET web/getProfitOrders` (login): my orders of a kind, newest first, in pages. */
export function useProfitOrders(filter: OrdersFilter) {
  const token = useToken();
  const lang = useLang();
  return useQuery({
    queryKey: ['web/getProfitOrders', filter, token, lang],
    queryFn: () =>
      apiGet<ProfitOrdersData>('web/getProfitOrders', {
        kind: filter.kind,
        state: filter.state,
        page: String(filter.page),
        page_size: String(filter.page_size),
        lang,
      }),
    enabled: token !== null,
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

/** `GET web/getProfitOrder` (login): one order with its day-by-day accruals. */
export function useProfitOrder(orderId: string | null) {
  const token = useToken();
  const lang = useLang();
  return useQuery({
    queryKey: ['web/getProfitOrder', orderId, token, lang],
    queryFn: () => apiGet<ProfitOrderData>('web/getProfitOrder', { order_id: orderId ?? '', lang }),
    enabled: token !== null && orderId !== null,
  });
}

/** Everything a purchase or a redemption changes. */
function invalidateEarn(client: ReturnType<typeof useQueryClient>): Promise<void> {
  return Promise.all(
    [
      'web/getProfitList',
      'web/getProfitInfo',
      'web/getProfitTotal',
      'web/getProfitOrders',
      'web/getProfitOrder',
      'web/getAsset2',
    ].map((key) => client.invalidateQueries({ queryKey: [key] })),
  ).then(() => undefined);
}

/** `POST web/buyProfit` (idempotent on the request token). */
export function useBuyProfit() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { product_id: string; amount: string }) =>
      apiPost<EarnOrderData>('web/buyProfit', { ...input, accept_terms: '1' }),
    onSettled: () => invalidateEarn(client),
  });
}

/** `POST web/quoteRedeem`: a binding quote, valid for a minute. */
export function useQuoteRedeem() {
  return useMutation({
    mutationFn: (orderId: string) => apiPost<RedeemQuoteData>('web/quoteRedeem', { order_id: orderId }),
  });
}

/** `POST web/sellProfit`: posts exactly the quote. */
export function useSellProfit() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { order_id: string; quote_id: string }) =>
      apiPost<EarnOrderData>('web/sellProfit', input),
    onSettled: () => invalidateEarn(client),
  });
}
