import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { inject as provided } from 'vitest';
import { type AppDeps, buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { createDb, type Db } from '../src/db/database.ts';
import { type ManualClock, manualClock } from '../src/lib/clock.ts';
import { testLogger } from './logwatch.ts';

/**
 * Where every test clock starts: a fixed instant (a Saturday, 12:00 in Hong Kong), or the ISO
 * instant in BOURSE_TEST_NOW (scripts/time-matrix.sh runs the time-sensitive suites at several).
 * No test may depend on the wall clock; a test that needs a particular instant sets its clock to it.
 */
export const DEFAULT_TEST_NOW = '2026-11-21T04:00:00Z';

export function testNow(): Date {
  const text = process.env.BOURSE_TEST_NOW?.trim() || DEFAULT_TEST_NOW;
  const at = new Date(text);
  if (
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text) ||
    Number.isNaN(at.getTime())
  )
    throw new Error(
      `BOURSE_TEST_NOW must be an ISO instant with a zone (e.g. ${DEFAULT_TEST_NOW}), not "${text}"`,
    );
  return at;
}

/** A database of this test file's own, cloned from the migrated template. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = provided('pgAdminUrl');
  const name = `bourse_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}" template "${provided('pgTemplate')}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists "${name}" with (force)`);
      await client.end();
    },
  };
}

export type TestApp = {
  app: FastifyInstance;
  db: Db;
  clock: ManualClock;
  config: Config;
  close(): Promise<void>;
};

/**
 * The app on a database of its own, its clock at `testNow()`; a test whose story needs one instant
 * (a Saturday: forex and stocks closed) passes `{ now }` rather than relying on the default.
 */
export async function startTestApp(
  overrides: Partial<Config> = {},
  options: { now?: Date } & Pick<AppDeps, 'idempotency'> = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const config: Config = Object.freeze({
    ...loadConfig({ LOG_LEVEL: 'silent' }),
    demoContent: false,
    // History at first start costs a few seconds per database: tests that want it ask for it.
    simHistoryCandles: 0,
    accessRateLimitPerIp: 100_000,
    accessRateLimitPerAccount: 100_000,
    webDist: '/nonexistent',
    adminDist: '/nonexistent',
    ...overrides,
  });
  const handle = createDb(database.url, { max: 10 });
  const clock = manualClock(options.now ?? testNow());
  const app = await buildApp({
    config,
    db: handle.db,
    secret: 'test-secret-test-secret-test-secret!',
    clock,
    logger: testLogger(),
    ...(options.idempotency ? { idempotency: options.idempotency } : {}),
  });
  await app.ready();
  return {
    app,
    db: handle.db,
    clock,
    config,
    async close() {
      await app.close();
      await handle.db.destroy();
      await database.drop();
    },
  };
}

export type Answer = {
  status: number;
  code: number;
  msg: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field
  data: any;
  reason?: string;
  params?: Record<string, unknown>;
};

let counter = 0;
/** A fresh 6–16 character rtoken, as the app sends with every call. */
export function rtoken(): string {
  counter += 1;
  return `rt${process.pid.toString(36)}${counter.toString(36)}`.slice(0, 16).padEnd(6, 'x');
}

/** Calls `web/<call>` the way the app does: GET in the query, POST form-encoded, rtoken always. */
export async function call(
  app: FastifyInstance,
  input: {
    method?: 'GET' | 'POST';
    call: string;
    fields?: Record<string, string>;
    json?: boolean;
    headers?: InjectOptions['headers'];
  },
): Promise<Answer> {
  const method = input.method ?? 'POST';
  const fields = { rtoken: rtoken(), ...input.fields };
  const url = `/api/web/${input.call}`;
  const response =
    method === 'GET'
      ? await app.inject({ method, url, query: fields, headers: input.headers })
      : input.json
        ? await app.inject({ method, url, payload: fields, headers: input.headers })
        : await app.inject({
            method,
            url,
            payload: new URLSearchParams(fields).toString(),
            headers: { 'content-type': 'application/x-www-form-urlencoded', ...input.headers },
          });
  const body = response.json();
  return { status: response.statusCode, ...body };
}

/** GETs a `web/export…` call (with the session token when given): the response and its CSV lines (BOM and last CRLF off). */
export async function exportCsv(
  app: FastifyInstance,
  name: string,
  token: string | undefined,
  query: Record<string, string>,
) {
  const response = await app.inject({
    method: 'GET',
    url: `/api/web/${name}`,
    query: token ? { token, ...query } : query,
  });
  const lines = response.body
    .replace(/^\uFEFF/, '')
    .replace(/\r\n$/, '')
    .split('\r\n');
  return { response, lines };
}

/** The last code the outbox holds for a recipient (the embedded default sends nothing out). */
export async function outboxCode(db: Db, recipient: string): Promise<string> {
  const row = await db
    .selectFrom('notify_outbox')
    .select('body')
    .where('recipient', '=', recipient)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const code = row.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code in the outbox message to ${recipient}`);
  return code;
}

/** Registers an email customer end to end and returns their token. */
export async function registerByEmail(
  t: TestApp,
  email: string,
  password = 'secret123',
): Promise<{ token: string; uid: string }> {
  const sent = await call(t.app, {
    method: 'GET',
    call: 'getCode',
    fields: { account: email, scene: 'register' },
  });
  if (sent.code !== 1) throw new Error(`getCode failed: ${sent.msg}`);
  const code = await outboxCode(t.db, email.toLowerCase());
  const answer = await call(t.app, {
    call: 'userRegister',
    fields: { type: 'email', account: email, code, password, password2: password, agree: '1' },
  });
  if (answer.code !== 1) throw new Error(`register failed: ${answer.msg}`);
  return { token: answer.data.token_h5, uid: answer.data.uid };
}

/** Row counts of every table: "refused and nothing written" is checked by comparing two of these. */
export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const tables = [
    'accounts_customer',
    'accounts_session',
    'accounts_code',
    'accounts_wallet_nonce',
    'notify_outbox',
  ] as const;
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}
