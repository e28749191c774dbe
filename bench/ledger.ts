import pino from 'pino';
import type { Db } from '../apps/server/src/db/database.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { newId } from '../apps/server/src/lib/ids.ts';
import { createLedger, type EntryInput, type Ledger } from '../apps/server/src/modules/ledger/index.ts';
import type { BenchResult } from './run.ts';
import { openBenchDatabase } from './support.ts';

/**
 * Ledger throughput on a real PostgreSQL (DATABASE_URL's server, else an embedded one started here
 * with fsync on): transfers between funded customers — two postings, two locked accounts each —
 * posted one entry per transaction, then 100 and 1,000 per transaction (group commit). Each mode
 * runs for a fixed time budget, so the whole benchmark stays under a minute.
 */
const CUSTOMERS = 2_000;
const BUDGET_MS = { single: 6_000, concurrent: 5_000, batch100: 6_000, batch1000: 8_000 };
const CONCURRENCY = 16;

function workload(customers: readonly string[]) {
  let n = 0;
  return (): EntryInput => {
    n += 1;
    // A deterministic spread of pairs; amounts small enough that no transfer is refused.
    const from = customers[(n * 7919) % customers.length]!;
    const to = customers[(n * 104_729 + 1) % customers.length]!;
    const a = from === to ? customers[(n + 1) % customers.length]! : to;
    return {
      reason: 'bench.transfer',
      reference: { type: 'bench', id: String(n) },
      idempotencyKey: `bench:${process.pid}:${n}`,
      postings: [
        {
          account: { book: 'real', customerId: from, accountType: 'spot' },
          currency: 'USDT',
          amountUnits: -1n,
        },
        { account: { book: 'real', customerId: a, accountType: 'spot' }, currency: 'USDT', amountUnits: 1n },
      ],
    };
  };
}

async function timed(
  budgetMs: number,
  step: () => Promise<number>,
): Promise<{ entries: number; seconds: number; medianPerS: number }> {
  const started = performance.now();
  let entries = 0;
  // Entries per second of each step (one transaction, or one round of concurrent ones): the median
  // is steadier than the mean on a shared machine.
  const rates: number[] = [];
  while (performance.now() - started < budgetMs) {
    const t = performance.now();
    const n = await step();
    rates.push(n / ((performance.now() - t) / 1000));
    entries += n;
  }
  rates.sort((a, b) => a - b);
  const medianPerS = rates.length === 0 ? 0 : rates[Math.floor(rates.length / 2)]!;
  return { entries, seconds: (performance.now() - started) / 1000, medianPerS };
}

async function fund(ledger: Ledger, db: Db, customers: readonly string[]): Promise<void> {
  for (let i = 0; i < customers.length; i += 1000) {
    const outcomes = await ledger.postBatch(
      db,
      customers.slice(i, i + 1000).map((c) => ({
        reason: 'bench.fund',
        reference: { type: 'bench', id: c },
        idempotencyKey: `bench-fund:${c}`,
        postings: [
          {
            account: { book: 'real', customerId: c, accountType: 'spot' },
            currency: 'USDT',
            amountUnits: 10n ** 12n,
          },
          {
            account: { book: 'real', platform: 'deposits_clearing' },
            currency: 'USDT',
            amountUnits: -(10n ** 12n),
          },
        ],
      })),
    );
    if (outcomes.some((o) => !o.ok)) throw new Error('funding the benchmark customers failed');
  }
}

export async function run(): Promise<BenchResult[]> {
  const database = await openBenchDatabase('ledger', { portBase: 40000, poolMax: CONCURRENCY + 4 });
  try {
    const { db } = database;
    const ledger = createLedger({ db, clock: systemClock, log: pino({ level: 'silent' }) });
    const customers = Array.from({ length: CUSTOMERS }, () => newId('usr'));
    await fund(ledger, db, customers);
    const next = workload(customers);
    const post = async (size: number) => {
      if (size === 1) {
        await ledger.post(db, next());
        return 1;
      }
      const outcomes = await ledger.postBatch(
        db,
        Array.from({ length: size }, () => next()),
      );
      if (outcomes.some((o) => !o.ok)) throw new Error('a benchmark entry was refused');
      return size;
    };
    const single = await timed(BUDGET_MS.single, () => post(1));
    const concurrent = await timed(
      BUDGET_MS.concurrent,
      async () => (await Promise.all(Array.from({ length: CONCURRENCY }, () => post(1)))).length,
    );
    const batch100 = await timed(BUDGET_MS.batch100, () => post(100));
    const batch1000 = await timed(BUDGET_MS.batch1000, () => post(1000));
    const report = await ledger.verify();
    if (!report.ok) throw new Error('the ledger does not verify after the benchmark');

    const rate = (r: { entries: number; seconds: number }) => r.entries / r.seconds;
    const line = (
      name: string,
      r: { entries: number; seconds: number; medianPerS: number },
      extra: Record<string, string> = {},
    ) => ({
      name,
      figures: {
        entries_per_s: Math.round(rate(r)),
        median_per_s: Math.round(r.medianPerS),
        entries: r.entries,
        seconds: r.seconds.toFixed(1),
        vs_one_per_tx: `${(rate(r) / rate(single)).toFixed(1)}x`,
        ...extra,
      },
    });
    return [
      line('ledger: 1 entry per transaction', single),
      line(`ledger: 1 per tx, ${CONCURRENCY} concurrent clients`, concurrent),
      line('ledger: 100 entries per transaction', batch100),
      line('ledger: 1,000 entries per transaction', batch1000),
      {
        name: 'ledger: verify() after the run',
        figures: { ms: report.durationMs, entries: report.entries, postings: report.postings },
      },
    ];
  } finally {
    await database.close();
  }
}
