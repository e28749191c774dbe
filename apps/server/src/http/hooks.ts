import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../lib/clock.ts';
import { open, seal, sha256 } from '../lib/crypto.ts';
import type { SessionResolver } from './context.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { RateLimiter } from './rate-limit.ts';
import { refuse } from './refusal.ts';

const RTOKEN_MIN = 6;
const RATE_WINDOW_MS = 60_000;
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
  idempotency: IdempotencyStore;
  rateLimiter: RateLimiter;
  clock: Clock;
  limits: { perIp: number; perAccount: number };
};

export function registerRequestHooks(app: FastifyInstance, deps: HookDeps): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('idempotencyKey', null);

  app.addHook('preHandler', async (request) => {
    const config = request.routeOptions.config;
    if (config.accessLimited) checkRateLimits(request, deps);
    const token = tokenOf(request);
    if (config.auth === 'required') {
      if (!token) refuse('LOGIN_REQUIRED');
      request.auth = await deps.sessions.resolve(token);
    } else if (config.auth === 'optional' && token) {
      request.auth = await deps.sessions.resolve(token);
    }
  });

  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config.idempotent) return;
    const rtoken = fields(request).rtoken;
    if (typeof rtoken !== 'string' || rtoken === '') refuse('FIELD_REQUIRED', { field: 'rtoken' });
    if (rtoken.length < RTOKEN_MIN) refuse('FIELD_TOO_SHORT', { field: 'rtoken', min: RTOKEN_MIN });
    const route = request.routeOptions.url ?? request.url;
    // Keyed by the raw token (never stored) or, for anonymous calls, by the whole request, so
    // only the original caller can derive the key and read the stored answer.
    const who = request.auth ? `tok|${request.auth.token}` : `anon|${canonical(fields(request))}`;
    const material = `${route}|${who}|${rtoken}`;
    const hash = sha256(`idem|${material}`);
    const previous = await deps.idempotency.begin({ hash, route, now: deps.clock.now() });
    if (previous === 'pending') refuse('REQUEST_IN_PROGRESS');
    if (previous) {
      return reply
        .code(previous.httpStatus)
        .type('application/json; charset=utf-8')
        .header('x-idempotent-replay', '1')
        .send(open(material, previous.sealed));
    }
    request.idempotencyKey = { hash, material };
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (!key) return payload;
    request.idempotencyKey = null;
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await deps.idempotency.abandon(key.hash);
    } else {
      await deps.idempotency.finish({
        hash: key.hash,
        httpStatus: reply.statusCode,
        sealed: seal(key.material, payload),
      });
    }
    return payload;
  });
}

function checkRateLimits(request: FastifyRequest, deps: HookDeps): void {
  const route = request.routeOptions.url ?? request.url;
  const now = deps.clock.now().getTime();
  const ipWait = deps.rateLimiter.hit(`ip|${route}|${request.ip}`, deps.limits.perIp, RATE_WINDOW_MS, now);
  if (ipWait > 0) refuse('RATE_LIMITED', { seconds: ipWait });
  const account = fields(request).account;
  if (typeof account === 'string' && account !== '') {
    const key = `acct|${route}|${account.trim().toLowerCase()}`;
    const accountWait = deps.rateLimiter.hit(key, deps.limits.perAccount, RATE_WINDOW_MS, now);
    if (accountWait > 0) refuse('RATE_LIMITED', { seconds: accountWait });
  }
}
