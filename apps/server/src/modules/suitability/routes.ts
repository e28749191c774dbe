import {
  AdminCapsBody,
  AdminCustomerRatingQuery,
  AdminScoringBody,
  CommonFields,
  GetQuestionnaireQuery,
  GetRiskRatingQuery,
  SubmitQuestionnaireBody,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../http/envelope.ts';
import { authOf, staffOf } from '../../http/request.ts';
import type { Suitability } from './service.ts';

const tags = ['suitability'];

/** Customer calls under /api/web (docs/api.md, "Risk questionnaire"). */
export function suitabilityRoutes(suitability: Suitability) {
  return async (app: FastifyInstance) => {
    app.get(
      '/getQuestionnaire',
      {
        schema: {
          tags,
          summary: 'The risk questionnaire, its published scoring table and what each rating allows',
          querystring: GetQuestionnaireQuery,
        },
        config: { auth: 'optional' },
      },
      async (request) => ok(request, await suitability.questionnaire()),
    );
    app.post(
      '/submitQuestionnaire',
      {
        schema: {
          tags,
          summary: 'Answer the risk questionnaire (a new rating)',
          body: SubmitQuestionnaireBody,
        },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(
          request,
          await suitability.submit(authOf(request).customerId, request.body as SubmitQuestionnaireBody),
        ),
    );
    app.get(
      '/getRiskRating',
      {
        schema: {
          tags,
          summary: 'My risk rating, what it allows, when I may retake, history',
          querystring: GetRiskRatingQuery,
        },
        config: { auth: 'required' },
      },
      async (request) => ok(request, await suitability.rating(authOf(request).customerId)),
    );
  };
}

const EmptyQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });

/** Back office: read (risk.read) and change (settings.write, audited with a reason) the scoring table and the caps. */
export function suitabilityAdminRoutes(suitability: Suitability) {
  return async (app: FastifyInstance) => {
    const admin = ['admin'];
    app.get(
      '/suitability',
      {
        schema: { tags: admin, summary: 'Scoring versions and caps per profile', querystring: EmptyQuery },
        config: { permission: 'risk.read' },
      },
      async (request) => ok(request, await suitability.admin()),
    );
    app.post(
      '/suitability/scoring',
      {
        schema: {
          tags: admin,
          summary: 'Publish a new scoring table version (audited)',
          body: AdminScoringBody,
        },
        config: { permission: 'settings.write' },
      },
      async (request) =>
        ok(request, await suitability.editScoring(staffOf(request), request.body as AdminScoringBody)),
    );
    app.post(
      '/suitability/caps',
      {
        schema: {
          tags: admin,
          summary: "Edit the custom profile's rating caps (audited)",
          body: AdminCapsBody,
        },
        config: { permission: 'settings.write' },
      },
      async (request) =>
        ok(request, await suitability.editCaps(staffOf(request), request.body as AdminCapsBody)),
    );
    app.get(
      '/suitability/customer',
      {
        schema: {
          tags: admin,
          summary: "A customer's risk rating and history",
          querystring: AdminCustomerRatingQuery,
        },
        config: { permission: 'customers.read' },
      },
      async (request) =>
        ok(request, await suitability.rating((request.query as AdminCustomerRatingQuery).customer_id)),
    );
  };
}
