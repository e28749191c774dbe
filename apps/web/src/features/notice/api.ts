import {
  INBOX_CHANNELS,
  type InboxPrivateMessage,
  type NoticeKind,
  type NoticePrefsData,
  type NoticesPage,
  type UnreadCountData,
} from '@bourse/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';
import { useChannel, useSocketUid } from '../../lib/ws.ts';

/**
 * The notice calls (packages/protocol/src/notices.ts, docs/api.md "Notices"). The unread count and
 * the list refresh live from `inbox_private:<uid>` (a new notice, a read in another tab) and
 * `inbox_public` (an announcement went live) — `useNoticeLive`, mounted once by the header bell.
 */

const NOTICES = 'web/getNotices';
const UNREAD = 'web/getUnreadCount';
const PREFS = 'web/getNoticePrefs';

export type NoticeTab = 'all' | 'message' | 'announcement';

/** `GET web/getNotices` (login): mine and the announcements, newest first; `pages` pages of 20. */
export function useNotices(tab: NoticeTab, pageSize: number) {
  const token = useToken();
  return useQuery({
    queryKey: [NOTICES, token, tab, pageSize],
    queryFn: () =>
      apiGet<NoticesPage>(NOTICES, {
        page_size: String(pageSize),
        kind: tab === 'all' ? undefined : tab,
      }),
    enabled: token !== null,
    placeholderData: keepPreviousData,
  });
}

/** `GET web/getUnreadCount` (login): the bell's badge. */
export function useUnreadCount() {
  const token = useToken();
  return useQuery({
    queryKey: [UNREAD, token],
    queryFn: () => apiGet<UnreadCountData>(UNREAD),
    enabled: token !== null,
    staleTime: 30_000,
  });
}

function useSettle() {
  const client = useQueryClient();
  return (answer: UnreadCountData) => {
    client.setQueriesData<UnreadCountData>({ queryKey: [UNREAD] }, () => answer);
    void client.invalidateQueries({ queryKey: [NOTICES] });
  };
}

/** `POST web/readNotice` (idempotent). */
export function useReadNotice() {
  const settle = useSettle();
  return useMutation({
    mutationFn: (id: string) => apiPost<UnreadCountData>('web/readNotice', { id }),
    onSuccess: settle,
  });
}

/** `POST web/readAllNotices` (idempotent). */
export function useReadAll() {
  const settle = useSettle();
  return useMutation({
    mutationFn: () => apiPost<UnreadCountData>('web/readAllNotices'),
    onSuccess: settle,
  });
}

/** `GET web/getNoticePrefs` (login): which kinds also go by e-mail. */
export function useNoticePrefs() {
  const token = useToken();
  return useQuery({
    queryKey: [PREFS, token],
    queryFn: () => apiGet<NoticePrefsData>(PREFS),
    enabled: token !== null,
  });
}

/** `POST web/setNoticePrefs`: one kind on or off (a security kind cannot be turned off). */
export function useSetNoticePref() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { kind: NoticeKind; email: boolean }) =>
      apiPost<NoticePrefsData>('web/setNoticePrefs', { kind: input.kind, email: input.email ? '1' : '0' }),
    onSuccess: (prefs) => client.setQueriesData<NoticePrefsData>({ queryKey: [PREFS] }, () => prefs),
  });
}

/**
 * Live notices while the app is open and signed in: the private channel carries the new unread
 * count (set at once) and, for a new notice, refreshes the list; the public channel says an
 * announcement went live (the count and the list are fetched again).
 */
export function useNoticeLive(): void {
  const token = useToken();
  const uid = useSocketUid();
  const client = useQueryClient();
  useChannel(token && uid ? `${INBOX_CHANNELS.private}${uid}` : null, (event) => {
    if (event.snapshot) return;
    const message = event.data as InboxPrivateMessage;
    client.setQueriesData<UnreadCountData>({ queryKey: [UNREAD] }, () => ({ unread: message.unread }));
    void client.invalidateQueries({ queryKey: [NOTICES] });
  });
  useChannel(token && uid ? INBOX_CHANNELS.public : null, (event) => {
    if (event.snapshot) return;
    void client.invalidateQueries({ queryKey: [UNREAD] });
    void client.invalidateQueries({ queryKey: [NOTICES] });
  });
}
