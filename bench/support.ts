import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createDb, type Db } from '../apps/server/src/db/database.ts';
import { EmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { ensureDatabase } from '../apps/server/src/db/start.ts';
import { type Clock, systemClock } from '../apps/server/src/lib/clock.ts';
import { createLedger, type Ledger } from '../apps/server/src/modules/ledger/index.ts';

/** What the benchmarks share (no `run` export, so bench/run.ts does not run this file). */

const repoRoot = path.resolve(import.meta.dirname, '..');

export type BenchDatabase = { url: string; db: Db; close(): Promise<void> };

/**
 * A migrated database of the benchmark's own on a real PostgreSQL: DATABASE_URL's server, else an
 * embedded one started under `.tmp/` on a port of its own. `close` drops or stops what it made.
 */
export async function openBenchDatabase(
  label: string,
  options: { portBase: number; poolMax: number },
): Promise<BenchDatabase> {
  const log = pino({ level: 'warn' });
  let embedded: EmbeddedPostgres | null = null;
  const dir = path.join(repoRoot, '.tmp', `bench-${label}-pg-${process.pid}`);
  let adminUrl = process.env.DATABASE_URL ?? '';
  if (!adminUrl) {
    fs.rmSync(dir, { recursive: true, force: true });
    embedded = new EmbeddedPostgres({
      dir,
      port: options.portBase + (process.pid % 10000),
      log,
      supervise: false,
    });
    await embedded.start();
    adminUrl = embedded.connectionString;
  }
  const name = `bourse_bench_${label}_${process.pid}`;
  const url = await ensureDatabase(adminUrl, name);
  const handle = createDb(url, { max: options.poolMax });
  await migrateToLatest(handle.db);
  return {
    url,
    db: handle.db,
    async close() {
      await handle.db.destroy();
      if (embedded) {
        await embedded.stop();
        fs.rmSync(dir, { recursive: true, force: true });
        return;
      }
      const pg = (await import('pg')).default;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

export type BenchApp = Awaited<ReturnType<typeof buildApp>>;

/**
 * The whole server app on a bench database, ready: no demo content, no market maker, no feed
 * timer (the bench steps the market itself), rate limits out of the way, no static apps; and a
 * ledger of the bench's own on the same database and clock. `beforeReady` adds the bench's own
 * routes (never a production route) before the app is sealed. The caller closes the app.
 */
export async function openBenchApp(
  database: BenchDatabase,
  clock: Clock = systemClock,
  options: { beforeReady?: (app: BenchApp) => void } = {},
): Promise<{ app: BenchApp; ledger: Ledger }> {
  const config = Object.freeze({
    ...loadConfig({ LOG_LEVEL: 'silent' }),
    demoContent: false,
    marketMaker: 'off' as const,
    feedTickMs: 0,
    accessRateLimitPerIp: 1_000_000,
    accessRateLimitPerAccount: 1_000_000,
    // Every bench client is one address and a few customers: the bot API's limits would bind first.
    botWeightPerMinute: 100_000_000,
    botOrdersPer10s: 100_000_000,
    webDist: '/nonexistent',
    adminDist: '/nonexistent',
  });
  const app = await buildApp({
    config,
    db: database.db,
    clock,
    secret: 'bench-secret-bench-secret-bench-secret',
    // BENCH_LOG=warn (or info, error…) shows the server's log on stderr; silent by default.
    logger: process.env.BENCH_LOG ? pino({ level: process.env.BENCH_LOG }) : false,
  });
  // A bench's own routes (bench/spot-tcp.ts's baseline) go in before the app is sealed.
  options.beforeReady?.(app);
  await app.ready();
  const ledger = createLedger({ db: database.db, clock, log: pino({ level: 'silent' }) });
  return { app, ledger };
}

/** A new demo customer through `GET /api/web/tempLogin` (`rtoken` as given): its id and session token. */
export async function benchDemoCustomer(
  app: BenchApp,
  db: Db,
  rtoken: string,
): Promise<{ id: string; token: string }> {
  const login = (await app.inject({ method: 'GET', url: '/api/web/tempLogin', query: { rtoken } })).json();
  const row = await db
    .selectFrom('accounts_customer')
    .select('id')
    .where('uid', '=', login.data.uid)
    .executeTakeFirstOrThrow();
  return { id: row.id, token: login.data.token };
}

/**
 * A real customer as a bot's owner has one, through the web calls: registered by e-mail (the code
 * read from the outbox), a trade password, and a trade API key — its key and its secret (shown once).
 */
export async function benchBotCustomer(
  app: BenchApp,
  db: Db,
  name: string,
): Promise<{ id: string; apiKey: string; secret: string }> {
  let n = 0;
  const web = async (method: 'GET' | 'POST', call: string, fields: Record<string, string>) => {
    n += 1;
    const all = { rtoken: `${name.slice(-8)}s${n}`.padStart(8, 'r'), ...fields };
    const url = `/api/web/${call}`;
    const response =
      method === 'GET'
        ? await app.inject({ method, url, query: all })
        : await app.inject({
            method,
            url,
            payload: new URLSearchParams(all).toString(),
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
          });
    const body = response.json() as { code: number; msg: string; data: Record<string, string> };
    if (body.code !== 1) throw new Error(`bench bot customer: ${call} failed: ${body.msg}`);
    return body.data;
  };
  const email = `${name}@bench.example.com`;
  const password = 'bench-login-1';
  await web('GET', 'getCode', { account: email, scene: 'register' });
  const sent = await db
    .selectFrom('notify_outbox')
    .select('body')
    .where('recipient', '=', email)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  const code = sent.body.match(/\b(\d{6})\b/)?.[1] ?? '';
  const registered = await web('POST', 'userRegister', {
    type: 'email',
    account: email,
    code,
    password,
    password2: password,
    agree: '1',
  });
  const token = registered.token_h5 ?? '';
  const tradePassword = '246813';
  await web('POST', 'bindTradePassword', {
    token,
    password,
    trade_password: tradePassword,
    trade_password2: tradePassword,
  });
  const key = await web('POST', 'createApiKey', {
    token,
    label: 'bench',
    permission: 'trade',
    trade_password: tradePassword,
  });
  const row = await db
    .selectFrom('accounts_customer')
    .select('id')
    .where('uid', '=', registered.uid ?? '')
    .executeTakeFirstOrThrow();
  return { id: row.id, apiKey: key.api_key ?? '', secret: key.secret ?? '' };
}

/** The value at `fraction` (0.5 = median) of an ascending array; NaN when it is empty. */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] as number;
}
