import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import { scaleOf } from '@bourse/money';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from '../apps/server/src/db/database.ts';
import { inTransaction } from '../apps/server/src/db/database.ts';
import { ok } from '../apps/server/src/http/envelope.ts';
import { authOf } from '../apps/server/src/http/request.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import type { Ledger } from '../apps/server/src/modules/ledger/index.ts';
import type { BenchResult } from './run.ts';
import type { BenchBook, ClientsData, Job, JobKind, JobResult } from './spot-tcp-clients.ts';
import {
  type BenchApp,
  type BenchDatabase,
  benchBotCustomer,
  benchDemoCustomer,
  openBenchApp,
  openBenchDatabase,
} from './support.ts';

/**
 * Spot orders per second over real TCP (issue 21): the whole app listening on 127.0.0.1, driven by
 * 1, 16, 64 and 256 clients on HTTP/1.1 keep-alive connections from a worker thread
 * (bench/spot-tcp-clients.ts), on a real PostgreSQL (DATABASE_URL's server, else an embedded one).
 * At each level, for a time budget each (BENCH_TCP_MS, default 6 s):
 * - http floor: `POST /bench/floor`, a bench route that touches no database and checks no session:
 *   the app's hooks, the JSON body and the envelope over the same keep-alive connections — the most
 *   requests per second this machine answers at that concurrency, whatever a route does;
 * - baseline: `POST /bench/baseline`, a route the bench adds to the same app (never a production
 *   route) that resolves the session like every customer call and inserts one row in its own
 *   transaction per request, the yardstick for batching;
 * - baseline + rtoken: the same route, idempotent like createOrder (rtoken claim read, committed
 *   with the row, answer stored after): what one order request costs before any batching;
 * - place: limit orders around the reference price, sides alternating so about half cross;
 * - cancel: resting orders placed first (untimed), then cancelled by id;
 * - mixed bot: 60 % places, 30 % cancels of its own resting orders, 10 % reads (depth, open orders).
 * Latency is what the client saw. SPOT_BUSY (HTTP 429, a full book queue) is counted apart from
 * other refusals: under overload it is the right answer. Each phase also reports the statements the
 * server sent per answered request and the CPU per answered request in µs (`cpu_us_node_pg`: this
 * process, server and clients together / every PostgreSQL process). Memory (rss of the process, workers
 * included; heap of the server's thread) is read after a full GC at the start and the end; with
 * `--minutes N` (or BENCH_TCP_MINUTES) a mixed run at 64 clients follows for N minutes, read each
 * minute. Nothing here asserts a speed.
 */
const CUSTOMERS = 40;
/** Real customers with trade API keys, for the bot phase (orders spread over them as over the 40). */
const BOTS = 16;
const BUDGET_MS = Number(process.env.BENCH_TCP_MS ?? 6_000);
const LEVELS = (process.env.BENCH_TCP_LEVELS ?? '1,16,64,256').split(',').map(Number);
const SOAK_CLIENTS = 64;

function soakMinutes(): number {
  const argv = process.argv;
  const at = argv.findIndex((a) => a === '--minutes' || a.startsWith('--minutes='));
  const raw =
    at < 0 ? process.env.BENCH_TCP_MINUTES : argv[at]?.includes('=') ? argv[at]?.split('=')[1] : argv[at + 1];
  const minutes = Number(raw ?? 0);
  return Number.isFinite(minutes) && minutes > 0 ? minutes : 0;
}

let sentStatements = 0;
let counting = false;
/** The event-loop delay sampler's period (node:perf_hooks `monitorEventLoopDelay`). */
const LOOP_PERIOD_MS = 1;
/**
 * `BENCH_TCP_STATEMENTS=<phase>` (e.g. `place`): that phase's statements by kind, printed after it;
 * `soak`: each minute of the `--minutes` run's.
 */
const PROFILED_PHASE = process.env.BENCH_TCP_STATEMENTS ?? '';
/** Per statement shape (its text, placeholders and value lists folded): how many, total ms to answer. */
const statementKinds = new Map<string, { count: number; ms: number }>();

function statementShape(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\$\d+/g, '$')
    .replace(/(\(\$(, \$)*\),? ?)+/g, '(…)')
    .trim()
    .slice(0, 100);
}

/**
 * CPU milliseconds used so far by this process (server and clients' worker together) and by every
 * PostgreSQL process on the machine (Linux `/proc`; null without `/proc` or without a local
 * PostgreSQL process — a server on another host). A backend that exits during a phase takes its
 * time with it: the bench's pools keep theirs open.
 */
function cpuNow(): { node: number; pg: number | null } {
  const usage = process.cpuUsage();
  const node = (usage.user + usage.system) / 1000;
  try {
    const tick = 1000 / 100; // USER_HZ is 100 on Linux.
    let pg = 0;
    let found = 0;
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // gone meanwhile
      }
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const fields = stat.slice(close + 2).split(' ');
      // utime and stime: fields 14 and 15 of the line, 12 and 13 after the name.
      pg += (Number(fields[11]) + Number(fields[12])) * tick;
      found += 1;
    }
    return { node, pg: found > 0 ? pg : null };
  } catch {
    return { node, pg: null };
  }
}

/** Statements sent to PostgreSQL by this process so far (every client: pools and held connections). */
function statementsSent(): number {
  if (!counting) {
    counting = true;
    const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      sentStatements += 1;
      const answer = query.apply(this, args);
      if (PROFILED_PHASE && answer instanceof Promise) {
        const first = args[0] as string | { text?: string };
        const kind = statementShape(typeof first === 'string' ? first : (first.text ?? '?'));
        const t0 = performance.now();
        const tally = (): void => {
          const k = statementKinds.get(kind) ?? { count: 0, ms: 0 };
          statementKinds.set(kind, { count: k.count + 1, ms: k.ms + performance.now() - t0 });
        };
        answer.then(tally, tally);
      }
      return answer;
    } as typeof pg.Client.prototype.query;
  }
  return sentStatements;
}

/** The profiled phase's statements: count, per answered request, mean ms from send to answer. */
function printStatementKinds(phase: string, answered: number): void {
  console.log(`statements of ${phase} (count, per request, mean ms, shape):`);
  for (const [kind, { count, ms }] of [...statementKinds]
    .sort((a, b) => b[1].count - a[1].count)
    .slice(0, 30))
    console.log(
      `${String(count).padStart(8)} ${(count / Math.max(answered, 1)).toFixed(3).padStart(7)} ${(ms / count).toFixed(2).padStart(7)}  ${kind}`,
    );
}

let collect: (() => void) | null = null;

/** A full collection, then the process's memory in MB (rss includes the clients' worker). */
function memory(): { rss_mb: string; heap_used_mb: string } {
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as () => void;
  }
  collect();
  const m = process.memoryUsage();
  return { rss_mb: (m.rss / 2 ** 20).toFixed(0), heap_used_mb: (m.heapUsed / 2 ** 20).toFixed(1) };
}

/**
 * The baseline: one row in its own transaction per request, behind the same session check. Its
 * `-rtoken` twin is also idempotent like createOrder: the rtoken claim is read first, committed with
 * the row, and the answer stored after — what one request costs the order flow without batching.
 */
function baselineRoutes(db: Db) {
  return (app: BenchApp) => {
    app.post(
      '/bench/floor',
      {
        schema: {
          body: {
            type: 'object',
            required: ['note'],
            properties: { note: { type: 'string', maxLength: 64 } },
            additionalProperties: false,
          },
        },
      },
      async (request) => ok(request, { note: (request.body as { note: string }).note }),
    );
    for (const [url, idempotent] of [
      ['/bench/baseline', false],
      ['/bench/baseline-rtoken', true],
    ] as const) {
      app.post(
        url,
        {
          schema: {
            body: {
              type: 'object',
              required: ['note'],
              properties: {
                note: { type: 'string', maxLength: 64 },
                rtoken: { type: 'string', maxLength: 64 },
              },
              additionalProperties: false,
            },
          },
          config: { auth: 'required', idempotent },
        },
        async (request) => {
          const customerId = authOf(request).customerId;
          const note = (request.body as { note: string }).note;
          const row = await inTransaction(db, (tx) =>
            sql<{ id: string }>`insert into bench_baseline (customer_id, note, created_at)
              values (${customerId}, ${note}, ${systemClock.now()}) returning id`.execute(tx),
          );
          return ok(request, { id: String(row.rows[0]?.id) });
        },
      );
    }
  };
}

function clientsOf(concurrency: number): string {
  return `${concurrency} client${concurrency > 1 ? 's' : ''}`;
}

const NAMES: Record<JobKind, string> = {
  floor: 'http floor (no database)',
  baseline: 'baseline insert/tx',
  baselineRtoken: 'baseline insert/tx + rtoken',
  place: 'place',
  placeBot: 'place via the bot API (signed /api/v3/order, real book)',
  placeBooks: 'place on 4 books, shared customers',
  placeBooksApart: 'place on 4 books, own customers',
  prefill: 'resting orders for cancel',
  cancel: 'cancel by id',
  mixed: 'mixed bot',
};

function figuresOf(r: JobResult): Record<string, string | number> {
  const refused = Object.entries(r.refused)
    .sort((a, b) => b[1] - a[1])
    .map(([reason, count]) => `${reason}:${count}`)
    .join(',');
  return {
    ok_per_s: Math.round(r.ok / r.seconds),
    p50_ms: r.p50.toFixed(1),
    p99_ms: r.p99.toFixed(1),
    max_ms: r.max.toFixed(0),
    answered: r.answered,
    ...(r.kind === 'place' || r.kind === 'placeBot' || r.kind === 'mixed' ? { crossed: r.crossed } : {}),
    ...(r.kind === 'mixed' ? { mix: `${r.mix.place}/${r.mix.cancel}/${r.mix.query}` } : {}),
    busy_429: r.busy,
    refused: refused || 0,
    errors: r.errors,
  };
}

type RunJob = (kind: JobKind, concurrency: number, budgetMs?: number) => Promise<JobResult>;

/** The server settings a long run's figures depend on. */
async function serverSettings(db: Db): Promise<Record<string, string>> {
  const names = ['server_version', 'autovacuum', 'synchronous_commit', 'shared_buffers'];
  const { rows } = await sql<{ name: string; setting: string }>`
    select name, current_setting(name) as setting from unnest(${names}::text[]) as name`.execute(db);
  return Object.fromEntries(rows.map((r) => [r.name, r.setting]));
}

/** 40 demo customers with plenty of demo BTC and USDT: their session tokens. */
async function customers(app: BenchApp, database: BenchDatabase, ledger: Ledger): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const customer = await benchDemoCustomer(app, database.db, `benchtcp${i}xx`);
    for (const [currency, whole] of [
      ['BTC', 100n],
      ['ETH', 3_000n],
      ['SOL', 50_000n],
      ['BNB', 15_000n],
      ['USDT', 10_000_000n],
    ] as const) {
      const amountUnits = whole * 10n ** BigInt(scaleOf(currency));
      await ledger.credit(database.db, {
        book: 'demo',
        customerId: customer.id,
        accountType: 'spot',
        currency,
        amountUnits,
        from: 'demo_faucet',
        reference: { type: 'bench', id: customer.id },
        idempotencyKey: `bench-tcp-${currency}-${customer.id}`,
      });
    }
    tokens.push(customer.token);
  }
  return tokens;
}

/** Real customers trading through trade API keys (the bot phase), with real BTC and USDT as deposits bring them. */
async function botCustomers(app: BenchApp, database: BenchDatabase, ledger: Ledger) {
  const bots: Array<{ apiKey: string; secret: string }> = [];
  for (let i = 0; i < BOTS; i++) {
    const bot = await benchBotCustomer(app, database.db, `benchbot${i}`);
    for (const [currency, whole] of [
      ['BTC', 100n],
      ['USDT', 10_000_000n],
    ] as const) {
      await ledger.credit(database.db, {
        book: 'real',
        customerId: bot.id,
        accountType: 'spot',
        currency,
        amountUnits: whole * 10n ** BigInt(scaleOf(currency)),
        from: 'deposits_clearing',
        reference: { type: 'bench', id: bot.id },
        idempotencyKey: `bench-bot-${currency}-${bot.id}`,
      });
    }
    bots.push({ apiKey: bot.apiKey, secret: bot.secret });
  }
  return bots;
}

/** The clients' worker, and a way to run one job on it at a time (it answers each with one message). */
function startClients(data: ClientsData): { job: RunJob; stop: () => Promise<number> } {
  const worker = new Worker(new URL('./spot-tcp-clients.ts', import.meta.url), { workerData: data });
  const job: RunJob = (kind, concurrency, budgetMs = BUDGET_MS) => {
    const answer = new Promise<JobResult>((resolve, reject) => {
      worker.once('message', (m: { result?: JobResult; error?: string }) =>
        m.result ? resolve(m.result) : reject(new Error(m.error)),
      );
      worker.once('error', reject);
    }).finally(() => worker.removeAllListeners('error'));
    worker.postMessage({ kind, concurrency, budgetMs } satisfies Job);
    return answer;
  };
  return { job, stop: () => worker.terminate() };
}

/** The http floor, baseline, baseline + rtoken, place, cancel and mixed at one concurrency: one line each. */
async function level(
  job: RunJob,
  concurrency: number,
  book: () => Readonly<{ batches: number; commands: number; ms: number }>,
): Promise<BenchResult[]> {
  const clients = clientsOf(concurrency);
  // Per phase: the book's batches (commands and milliseconds per batch, one transaction each) and the
  // statements the server sent PostgreSQL per answered request (every pool and held connection), and
  // the CPU each answered request took here and in PostgreSQL.
  const phase = async (kind: Parameters<RunJob>[0]) => {
    const before = book();
    const sent = statementsSent();
    const cpu0 = cpuNow();
    statementKinds.clear();
    const loopDelay = monitorEventLoopDelay({ resolution: LOOP_PERIOD_MS });
    loopDelay.enable();
    const result = await job(kind, concurrency);
    loopDelay.disable();
    // How late a 1 ms timer fired on the server's thread (beyond its period): what every awaited
    // round trip's continuation may wait for behind other requests' work.
    const late = (q: number) => Math.max(0, loopDelay.percentile(q) / 1e6 - LOOP_PERIOD_MS).toFixed(2);
    const loop = `${late(50)}/${late(99)}`;
    const cpu1 = cpuNow();
    if (kind === PROFILED_PHASE) printStatementKinds(kind, result.answered);
    // CPU per answered request: this process (server and clients), PostgreSQL (every backend).
    const perReq = (ms: number) => (result.answered > 0 ? ((ms * 1000) / result.answered).toFixed(0) : '-');
    const cpu = `${perReq(cpu1.node - cpu0.node)}/${cpu1.pg !== null && cpu0.pg !== null ? perReq(cpu1.pg - cpu0.pg) : '-'}`;
    const after = book();
    const n = after.batches - before.batches;
    const batch =
      n > 0
        ? `${((after.commands - before.commands) / n).toFixed(1)}/${((after.ms - before.ms) / n).toFixed(1)}`
        : '-';
    const stmts = result.answered > 0 ? ((statementsSent() - sent) / result.answered).toFixed(2) : '-';
    // Columns every phase reports, after its own.
    return { result, batch, measured: { stmts_per_req: stmts, cpu_us_node_pg: cpu, loop_ms: loop } };
  };
  const floor = await phase('floor');
  const baseline = await phase('baseline');
  const withRtoken = await phase('baselineRtoken');
  const place = await phase('place');
  const placeBot = await phase('placeBot');
  const placeBooks = await phase('placeBooks');
  const placeApart = await phase('placeBooksApart');
  const prefill = await job('prefill', concurrency);
  const cancel = await phase('cancel');
  const mixed = await phase('mixed');
  const rate = (r: JobResult) => r.ok / r.seconds;
  return [
    {
      name: `${NAMES.floor}, ${clients}`,
      figures: { ...figuresOf(floor.result), ...floor.measured },
    },
    {
      name: `${NAMES.baseline}, ${clients}`,
      figures: { ...figuresOf(baseline.result), ...baseline.measured },
    },
    {
      name: `${NAMES.baselineRtoken}, ${clients}`,
      figures: { ...figuresOf(withRtoken.result), ...withRtoken.measured },
    },
    {
      name: `${NAMES.place}, ${clients}`,
      figures: {
        ...figuresOf(place.result),
        vs_baseline: (rate(place.result) / rate(baseline.result)).toFixed(2),
        vs_floor: (rate(place.result) / rate(floor.result)).toFixed(2),
        batch_cmds_ms: place.batch,
        ...place.measured,
      },
    },
    {
      name: `${NAMES.placeBot}, ${clients}`,
      figures: {
        ...figuresOf(placeBot.result),
        vs_baseline: (rate(placeBot.result) / rate(baseline.result)).toFixed(2),
        vs_place: (rate(placeBot.result) / rate(place.result)).toFixed(2),
        batch_cmds_ms: placeBot.batch,
        ...placeBot.measured,
      },
    },
    {
      name: `${NAMES.placeBooks}, ${clients}`,
      figures: {
        ...figuresOf(placeBooks.result),
        vs_one_book: (rate(placeBooks.result) / rate(place.result)).toFixed(2),
        batch_cmds_ms: placeBooks.batch,
        ...placeBooks.measured,
      },
    },
    {
      name: `${NAMES.placeBooksApart}, ${clients}`,
      figures: {
        ...figuresOf(placeApart.result),
        vs_one_book: (rate(placeApart.result) / rate(place.result)).toFixed(2),
        batch_cmds_ms: placeApart.batch,
        ...placeApart.measured,
      },
    },
    {
      name: `${NAMES.cancel}, ${clients}`,
      figures: {
        ...figuresOf(cancel.result),
        resting_placed: prefill.ok,
        batch_cmds_ms: cancel.batch,
        ...cancel.measured,
      },
    },
    {
      name: `${NAMES.mixed}, ${clients}`,
      figures: {
        ...figuresOf(mixed.result),
        orders_per_s: Math.round((mixed.result.mix.place + mixed.result.mix.cancel) / mixed.result.seconds),
        batch_cmds_ms: mixed.batch,
        ...mixed.measured,
      },
    },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const minutes = soakMinutes();
  const database = await openBenchDatabase('spottcp', { portBase: 42000, poolMax: 20 });
  let clients: { job: RunJob; stop: () => Promise<number> } | null = null;
  let opened: { app: BenchApp; ledger: Ledger } | null = null;
  try {
    await sql`create table if not exists bench_baseline (id bigserial primary key,
      customer_id text not null, note text not null, created_at timestamptz not null)`.execute(database.db);
    opened = await openBenchApp(database, systemClock, { beforeReady: baselineRoutes(database.db) });
    const { app, ledger } = opened;
    await app.market.step();
    const mid = Number.parseInt(app.market.priceForTrading('BTC/USDT').mark, 10);
    // About 100 USDT an order on each book, as 0.001 BTC is on BTC/USDT.
    const books: BenchBook[] = (
      [
        ['BTC/USDT', '0.001'],
        ['ETH/USDT', '0.03'],
        ['SOL/USDT', '0.5'],
        ['BNB/USDT', '0.15'],
      ] as const
    ).map(([symbol, quantity]) => ({
      symbol,
      quantity,
      mid: Number.parseFloat(app.market.priceForTrading(symbol).mark),
    }));
    const tokens = await customers(app, database, ledger);
    const bots = await botCustomers(app, database, ledger);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as AddressInfo).port;
    clients = startClients({ role: 'spot-tcp-clients', port, tokens, mid, books, bots });

    const results: BenchResult[] = [
      // A server without autovacuum (this workplace's CI PostgreSQL: conf.d/90-ci.conf) piles up dead
      // order and idempotency rows: a long run then slows down minute by minute (session 22).
      { name: 'postgres', figures: await serverSettings(database.db) },
      { name: 'memory at the start (after setup, GC)', figures: memory() },
    ];
    // The batches of every bench book (the one-book phases use BTC/USDT alone).
    const book = () => {
      const sum = { batches: 0, commands: 0, ms: 0 };
      for (const b of books) {
        for (const side of b.symbol === 'BTC/USDT' ? (['demo', 'real'] as const) : (['demo'] as const)) {
          const stats = app.spot.runner(b.symbol, side).stats;
          sum.batches += stats.batches;
          sum.commands += stats.commands;
          sum.ms += stats.ms;
        }
      }
      return sum;
    };
    for (const concurrency of LEVELS) results.push(...(await level(clients.job, concurrency, book)));
    for (let minute = 1; minute <= Math.ceil(minutes); minute++) {
      const budget = Math.min(60_000, minutes * 60_000 - (minute - 1) * 60_000);
      statementsSent();
      statementKinds.clear();
      const soak = await clients.job('mixed', SOAK_CLIENTS, budget);
      if (PROFILED_PHASE === 'soak') printStatementKinds(`soak minute ${minute}`, soak.answered);
      results.push({
        name: `mixed bot ${SOAK_CLIENTS} clients, minute ${minute}`,
        figures: { ok_per_s: Math.round(soak.ok / soak.seconds), p99_ms: soak.p99.toFixed(1), ...memory() },
      });
    }
    results.push({ name: 'memory at the end (GC)', figures: memory() });

    const problems = await app.spot.checkFrozen();
    const verified = await ledger.verify();
    if (problems.length > 0 || !verified.ok)
      throw new Error(`invariants broken after the bench: ${JSON.stringify(problems)}`);
    return results;
  } finally {
    await clients?.stop();
    await opened?.app.close();
    await database.close();
  }
}
