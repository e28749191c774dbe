import {
  BindContactBody,
  CheckSecurityAnswerBody,
  EmptyBody,
  RevokeDeviceBody,
  type SecurityQuestion,
  SetPhraseBody,
  SetSecurityQuestionsBody,
  SetUsernameBody,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { authOf, staffOf } from '../../http/request.ts';
import type { Profile } from './profile.ts';

const tags = ['profile'];

/** The profile and security centre's customer calls (prefix `/api/web`). Thin: parse, call, envelope. */
export function profileRoutes(profile: Profile) {
  return async (app: FastifyInstance) => {
    app.get(
      '/securityCenter',
      {
        schema: {
          tags,
          summary: 'The security score, its items and next step, and profile settings',
          querystring: EmptyBody,
        },
        config: { auth: 'required' },
      },
      async (request) => ok(request, await profile.securityCenter(authOf(request))),
    );

    app.post(
      '/setUsername',
      {
        schema: {
          tags,
          summary: 'Set or change the account name (unique; once per 30 days)',
          body: SetUsernameBody,
        },
        config: { auth: 'required', idempotent: true, accessLimited: true },
      },
      async (request) =>
        ok(
          request,
          await profile.setUsername(authOf(request), (request.body as SetUsernameBody).name, {
            ip: request.ip,
          }),
        ),
    );

    app.post(
      '/bindContact',
      {
        schema: {
          tags,
          summary:
            'Bind a phone or e-mail (code to the new contact) or change it (and a code to the old one)',
          body: BindContactBody,
        },
        config: { auth: 'required', idempotent: true, accessLimited: true },
      },
      async (request) =>
        ok(
          request,
          await profile.bindContact(authOf(request), request.body as BindContactBody, { ip: request.ip }),
        ),
    );

    app.post(
      '/setSecurityQuestions',
      {
        schema: {
          tags,
          summary: 'Set or replace the three security answers (login password; stored hashed)',
          body: SetSecurityQuestionsBody,
        },
        config: { auth: 'required', idempotent: true, accessLimited: true },
      },
      async (request) =>
        ok(
          request,
          await profile.setSecurityQuestions(authOf(request), request.body as SetSecurityQuestionsBody, {
            ip: request.ip,
          }),
        ),
    );

    app.post(
      '/setAntiPhishing',
      {
        schema: {
          tags,
          summary: 'Set, change or (empty) remove the anti-phishing phrase shown in every message',
          body: SetPhraseBody,
        },
        config: { auth: 'required', idempotent: true, accessLimited: true },
      },
      async (request) =>
        ok(
          request,
          await profile.setPhrase(authOf(request), request.body as SetPhraseBody, { ip: request.ip }),
        ),
    );

    app.get(
      '/devices',
      {
        schema: {
          tags,
          summary: 'Signed-in devices: the active sessions, this one marked',
          querystring: EmptyBody,
        },
        config: { auth: 'required' },
      },
      async (request) => ok(request, await profile.devices(authOf(request))),
    );

    app.post(
      '/revokeDevice',
      {
        schema: {
          tags,
          summary: 'Sign out one other device (ends its session and its websocket channels)',
          body: RevokeDeviceBody,
        },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(
          request,
          await profile.revokeDevices(
            authOf(request),
            { id: (request.body as RevokeDeviceBody).id },
            { ip: request.ip },
          ),
        ),
    );

    app.post(
      '/revokeOtherDevices',
      {
        schema: { tags, summary: 'Sign out every device but this one', body: EmptyBody },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(request, await profile.revokeDevices(authOf(request), 'others', { ip: request.ip })),
    );
  };
}

/** The staff side (prefix `/api/admin`): checking a caller's security answer, audited. */
export function profileAdminRoutes(profile: Profile) {
  return async (app: FastifyInstance) => {
    app.post(
      '/checkSecurityAnswer',
      {
        schema: {
          tags: ['admin'],
          summary: "Does the caller's answer match the customer's? (match / no match; audited, 5 an hour)",
          body: CheckSecurityAnswerBody,
        },
        config: { permission: 'customers.verify' },
      },
      async (request) => {
        const body = request.body as CheckSecurityAnswerBody;
        return ok(
          request,
          await profile.checkAnswer(staffOf(request).staffId, {
            customerId: body.customer_id,
            question: Number(body.question) as SecurityQuestion,
            answer: body.answer,
            reason: body.reason,
          }),
        );
      },
    );
  };
}
