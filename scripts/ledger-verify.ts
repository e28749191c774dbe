/**
 * `npm run ledger:verify`: proves, for every book and currency, that journal entries balance and
 * every balance equals the sum of its postings. Prints the report; exits 1 on a mismatch, 2 when
 * the check could not run.
 *
 * Database: DATABASE_URL when set. Otherwise the embedded one under DATA_DIR: when the server is
 * running we connect to its PostgreSQL (never stop it); when it is not, we start it ourselves.
 */
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { type Config, loadConfig } from '../apps/server/src/config.ts';
import { createDb, type Db } from '../apps/server/src/db/database.ts';
import { startDatabase } from '../apps/server/src/db/start.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { formatReport, reportSummary, verifyLedger } from '../apps/server/src/modules/ledger/index.ts';

/** The embedded server's user and database, as apps/server/src/db (embedded.ts, start.ts) create them. */
const EMBEDDED_USER = 'bourse';
const EMBEDDED_DATABASE = 'bourse';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The URL of an embedded PostgreSQL that a running server already owns, or null. */
function runningEmbeddedUrl(config: Config): string | null {
  const pidFile = path.join(config.dataDir, 'pg', 'postmaster.pid');
  const secretFile = path.join(config.dataDir, 'pg-password');
  if (!fs.existsSync(pidFile) || !fs.existsSync(secretFile)) return null;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !Number.isInteger(port)) return null;
  const password = fs.readFileSync(secretFile, 'utf8').trim();
  return `postgres://${EMBEDDED_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`;
}

async function open(config: Config): Promise<{ db: Db; close(): Promise<void> }> {
  const log = pino({ level: 'warn' });
  const running = config.databaseUrl ? null : runningEmbeddedUrl(config);
  if (running) {
    const handle = createDb(running, { max: 2 });
    return { db: handle.db, close: () => handle.db.destroy() };
  }
  return startDatabase({ config, log });
}

async function main(): Promise<number> {
  const json = process.argv.includes('--json');
  const database = await open(loadConfig());
  try {
    const report = await verifyLedger(database.db, systemClock);
    process.stdout.write(`${json ? JSON.stringify(reportSummary(report), null, 2) : formatReport(report)}\n`);
    return report.ok ? 0 : 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `ledger:verify could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(2);
  },
);
