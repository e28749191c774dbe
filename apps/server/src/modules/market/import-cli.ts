/**
 * `npm run market:import -- file.csv`: imports a catalogue CSV (columns in README.md) into the
 * database — new symbols added, known ones updated, all in one transaction; a bad row is named
 * (line and field) and nothing is written. A running server picks the change up within
 * MARKET_JOBS.catalogueCheckMs.
 *
 * Database: DATABASE_URL when set. Otherwise the embedded one under DATA_DIR: when the server
 * is running we connect to its PostgreSQL (never stop it); when it is not, we start it.
 * Exit codes: 0 imported, 1 refused (the reason is printed), 2 could not run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { translate } from '@bourse/i18n';
import pino from 'pino';
import { type Config, loadConfig } from '../../config.ts';
import { createDb, type Db } from '../../db/database.ts';
import { startDatabase } from '../../db/start.ts';
import { Refusal } from '../../http/refusal.ts';
import { systemClock } from '../../lib/clock.ts';
import { importCatalogue } from './catalogue.ts';

/** The embedded server's user and database, as db/embedded.ts and db/start.ts create them. */
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

function runningEmbeddedUrl(config: Config): string | null {
  const pidFile = path.join(config.dataDir, 'pg', 'postmaster.pid');
  const secretFile = path.join(config.dataDir, 'pg-password');
  if (!fs.existsSync(pidFile) || !fs.existsSync(secretFile)) return null;
  const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!(pid > 0) || !isAlive(pid) || !(port > 0)) return null;
  const password = fs.readFileSync(secretFile, 'utf8').trim();
  return `postgres://${EMBEDDED_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`;
}

async function open(config: Config): Promise<{ db: Db; close(): Promise<void> }> {
  const running = config.databaseUrl ? null : runningEmbeddedUrl(config);
  if (running) {
    const handle = createDb(running, { max: 2 });
    return { db: handle.db, close: () => handle.db.destroy() };
  }
  return startDatabase({ config, log: pino({ level: 'warn' }) });
}

async function main(): Promise<number> {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: npm run market:import -- <catalogue.csv>\n');
    return 2;
  }
  const text = fs.readFileSync(path.resolve(file), 'utf8');
  const database = await open(loadConfig());
  try {
    const summary = await importCatalogue({ db: database.db, clock: systemClock }, text);
    process.stdout.write(
      `imported ${summary.rows} rows: ${summary.inserted} added, ${summary.updated} updated, ${summary.unchanged} unchanged\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    process.stderr.write(
      `refused: ${error.reason} ${JSON.stringify(error.params)} — ${translate('en', `reason.${error.reason}`, error.params)}\n`,
    );
    return 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `market:import failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(2);
  },
);
