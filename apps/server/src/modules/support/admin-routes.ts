import {
  AdminSupportAssignBody,
  AdminSupportCannedBody,
  AdminSupportEmptyBody,
  AdminSupportHoursBody,
  AdminSupportMetricsQuery,
  AdminSupportNoteBody,
  AdminSupportQueueQuery,
  AdminSupportReplyBody,
  AdminSupportStatusBody,
  SupportEmptyQuery,
} from '@bourse/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../http/envelope.ts';
import { staffOf } from '../../http/request.ts';
import type { StaffPermission } from '../../http/staff.ts';
import type { Support } from './service.ts';

const IdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

type Route = {
  method: 'GET' | 'POST';
  url: string;
  permission: StaffPermission;
  summary: string;
  schema: Record<string, unknown>;
  handler: (request: FastifyRequest) => Promise<unknown>;
};

function route(
  method: Route['method'],
  url: string,
  permission: StaffPermission,
  summary: string,
  input: unknown,
  handler: Route['handler'],
): Route {
  const params = url.includes(':id') ? { params: IdParams } : {};
  const schema = method === 'GET' ? { querystring: input, ...params } : { body: input, ...params };
  return { method, url, permission, summary, schema, handler };
}

/**
 * The staff console under /api/admin/support: reading (queues, a conversation with audited
 * attachment links, canned replies, metrics, hours) needs `support.read`; every change
 * `support.write`, audited. The back office has no websocket: the console polls.
 */
function routes(support: Support): Route[] {
  const R = 'support.read' as const;
  const W = 'support.write' as const;
  return [
    route(
      'GET',
      '/support/queue',
      R,
      'A queue: unassigned, mine, open, pending or resolved',
      AdminSupportQueueQuery,
      (r) => support.queue(staffOf(r), r.query as AdminSupportQueueQuery),
    ),
    route(
      'GET',
      '/support/conversations/:id',
      R,
      'One conversation with notes and audited file links',
      SupportEmptyQuery,
      (r) => support.detail(staffOf(r), idOf(r)),
    ),
    route(
      'POST',
      '/support/conversations/:id/assign',
      W,
      'Take (no staff_id) or assign (audited)',
      AdminSupportAssignBody,
      (r) => support.assign(staffOf(r), idOf(r), (r.body as AdminSupportAssignBody).staff_id),
    ),
    route(
      'POST',
      '/support/conversations/:id/reply',
      W,
      'Reply to the customer (live; audited)',
      AdminSupportReplyBody,
      (r) => support.reply(staffOf(r), idOf(r), (r.body as AdminSupportReplyBody).body),
    ),
    route(
      'POST',
      '/support/conversations/:id/note',
      W,
      'An internal note, never shown to the customer',
      AdminSupportNoteBody,
      (r) => support.note(staffOf(r), idOf(r), (r.body as AdminSupportNoteBody).body),
    ),
    route(
      'POST',
      '/support/conversations/:id/status',
      W,
      'Set open, pending or resolved (audited)',
      AdminSupportStatusBody,
      (r) => support.setStatus(staffOf(r), idOf(r), (r.body as AdminSupportStatusBody).status),
    ),
    route('GET', '/support/canned', R, 'Canned replies in three languages', SupportEmptyQuery, () =>
      support.canned(),
    ),
    route('POST', '/support/canned', W, 'A new canned reply (audited)', AdminSupportCannedBody, (r) =>
      support.saveCanned(staffOf(r), null, r.body as AdminSupportCannedBody),
    ),
    route('POST', '/support/canned/:id', W, 'Change a canned reply (audited)', AdminSupportCannedBody, (r) =>
      support.saveCanned(staffOf(r), idOf(r), r.body as AdminSupportCannedBody),
    ),
    route(
      'POST',
      '/support/canned/:id/delete',
      W,
      'Remove a canned reply (audited)',
      AdminSupportEmptyBody,
      (r) => support.deleteCanned(staffOf(r), idOf(r)),
    ),
    route(
      'GET',
      '/support/metrics',
      R,
      'Median first-response and resolution times over a period',
      AdminSupportMetricsQuery,
      (r) => support.metrics((r.query as AdminSupportMetricsQuery).days),
    ),
    route(
      'GET',
      '/support/hours',
      R,
      'The staffed hours and whether staff are in now',
      SupportEmptyQuery,
      () => support.hours(),
    ),
    route(
      'POST',
      '/support/hours',
      W,
      'Change the staffed hours (schedule text; audited)',
      AdminSupportHoursBody,
      (r) => support.setHours(staffOf(r), (r.body as AdminSupportHoursBody).hours),
    ),
    route('GET', '/support/me', R, 'My public staff code and display name', SupportEmptyQuery, (r) =>
      support.me(staffOf(r)),
    ),
  ];
}

export function supportAdminRoutes(support: Support) {
  return async (app: FastifyInstance) => {
    const tags = ['admin', 'support'];
    for (const r of routes(support)) {
      app.route({
        method: r.method,
        url: r.url,
        schema: { tags, summary: r.summary, ...r.schema },
        config: { permission: r.permission },
        handler: async (request) => ok(request, await r.handler(request)),
      });
    }
  };
}
