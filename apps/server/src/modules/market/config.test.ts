import { describe, expect, it } from 'vitest';
import { ConfigError, hasOptionalPackage, loadConfig } from '../../config.ts';

describe('market configuration', () => {
  it('defaults: the simulated feed, 500 ms batches, 30 s to stale, no Redis', () => {
    expect(loadConfig({})).toMatchObject({
      feed: 'sim',
      feedSeed: 'bourse',
      feedTickMs: 1_000,
      tickerBatchMs: 500,
      staleAfterMs: 30_000,
      ccxtExchange: 'binance',
      ccxtPollMs: 2_000,
      ccxtApiOverride: null,
      replayFile: null,
      replayLoop: true,
      redisUrl: null,
      redisPrefix: 'bourse:',
      tickRetentionHours: 48,
      candle1mRetentionDays: 90,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      FEED: 'replay',
      REPLAY_FILE: '/tmp/ticks.jsonl',
      REPLAY_SPEED: '10',
      REPLAY_LOOP: 'false',
      FEED_SEED: 'demo',
      FEED_TICK_MS: '0',
      STALE_AFTER_MS: '5000',
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_PREFIX: 'b2:',
      CCXT_EXCHANGE: 'okx',
      CCXT_API_OVERRIDE: 'http://127.0.0.1:9999',
    });
    expect(config).toMatchObject({
      feed: 'replay',
      replayFile: '/tmp/ticks.jsonl',
      replaySpeed: 10,
      replayLoop: false,
      feedSeed: 'demo',
      feedTickMs: 0,
      staleAfterMs: 5_000,
      redisUrl: 'redis://127.0.0.1:6379',
      redisPrefix: 'b2:',
      ccxtExchange: 'okx',
      ccxtApiOverride: 'http://127.0.0.1:9999',
    });
  });

  it.each([
    [{ FEED: 'bloomberg' }, /FEED must be one of sim, ccxt, replay/],
    [{ FEED: 'replay' }, /FEED=replay needs REPLAY_FILE/],
    [{ FEED: 'ccxt' }, /FEED=ccxt needs the optional package ccxt, which is not installed/],
    [{ CCXT_EXCHANGE: 'Bin ance' }, /CCXT_EXCHANGE must be a ccxt exchange id/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL must use redis:/],
    [{ STALE_AFTER_MS: '10' }, /STALE_AFTER_MS must be between/],
    [{ TICKER_BATCH_MS: 'fast' }, /TICKER_BATCH_MS must be a whole number/],
    [{ REDIS_PREFIX: 'a b' }, /REDIS_PREFIX/],
  ])('refuses %o naming the variable', (env, message) => {
    // As on an install without the optional ccxt package.
    const withoutCcxt = { hasPackage: (name: string) => name !== 'ccxt' };
    expect(() => loadConfig(env, withoutCcxt)).toThrow(ConfigError);
    expect(() => loadConfig(env, withoutCcxt)).toThrow(message);
  });

  it('a missing ccxt refuses only FEED=ccxt; the other feeds do not need it', () => {
    const withoutCcxt = { hasPackage: (name: string) => name !== 'ccxt' };
    expect(loadConfig({}, withoutCcxt).feed).toBe('sim');
    expect(loadConfig({ FEED: 'replay', REPLAY_FILE: '/tmp/ticks.jsonl' }, withoutCcxt).feed).toBe('replay');
    expect(loadConfig({ FEED: 'ccxt' }, { hasPackage: () => true }).feed).toBe('ccxt');
  });

  it('hasOptionalPackage finds an installed package and not a missing one', () => {
    expect(hasOptionalPackage('fastify')).toBe(true);
    expect(hasOptionalPackage('bourse-no-such-package')).toBe(false);
  });
});
