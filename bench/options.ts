import { inTransaction } from '../apps/server/src/db/database.ts';
import { manualClock } from '../apps/server/src/lib/clock.ts';
import { latestRecordedSeq, recordedTicksAfter } from '../apps/server/src/modules/market/index.ts';
import type { BenchResult } from './run.ts';
import { benchDemoCustomer, openBenchApp, openBenchDatabase } from './support.ts';

/**
 * Option settlements per second, server side: N options opened at one instant through the
 * options service (40 demo customers × 50, the per-customer open limit), then the clock moves
 * past their expiry, the sim feed ticks, and the options consumer settles them all in one engine
 * round (one transaction, as the risk engine runs it): bulk row updates `where status = 'open'`
 * and ledger group commits of up to 1,000 entries. The figure is N ÷ the round's wall time.
 */
const OPTIONS = Number(process.env.BENCH_OPTIONS_N ?? 2_000);
const PER_CUSTOMER = 50;

export async function run(): Promise<BenchResult[]> {
  const database = await openBenchDatabase('options', { portBase: 42000, poolMax: 20 });
  const clock = manualClock(new Date());
  const { app, ledger } = await openBenchApp(database, clock);
  await app.market.step();
  await app.market.flushRecorder();
  const options = app.optionsService;
  const customers = Math.ceil(OPTIONS / PER_CUSTOMER);
  const opened: string[] = [];
  const openStarted = performance.now();
  for (let i = 0; i < customers; i++) {
    const customer = await benchDemoCustomer(app, database.db, `bopt${i}xx`);
    await ledger.transfer(database.db, {
      book: 'demo',
      customerId: customer.id,
      currency: 'USDT',
      fromType: 'spot',
      toType: 'options',
      amountUnits: 10_000n * 10n ** 8n,
      reference: { type: 'bench', id: customer.id },
      idempotencyKey: `bench-options-${customer.id}`,
    });
    const ctx = { customerId: customer.id, sessionId: 'bench', isDemo: true, token: customer.token };
    const n = Math.min(PER_CUSTOMER, OPTIONS - opened.length);
    await Promise.all(
      Array.from({ length: n }, (_, k) =>
        options.buy(ctx, {
          symbol: 'BTC/USDT',
          direction: k % 2 === 0 ? 'up' : 'down',
          stake: '10',
          duration: '30',
        } as never),
      ),
    ).then((orders) => opened.push(...orders.map((o) => o.order_id)));
  }
  const openSeconds = (performance.now() - openStarted) / 1000;
  const cursor = await latestRecordedSeq(database.db);
  clock.advance(31_000);
  await app.market.step();
  await app.market.flushRecorder();
  const ticks = await recordedTicksAfter(database.db, cursor, 100_000);
  const before = options.consumer.settled();
  const t0 = performance.now();
  await inTransaction(database.db, async (tx) => {
    await options.consumer.onTicks(tx, ticks);
    await options.consumer.onTime(tx, clock.now(), ticks.at(-1)?.at ?? null);
  });
  const seconds = (performance.now() - t0) / 1000;
  const settled = options.consumer.settled() - before;
  const open = await database.db
    .selectFrom('options_order')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  const verified = await ledger.verify();
  await app.close();
  await database.close();
  if (settled !== opened.length || Number(open.n) !== 0 || !verified.ok)
    throw new Error(`settled ${settled} of ${opened.length}, ${open.n} still open, ledger ok=${verified.ok}`);
  return [
    {
      name: `option settlements, ${opened.length} due in one round`,
      figures: {
        settlements_per_s: Math.round(settled / seconds),
        round_ms: Math.round(seconds * 1000),
        settled,
        ticks: ticks.length,
        opened_per_s: Math.round(opened.length / openSeconds),
      },
    },
  ];
}
