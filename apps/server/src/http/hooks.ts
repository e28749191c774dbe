import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  type ClaimFactory,
  type ClaimGroup,
  type ClaimWire,
  detached,
  type EffectClaim,
  withEffectClaim,
} from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
import { hmac, open, seal, sha256 } from '../lib/crypto.ts';
import type { SessionResolver } from './context.ts';
import type { IdempotencyStore } from './idempotency.ts';
import { Refusal, refuse } from './refusal.ts';

const RTOKEN_MIN = 6;
const PURGE_EVERY_MS = 60 * 60 * 1000;
/** Fields that identify the call rather than its content: left out of an anonymous request's identity. */
const ENVELOPE_FIELDS = new Set(['token', 'lang', 'rtoken']);

function fields(request: FastifyRequest): Record<string, unknown> {
  return { ...(request.query as object | undefined), ...(request.body as object | undefined) };
}

export function tokenOf(request: FastifyRequest): string | null {
  const value = fields(request).token ?? request.headers.token;
  if (typeof value === 'string' && value !== '') return value;
  const bearer = request.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  return bearer ?? null;
}

function canonical(values: Record<string, unknown>): string {
  return JSON.stringify(
    Object.keys(values)
      .filter((k) => !ENVELOPE_FIELDS.has(k))
      .sort()
      .map((k) => [k, values[k]]),
  );
}

export type HookDeps = {
  sessions: SessionResolver;
  /** The access-call limits (http/rate-limit.ts): refuses RATE_LIMITED when one is exceeded. */
  checkAccessLimits: (request: FastifyRequest) => Promise<void>;
};

export function registerRequestHooks(app: FastifyInstance, deps: HookDeps): void {
  app.decorateRequest('auth', null);

  app.addHook('preHandler', async (request) => {
    const config = request.routeOptions.config;
    if (config.accessLimited) await deps.checkAccessLimits(request);
    const token = tokenOf(request);
    if (config.auth === 'required') {
      if (!token) refuse('LOGIN_REQUIRED');
      request.auth = await deps.sessions.resolve(token);
    } else if (config.auth === 'optional' && token) {
      request.auth = await deps.sessions.resolve(token);
    }
  });
}

/**
 * The claims of one idempotency store, as effect claims: the request's own, or one a request on
 * another process holds (its spot order forwarded here, to the book's owner) — recorded the same
 * way, and together when a spot book's batch commits many at once (one group).
 *
 * Two claims on one key in one batch (a forwarded order whose sender gave up waiting while it was
 * queued here, and the retry that followed it): only the first is written — one statement cannot
 * write a key twice — and the others lose, as a twin does (409 REQUEST_IN_PROGRESS).
 */
export function claimsOf(store: IdempotencyStore, clock: Clock): ClaimFactory {
  const held = new WeakMap<EffectClaim, ClaimWire>();
  /** Per claim: is it the first of its key in the list. */
  const firsts = (items: ClaimWire[]) => {
    const seen = new Set<string>();
    return items.map((i) => {
      if (seen.has(i.key.hash)) return false;
      seen.add(i.key.hash);
      return true;
    });
  };
  const statementOf = store.claimsStatement;
  const group: ClaimGroup = {
    async commitAll(tx, claims) {
      const items = claims.map((c) => held.get(c)!);
      const first = firsts(items);
      const ours = await store.commitMany(
        tx,
        items.filter((_, k) => first[k]),
        clock.now(),
      );
      return items.map((i, k) => first[k] === true && ours.has(i.key.hash));
    },
    ...(statementOf
      ? {
          embed(claims) {
            const items = claims.map((c) => held.get(c)!);
            const first = firsts(items);
            return {
              statement: statementOf(
                items.filter((_, k) => first[k]),
                clock.now(),
              ),
              ours(recorded) {
                const ours = new Set(recorded);
                return items.map((i, k) => first[k] === true && ours.has(i.key.hash));
              },
            };
          },
        }
      : {}),
  };
  return (wire) => {
    const claim: EffectClaim = {
      commit: (tx) => store.commit(tx, wire.key, wire.claimId, clock.now()),
      group,
      wire,
    };
    held.set(claim, wire);
    return claim;
  };
}

export type IdempotencyDeps = { store: IdempotencyStore; clock: Clock; secret: string };

/** A customer call declared `idempotent`, and every staff call that is not a read. */
function isIdempotent(request: FastifyRequest): boolean {
  const config = request.routeOptions.config;
  if (config.idempotent) return true;
  return request.method === 'POST' && (config.permission !== undefined || config.staffSession === true);
}

/**
 * rtoken: registered after the auth and staff hooks, because a key belongs to the principal — the
 * customer, the staff member, or (signed out) the request itself — never to a session token, so a
 * retry from a new login still finds its first answer. The handler runs in the request's effect
 * scope: its writing transactions record the claim with the effect (db/database.ts `inTransaction`).
 */
export function registerIdempotency(
  app: FastifyInstance,
  deps: IdempotencyDeps,
): { claimFrom: ClaimFactory } {
  app.decorateRequest('idempotencyKey', null);
  const claimFrom = claimsOf(deps.store, deps.clock);

  app.addHook('preHandler', (request, reply, done) => {
    if (!isIdempotent(request)) return done();
    const values = fields(request);
    const rtoken = values.rtoken;
    if (typeof rtoken !== 'string' || rtoken === '')
      return done(new Refusal('FIELD_REQUIRED', { field: 'rtoken' }));
    if (rtoken.length < RTOKEN_MIN)
      return done(new Refusal('FIELD_TOO_SHORT', { field: 'rtoken', min: RTOKEN_MIN }));
    const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
    const content = canonical(values);
    const who = request.staff
      ? `staff|${request.staff.staffId}`
      : request.auth
        ? `cust|${request.auth.customerId}`
        : `anon|${content}`;
    // Keyed and sealed with the server secret: the table alone tells no one what was asked or answered.
    const material = `${route}|${who}|${rtoken}`;
    const key = { hash: hmac(deps.secret, `idem|${material}`), route, requestHash: sha256(content) };
    const sealKey = `${deps.secret}|${material}`;
    const now = deps.clock.now();
    deps.store.begin(key, now).then(
      (found) => {
        switch (found.state) {
          case 'pending':
            return done(new Refusal('REQUEST_IN_PROGRESS'));
          case 'reused':
            return done(new Refusal('RTOKEN_REUSED', { field: 'rtoken' }));
          case 'applied':
            reply.header('x-idempotent-replay', 'applied');
            return done(new Refusal('REQUEST_ALREADY_APPLIED'));
          case 'done':
            reply
              .code(found.httpStatus)
              .type('application/json; charset=utf-8')
              .header('x-idempotent-replay', '1')
              .send(open(sealKey, found.sealed));
            return;
          case 'claimed': {
            const { claimId } = found;
            request.idempotencyKey = { key, claimId, sealKey };
            return withEffectClaim(claimFrom({ key, claimId }), () => done());
          }
        }
      },
      (error: unknown) => done(error as Error),
    );
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const held = request.idempotencyKey;
    if (!held) return payload;
    request.idempotencyKey = null;
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await deps.store.release(held.key);
    } else {
      await deps.store.finish(
        held.key,
        held.claimId,
        { httpStatus: reply.statusCode, sealed: seal(held.sealKey, payload) },
        deps.clock.now(),
      );
    }
    return payload;
  });

  // A request that ends without a reply being sent (the client went away) still lets go of its key.
  app.addHook('onResponse', async (request) => {
    const held = request.idempotencyKey;
    if (!held) return;
    request.idempotencyKey = null;
    await deps.store.release(held.key);
  });

  const purge = setInterval(() => {
    detached(() => deps.store.purge(deps.clock.now())).catch((error: unknown) =>
      app.log.warn({ err: error }, 'idempotency purge failed'),
    );
  }, PURGE_EVERY_MS);
  purge.unref();
  app.addHook('onClose', async () => {
    clearInterval(purge);
    await deps.store.close();
  });
  return { claimFrom };
}
