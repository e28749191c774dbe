import {
  SupportEmptyQuery,
  SupportFileQuery,
  SupportMessagesQuery,
  SupportSendBody,
  SupportStartBody,
  VerifyStaffQuery,
} from '@bourse/protocol';
import { authOf } from '../../http/request.ts';
import { bodyOf as body, queryOf as query, type WebRoute, webRouteTable } from '../../http/route-table.ts';
import type { Support } from './service.ts';

/**
 * Customer service under /api/web (the spec's `/service`). The customer is the session's, never a
 * name in the request; every POST is idempotent by rtoken; attachments are `uploadDocument` with
 * purpose `support`. Staff replies and status changes arrive live on `support_private:<uid>`.
 */
function routes(support: Support): WebRoute[] {
  return [
    {
      method: 'GET',
      url: '/supportInfo',
      summary: 'Staffed hours, whether staff are in now, when next, and what staff never ask for',
      schema: { querystring: SupportEmptyQuery },
      auth: 'optional',
      handler: () => support.info(),
    },
    {
      method: 'GET',
      url: '/verifyStaff',
      summary: 'Whether a staff code is a current staff member’s, and their display name',
      schema: { querystring: VerifyStaffQuery },
      auth: 'optional',
      handler: (r) => support.verifyStaff(query<VerifyStaffQuery>(r).code),
    },
    {
      method: 'GET',
      url: '/supportConversations',
      summary: 'My support conversations, latest first',
      schema: { querystring: SupportEmptyQuery },
      auth: 'required',
      handler: (r) => support.conversations(authOf(r)),
    },
    {
      method: 'POST',
      url: '/supportStart',
      summary: 'Start a conversation (subject, first message, optional order or case it is about)',
      schema: { body: SupportStartBody },
      auth: 'required',
      handler: (r) => support.start(authOf(r), body(r)),
    },
    {
      method: 'GET',
      url: '/supportMessages',
      summary: 'A conversation’s messages after a sequence number (never staff notes)',
      schema: { querystring: SupportMessagesQuery },
      auth: 'required',
      handler: (r) => {
        const q = query<SupportMessagesQuery>(r);
        return support.messages(authOf(r), q.id, Number(q.after ?? '0'));
      },
    },
    {
      method: 'POST',
      url: '/supportSend',
      summary: 'Write in my conversation (text and/or an attachment); reopens a resolved one',
      schema: { body: SupportSendBody },
      auth: 'required',
      handler: (r) => support.send(authOf(r), body(r)),
    },
    {
      method: 'GET',
      url: '/supportFileLink',
      summary: 'A short-lived link to an attachment of my conversation',
      schema: { querystring: SupportFileQuery },
      auth: 'required',
      handler: (r) => support.fileLink(authOf(r), query<SupportFileQuery>(r)),
    },
  ];
}

export function supportRoutes(support: Support) {
  return webRouteTable(['support'], routes(support));
}
