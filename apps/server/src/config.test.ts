import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('config', () => {
  it('has working defaults: port 8080, embedded database, demo content', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: null,
      demoContent: true,
      publicUrl: 'http://localhost:8080',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('takes a 32-byte DOCUMENT_KEY in base64; unset, the key is derived (documentKey null)', () => {
    const key = Buffer.alloc(32, 9).toString('base64');
    expect(loadConfig({ DOCUMENT_KEY: key }).documentKey).toBe(key);
    expect(loadConfig({}).documentKey).toBeNull();
    expect(loadConfig({}).documentSweepIntervalMs).toBe(3_600_000);
  });

  it('SPOT_LEASES is off by default; on, it needs REDIS_URL and takes SPOT_LEASE_TTL_MS', () => {
    expect(loadConfig({})).toMatchObject({ spotLeases: false, spotLeaseTtlMs: 6_000 });
    expect(() => loadConfig({ SPOT_LEASES: 'on' })).toThrow(/SPOT_LEASES=on needs REDIS_URL/);
    expect(
      loadConfig({ SPOT_LEASES: 'on', REDIS_URL: 'redis://127.0.0.1:6379', SPOT_LEASE_TTL_MS: '3000' }),
    ).toMatchObject({ spotLeases: true, spotLeaseTtlMs: 3_000 });
    expect(() => loadConfig({ SPOT_LEASE_TTL_MS: '10' })).toThrow(/SPOT_LEASE_TTL_MS must be between/);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must use postgres/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL must be a URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ INVITATION_REQUIRED: 'maybe' }, /INVITATION_REQUIRED must be true or false/],
    [{ SECRET: 'short' }, /SECRET must be at least 32/],
    [{ DEMO_TTL_HOURS: '0' }, /DEMO_TTL_HOURS must be between/],
    [{ DOCUMENT_KEY: 'too-short' }, /DOCUMENT_KEY must be 32 random bytes/],
    [{ DOCUMENT_KEY: Buffer.alloc(31).toString('base64') }, /DOCUMENT_KEY must be 32 random bytes/],
    [{ DOCUMENT_SWEEP_INTERVAL_MS: '10' }, /DOCUMENT_SWEEP_INTERVAL_MS must be between/],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
