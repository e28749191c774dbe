import {
  GetSubscriptionInfoQuery,
  GetSubscriptionListQuery,
  GetSubscriptionProofQuery,
  GetSubscriptionQuoteQuery,
  GetSubscriptionRecordsQuery,
  SubscribeBody,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { langOf, ok } from '../../http/envelope.ts';
import { authOf } from '../../http/request.ts';
import type { Launchpad } from './service.ts';

/** Customer calls under /api/web: the spec's /subscription, /subscriptionBuy, /subscriptionRecord. */
export function launchpadRoutes(launchpad: Launchpad) {
  return async (app: FastifyInstance) => {
    const tags = ['launchpad'];
    app.get(
      '/getSubscriptionList',
      {
        schema: {
          tags,
          summary: 'New-coin projects past draft: open first',
          querystring: GetSubscriptionListQuery,
        },
        config: { auth: 'optional' },
      },
      async (request) => {
        const q = request.query as GetSubscriptionListQuery;
        return ok(request, await launchpad.list(langOf(request), q.state));
      },
    );
    app.get(
      '/getSubscriptionInfo',
      {
        schema: {
          tags,
          summary: 'One project, its rules and (signed in) whether I may subscribe',
          querystring: GetSubscriptionInfoQuery,
        },
        config: { auth: 'optional' },
      },
      async (request) => {
        const q = request.query as GetSubscriptionInfoQuery;
        return ok(request, await launchpad.info(request.auth ?? null, q.project_id, langOf(request)));
      },
    );
    app.get(
      '/getSubscriptionQuote',
      {
        schema: {
          tags,
          summary: 'What subscribing a quantity freezes: cost, fee, total',
          querystring: GetSubscriptionQuoteQuery,
        },
        config: { auth: 'optional' },
      },
      async (request) => {
        const q = request.query as GetSubscriptionQuoteQuery;
        return ok(request, await launchpad.quote(q.project_id, q.quantity));
      },
    );
    app.post(
      '/subscribe',
      {
        schema: { tags, summary: 'Subscribe: cost and fee frozen in my spot USDT', body: SubscribeBody },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(
          request,
          await launchpad.subscribe(authOf(request), request.body as SubscribeBody, langOf(request)),
        ),
    );
    app.get(
      '/getSubscriptionRecords',
      {
        schema: { tags, summary: 'My subscriptions, newest first', querystring: GetSubscriptionRecordsQuery },
        config: { auth: 'required' },
      },
      async (request) =>
        ok(
          request,
          await launchpad.records(
            authOf(request),
            request.query as GetSubscriptionRecordsQuery,
            langOf(request),
          ),
        ),
    );
    app.get(
      '/getSubscriptionProof',
      {
        schema: {
          tags,
          summary: 'My commitment and allocation leaves with their paths to the published roots',
          querystring: GetSubscriptionProofQuery,
        },
        config: { auth: 'required' },
      },
      async (request) => {
        const q = request.query as GetSubscriptionProofQuery;
        return ok(request, await launchpad.proof(authOf(request), q.project_id));
      },
    );
  };
}
