import {
  AdminApiKeysQuery,
  AdminRevokeApiKeyBody,
  ApiKeysQuery,
  CreateApiKeyBody,
  RevokeApiKeyBody,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { authOf, staffOf } from '../../http/request.ts';
import type { ApiKeys } from './service.ts';

/** Customer calls under /api/web: create (step-up), list, revoke. */
export function apiKeysRoutes(keys: ApiKeys) {
  return async (app: FastifyInstance) => {
    const tags = ['apikeys'];
    app.post(
      '/createApiKey',
      {
        schema: {
          tags,
          summary: 'Create an API key (trade password; the secret is in this answer only)',
          body: CreateApiKeyBody,
        },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(request, await keys.create(authOf(request), request.body as CreateApiKeyBody, { ip: request.ip })),
    );
    app.get(
      '/getApiKeys',
      {
        schema: { tags, summary: 'My API keys (never their secrets)', querystring: ApiKeysQuery },
        config: { auth: 'required' },
      },
      async (request) => ok(request, await keys.list(authOf(request))),
    );
    app.post(
      '/revokeApiKey',
      {
        schema: { tags, summary: 'Revoke one of my API keys', body: RevokeApiKeyBody },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(
          request,
          await keys.revoke(authOf(request), (request.body as RevokeApiKeyBody).id, { ip: request.ip }),
        ),
    );
  };
}

/** Staff calls under /api/admin: a customer's keys (read), revoke with a reason (audited). */
export function apiKeysAdminRoutes(keys: ApiKeys) {
  return async (app: FastifyInstance) => {
    const tags = ['admin-apikeys'];
    app.get(
      '/customerApiKeys',
      {
        schema: {
          tags,
          summary: "A customer's API keys (never their secrets)",
          querystring: AdminApiKeysQuery,
        },
        config: { permission: 'customers.read' },
      },
      async (request) => ok(request, await keys.adminList((request.query as AdminApiKeysQuery).customer_id)),
    );
    app.post(
      '/revokeApiKey',
      {
        schema: {
          tags,
          summary: "Revoke a customer's API key, with the reason the customer is told (audited)",
          body: AdminRevokeApiKeyBody,
        },
        config: { permission: 'customers.disable' },
      },
      async (request) => {
        const body = request.body as AdminRevokeApiKeyBody;
        return ok(
          request,
          await keys.staffRevoke(staffOf(request), body.id, body.reason, { ip: request.ip }),
        );
      },
    );
  };
}
