import {
  AdminAnnouncementBody,
  AdminAnnouncementPublishBody,
  AdminAnnouncementReasonBody,
  AdminAnnouncementUpdateBody,
  AdminNoticesQuery,
} from '@bourse/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../http/envelope.ts';
import { staffOf } from '../../http/request.ts';
import type { Inbox } from './service.ts';

const IdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/**
 * Back-office calls under /api/admin/notices (permission `content.write`, the content team's):
 * announcements in three languages, published now or at a time, unpublished; every change audited
 * with its reason. Staff cannot write into one customer's inbox: messages come from notify only.
 */
export function inboxAdminRoutes(inbox: Inbox) {
  return async (app: FastifyInstance) => {
    const tags = ['admin', 'notices'];
    const config = { permission: 'content.write' as const };
    app.get(
      '/notices',
      { schema: { tags, summary: 'Announcements, newest first', querystring: AdminNoticesQuery }, config },
      async (r) => ok(r, await inbox.adminList(r.query as AdminNoticesQuery)),
    );
    app.post(
      '/notices',
      {
        schema: {
          tags,
          summary: 'A draft announcement in three languages (audited)',
          body: AdminAnnouncementBody,
        },
        config,
      },
      async (r) => ok(r, await inbox.create(staffOf(r), r.body as AdminAnnouncementBody)),
    );
    app.post(
      '/notices/:id/update',
      {
        schema: {
          tags,
          summary: 'New texts for a draft or a scheduled announcement, with a reason (audited)',
          params: IdParams,
          body: AdminAnnouncementUpdateBody,
        },
        config,
      },
      async (r) => ok(r, await inbox.update(staffOf(r), idOf(r), r.body as AdminAnnouncementUpdateBody)),
    );
    app.post(
      '/notices/:id/publish',
      {
        schema: {
          tags,
          summary: 'Publish now or at publish_at, with a reason (audited)',
          params: IdParams,
          body: AdminAnnouncementPublishBody,
        },
        config,
      },
      async (r) => ok(r, await inbox.publish(staffOf(r), idOf(r), r.body as AdminAnnouncementPublishBody)),
    );
    app.post(
      '/notices/:id/unpublish',
      {
        schema: {
          tags,
          summary: 'Take an announcement down, with a reason (audited)',
          params: IdParams,
          body: AdminAnnouncementReasonBody,
        },
        config,
      },
      async (r) =>
        ok(r, await inbox.unpublish(staffOf(r), idOf(r), (r.body as AdminAnnouncementReasonBody).reason)),
    );
  };
}
