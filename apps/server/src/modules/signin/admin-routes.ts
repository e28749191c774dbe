import {
  AdminSigninDecisionBody,
  AdminSigninFundingBody,
  AdminSigninFundingQuery,
  AdminSigninPayoutsQuery,
  AdminSigninSettingsBody,
  CommonFields,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../http/envelope.ts';
import { staffOf } from '../../http/request.ts';
import type { Signin } from './service.ts';

const EmptyQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
const IdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
type IdParams = { id: string };

/**
 * Back-office calls under /api/admin/signin (JSON). The programme's settings are marketing content
 * (`content.write`, audited with a reason); the budget, its requests and the payouts are read with
 * `ledger.verify` (finance: the budget is a ledger account); a funding request is made with `adjustments.create` and decided — never by the
 * requester — with `adjustments.approve` (four eyes, audited). No call pays a customer by hand.
 */
export function signinAdminRoutes(signin: Signin) {
  return async (app: FastifyInstance) => {
    const tags = ['admin', 'signin'];
    app.get(
      '/signin/settings',
      {
        schema: {
          tags,
          summary: 'The sign-in programme: settings, state, budget left',
          querystring: EmptyQuery,
        },
        config: { permission: 'content.write' },
      },
      async (request) => ok(request, await signin.settings()),
    );
    app.post(
      '/signin/settings',
      {
        schema: {
          tags,
          summary: 'Change the programme (audited, with a reason)',
          body: AdminSigninSettingsBody,
        },
        config: { permission: 'content.write' },
      },
      async (request) =>
        ok(request, await signin.updateSettings(staffOf(request), request.body as AdminSigninSettingsBody)),
    );
    app.get(
      '/signin/budget',
      {
        schema: {
          tags,
          summary: 'The budget marketing_budget_signin: balance, funded, paid',
          querystring: EmptyQuery,
        },
        config: { permission: 'ledger.verify' },
      },
      async (request) => ok(request, await signin.budget()),
    );
    app.get(
      '/signin/funding-requests',
      {
        schema: {
          tags,
          summary: 'Budget funding requests, newest first',
          querystring: AdminSigninFundingQuery,
        },
        config: { permission: 'ledger.verify' },
      },
      async (request) => ok(request, await signin.fundingRequests(request.query as AdminSigninFundingQuery)),
    );
    app.post(
      '/signin/funding-requests',
      {
        schema: {
          tags,
          summary: 'Ask to pay money into the budget; another staff member decides',
          body: AdminSigninFundingBody,
        },
        config: { permission: 'adjustments.create' },
      },
      async (request) =>
        ok(request, await signin.requestFunding(staffOf(request), request.body as AdminSigninFundingBody)),
    );
    for (const decision of ['approve', 'reject'] as const) {
      app.post(
        `/signin/funding-requests/:id/${decision}`,
        {
          schema: {
            tags,
            summary:
              decision === 'approve'
                ? 'Approve: posts marketing_capital → marketing_budget_signin (four eyes, audited)'
                : 'Reject a funding request (four eyes, audited)',
            params: IdParams,
            body: AdminSigninDecisionBody,
          },
          config: { permission: 'adjustments.approve' },
        },
        async (request) =>
          ok(
            request,
            await signin.decideFunding(
              staffOf(request),
              (request.params as IdParams).id,
              decision,
              (request.body as AdminSigninDecisionBody).reason,
            ),
          ),
      );
    }
    app.get(
      '/signin/payouts',
      {
        schema: {
          tags,
          summary: 'Recent sign-in rewards paid, newest first',
          querystring: AdminSigninPayoutsQuery,
        },
        config: { permission: 'ledger.verify' },
      },
      async (request) => ok(request, await signin.payouts(request.query as AdminSigninPayoutsQuery)),
    );
  };
}
