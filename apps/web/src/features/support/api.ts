import {
  type DocumentLinkData,
  SUPPORT_CHANNELS,
  type SupportConversationData,
  type SupportInfoData,
  type SupportMessageData,
  type SupportPrivateMessage,
  type SupportRefType,
  type VerifyStaffData,
} from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';
import { useChannel, useSocketUid } from '../../lib/ws.ts';

/**
 * The customer-service calls (packages/protocol/src/support.ts, docs/api.md "Support"). Staff
 * replies and status changes arrive on `support_private:<uid>` (`useSupportLive`) and update the
 * same queries: no refresh needed.
 */

const INFO = 'web/supportInfo';
const LIST = 'web/supportConversations';
const MESSAGES = 'web/supportMessages';

export type StartAnswer = {
  conversation: SupportConversationData;
  message: SupportMessageData;
} & SupportInfoData;

/** Merges messages by sequence number (a live one may arrive before or after the fetch). */
export function mergeMessages(old: SupportMessageData[], added: SupportMessageData[]): SupportMessageData[] {
  const bySeq = new Map(old.map((m) => [m.seq, m]));
  for (const m of added) bySeq.set(m.seq, m);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** `GET web/supportInfo`: staffed hours, open now, next opening, the safety statement. */
export function useSupportInfo() {
  return useQuery({
    queryKey: [INFO],
    queryFn: () => apiGet<SupportInfoData>(INFO),
    refetchInterval: 60_000,
  });
}

/** `GET web/supportConversations` (login): mine, latest first. */
export function useConversations() {
  const token = useToken();
  return useQuery({
    queryKey: [LIST, token],
    queryFn: () => apiGet<SupportConversationData[]>(LIST),
    enabled: token !== null,
  });
}

/** `GET web/supportMessages` (login, mine): never staff notes; live ones merged by `useSupportLive`. */
export function useSupportMessages(id: string | null) {
  const token = useToken();
  return useQuery({
    queryKey: [MESSAGES, id],
    queryFn: () => apiGet<SupportMessageData[]>(MESSAGES, { id: id ?? '', after: '0' }),
    enabled: token !== null && id !== null && id !== '',
  });
}

export type StartInput = {
  subject: string;
  body: string;
  ref_type?: SupportRefType;
  ref_id?: string;
  file_id?: string;
};

/** `POST web/supportStart`: the session's customer, never a typed name. */
export function useStartConversation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: StartInput) => apiPost<StartAnswer>('web/supportStart', input),
    onSuccess: (answer) => client.setQueryData([MESSAGES, answer.conversation.id], [answer.message]),
    onSettled: () => client.invalidateQueries({ queryKey: [LIST] }),
  });
}

/** `POST web/supportSend`: text and/or an attachment; the answer joins the conversation at once. */
export function useSendSupport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; body?: string; file_id?: string }) =>
      apiPost<StartAnswer>('web/supportSend', input),
    onSuccess: (answer) => {
      client.setQueryData<SupportMessageData[]>([MESSAGES, answer.conversation.id], (old) =>
        mergeMessages(old ?? [], [answer.message]),
      );
      client.setQueryData([INFO], {
        hours: answer.hours,
        time_zone: answer.time_zone,
        open_now: answer.open_now,
        next_open_at: answer.next_open_at,
        safety: answer.safety,
      });
    },
    onSettled: () => client.invalidateQueries({ queryKey: [LIST] }),
  });
}

/** `GET web/verifyStaff {code}`: whether a code is a current staff member's. */
export function useVerifyStaff() {
  return useMutation({
    mutationFn: (code: string) => apiGet<VerifyStaffData>('web/verifyStaff', { code }),
  });
}

/** A short-lived link to an attachment of my conversation. */
export function useSupportFileLink(id: string, fileId: string) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/supportFileLink', token, id, fileId],
    queryFn: () => apiGet<DocumentLinkData>('web/supportFileLink', { id, file_id: fileId }),
    enabled: token !== null,
    staleTime: 60_000,
    refetchInterval: 240_000,
    retry: false,
  });
}

/** The private channel `support_private:<uid>` while `/service` is open. */
export function useSupportLive(): void {
  const token = useToken();
  const uid = useSocketUid();
  const client = useQueryClient();
  const channel = token && uid ? `${SUPPORT_CHANNELS.private}${uid}` : null;
  useChannel(channel, (event) => {
    if (event.snapshot) return;
    const message = event.data as SupportPrivateMessage;
    if (message.type === 'message') {
      // Only a conversation already loaded is extended: a partial one would pass for the whole.
      client.setQueryData<SupportMessageData[]>([MESSAGES, message.conversation_id], (old) =>
        old ? mergeMessages(old, [message.message]) : old,
      );
    }
    void client.invalidateQueries({ queryKey: [LIST] });
  });
}
