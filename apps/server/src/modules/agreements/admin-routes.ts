import {
  AdminAgreementDraftBody,
  AdminAgreementPublishBody,
  AdminAgreementsQuery,
  AdminAgreementVersionQuery,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { staffOf } from '../../http/request.ts';
import type { Agreements } from './service.ts';

/**
 * Back-office calls under /api/admin, all with `content.write` (the content editors' permission;
 * there is no read-only content permission): versions with acceptance counts, one version's texts,
 * saving the next version's draft and publishing it with an effective date (audited).
 */
export function agreementsAdminRoutes(agreements: Agreements) {
  return async (app: FastifyInstance) => {
    const tags = ['admin'];
    const config = { permission: 'content.write' as const };
    app.get(
      '/agreements',
      {
        schema: {
          tags,
          summary: 'Agreement kinds, their versions and acceptance counts',
          querystring: AdminAgreementsQuery,
        },
        config,
      },
      async (request) => ok(request, await agreements.admin.list()),
    );
    app.get(
      '/agreements/version',
      {
        schema: {
          tags,
          summary: 'One agreement version in three languages',
          querystring: AdminAgreementVersionQuery,
        },
        config,
      },
      async (request) =>
        ok(request, await agreements.admin.version(request.query as AdminAgreementVersionQuery)),
    );
    app.post(
      '/agreements/draft',
      {
        schema: {
          tags,
          summary: 'Save the draft of an agreement’s next version (audited)',
          body: AdminAgreementDraftBody,
        },
        config,
      },
      async (request) =>
        ok(
          request,
          await agreements.admin.saveDraft(staffOf(request), request.body as AdminAgreementDraftBody),
        ),
    );
    app.post(
      '/agreements/publish',
      {
        schema: {
          tags,
          summary: 'Publish a draft from an effective date (audited)',
          body: AdminAgreementPublishBody,
        },
        config,
      },
      async (request) =>
        ok(
          request,
          await agreements.admin.publish(staffOf(request), request.body as AdminAgreementPublishBody),
        ),
    );
  };
}
