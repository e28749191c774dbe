import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { HttpTables } from '../http/tables.ts';
import type { AccountsTables } from '../modules/accounts/tables.ts';
import type { AssetsTables } from '../modules/assets/tables.ts';
import type { ContentTables } from '../modules/content/tables.ts';
import type { ContractsTables } from '../modules/contracts/tables.ts';
import type { DepositsTables } from '../modules/deposits/tables.ts';
import type { JurisdictionTables } from '../modules/jurisdiction/tables.ts';
import type { LedgerTables } from '../modules/ledger/tables.ts';
import type { MarketTables } from '../modules/market/tables.ts';
import type { NotifyTables } from '../modules/notify/tables.ts';
import type { OptionsTables } from '../modules/options/tables.ts';
import type { ProofTables } from '../modules/proof/tables.ts';
import type { SpotTables } from '../modules/spot/tables.ts';
import type { StaffTables } from '../modules/staff/tables.ts';
import type { WithdrawalsTables } from '../modules/withdrawals/tables.ts';

/** Every module's tables; each module owns (and alone queries) the tables it declares. */
export type Database = AccountsTables &
  AssetsTables &
  DepositsTables &
  NotifyTables &
  ProofTables &
  HttpTables &
  LedgerTables &
  MarketTables &
  StaffTables &
  SpotTables &
  ContractsTables &
  JurisdictionTables &
  OptionsTables &
  WithdrawalsTables &
  ContentTables;
export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;

// NUMERIC and BIGINT arrive as strings, never as JS numbers: money is never a float.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => value);
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);

export type DbHandle = { db: Db; pool: pg.Pool };

export function createDb(connectionString: string, options: { max?: number } = {}): DbHandle {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 20, idleTimeoutMillis: 30_000 });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), pool };
}

/**
 * Runs `work` in one transaction. Serialization failures and deadlocks are retried, because
 * those are the database telling us two requests raced, not that either was wrong.
 */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt < attempts && (code === '40001' || code === '40P01')) continue;
      throw error;
    }
  }
}

/** PostgreSQL unique_violation, optionally on a named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string };
  return e.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
