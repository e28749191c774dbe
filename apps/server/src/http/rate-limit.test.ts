import formbody from '@fastify/formbody';
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../lib/clock.ts';
import { errorHandler } from './envelope.ts';
import { registerRequestHooks } from './hooks.ts';
import { ACCESS_WINDOW_MS, clockStore, registerAccessLimits } from './rate-limit.ts';

const START = new Date('2026-11-21T04:00:00Z');

function hit(store: FastifyRateLimitStore, key: string) {
  let answer: { current: number; ttl: number } | undefined;
  store.incr(
    key,
    (error, result) => {
      if (error) throw error;
      answer = result;
    },
    60_000,
    3,
  );
  return answer;
}

describe('the clock store (the @fastify/rate-limit store contract on the injected clock)', () => {
  it('counts per key in fixed windows of the clock, then starts a new window', () => {
    const clock = manualClock(START);
    const Store = clockStore(clock);
    const store = new Store({});
    expect(hit(store, 'k')).toEqual({ current: 1, ttl: 60_000 });
    clock.advance(30_000);
    expect(hit(store, 'k')).toEqual({ current: 2, ttl: 30_000 });
    expect(hit(store, 'other')).toEqual({ current: 1, ttl: 60_000 });
    clock.advance(30_000);
    expect(hit(store, 'k')).toEqual({ current: 1, ttl: 60_000 });
  });

  it('keeps at most its bound of keys: expired windows go first, then the oldest live one', () => {
    const clock = manualClock(START);
    const store = new (clockStore(clock, 2))({});
    hit(store, 'a');
    hit(store, 'b');
    hit(store, 'c'); // full of live windows: the oldest, 'a', is dropped
    expect(hit(store, 'b')?.current).toBe(2);
    expect(hit(store, 'a')?.current).toBe(1); // a new window for 'a'; 'b' is now the oldest and goes
    expect(hit(store, 'c')?.current).toBe(2);
    expect(hit(store, 'b')?.current).toBe(1);
    clock.advance(60_000);
    // Expired windows are dropped before any live one: 'b' (live) keeps its count.
    hit(store, 'b');
    clock.advance(1);
    expect(hit(store, 'd')?.current).toBe(1);
    expect(hit(store, 'b')?.current).toBe(2);
  });
});

/** The access limits on a bare app, the real hooks and error handler, a clock the test steps. */
describe('access-call limits through @fastify/rate-limit', () => {
  const clock = manualClock(START);
  let app: FastifyInstance;
  let handled = 0;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    await app.register(formbody);
    app.setErrorHandler(errorHandler(64 * 1024));
    registerRequestHooks(app, {
      sessions: {
        resolve: async () => {
          throw new Error('no session calls here');
        },
      } as never,
      checkAccessLimits: await registerAccessLimits(app, { clock, limits: { perIp: 5, perAccount: 2 } }),
    });
    for (const url of ['/login', '/other']) {
      app.post(url, { config: { accessLimited: true } }, async () => {
        handled += 1;
        return { code: 1, msg: 'ok', data: null };
      });
    }
    app.post('/free', async () => {
      handled += 1;
      return { code: 1, msg: 'ok', data: null };
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  const post = (url: string, payload: Record<string, string>, ip = '10.0.0.1') =>
    app.inject({ method: 'POST', url, payload, remoteAddress: ip });

  it('per account: the limit per minute, then RATE_LIMITED in the envelope, localized, with Retry-After', async () => {
    clock.set(START);
    for (let i = 0; i < 2; i++)
      expect((await post('/login', { account: 'Ann@Example.com' })).statusCode).toBe(200);
    clock.advance(20_000);
    const before = handled;
    // The same account, spelled otherwise and from another address: still the same account.
    const refused = await post('/login', { account: ' ann@example.com', lang: 'zh' }, '10.0.0.2');
    expect(handled).toBe(before);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('40');
    expect(refused.json()).toEqual({
      code: 429,
      msg: '请求过于频繁，请40秒后再试',
      data: null,
      reason: 'RATE_LIMITED',
      params: { seconds: 40 },
    });
    // Another account, and the same account on another access call, are not limited.
    expect((await post('/login', { account: 'bob@example.com' })).statusCode).toBe(200);
    expect((await post('/other', { account: 'ann@example.com' })).statusCode).toBe(200);
    // The window ends on the clock.
    clock.advance(40_000);
    expect((await post('/login', { account: 'ann@example.com' })).statusCode).toBe(200);
  });

  it('per address: the limit per minute and route, IPv6 counted per /64; other routes are not limited', async () => {
    clock.set(new Date(START.getTime() + 10 * ACCESS_WINDOW_MS));
    for (let i = 0; i < 5; i++) {
      const ip = `2001:db8:1:2::${i + 1}`;
      expect((await post('/login', {}, ip)).statusCode, `call ${i + 1}`).toBe(200);
    }
    const refused = await post('/login', {}, '2001:db8:1:2:ffff::9');
    expect(refused.json()).toMatchObject({ code: 429, reason: 'RATE_LIMITED', params: { seconds: 60 } });
    expect(refused.json().msg).toBe('Too many requests: try again in 60\u00a0s');
    expect((await post('/login', {}, '2001:db8:1:3::1')).statusCode).toBe(200);
    expect((await post('/other', {}, '2001:db8:1:2::1')).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) expect((await post('/free', {}, '2001:db8:1:2::1')).statusCode).toBe(200);
    clock.advance(ACCESS_WINDOW_MS);
    expect((await post('/login', {}, '2001:db8:1:2::1')).statusCode).toBe(200);
  });
});
