import { sql } from 'kysely';
import { createTestDatabase, testNow } from '../../../test/harness.ts';
import { testLogger } from '../../../test/logwatch.ts';
import { createDb, type Db } from '../../db/database.ts';
import { type ManualClock, manualClock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { createLedger, type Ledger } from './service.ts';

/** Test support (imported by *.test.ts only): a ledger on a database of the test file's own. */
export type LedgerFixture = {
  db: Db;
  url: string;
  ledger: Ledger;
  clock: ManualClock;
  close(): Promise<void>;
};

export async function openLedgerFixture(options: { poolMax?: number } = {}): Promise<LedgerFixture> {
  const database = await createTestDatabase();
  const handle = createDb(database.url, { max: options.poolMax ?? 10 });
  const clock = manualClock(testNow());
  const ledger = createLedger({ db: handle.db, clock, log: testLogger() });
  return {
    db: handle.db,
    url: database.url,
    ledger,
    clock,
    async close() {
      await handle.db.destroy();
      await database.drop();
    },
  };
}

export function customerId(): string {
  return newId('usr');
}

let keys = 0;
export function key(label = 'k'): string {
  keys += 1;
  return `${label}:${process.pid}:${keys}:${Math.random().toString(36).slice(2, 8)}`;
}

export const ref = (id = 'test') => ({ type: 'test', id });

/** Minor units of `amount` whole USDT (scale 8). */
export const usdt = (amount: bigint | number) => BigInt(amount) * 10n ** 8n;

/** Row counts of the ledger's tables and a digest of every balance: "nothing written" compares two. */
export async function ledgerSnapshot(db: Db): Promise<Record<string, string>> {
  const { rows } = await sql<Record<string, string>>`
    select (select count(*) from ledger_owner)::text as owners,
           (select count(*) from ledger_account)::text as accounts,
           (select count(*) from ledger_entry)::text as entries,
           (select count(*) from ledger_posting)::text as postings,
           (select coalesce(md5(string_agg(id || ':' || available || ':' || frozen || ':' || version, ',' order by id)), '')
              from ledger_account) as balances`.execute(db);
  return rows[0] ?? {};
}
