import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import { httpMigrations } from '../http/migrations.ts';
import { accountsMigrations } from '../modules/accounts/migrations/index.ts';
import { agreementsMigrations } from '../modules/agreements/migrations.ts';
import { apikeysMigrations } from '../modules/apikeys/migrations.ts';
import { assetsMigrations } from '../modules/assets/migrations.ts';
import { c2cMigrations } from '../modules/c2c/migrations.ts';
import { contentMigrations } from '../modules/content/migrations.ts';
import { contractsMigrations } from '../modules/contracts/migrations.ts';
import { depositsMigrations } from '../modules/deposits/migrations.ts';
import { earnMigrations } from '../modules/earn/migrations.ts';
import { fundsMigrations } from '../modules/funds/migrations.ts';
import { inboxMigrations } from '../modules/inbox/migrations.ts';
import { jurisdictionMigrations } from '../modules/jurisdiction/migrations.ts';
import { launchpadMigrations } from '../modules/launchpad/migrations.ts';
import { ledgerMigrations } from '../modules/ledger/migrations.ts';
import { loansMigrations } from '../modules/loans/migrations.ts';
import { marketMigrations } from '../modules/market/migrations.ts';
import { notifyMigrations } from '../modules/notify/migrations.ts';
import { optionsMigrations } from '../modules/options/migrations.ts';
import { proofMigrations } from '../modules/proof/migrations.ts';
import { referralMigrations } from '../modules/referral/migrations.ts';
import { signinMigrations } from '../modules/signin/migrations.ts';
import { spotMigrations } from '../modules/spot/migrations.ts';
import { staffMigrations } from '../modules/staff/migrations.ts';
import { suitabilityMigrations } from '../modules/suitability/migrations.ts';
import { supportMigrations } from '../modules/support/migrations.ts';
import { uploadsMigrations } from '../modules/uploads/migrations.ts';
import { verificationMigrations } from '../modules/verification/migrations.ts';
import { withdrawalsMigrations } from '../modules/withdrawals/migrations.ts';
import type { Db } from './database.ts';

/**
 * Forward-only migrations from every module, applied in name order at start-up. Names start
 * with the date they were written so modules written in parallel interleave stably; a landed
 * migration is never edited — a change is a new migration.
 */
export const ALL_MIGRATIONS: Readonly<Record<string, Migration>> = {
  ...httpMigrations,
  ...accountsMigrations,
  ...notifyMigrations,
  ...assetsMigrations,
  ...depositsMigrations,
  ...ledgerMigrations,
  ...marketMigrations,
  ...proofMigrations,
  ...staffMigrations,
  ...spotMigrations,
  ...contractsMigrations,
  ...jurisdictionMigrations,
  ...optionsMigrations,
  ...withdrawalsMigrations,
  ...contentMigrations,
  ...uploadsMigrations,
  ...verificationMigrations,
  ...suitabilityMigrations,
  ...earnMigrations,
  ...launchpadMigrations,
  ...fundsMigrations,
  ...apikeysMigrations,
  ...loansMigrations,
  ...c2cMigrations,
  ...agreementsMigrations,
  ...inboxMigrations,
  ...supportMigrations,
  ...signinMigrations,
  ...referralMigrations,
};

const provider: MigrationProvider = { getMigrations: async () => ({ ...ALL_MIGRATIONS }) };

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider, migrationTableName: 'schema_migration' });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
