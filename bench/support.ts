import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { createDb, type Db } from '../apps/server/src/db/database.ts';
import { EmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { migrateToLatest } from '../apps/server/src/db/migrate.ts';
import { ensureDatabase } from '../apps/server/src/db/start.ts';

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

/** The value at `fraction` (0.5 = median) of an ascending array; NaN when it is empty. */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] as number;
}
