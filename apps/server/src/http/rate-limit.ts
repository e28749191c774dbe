import rateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
  normalizeIP,
} from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../lib/clock.ts';
import { refuse } from './refusal.ts';

/** Access calls (login, register, codes, reset, …) count per minute. */
export const ACCESS_WINDOW_MS = 60_000;
/** Live windows kept in memory at most; beyond it the oldest goes first. */
export const MAX_KEYS = 100_000;

type Hit = { current: number; ttl: number };

/**
 * The @fastify/rate-limit store contract on the injected clock: fixed windows in memory, bounded.
 * (The plugin's own LocalStore reads `Date.now()`, which tests cannot step.) For several server
 * processes sharing limits, the plugin's `redis` option replaces this store.
 */
export function clockStore(clock: Clock, maxKeys = MAX_KEYS): FastifyRateLimitStoreCtor {
  const windows = new Map<string, { count: number; resetAtMs: number }>();
  const store: FastifyRateLimitStore & {
    read(key: string, cb: (error: Error | null, result?: Hit) => void): void;
  } = {
    incr(key, cb, timeWindow) {
      const nowMs = clock.now().getTime();
      let window = windows.get(key);
      if (!window || window.resetAtMs <= nowMs) {
        windows.delete(key);
        if (windows.size >= maxKeys) {
          for (const [k, w] of windows) if (w.resetAtMs <= nowMs) windows.delete(k);
          // Still full of live windows: drop the oldest rather than grow without bound.
          if (windows.size >= maxKeys) windows.delete(windows.keys().next().value as string);
        }
        window = { count: 0, resetAtMs: nowMs + timeWindow };
        windows.set(key, window);
      }
      window.count += 1;
      cb(null, { current: window.count, ttl: window.resetAtMs - nowMs });
    },
    read(key, cb) {
      const nowMs = clock.now().getTime();
      const window = windows.get(key);
      if (!window || window.resetAtMs <= nowMs) return cb(null, { current: 0, ttl: 0 });
      cb(null, { current: window.count, ttl: window.resetAtMs - nowMs });
    },
    // One map for every limiter: their keys carry their own prefix.
    child: () => store,
  };
  // The plugin constructs its store with `new`; a constructor returning an object yields that object.
  return function ClockStore() {
    return store;
  } as unknown as FastifyRateLimitStoreCtor;
}

export type AccessLimits = { perIp: number; perAccount: number };

/** The `account` field of an access call, normalised: the per-account limit's key. */
function accountOf(request: FastifyRequest): string | null {
  const values = { ...(request.query as object | undefined), ...(request.body as object | undefined) } as {
    account?: unknown;
  };
  return typeof values.account === 'string' && values.account.trim() !== ''
    ? values.account.trim().toLowerCase()
    : null;
}

function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? request.url;
}

/**
 * Registers @fastify/rate-limit (not global: only routes with `config.accessLimited` count) and
 * returns the check the preHandler runs: per address (IPv6 by /64, as the plugin groups them) and,
 * when the call names an `account`, per account, each per route and minute. Over either limit the
 * call is refused `RATE_LIMITED` with the seconds to wait (the error handler sets `Retry-After`).
 */
export async function registerAccessLimits(
  app: FastifyInstance,
  deps: { clock: Clock; limits: AccessLimits },
): Promise<(request: FastifyRequest) => Promise<void>> {
  await app.register(rateLimit, {
    global: false,
    store: clockStore(deps.clock),
    timeWindow: ACCESS_WINDOW_MS,
    skipOnError: false,
  });
  const perIp = app.createRateLimit({
    max: deps.limits.perIp,
    keyGenerator: (request) => `ip|${routeOf(request)}|${normalizeIP(request.ip)}`,
  });
  const perAccount = app.createRateLimit({
    max: deps.limits.perAccount,
    keyGenerator: (request) => `acct|${routeOf(request)}|${accountOf(request)}`,
  });
  return async (request) => {
    for (const limit of accountOf(request) === null ? [perIp] : [perIp, perAccount]) {
      const result = await limit(request);
      if (!result.isAllowed && result.isExceeded)
        refuse('RATE_LIMITED', { seconds: Math.max(1, result.ttlInSeconds) });
    }
  };
}
