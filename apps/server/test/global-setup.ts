import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { createDb } from '../src/db/database.ts';
import { EmbeddedPostgres } from '../src/db/embedded.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { ensureDatabase } from '../src/db/start.ts';

/**
 * One PostgreSQL server for the run — DATABASE_URL's when set, else an embedded one — and one
 * migrated template database; each test file clones the template into a database of its own.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

export default async function setup(project: TestProject) {
  const log = pino({ level: 'warn' });
  let embedded: EmbeddedPostgres | null = null;
  let adminUrl = process.env.DATABASE_URL ?? '';
  if (!adminUrl) {
    const dir = path.join(repoRoot, '.tmp', `test-pg-${process.pid}`);
    fs.rmSync(dir, { recursive: true, force: true });
    const port = 20000 + (process.pid % 20000);
    embedded = new EmbeddedPostgres({ dir, port, log, supervise: false });
    await embedded.start();
    adminUrl = embedded.connectionString;
  }
  const template = `bourse_tpl_${process.pid}`;
  const templateUrl = await ensureDatabase(adminUrl, template);
  const handle = createDb(templateUrl, { max: 2 });
  await migrateToLatest(handle.db);
  await handle.db.destroy();
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', template);

  return async () => {
    if (embedded) {
      await embedded.stop();
      fs.rmSync(path.join(repoRoot, '.tmp', `test-pg-${process.pid}`), { recursive: true, force: true });
      return;
    }
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`drop database if exists "${template}" with (force)`);
    await client.end();
  };
}
