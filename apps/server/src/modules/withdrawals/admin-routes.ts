import { CommonFields, WITHDRAWAL_STATES, WithdrawWebhookBody } from '@bourse/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { Value } from 'typebox/value';
import { ok } from '../../http/envelope.ts';
import { refuse } from '../../http/refusal.ts';
import { staffOf } from '../../http/request.ts';
import type { Clock } from '../../lib/clock.ts';
import { SIGNATURE_HEADER, verifyWebhook } from '../../lib/webhook.ts';
import { pageOf } from './routes.ts';
import { PAYOUT_FAIL_REASONS, type Withdrawals } from './service.ts';

const id = Type.String({ minLength: 1, maxLength: 40 });
const digits = (max: number) => Type.String({ pattern: `^[0-9]{1,${max}}$` });

const QueueQuery = Type.Object(
  {
    ...CommonFields,
    state: Type.Optional(Type.Union(WITHDRAWAL_STATES.map((s) => Type.Literal(s)))),
    page: Type.Optional(digits(6)),
    page_size: Type.Optional(digits(3)),
  },
  { additionalProperties: false },
);
/** A money action without a reason is refused by the service (`FIELD_REQUIRED`, localized), not the schema. */
const ApproveBody = Type.Object(
  { ...CommonFields, withdrawal_id: id, reason: Type.Optional(Type.String({ maxLength: 2_000 })) },
  { additionalProperties: false },
);
const RejectBody = Type.Object(
  { ...CommonFields, withdrawal_id: id, reason: Type.Optional(Type.String({ maxLength: 2_000 })) },
  { additionalProperties: false },
);
const FailBody = Type.Object(
  {
    ...CommonFields,
    withdrawal_id: id,
    reason: Type.Union(PAYOUT_FAIL_REASONS.map((r) => Type.Literal(r))),
    note: Type.Optional(Type.String({ maxLength: 2_000 })),
  },
  { additionalProperties: false },
);
const PaidBody = Type.Object(
  {
    ...CommonFields,
    withdrawal_id: id,
    bank_reference: Type.String({ maxLength: 64 }),
    note: Type.Optional(Type.String({ maxLength: 2_000 })),
  },
  { additionalProperties: false },
);
/** `params` is the rule's parameters as a JSON object text (form fields are strings). */
const RuleBody = Type.Object(
  {
    ...CommonFields,
    code: Type.String({ minLength: 1, maxLength: 32 }),
    enabled: Type.Union([Type.Literal('1'), Type.Literal('0'), Type.Literal('true'), Type.Literal('false')]),
    params: Type.String({ minLength: 2, maxLength: 2_000 }),
    /** Why the policy changes (audited); refused `FIELD_REQUIRED` when empty. */
    reason: Type.Optional(Type.String({ maxLength: 2_000 })),
  },
  { additionalProperties: false },
);

/** Staff calls under /api/admin: the withdrawals queue, decisions and the policy rules (audited). */
export function withdrawalsAdminRoutes(deps: { withdrawals: Withdrawals }) {
  const { withdrawals } = deps;
  return async (app: FastifyInstance) => {
    const tags = ['admin', 'withdrawals'];
    app.get(
      '/withdrawals/queue',
      {
        schema: {
          tags,
          summary: 'Withdrawals by state (default: pending), oldest first pages',
          querystring: QueueQuery,
        },
        config: { permission: 'withdrawals.read' },
      },
      async (request) => {
        const q = request.query as Static<typeof QueueQuery>;
        const state = q.state ?? 'pending';
        return ok(request, await withdrawals.queue({ statuses: [state] }, pageOf(q)));
      },
    );
    app.post(
      '/withdrawals/approve',
      {
        schema: {
          tags,
          summary: 'Approve: sent to the payout provider (processing), audited',
          body: ApproveBody,
        },
        config: { permission: 'withdrawals.decide' },
      },
      async (request) => {
        const body = request.body as Static<typeof ApproveBody>;
        return ok(
          request,
          await withdrawals.approve(staffOf(request).staffId, body.withdrawal_id, body.reason ?? ''),
        );
      },
    );
    app.post(
      '/withdrawals/reject',
      {
        schema: { tags, summary: 'Reject with a reason: funds unfrozen, audited', body: RejectBody },
        config: { permission: 'withdrawals.decide' },
      },
      async (request) => {
        const body = request.body as Static<typeof RejectBody>;
        return ok(
          request,
          await withdrawals.reject(staffOf(request).staffId, body.withdrawal_id, body.reason ?? ''),
        );
      },
    );
    app.post(
      '/withdrawals/fail',
      {
        schema: {
          tags,
          summary: 'A payout will not arrive: failed with a reason code and a note; funds unfrozen, audited',
          body: FailBody,
        },
        config: { permission: 'withdrawals.decide' },
      },
      async (request) => {
        const body = request.body as Static<typeof FailBody>;
        return ok(
          request,
          await withdrawals.markFailed(staffOf(request).staffId, {
            withdrawalId: body.withdrawal_id,
            reason: body.reason,
            note: body.note ?? '',
          }),
        );
      },
    );
    app.post(
      '/withdrawals/paid',
      {
        schema: {
          tags,
          summary: 'A bank withdrawal was paid (bank reference required): completed, audited',
          body: PaidBody,
        },
        config: { permission: 'withdrawals.decide' },
      },
      async (request) => {
        const body = request.body as Static<typeof PaidBody>;
        return ok(
          request,
          await withdrawals.markPaid(staffOf(request).staffId, {
            withdrawalId: body.withdrawal_id,
            bankReference: body.bank_reference,
            note: body.note ?? '',
          }),
        );
      },
    );
    app.get(
      '/withdrawals/rules',
      {
        schema: {
          tags,
          summary: 'The withdrawal policy rules',
          querystring: Type.Object({ ...CommonFields }, { additionalProperties: false }),
        },
        config: { permission: 'withdrawals.read' },
      },
      async (request) => {
        const rules = await withdrawals.loadRules();
        return ok(request, { rules: Object.values(rules) });
      },
    );
    app.post(
      '/withdrawals/rules/update',
      {
        schema: { tags, summary: 'Change one policy rule (enabled, parameters), audited', body: RuleBody },
        config: { permission: 'settings.write' },
      },
      async (request) => {
        const body = request.body as Static<typeof RuleBody>;
        let params: unknown;
        try {
          params = JSON.parse(body.params);
        } catch {
          refuse('BAD_INPUT', { field: 'params' });
        }
        return ok(
          request,
          await withdrawals.updateRule(staffOf(request).staffId, {
            code: body.code,
            enabled: body.enabled === '1' || body.enabled === 'true',
            params,
            reason: body.reason ?? '',
          }),
        );
      },
    );
  };
}

/**
 * The custody provider's signed report: `POST /api/custody/withdrawals/webhook`, JSON body
 * `{ event_id, withdrawal_id, provider_ref, status: confirmed|failed, tx_hash? }`, header
 * `x-bourse-signature` (lib/webhook.ts). The raw body is what the signature covers.
 */
export function withdrawalsWebhookRoutes(deps: {
  withdrawals: Withdrawals;
  clock: Clock;
  webhookSecret: () => string;
}) {
  return async (app: FastifyInstance) => {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      done(null, body);
    });
    app.post(
      '/withdrawals/webhook',
      {
        schema: {
          tags: ['custody'],
          summary: 'Custody provider: a withdrawal was confirmed or failed (signed)',
        },
      },
      async (request: FastifyRequest) => {
        const raw = typeof request.body === 'string' ? request.body : '';
        const header = request.headers[SIGNATURE_HEADER];
        const check = verifyWebhook(
          deps.webhookSecret(),
          raw,
          Array.isArray(header) ? header[0] : header,
          deps.clock.now().getTime(),
        );
        if (!check.ok) refuse('WEBHOOK_SIGNATURE_INVALID');
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw);
        } catch {
          refuse('MALFORMED_BODY');
        }
        if (!Value.Check(WithdrawWebhookBody, parsed)) {
          const first = [...Value.Errors(WithdrawWebhookBody, parsed)][0] as
            | { instancePath?: string }
            | undefined;
          refuse('BAD_INPUT', { field: first?.instancePath?.replace(/^\//, '') || 'body' });
        }
        const event = parsed as Static<typeof WithdrawWebhookBody>;
        return ok(
          request,
          await deps.withdrawals.settle({
            withdrawalId: event.withdrawal_id,
            providerRef: event.provider_ref,
            status: event.status,
            txHash: event.tx_hash ?? '',
          }),
        );
      },
    );
  };
}
