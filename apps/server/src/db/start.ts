import pino, { type Logger } from 'pino';
import type { Config } from '../config.ts';
import { createDb, type Db } from './database.ts';
import { EmbeddedPostgres, runningEmbeddedUrl } from './embedded.ts';
import { migrateToLatest } from './migrate.ts';

const EMBEDDED_DATABASE = 'bourse';

export type StartedDatabase = { db: Db; close(): Promise<void> };

/** DATABASE_URL when given; otherwise our own PostgreSQL under DATA_DIR/pg. Migrates either to latest. */
export async function startDatabase(input: { config: Config; log: Logger }): Promise<StartedDatabase> {
  const { config, log } = input;
  let embedded: EmbeddedPostgres | null = null;
  let url = config.databaseUrl;
  if (!url) {
    embedded = new EmbeddedPostgres({
      dir: config.dataDir,
      port: config.embeddedPgPort,
      log,
      supervise: true,
    });
    await embedded.start();
    url = await ensureDatabase(embedded.connectionString, EMBEDDED_DATABASE);
  }
  const handle = createDb(url);
  const applied = await migrateToLatest(handle.db);
  if (applied.length > 0) log.info({ migrations: applied }, 'database migrated');
  return {
    db: handle.db,
    async close() {
      await handle.db.destroy();
      await embedded?.stop();
    },
  };
}

/** Creates `name` on the server behind `adminUrl` if missing; returns its URL. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * For command-line tools: DATABASE_URL when set; else the embedded PostgreSQL of a running
 * server (connected to, never stopped); else the embedded one started for the tool.
 */
export async function openDatabaseForTool(config: Config): Promise<StartedDatabase> {
  const running = config.databaseUrl ? null : runningEmbeddedUrl(config.dataDir, EMBEDDED_DATABASE);
  if (running) {
    const handle = createDb(running, { max: 2 });
    return { db: handle.db, close: () => handle.db.destroy() };
  }
  return startDatabase({ config, log: pino({ level: 'warn' }) });
}
