/**
 * `npm run ledger:verify`: proves, for every book and currency, that journal entries balance and
 * every balance equals the sum of its postings. Prints the report; exits 1 on a mismatch, 2 when
 * the check could not run.
 *
 * Database: DATABASE_URL when set. Otherwise the embedded one under DATA_DIR: when the server is
 * running we connect to its PostgreSQL (never stop it); when it is not, we start it ourselves.
 */
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabaseForTool } from '../apps/server/src/db/start.ts';
import { systemClock } from '../apps/server/src/lib/clock.ts';
import { formatReport, reportSummary, verifyLedger } from '../apps/server/src/modules/ledger/index.ts';

async function main(): Promise<number> {
  const json = process.argv.includes('--json');
  const database = await openDatabaseForTool(loadConfig());
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
