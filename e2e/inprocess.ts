import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { expect } from 'vitest';
import { buildApp } from '../apps/server/src/app.ts';
import { type Config, loadConfig } from '../apps/server/src/config.ts';
import { createDb, type Db } from '../apps/server/src/db/database.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { type ManualClock, manualClock } from '../apps/server/src/lib/clock.ts';
import { testLogger } from '../apps/server/test/logwatch.ts';
import type { Envelope } from './api.ts';

/**
 * A Bourse server of a test file's own, in the test's process, on a manual clock the test owns:
 * the production server has no clock hook, so a story that needs days to pass (the seven-day
 * sign-in) builds the app itself (`buildApp` with `manualClock`), on a fresh database of its own on
 * the PostgreSQL the e2e global setup started (its user `bourse` made the cluster with initdb, so
 * it may `create database`), serving the built web app on a free 127.0.0.1 port. It logs through
 * `testLogger()` (apps/server/test/logwatch.ts): the file calls `checkLogLines` after each test, so
 * an error line it did not declare fails the test. The global server and its database are untouched.
 */

const repoRoot = path.resolve(import.meta.dirname, '..');

export type InProcessApp = {
  app: FastifyInstance;
  db: Db;
  clock: ManualClock;
  config: Config;
  baseUrl: string;
  close(): Promise<void>;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function onServer<T>(adminUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * Starts the app at `now` on a new database `bourse_e2e_<label>_<hex>` next to the one behind
 * `adminUrl` (migrated to latest), without demo content; listens until `close()`, which also drops
 * the database and the data directory.
 */
export async function startInProcessApp(input: {
  adminUrl: string;
  label: string;
  now: Date;
}): Promise<InProcessApp> {
  const name = `bourse_e2e_${input.label}_${randomBytes(4).toString('hex')}`;
  await onServer(input.adminUrl, (c) => c.query(`create database "${name}"`));
  const dbUrl = new URL(input.adminUrl);
  dbUrl.pathname = `/${name}`;
  const dataDir = path.join(repoRoot, '.tmp', name);
  const handle = createDb(dbUrl.toString(), { max: 10 });
  const drop = async () => {
    await handle.db.destroy();
    await onServer(input.adminUrl, (c) => c.query(`drop database if exists "${name}" with (force)`));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await migrateToLatest(handle.db);
    const port = await freePort();
    const config: Config = Object.freeze({
      ...loadConfig({
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        LOG_LEVEL: 'error',
        DATA_DIR: dataDir,
        DEMO_CONTENT: 'false',
        MARKET_MAKER: 'off',
        ...(process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {}),
        ...(process.env.ADMIN_DIST ? { ADMIN_DIST: process.env.ADMIN_DIST } : {}),
      }),
      simHistoryCandles: 0,
      accessRateLimitPerIp: 100_000,
      accessRateLimitPerAccount: 100_000,
    });
    if (!fs.existsSync(path.join(config.webDist, 'index.html')))
      throw new Error('apps/web is not built: run `npm run build` first');
    const clock = manualClock(input.now);
    const app = await buildApp({
      config,
      db: handle.db,
      secret: randomBytes(24).toString('hex'),
      clock,
      logger: testLogger(),
    });
    try {
      await app.listen({ host: '127.0.0.1', port });
    } catch (error) {
      await app.close();
      throw error;
    }
    return {
      app,
      db: handle.db,
      clock,
      config,
      baseUrl: `http://127.0.0.1:${port}`,
      async close() {
        await app.close();
        await drop();
      },
    };
  } catch (error) {
    await drop();
    throw error;
  }
}

/** A customer call on the in-process app (`/api/web/<name>`, form-encoded as the web app sends it, a fresh rtoken). */
export async function appWebCall<T>(
  base: string,
  method: 'GET' | 'POST',
  name: string,
  params: Record<string, string>,
  token: string | null,
  lang = 'en',
): Promise<Envelope<T>> {
  const fields = new URLSearchParams({
    ...params,
    lang,
    rtoken: `e2e${randomBytes(5).toString('hex')}`,
    ...(token ? { token } : {}),
  });
  const response =
    method === 'GET'
      ? await fetch(`${base}/api/web/${name}?${fields}`)
      : await fetch(`${base}/api/web/${name}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: fields.toString(),
        });
  return (await response.json()) as Envelope<T>;
}

/** A new customer registered by e-mail on the in-process app (the code read from its outbox); the session token. */
export async function appRegisterCustomer(
  t: InProcessApp,
  email: string,
  password = 'secret123',
): Promise<string> {
  const sent = await appWebCall(t.baseUrl, 'GET', 'getCode', { account: email, scene: 'register' }, null);
  expect(sent.code, sent.msg).toBe(1);
  const row = await t.db
    .selectFrom('notify_outbox')
    .select('body')
    .where('recipient', '=', email.toLowerCase())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const code = row.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code in the outbox message to ${email}`);
  const registered = await appWebCall<{ token_h5: string }>(
    t.baseUrl,
    'POST',
    'userRegister',
    { type: 'email', account: email, code, password, password2: password, agree: '1' },
    null,
  );
  expect(registered.code, registered.msg).toBe(1);
  return registered.data.token_h5;
}

/** The customer's spot `currency` available on the in-process app (`getAsset2`), as the API writes it. */
export async function appSpotAvailable(t: InProcessApp, token: string, currency: string): Promise<string> {
  const answer = await appWebCall<{
    accounts: Array<{ rows: Array<{ currency: string; available: string }> }>;
  }>(t.baseUrl, 'GET', 'getAsset2', { type: 'spot' }, token);
  expect(answer.code, answer.msg).toBe(1);
  return answer.data.accounts[0]?.rows.find((r) => r.currency === currency)?.available ?? '0';
}
