import {
  AdminLaunchpadActionBody,
  AdminLaunchpadMarketBody,
  AdminLaunchpadProjectBody,
  AdminLaunchpadSubscriptionsQuery,
  CommonFields,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../http/envelope.ts';
import { staffOf } from '../../http/request.ts';
import type { Launchpad } from './service.ts';

const EmptyQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
const IdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
type IdParams = { id: string };

/**
 * Back-office calls under /api/admin/launchpad (JSON): reading needs `launchpad.read`; creating,
 * announcing, recording a withdrawal and paying the issuer `launchpad.write`, each audited with its
 * reason. Deliberately no call that sets a quantity, an allocation, a review result or a date after
 * the announcement: the job does those on the clock by the published rules.
 */
export function launchpadAdminRoutes(launchpad: Launchpad) {
  return async (app: FastifyInstance) => {
    const tags = ['admin', 'launchpad'];
    app.get(
      '/launchpad/projects',
      {
        schema: {
          tags,
          summary: 'Every project with escrow, fees and subscriptions per state',
          querystring: EmptyQuery,
        },
        config: { permission: 'launchpad.read' },
      },
      async (request) => ok(request, await launchpad.adminProjects()),
    );
    app.post(
      '/launchpad/projects',
      {
        schema: { tags, summary: 'A new project in draft (audited)', body: AdminLaunchpadProjectBody },
        config: { permission: 'launchpad.write' },
      },
      async (request) =>
        ok(
          request,
          await launchpad.createProject(staffOf(request), request.body as AdminLaunchpadProjectBody),
        ),
    );
    app.post(
      '/launchpad/projects/:id/action',
      {
        schema: {
          tags,
          summary: 'Announce, record the issuer withdrawing, or pay the escrow to the issuer (audited)',
          params: IdParams,
          body: AdminLaunchpadActionBody,
        },
        config: { permission: 'launchpad.write' },
      },
      async (request) =>
        ok(
          request,
          await launchpad.act(
            staffOf(request),
            (request.params as IdParams).id,
            request.body as AdminLaunchpadActionBody,
          ),
        ),
    );
    app.post(
      '/launchpad/projects/:id/market',
      {
        schema: {
          tags,
          summary:
            "On or after the listing date, open the coin's spot market COIN/USDT, priced by its own book (audited)",
          params: IdParams,
          body: AdminLaunchpadMarketBody,
        },
        config: { permission: 'launchpad.write' },
      },
      async (request) =>
        ok(
          request,
          await launchpad.openMarket(
            staffOf(request),
            (request.params as IdParams).id,
            request.body as AdminLaunchpadMarketBody,
          ),
        ),
    );
    app.get(
      '/launchpad/subscriptions',
      {
        schema: {
          tags,
          summary: 'Subscriptions by project, state or uid',
          querystring: AdminLaunchpadSubscriptionsQuery,
        },
        config: { permission: 'launchpad.read' },
      },
      async (request) =>
        ok(request, await launchpad.adminSubscriptions(request.query as AdminLaunchpadSubscriptionsQuery)),
    );
    app.get(
      '/launchpad/projects/:id/runs',
      {
        schema: {
          tags,
          summary: "The job's runs of a project with their totals",
          params: IdParams,
          querystring: EmptyQuery,
        },
        config: { permission: 'launchpad.read' },
      },
      async (request) => ok(request, await launchpad.runs((request.params as IdParams).id)),
    );
  };
}
