import {
  AdminJurisdictionCustomBody,
  AdminJurisdictionSelectBody,
  CommonFields,
  type JurisdictionData,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../http/envelope.ts';
import { staffOf } from '../../http/request.ts';
import type { Jurisdiction } from './service.ts';

const EmptyQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });

/** `GET web/getJurisdiction` (public): the active profile. */
export function jurisdictionRoutes(jurisdiction: Jurisdiction) {
  return async (app: FastifyInstance) => {
    app.get(
      '/getJurisdiction',
      {
        schema: { tags: ['contracts'], summary: 'The active jurisdiction profile', querystring: EmptyQuery },
        config: { auth: 'optional' },
      },
      async (request) => ok(request, { active: await jurisdiction.active() } satisfies JurisdictionData),
    );
  };
}

/** Back office: read (risk.read) and change (markets.write, audited) the jurisdiction profile. */
export function jurisdictionAdminRoutes(jurisdiction: Jurisdiction) {
  return async (app: FastifyInstance) => {
    const tags = ['admin'];
    app.get(
      '/jurisdiction',
      {
        schema: { tags, summary: 'Jurisdiction profiles and the active one', querystring: EmptyQuery },
        config: { permission: 'risk.read' },
      },
      async (request) => ok(request, await jurisdiction.profiles()),
    );
    app.post(
      '/jurisdiction',
      {
        schema: {
          tags,
          summary: 'Choose the active jurisdiction profile (audited)',
          body: AdminJurisdictionSelectBody,
        },
        config: { permission: 'markets.write' },
      },
      async (request) =>
        ok(request, await jurisdiction.select(staffOf(request), request.body as AdminJurisdictionSelectBody)),
    );
    app.post(
      '/jurisdiction/custom',
      {
        schema: {
          tags,
          summary: 'Edit the custom jurisdiction profile (audited)',
          body: AdminJurisdictionCustomBody,
        },
        config: { permission: 'markets.write' },
      },
      async (request) =>
        ok(
          request,
          await jurisdiction.editCustom(staffOf(request), request.body as AdminJurisdictionCustomBody),
        ),
    );
  };
}
