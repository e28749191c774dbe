import type {
  LaunchpadSubscriptionData,
  LaunchpadSubscriptionState,
  SubscriptionInfoData,
  SubscriptionListData,
  SubscriptionProofData,
  SubscriptionQuoteData,
  SubscriptionRecordsData,
} from '@bourse/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api.ts';
import { useLang } from '../../lib/i18n.ts';
import { useToken } from '../../lib/session.ts';

/**
 * The launchpad calls (packages/protocol/src/launchpad.ts). Names, descriptions and risk warnings
 * come in the request's language, so the language is part of every project query's key and is sent
 * as that key says (the fetch may start after the next switch); the token is part of the keys whose
 * answer depends on who asks.
 */

/** `GET web/getSubscriptionList` (public): every project past draft, open first, then newest. */
export function useSubscriptionList() {
  const lang = useLang();
  return useQuery({
    queryKey: ['web/getSubscriptionList', lang],
    queryFn: () => apiGet<SubscriptionListData>('web/getSubscriptionList', { lang }),
    staleTime: 10_000,
    refetchInterval: 30_000,
  });
}

/** `GET web/getSubscriptionInfo` (public; `eligibility` when signed in): one project and my standing. */
export function useSubscriptionInfo(projectId: string | null) {
  const lang = useLang();
  const token = useToken();
  return useQuery({
    queryKey: ['web/getSubscriptionInfo', projectId, lang, token],
    queryFn: () =>
      apiGet<SubscriptionInfoData>('web/getSubscriptionInfo', { project_id: projectId ?? '', lang }),
    enabled: projectId !== null && projectId !== '',
    staleTime: 5_000,
    refetchInterval: 30_000,
  });
}

/**
 * `GET web/getSubscriptionQuote` (public): exactly what subscribing `quantity` freezes. Asked only for
 * a quantity the field accepts (`null` otherwise); the previous figures stay while the next load.
 */
export function useSubscriptionQuote(projectId: string, quantity: string | null) {
  return useQuery({
    queryKey: ['web/getSubscriptionQuote', projectId, quantity],
    queryFn: () =>
      apiGet<SubscriptionQuoteData>('web/getSubscriptionQuote', {
        project_id: projectId,
        quantity: quantity ?? '',
      }),
    enabled: quantity !== null,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

export type RecordsFilter = {
  project_id?: string;
  state?: LaunchpadSubscriptionState;
  page: number;
  page_size: number;
};

/** `GET web/getSubscriptionRecords` (login): my subscriptions, newest first, in pages. */
export function useSubscriptionRecords(filter: RecordsFilter) {
  const token = useToken();
  const lang = useLang();
  return useQuery({
    queryKey: ['web/getSubscriptionRecords', filter, token, lang],
    queryFn: () =>
      apiGet<SubscriptionRecordsData>('web/getSubscriptionRecords', {
        project_id: filter.project_id,
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

/** `GET web/getSubscriptionProof` (login, after allocation): my two leaves, their paths, the published figures. */
export function useSubscriptionProof(projectId: string | null) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getSubscriptionProof', projectId, token],
    queryFn: () => apiGet<SubscriptionProofData>('web/getSubscriptionProof', { project_id: projectId ?? '' }),
    enabled: token !== null && projectId !== null && projectId !== '',
    staleTime: 60_000,
  });
}

/** `POST web/subscribe` (login, idempotent on the request token): freezes the quoted amount. */
export function useSubscribe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { project_id: string; quantity: string }) =>
      apiPost<LaunchpadSubscriptionData>('web/subscribe', { ...input, accept_terms: '1' }),
    onSettled: () =>
      Promise.all(
        [
          'web/getSubscriptionList',
          'web/getSubscriptionInfo',
          'web/getSubscriptionRecords',
          'web/getAsset2',
        ].map((key) => client.invalidateQueries({ queryKey: [key] })),
      ),
  });
}
