import {
  AdminEmptyBody,
  AdminVerificationDecideBody,
  AdminVerificationDetailQuery,
  AdminVerificationQueueQuery,
  AdminVerificationRuleBody,
  AdminVerificationSettingsBody,
  GetVerificationQuery,
  SubmitAddressBody,
  SubmitAdvancedBody,
  SubmitPrimaryBody,
  VERIFICATION_LIMITS,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { pageOf } from '../../http/paging.ts';
import { authOf, staffOf } from '../../http/request.ts';
import type { Verification } from './service.ts';

/** Customer calls under /api/web: the verification centre and the three submissions. */
export function verificationRoutes(deps: { verification: Verification }) {
  const { verification } = deps;
  return async (app: FastifyInstance) => {
    const tags = ['verification'];
    app.get(
      '/getVerification',
      {
        schema: {
          tags,
          summary: 'Each tier, what it unlocks, and what deposit and withdrawal need',
          querystring: GetVerificationQuery,
        },
        config: { auth: 'required' },
      },
      async (request) => ok(request, await verification.view(authOf(request))),
    );
    app.post(
      '/submitPrimaryVerification',
      {
        schema: {
          tags,
          summary: 'Primary (real-name) verification: name, ID and three photos',
          body: SubmitPrimaryBody,
        },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(request, await verification.submitPrimary(authOf(request), request.body as SubmitPrimaryBody)),
    );
    app.post(
      '/submitAdvancedVerification',
      {
        schema: {
          tags,
          summary: 'Advanced verification: occupation, income, wealth and proof of assets',
          body: SubmitAdvancedBody,
        },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(request, await verification.submitAdvanced(authOf(request), request.body as SubmitAdvancedBody)),
    );
    app.post(
      '/submitAddressVerification',
      {
        schema: {
          tags,
          summary: 'Address verification: the address and a utility bill',
          body: SubmitAddressBody,
        },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(request, await verification.submitAddress(authOf(request), request.body as SubmitAddressBody)),
    );
  };
}

/** Staff calls under /api/admin: the review queue, decisions, and the rules (audited). */
export function verificationAdminRoutes(deps: { verification: Verification }) {
  const { verification } = deps;
  return async (app: FastifyInstance) => {
    const tags = ['admin', 'verification'];
    app.get(
      '/verification/queue',
      {
        schema: {
          tags,
          summary: 'Submissions under review, oldest first, with flags',
          querystring: AdminVerificationQueueQuery,
        },
        config: { permission: 'verification.read' },
      },
      async (request) => {
        const q = request.query as AdminVerificationQueueQuery;
        const page = pageOf(q, { pageSizeDefault: 20, pageSizeMax: VERIFICATION_LIMITS.pageSizeMax });
        return ok(request, await verification.queue(q.tier ? { tier: q.tier } : {}, page));
      },
    );
    app.get(
      '/verification/detail',
      {
        schema: {
          tags,
          summary: 'A submission beside its documents (each link an audited view) and its history',
          querystring: AdminVerificationDetailQuery,
        },
        config: { permission: 'verification.read' },
      },
      async (request) => {
        const q = request.query as AdminVerificationDetailQuery;
        return ok(request, await verification.detail(staffOf(request).staffId, q.id));
      },
    );
    app.post(
      '/verification/decide',
      {
        schema: {
          tags,
          summary: 'Approve, reject or ask for a revision, per document (audited, notified)',
          body: AdminVerificationDecideBody,
        },
        config: { permission: 'verification.decide' },
      },
      async (request) =>
        ok(
          request,
          await verification.decide(staffOf(request).staffId, request.body as AdminVerificationDecideBody),
        ),
    );
    app.get(
      '/verification/rules',
      {
        schema: {
          tags,
          summary: 'What each tier unlocks per profile, retention, four-eyes',
          querystring: AdminEmptyBody,
        },
        config: { permission: 'verification.read' },
      },
      async (request) => ok(request, await verification.rules()),
    );
    app.post(
      '/verification/rules/update',
      {
        schema: {
          tags,
          summary: "Edit the custom profile's feature table and retention (audited)",
          body: AdminVerificationRuleBody,
        },
        config: { permission: 'settings.write' },
      },
      async (request) =>
        ok(
          request,
          await verification.updateRules(staffOf(request).staffId, request.body as AdminVerificationRuleBody),
        ),
    );
    app.post(
      '/verification/settings',
      {
        schema: {
          tags,
          summary: 'Four-eyes for the advanced tier (audited)',
          body: AdminVerificationSettingsBody,
        },
        config: { permission: 'settings.write' },
      },
      async (request) =>
        ok(
          request,
          await verification.updateSettings(
            staffOf(request).staffId,
            request.body as AdminVerificationSettingsBody,
          ),
        ),
    );
  };
}
