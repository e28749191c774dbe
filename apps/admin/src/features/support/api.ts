import type {
  AdminSupportCannedData,
  AdminSupportConversationData,
  AdminSupportDetailData,
  AdminSupportMeData,
  AdminSupportMetricsData,
  Paged,
  SupportQueue,
  SupportStatus,
} from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api.ts';

/**
 * The support console's calls (`/api/admin/support/*`, packages/protocol/src/support.ts): reading
 * needs `support.read`, every change `support.write` (audited). The back office has no websocket,
 * so the queue and the open conversation poll (README of modules/support, "Live delivery").
 */

export const QUEUE_POLL_MS = 5_000;
export const CONVERSATION_POLL_MS = 3_000;
export const PAGE_SIZE = 50;

export const supportKeys = {
  all: ['support'] as const,
  queue: (queue: SupportQueue) => ['support', 'queue', queue] as const,
  conversation: (id: string) => ['support', 'conversation', id] as const,
  canned: ['support', 'canned'] as const,
  metrics: (days: number) => ['support', 'metrics', days] as const,
  me: ['support', 'me'] as const,
};

export function useSupportQueue(queue: SupportQueue) {
  return useQuery({
    queryKey: supportKeys.queue(queue),
    queryFn: () =>
      api.get<Paged<AdminSupportConversationData>>('support/queue', { queue, page: 1, page_size: PAGE_SIZE }),
    refetchInterval: QUEUE_POLL_MS,
  });
}

export function useSupportConversation(id: string | null) {
  return useQuery({
    queryKey: supportKeys.conversation(id ?? ''),
    queryFn: () => api.get<AdminSupportDetailData>(`support/conversations/${encodeURIComponent(id ?? '')}`),
    enabled: id !== null,
    refetchInterval: CONVERSATION_POLL_MS,
  });
}

export function useCanned() {
  return useQuery({
    queryKey: supportKeys.canned,
    queryFn: () => api.get<AdminSupportCannedData[]>('support/canned'),
  });
}

export function useSupportMetrics(days: number) {
  return useQuery({
    queryKey: supportKeys.metrics(days),
    queryFn: () => api.get<AdminSupportMetricsData>('support/metrics', { days }),
  });
}

export function useSupportMe() {
  return useQuery({
    queryKey: supportKeys.me,
    queryFn: () => api.get<AdminSupportMeData>('support/me'),
    staleTime: 300_000,
  });
}

/** Every write refreshes the support screens. */
function useSupportWrite<I, O>(call: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => client.invalidateQueries({ queryKey: supportKeys.all }),
  });
}

const path = (id: string, action: string) => `support/conversations/${encodeURIComponent(id)}/${action}`;

export const useAssign = () =>
  useSupportWrite((input: { id: string; staff_id?: string }) =>
    api.postJson<AdminSupportConversationData>(
      path(input.id, 'assign'),
      input.staff_id ? { staff_id: input.staff_id } : {},
    ),
  );
export const useReply = () =>
  useSupportWrite((input: { id: string; body: string }) =>
    api.postJson(path(input.id, 'reply'), { body: input.body }),
  );
export const useNote = () =>
  useSupportWrite((input: { id: string; body: string }) =>
    api.postJson(path(input.id, 'note'), { body: input.body }),
  );
export const useSetStatus = () =>
  useSupportWrite((input: { id: string; status: SupportStatus }) =>
    api.postJson<AdminSupportConversationData>(path(input.id, 'status'), { status: input.status }),
  );

export type CannedInput = { title: string; body_en: string; body_zh: string; body_ft: string };

export const useSaveCanned = () =>
  useSupportWrite((input: { id: string | null; body: CannedInput }) =>
    api.postJson<AdminSupportCannedData>(
      input.id === null ? 'support/canned' : `support/canned/${encodeURIComponent(input.id)}`,
      input.body,
    ),
  );
export const useDeleteCanned = () =>
  useSupportWrite((id: string) => api.postJson(`support/canned/${encodeURIComponent(id)}/delete`, {}));
