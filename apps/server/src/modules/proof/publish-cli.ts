/**
 * `npm run proof:publish`: publishes a proof-of-liabilities snapshot now (the server also publishes
 * every PROOF_INTERVAL_MS). Prints one line per currency: total, leaves, root hash. A running server
 * serves the new roots at once (it reads them from the database).
 *
 * Database: DATABASE_URL when set, else the embedded one under DATA_DIR (connected to a running
 * server's PostgreSQL, never stopped). Exit codes: 0 published, 1 a currency's tree total differed
 * from the ledger (nothing published for it; the alarm is logged), 2 could not run.
 */
import { scaleOf, toDecimalString } from '@bourse/money';
import pino from 'pino';
import { loadConfig } from '../../config.ts';
import { openDatabaseForTool } from '../../db/start.ts';
import { systemClock } from '../../lib/clock.ts';
import { registerListedCoins } from '../launchpad/index.ts';
import { createLedger } from '../ledger/index.ts';
import { createProof } from './service.ts';

async function main(): Promise<number> {
  const database = await openDatabaseForTool(loadConfig());
  try {
    const log = pino({ level: 'warn' });
    // Launchpad coins held by customers are currencies of the proof too.
    await registerListedCoins(database.db);
    const ledger = createLedger({ db: database.db, clock: systemClock, log });
    const result = await createProof({ db: database.db, clock: systemClock, log, ledger }).publish();
    for (const s of result.snapshots) {
      process.stdout.write(
        `${s.currency}\t${toDecimalString(s.totalUnits, scaleOf(s.currency))}\t${s.leafCount} leaves\t${s.rootHash}\n`,
      );
    }
    process.stdout.write(`round ${result.roundId}: ${result.snapshots.length} currencies published\n`);
    for (const m of result.mismatches) {
      process.stderr.write(`NOT published ${m.currency}: tree ${m.treeUnits} ≠ ledger ${m.ledgerUnits}\n`);
    }
    return result.mismatches.length > 0 ? 1 : 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `proof:publish failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(2);
  },
);
