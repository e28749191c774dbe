import {
  AdminReferralClearBody,
  AdminReferralEmptyQuery,
  AdminReferralFlagsQuery,
  AdminReferralIncomeQuery,
  AdminReferralSettingsBody,
} from '@bourse/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../http/envelope.ts';
import { staffOf } from '../../http/request.ts';
import type { StaffPermission } from '../../http/staff.ts';
import type { Referral } from './service.ts';

const IdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

type Route = {
  method: 'GET' | 'POST';
  url: string;
  permission: StaffPermission;
  summary: string;
  input: unknown;
  handler: (request: FastifyRequest) => Promise<unknown>;
};

/**
 * The programme in the back office under /api/admin/referral: reading needs `referral.read`; the
 * settings and clearing a flag need `referral.write`, each audited with the reason typed.
 */
function routes(referral: Referral): Route[] {
  const R = 'referral.read' as const;
  const W = 'referral.write' as const;
  return [
    {
      method: 'GET',
      url: '/referral/settings',
      permission: R,
      summary: 'The programme: on/off, depth, shares, the profile maximum, a 1 USDT preview',
      input: AdminReferralEmptyQuery,
      handler: () => referral.settings(),
    },
    {
      method: 'POST',
      url: '/referral/settings',
      permission: W,
      summary: 'Change the programme (depth ≤ the profile maximum, shares ≤ 100 %; audited)',
      input: AdminReferralSettingsBody,
      handler: (r) => referral.setSettings(staffOf(r), r.body as AdminReferralSettingsBody),
    },
    {
      method: 'GET',
      url: '/referral/income',
      permission: R,
      summary: 'Income lines, paid or excluded, by inviter or invitee uid',
      input: AdminReferralIncomeQuery,
      handler: (r) => referral.incomeList(r.query as AdminReferralIncomeQuery),
    },
    {
      method: 'GET',
      url: '/referral/flags',
      permission: R,
      summary: 'Linked-account flags (open, cleared or all)',
      input: AdminReferralFlagsQuery,
      handler: (r) => referral.flags(r.query as AdminReferralFlagsQuery),
    },
    {
      method: 'POST',
      url: '/referral/flags/:id/clear',
      permission: W,
      summary: 'Clear a flag with a reason: income is paid from the next fee on (audited)',
      input: AdminReferralClearBody,
      handler: (r) => referral.clearFlag(staffOf(r), idOf(r), r.body as AdminReferralClearBody),
    },
    {
      method: 'GET',
      url: '/referral/totals',
      permission: R,
      summary: 'Paid and excluded totals per currency, open flags, inviters paid',
      input: AdminReferralEmptyQuery,
      handler: () => referral.totals(),
    },
  ];
}

export function referralAdminRoutes(referral: Referral) {
  return async (app: FastifyInstance) => {
    const tags = ['admin', 'referral'];
    for (const r of routes(referral)) {
      const params = r.url.includes(':id') ? { params: IdParams } : {};
      const io = r.method === 'GET' ? { querystring: r.input } : { body: r.input };
      app.route({
        method: r.method,
        url: r.url,
        schema: { tags, summary: r.summary, ...io, ...params },
        config: { permission: r.permission },
        handler: async (request) => ok(request, await r.handler(request)),
      });
    }
  };
}
