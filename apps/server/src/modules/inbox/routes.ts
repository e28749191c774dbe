import {
  GetNoticesQuery,
  NoticesEmptyQuery,
  ReadAllNoticesBody,
  ReadNoticeBody,
  SetNoticePrefsBody,
} from '@bourse/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { langOf, ok } from '../../http/envelope.ts';
import { authOf } from '../../http/request.ts';
import type { Inbox } from './service.ts';

type Route = {
  method: 'GET' | 'POST';
  url: string;
  summary: string;
  schema: Record<string, unknown>;
  handler: (request: FastifyRequest) => Promise<unknown>;
};

const me = (r: FastifyRequest) => authOf(r).customerId;

/** Customer calls under /api/web (docs/api.md, "Notices"); every one needs a session. */
function routes(inbox: Inbox): Route[] {
  return [
    {
      method: 'GET',
      url: '/getNotices',
      summary: 'My messages and the announcements, newest first, with my read state',
      schema: { querystring: GetNoticesQuery },
      handler: (r) => inbox.notices(me(r), langOf(r), r.query as GetNoticesQuery),
    },
    {
      method: 'GET',
      url: '/getUnreadCount',
      summary: 'How many of my notices are unread',
      schema: { querystring: NoticesEmptyQuery },
      handler: (r) => inbox.unreadCount(me(r)),
    },
    {
      method: 'POST',
      url: '/readNotice',
      summary: 'Mark one notice read (idempotent)',
      schema: { body: ReadNoticeBody },
      handler: (r) => inbox.read(me(r), (r.body as ReadNoticeBody).id),
    },
    {
      method: 'POST',
      url: '/readAllNotices',
      summary: 'Mark every notice read (idempotent)',
      schema: { body: ReadAllNoticesBody },
      handler: (r) => inbox.readAll(me(r)),
    },
    {
      method: 'GET',
      url: '/getNoticePrefs',
      summary: 'Which kinds also go by e-mail (security kinds always do)',
      schema: { querystring: NoticesEmptyQuery },
      handler: (r) => inbox.prefs(me(r)),
    },
    {
      method: 'POST',
      url: '/setNoticePrefs',
      summary: 'Choose which kinds also go by e-mail; a security kind cannot be turned off',
      schema: { body: SetNoticePrefsBody },
      handler: (r) => inbox.setPrefs(me(r), r.body as SetNoticePrefsBody),
    },
  ];
}

export function inboxRoutes(inbox: Inbox) {
  return async (app: FastifyInstance) => {
    const tags = ['notices'];
    for (const route of routes(inbox)) {
      app.route({
        method: route.method,
        url: route.url,
        schema: { tags, summary: route.summary, ...route.schema },
        config: { auth: 'required' },
        handler: async (request) => ok(request, await route.handler(request)),
      });
    }
  };
}
