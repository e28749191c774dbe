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
import { loadConfig } from '../../config.ts';
import { openDatabaseForTool } from '../../db/start.ts';
import { Refusal } from '../../http/refusal.ts';
import { systemClock } from '../../lib/clock.ts';
import { importCatalogue } from './catalogue.ts';

async function main(): Promise<number> {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: npm run market:import -- <catalogue.csv>\n');
    return 2;
  }
  const text = fs.readFileSync(path.resolve(file), 'utf8');
  const database = await openDatabaseForTool(loadConfig());
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
