import { AcceptAgreementBody, AgreementStatusQuery, GetAgreementQuery } from '@bourse/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { langOf, ok } from '../../http/envelope.ts';
import { authOf } from '../../http/request.ts';
import type { AcceptanceMeta } from './context.ts';
import type { Agreements } from './service.ts';

export function acceptanceMeta(request: FastifyRequest): AcceptanceMeta {
  return { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null };
}

/** The customer calls (docs/api.md): read an agreement (open), my pending versions and accepting one (login). */
export function agreementsRoutes(agreements: Agreements) {
  return async (app: FastifyInstance) => {
    const tags = ['agreements'];
    app.get(
      '/getAgreement',
      {
        schema: {
          tags,
          summary: 'An agreement in force (the current version, or a named earlier one) with its versions',
          querystring: GetAgreementQuery,
        },
      },
      async (request) => {
        const query = request.query as GetAgreementQuery;
        return ok(
          request,
          await agreements.agreement({
            kind: query.kind,
            lang: langOf(request),
            ...(query.version ? { version: query.version } : {}),
          }),
        );
      },
    );
    app.get(
      '/agreementStatus',
      {
        schema: {
          tags,
          summary: 'The current agreement versions I have not accepted yet',
          querystring: AgreementStatusQuery,
        },
        config: { auth: 'required' },
      },
      async (request) => {
        const auth = authOf(request);
        // A demo account plays with play money: it is not a customer of the platform, nothing to accept.
        if (auth.isDemo) return ok(request, { pending: [], accepted: [] });
        return ok(request, await agreements.status(auth.customerId, langOf(request)));
      },
    );
    app.post(
      '/acceptAgreement',
      {
        schema: { tags, summary: 'Accept a version of an agreement (idempotent)', body: AcceptAgreementBody },
        config: { auth: 'required' },
      },
      async (request) => {
        const body = request.body as AcceptAgreementBody;
        return ok(
          request,
          await agreements.accept(
            authOf(request).customerId,
            { kind: body.kind, version: body.version },
            acceptanceMeta(request),
          ),
        );
      },
    );
  };
}
