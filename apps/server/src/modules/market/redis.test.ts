import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/harness.ts';
import { testLogger, watchOutput } from '../../../test/logwatch.ts';
import { buildApp } from '../../app.ts';
import { type Config, loadConfig } from '../../config.ts';
import { createDb } from '../../db/database.ts';
import { type ManualClock, manualClock } from '../../lib/clock.ts';
import { connectClient, type Received, type TestClient } from './fixtures/ws-client.ts';

/**
 * Two server instances on one database and one Redis (127.0.0.1:6379), as two processes would
 * be: one owns the feed, the other applies its batches; clients of either see the same stream.
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `bourse-test-${randomBytes(4).toString('hex')}:`;
const START = new Date('2026-11-21T04:00:00Z');

type Instance = { app: FastifyInstance; clock: ManualClock; url: string; close(): Promise<void> };
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const instances: Instance[] = [];

async function start(): Promise<Instance> {
  const config: Config = Object.freeze({
    ...loadConfig({ LOG_LEVEL: 'silent' }),
    webDist: '/nonexistent',
    adminDist: '/nonexistent',
    feedTickMs: 0,
    // The market stream is under test. Spot books (and the market maker quoting them) are run by one
    // process per database today: two processes quoting one book collide on its journal.
    marketMaker: 'off',
    simHistoryCandles: 0,
    redisUrl: REDIS_URL,
    redisPrefix: prefix,
  });
  const handle = createDb(database.url, { max: 5 });
  const clock = manualClock(START);
  const app = await buildApp({
    config,
    db: handle.db,
    secret: 'test-secret-test-secret-test-secret!',
    clock,
    logger: testLogger(),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const instance = {
    app,
    clock,
    url: `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`,
    async close() {
      await app.close();
      await handle.db.destroy();
    },
  };
  instances.push(instance);
  return instance;
}

let redisUp = true;
beforeAll(async () => {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 1 });
  redisUp = await probe.connect().then(
    () => true,
    () => false,
  );
  probe.disconnect();
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const instance of instances.reverse()) await instance.close().catch(() => {});
  await database.drop();
});

async function untilTrue(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('several processes through Redis', () => {
  it('deliver the same ticker stream; the feed runs in the elected owner only, and ticks are recorded once', async () => {
    expect(redisUp, `Redis must answer at ${REDIS_URL}`).toBe(true);
    const first = await start();
    const second = await start();
    // Exactly one owns the feed — the first, unless a stalled machine let its Redis lease (6 s of real
    // time, renewed every 2 s) lapse while the second started; then the next election round settles it.
    const leaders = () => [first, second].filter((i) => i.app.market.isLeader());
    await untilTrue(() => leaders().length === 1, 10_000);
    const a = leaders()[0]!;
    const b = a === first ? second : first;
    expect(b.app.market.isLeader()).toBe(false);

    const clientA: TestClient = await connectClient(a.url);
    const clientB: TestClient = await connectClient(b.url);
    for (const client of [clientA, clientB]) client.send({ main_type: 2, channel: 'tickers' });
    const snapA = await clientA.next((m) => m.channel === 'tickers');
    const snapB = await clientB.next((m) => m.channel === 'tickers');
    expect(snapB).toEqual(snapA);

    let published = 0;
    const streamA: Received[] = [];
    const streamB: Received[] = [];
    for (let i = 0; i < 8; i++) {
      a.clock.advance(1_000);
      b.clock.advance(1_000);
      published += await a.app.market.step();
      streamA.push(await clientA.next((m) => m.channel === 'tickers'));
      streamB.push(await clientB.next((m) => m.channel === 'tickers'));
    }
    expect(published).toBeGreaterThan(8 * 20);
    expect(streamA.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(streamB).toEqual(streamA);

    // A follower can also be stepped: it owns no feed, so nothing happens.
    expect(await b.app.market.step()).toBe(0);
    await a.app.market.flushRecorder();
    const window = { symbol: 'BTC/USDT', interval: '1d' as const, fromMs: 0, toMs: 4e12 };
    expect(await b.app.market.rebuildCandles(window)).toEqual(await a.app.market.storedCandles(window));
    const probe = createDb(database.url, { max: 1 });
    const n = await probe.db
      .selectFrom('market_tick')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    await probe.db.destroy();
    expect(Number(n.n)).toBe(published);

    // Both serve the same reference prices over HTTP.
    const view = async (app: FastifyInstance) =>
      (await app.inject({ method: 'GET', url: '/api/web/getTickers?page_size=500' })).json().data.items;
    expect(await view(b.app)).toEqual(await view(a.app));
    await clientA.close();

    // The owner stops: the other process takes the feed over and the stream goes on from there.
    await a.close();
    instances.splice(instances.indexOf(a), 1);
    await untilTrue(() => b.app.market.isLeader(), 10_000);
    b.clock.advance(1_000);
    expect(await b.app.market.step()).toBeGreaterThan(0);
    expect((await clientB.next((m) => m.channel === 'tickers')).seq).toBe(9);
    await b.app.market.flushRecorder();
    await clientB.close();
  }, 30_000);
});

/** Two real server processes (main.ts), sharing the test database and Redis, with their own clocks and timers. */
describe('two server processes with Redis', () => {
  const MAIN = path.resolve(import.meta.dirname, '../../main.ts');
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    }
  });

  function freePort(): Promise<number> {
    return new Promise((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
  }

  async function spawnServer(processPrefix: string): Promise<string> {
    const port = await freePort();
    let output = '';
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: database.url,
        REDIS_URL,
        REDIS_PREFIX: processPrefix,
        TICKER_BATCH_MS: '200',
        FEED_TICK_MS: '200',
        SIM_HISTORY_CANDLES: '0',
        DEMO_CONTENT: 'false',
        LOG_LEVEL: 'warn',
        EXIT_WHEN_STDIN_CLOSES: 'true',
        WEB_DIST: '/nonexistent',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(child);
    const watch = watchOutput();
    child.stdout?.on('data', (c: Buffer) => {
      output += c.toString();
      watch(c);
    });
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
      const healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (healthy) return `ws://127.0.0.1:${port}/ws`;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`server did not start: ${output}`);
  }

  it('deliver the same ticker stream', async () => {
    expect(redisUp, `Redis must answer at ${REDIS_URL}`).toBe(true);
    const processPrefix = `bourse-test-${randomBytes(4).toString('hex')}:`;
    const [urlA, urlB] = await Promise.all([spawnServer(processPrefix), spawnServer(processPrefix)]);
    const clients = await Promise.all([connectClient(urlA as string), connectClient(urlB as string)]);
    for (const client of clients) client.send({ main_type: 2, channel: 'tickers' });
    const byTime = clients.map(() => new Map<number, unknown>());
    for (const [i, client] of clients.entries()) {
      await client.next((m) => m.snapshot === true);
      client.socket.on('message', (raw) => {
        const m = JSON.parse(String(raw)) as Received;
        if (m.channel === 'tickers') byTime[i]?.set((m.data as { time: number }).time, m.data);
      });
    }
    await untilTrue(
      () => [...(byTime[0]?.keys() ?? [])].filter((k) => byTime[1]?.has(k)).length >= 8,
      20_000,
    );
    const common = [...(byTime[0]?.keys() ?? [])].filter((k) => byTime[1]?.has(k));
    for (const time of common) expect(byTime[1]?.get(time)).toEqual(byTime[0]?.get(time));
    // Exactly one of them owns the feed.
    const redis = new Redis(REDIS_URL);
    expect(await redis.get(`${processPrefix}market:leader`)).toMatch(/^\d+-[0-9a-f]{8}$/);
    redis.disconnect();
    for (const client of clients) await client.close();
  }, 60_000);
});
