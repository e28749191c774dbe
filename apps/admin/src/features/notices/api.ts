import type { AdminAnnouncementBody, AdminAnnouncementData, AdminAnnouncementsPage } from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api.ts';

/** The back office's announcement calls (packages/protocol/src/notices.ts), all under `content.write`. */
const LIST = ['notices', 'list'] as const;
export const NOTICES_PAGE_SIZE = 50;

export function useAnnouncements() {
  return useQuery({
    queryKey: LIST,
    queryFn: () => api.get<AdminAnnouncementsPage>('notices', { page_size: String(NOTICES_PAGE_SIZE) }),
  });
}

export type AnnouncementTexts = Omit<AdminAnnouncementBody, 'token' | 'lang' | 'rtoken'>;

function useRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: LIST });
}

export function useCreateAnnouncement() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (texts: AnnouncementTexts) => api.post<AdminAnnouncementData>('notices', texts),
    onSuccess: refresh,
  });
}

/** New texts for a draft or a scheduled announcement, with the reason the audit log keeps. */
export function useUpdateAnnouncement() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: { id: string; texts: AnnouncementTexts; reason: string }) =>
      api.post<AdminAnnouncementData>(`notices/${encodeURIComponent(input.id)}/update`, {
        ...input.texts,
        reason: input.reason,
      }),
    onSuccess: refresh,
  });
}

/** Publishes now (`publishAt` null) or at an instant, with the reason the audit log keeps. */
export function usePublishAnnouncement() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: { id: string; reason: string; publishAt: number | null }) =>
      api.post<AdminAnnouncementData>(`notices/${encodeURIComponent(input.id)}/publish`, {
        reason: input.reason,
        publish_at: input.publishAt === null ? undefined : String(input.publishAt),
      }),
    onSuccess: refresh,
  });
}

export function useUnpublishAnnouncement() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: { id: string; reason: string }) =>
      api.post<AdminAnnouncementData>(`notices/${encodeURIComponent(input.id)}/unpublish`, {
        reason: input.reason,
      }),
    onSuccess: refresh,
  });
}
