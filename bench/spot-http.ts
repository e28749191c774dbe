import type { BenchResult } from './run.ts';
import { benchDemoCustomer, openBenchApp, openBenchDatabase, percentile } from './support.ts';

/**
 * Spot orders per second through the HTTP API, end to end: the whole Fastify app (hooks, rtoken
 * idempotency record, validation, freeze, journal, engine, settlement, envelope) driven with
 * `app.inject` (no TCP socket — the socket layer is measured by nothing here) by concurrent
 * clients on a real PostgreSQL (DATABASE_URL's server, else an embedded one started here).
 * Workload: limit orders around the reference price from 40 demo customers, alternating sides so
 * that about half cross and trade; a fixed time budget per concurrency level.
 */
const CUSTOMERS = 40;
const BUDGET_MS = Number(process.env.BENCH_SPOT_MS ?? 6_000);
const LEVELS = [1, 16, 64];

export async function run(): Promise<BenchResult[]> {
  const database = await openBenchDatabase('spot', { portBase: 41000, poolMax: 20 });
  const { app, ledger } = await openBenchApp(database);
  await app.market.step();
  const tokens: string[] = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    const customer = await benchDemoCustomer(app, database.db, `bench${i}xx`);
    await ledger.credit(database.db, {
      book: 'demo',
      customerId: customer.id,
      accountType: 'spot',
      currency: 'BTC',
      amountUnits: 100n * 10n ** 8n,
      from: 'demo_faucet',
      reference: { type: 'bench', id: customer.id },
      idempotencyKey: `bench-spot-btc-${customer.id}`,
    });
    tokens.push(customer.token);
  }
  const results: BenchResult[] = [];
  let n = 0;
  for (const concurrency of LEVELS) {
    const latencies: number[] = [];
    let refused = 0;
    let trades = 0;
    const deadline = performance.now() + BUDGET_MS;
    const started = performance.now();
    const client = async (c: number) => {
      while (performance.now() < deadline) {
        n += 1;
        const side = n % 2 === 0 ? 'buy' : 'sell';
        const price = 95_000 + ((n * 7) % 21) - 10;
        const t0 = performance.now();
        const response = await app.inject({
          method: 'POST',
          url: '/api/web/createOrder',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            token: tokens[(c + n) % tokens.length] as string,
          },
          payload: new URLSearchParams({
            rtoken: `b${n.toString(36)}xxxxx`,
            symbol: 'BTC/USDT',
            side,
            price: String(price),
            quantity: '0.001',
          }).toString(),
        });
        latencies.push(performance.now() - t0);
        const body = response.json();
        if (body.code !== 1) refused += 1;
        else if (body.data.filled_quantity !== '0') trades += 1;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, (_, c) => client(c)));
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    results.push({
      name: `createOrder via inject, ${concurrency} client${concurrency > 1 ? 's' : ''}`,
      figures: {
        orders_per_s: Math.round(latencies.length / seconds),
        p50_ms: percentile(latencies, 0.5).toFixed(1),
        p99_ms: percentile(latencies, 0.99).toFixed(1),
        orders: latencies.length,
        crossed: trades,
        refused,
      },
    });
  }
  const problems = await app.spot.checkFrozen();
  const verified = await ledger.verify();
  await app.close();
  await database.close();
  if (problems.length > 0 || !verified.ok)
    throw new Error(`invariants broken after the bench: ${JSON.stringify(problems)}`);
  return results;
}
