import {
  ASSET_LIMITS,
  BankRechargeBody,
  CommonFields,
  EmptyBody,
  RechargeAddressQuery,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import { ok } from '../../http/envelope.ts';
import { authOf, staffOf } from '../../http/request.ts';
import type { CustodyProvider } from './provider.ts';
import type { Deposits } from './service.ts';

/** Customer deposit calls under `/api/web` (docs/api.md "Deposit calls"). */
export function depositsRoutes(deps: { deposits: Deposits }) {
  const { deposits } = deps;
  return async (app: FastifyInstance) => {
    const tags = ['deposits'];
    app.get(
      '/getRechargeChannels',
      { schema: { tags, summary: 'Deposit channels: open, minimum, confirmations', querystring: EmptyBody } },
      async (request) => ok(request, await deposits.channels()),
    );

    app.get(
      '/getRechargeAddress',
      {
        schema: {
          tags,
          summary: "The customer's deposit address for a currency on a chain",
          querystring: RechargeAddressQuery,
        },
        config: { auth: 'required' },
      },
      async (request) => {
        const q = request.query as RechargeAddressQuery;
        return ok(request, await deposits.address(authOf(request), q.currency.trim(), q.chain.trim()));
      },
    );

    app.post(
      '/bankRecharge',
      {
        schema: {
          tags,
          summary:
            'Submit a bank deposit with its remittance proof (an uploadDocument file, purpose deposit_proof)',
          body: BankRechargeBody,
        },
        config: { auth: 'required', idempotent: true },
      },
      async (request) =>
        ok(request, await deposits.bankRecharge(authOf(request), request.body as BankRechargeBody)),
    );
  };
}

/** `POST /api/custody/webhook`: signed deposit events from the custody provider. */
export function custodyRoutes(deps: { deposits: Deposits; provider: CustodyProvider }) {
  return async (app: FastifyInstance) => {
    // The signature covers the exact bytes sent, so this scope keeps JSON bodies as raw text.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    app.post(
      '/webhook',
      {
        schema: {
          tags: ['custody'],
          summary: 'Deposit events from the custody provider (HMAC-signed, x-bourse-signature)',
        },
      },
      async (request) => {
        const raw = typeof request.body === 'string' ? request.body : '';
        const event = deps.provider.parseWebhook(raw, request.headers);
        return ok(request, await deps.deposits.handleEvent(event));
      },
    );
  };
}

const id = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_]+$' });
const AdminQueueQuery = Type.Object(
  { ...CommonFields, status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('all')])) },
  { additionalProperties: false },
);
const AdminIdQuery = Type.Object({ ...CommonFields, id }, { additionalProperties: false });
/** Crediting a customer needs a reason: a missing one is refused `FIELD_REQUIRED` by the service. */
const AdminConfirmBody = Type.Object(
  {
    ...CommonFields,
    id,
    reason: Type.Optional(Type.String({ maxLength: ASSET_LIMITS.rejectReasonMax * 4 })),
  },
  { additionalProperties: false },
);
const AdminDecisionBody = Type.Object(
  { ...CommonFields, id, reason: Type.String({ maxLength: ASSET_LIMITS.rejectReasonMax }) },
  { additionalProperties: false },
);
const AdminChannelBody = Type.Object(
  {
    ...CommonFields,
    currency: Type.String({ minLength: 1, maxLength: 12 }),
    chain: Type.String({ minLength: 1, maxLength: 12 }),
    open: Type.Optional(Type.String({ maxLength: 1 })),
    min_amount: Type.Optional(Type.String({ maxLength: ASSET_LIMITS.amountLengthMax })),
    confirmations: Type.Optional(Type.String({ maxLength: 6 })),
  },
  { additionalProperties: false },
);

/** Staff deposit calls under `/api/admin`: the queue, decisions and channel settings (audited). */
export function depositsAdminRoutes(deps: { deposits: Deposits }) {
  const { deposits } = deps;
  return async (app: FastifyInstance) => {
    const tags = ['admin', 'deposits'];
    app.get(
      '/deposits/queue',
      {
        schema: {
          tags,
          summary: 'Crypto deposits (pending, held) and bank deposits awaiting a decision',
          querystring: AdminQueueQuery,
        },
        config: { permission: 'deposits.read' },
      },
      async (request) => ok(request, await deposits.queue(request.query as Static<typeof AdminQueueQuery>)),
    );
    app.get(
      '/deposits/proofLink',
      {
        schema: {
          tags,
          summary: "A 5-minute link to a bank deposit's remittance proof (audited: document.view)",
          querystring: AdminIdQuery,
        },
        config: { permission: 'deposits.read' },
      },
      async (request) => {
        const q = request.query as Static<typeof AdminIdQuery>;
        return ok(request, await deposits.proofLink(staffOf(request), q.id));
      },
    );
    app.post(
      '/deposits/bank/confirm',
      {
        schema: {
          tags,
          summary: 'Confirm a bank deposit with a reason: credits the customer (audited)',
          body: AdminConfirmBody,
        },
        config: { permission: 'deposits.confirm' },
      },
      async (request) => {
        const body = request.body as Static<typeof AdminConfirmBody>;
        return ok(request, await deposits.confirmBank(staffOf(request), body.id, body.reason ?? ''));
      },
    );
    app.post(
      '/deposits/bank/reject',
      {
        schema: { tags, summary: 'Reject a bank deposit with a reason (audited)', body: AdminDecisionBody },
        config: { permission: 'deposits.confirm' },
      },
      async (request) => {
        const body = request.body as Static<typeof AdminDecisionBody>;
        return ok(request, await deposits.rejectBank(staffOf(request), body.id, body.reason));
      },
    );
    app.post(
      '/deposits/crypto/release',
      {
        schema: {
          tags,
          summary: 'Credit a held (below-minimum) crypto deposit (audited)',
          body: AdminDecisionBody,
        },
        config: { permission: 'deposits.confirm' },
      },
      async (request) => {
        const body = request.body as Static<typeof AdminDecisionBody>;
        return ok(request, await deposits.releaseHeld(staffOf(request), body.id, body.reason));
      },
    );
    app.get(
      '/deposits/channels',
      {
        schema: {
          tags,
          summary: 'Deposit channels',
          querystring: Type.Object({ ...CommonFields }, { additionalProperties: false }),
        },
        config: { permission: 'deposits.read' },
      },
      async (request) => ok(request, await deposits.channels()),
    );
    app.post(
      '/deposits/channels/update',
      {
        schema: {
          tags,
          summary: 'Open/close a channel, set its minimum and confirmations (audited)',
          body: AdminChannelBody,
        },
        config: { permission: 'settings.write' },
      },
      async (request) =>
        ok(
          request,
          await deposits.updateChannel(staffOf(request), request.body as Static<typeof AdminChannelBody>),
        ),
    );
  };
}
