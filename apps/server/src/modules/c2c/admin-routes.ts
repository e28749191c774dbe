import {
  AdminC2cDecideBody,
  AdminC2cMerchantBody,
  AdminC2cMessageBody,
  AdminC2cOfferBody,
  AdminC2cOrdersQuery,
  AdminC2cStateBody,
  C2cEmptyQuery,
  C2cOffersQuery,
} from '@bourse/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ok } from '../../http/envelope.ts';
import { staffOf } from '../../http/request.ts';
import type { StaffPermission } from '../../http/staff.ts';
import type { C2c } from './service.ts';

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
  schema: Record<string, unknown>;
  handler: (request: FastifyRequest) => Promise<unknown>;
};

const withId = (url: string) => (url.includes(':id') ? { params: IdParams } : {});
const get = (
  url: string,
  permission: StaffPermission,
  summary: string,
  querystring: unknown,
  handler: Route['handler'],
): Route => ({
  method: 'GET',
  url,
  permission,
  summary,
  schema: { querystring, ...withId(url) },
  handler,
});
const post = (
  url: string,
  permission: StaffPermission,
  summary: string,
  body: unknown,
  handler: Route['handler'],
): Route => ({
  method: 'POST',
  url,
  permission,
  summary,
  schema: { body, ...withId(url) },
  handler,
});

/**
 * Back-office calls under /api/admin/c2c (JSON): reading needs `c2c.read`; merchants, offers and the
 * staff side of the chat `c2c.write`; dispute decisions `c2c.decide` (four eyes above the threshold).
 * Every change is audited with its reason. No call sets an order's state, price or amount: the
 * dispute decision is the one outcome staff choose, and it is audited.
 */
function routes(c2c: C2c): Route[] {
  return [
    get('/c2c/merchants', 'c2c.read', 'Merchants with their record', C2cEmptyQuery, () => c2c.merchants()),
    post(
      '/c2c/merchants',
      'c2c.write',
      'Make a customer (uid) a merchant: advanced verification (audited)',
      AdminC2cMerchantBody,
      (r) => c2c.createMerchant(staffOf(r), r.body as AdminC2cMerchantBody),
    ),
    post(
      '/c2c/merchants/:id/state',
      'c2c.write',
      'Approve or suspend a merchant (audited)',
      AdminC2cStateBody,
      (r) => c2c.setMerchantState(staffOf(r), idOf(r), r.body as AdminC2cStateBody),
    ),
    get('/c2c/offers', 'c2c.read', 'Every offer, paused ones too', C2cOffersQuery, (r) =>
      c2c.adminOffers(r.query as C2cOffersQuery),
    ),
    post('/c2c/offers', 'c2c.write', 'A new offer for a merchant (audited)', AdminC2cOfferBody, (r) =>
      c2c.createOffer(staffOf(r), r.body as AdminC2cOfferBody),
    ),
    post(
      '/c2c/offers/:id',
      'c2c.write',
      'Change an offer’s price, limits, total, methods or terms (audited)',
      AdminC2cOfferBody,
      (r) => c2c.updateOffer(staffOf(r), idOf(r), r.body as AdminC2cOfferBody),
    ),
    post('/c2c/offers/:id/state', 'c2c.write', 'Open or pause an offer (audited)', AdminC2cStateBody, (r) =>
      c2c.setOfferState(staffOf(r), idOf(r), r.body as AdminC2cStateBody),
    ),
    get('/c2c/orders', 'c2c.read', 'Live orders (or one state)', AdminC2cOrdersQuery, (r) =>
      c2c.adminOrders(r.query as AdminC2cOrdersQuery),
    ),
    get('/c2c/disputes', 'c2c.read', 'Disputed orders', AdminC2cOrdersQuery, (r) =>
      c2c.adminOrders(r.query as AdminC2cOrdersQuery, true),
    ),
    get(
      '/c2c/orders/:id',
      'c2c.read',
      'One order: timeline, chat, evidence side by side (links audited)',
      C2cEmptyQuery,
      (r) => c2c.adminOrder(staffOf(r), idOf(r)),
    ),
    post(
      '/c2c/orders/:id/decide',
      'c2c.decide',
      'Decide a dispute: release to the buyer or return to the seller (four eyes above the threshold)',
      AdminC2cDecideBody,
      (r) => c2c.decide(staffOf(r), idOf(r), r.body as AdminC2cDecideBody),
    ),
    post(
      '/c2c/orders/:id/message',
      'c2c.write',
      'Write in a disputed order’s chat (audited)',
      AdminC2cMessageBody,
      (r) => c2c.staffMessage(staffOf(r), idOf(r), (r.body as AdminC2cMessageBody).body),
    ),
  ];
}

export function c2cAdminRoutes(c2c: C2c) {
  return async (app: FastifyInstance) => {
    const tags = ['admin', 'c2c'];
    for (const route of routes(c2c)) {
      app.route({
        method: route.method,
        url: route.url,
        schema: { tags, summary: route.summary, ...route.schema },
        config: { permission: route.permission },
        handler: async (request) => ok(request, await route.handler(request)),
      });
    }
  };
}
