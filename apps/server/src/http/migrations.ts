import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const httpMigrations: Record<string, Migration> = {
  '20261121_0001_http_idempotency': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('http_idempotency')
        .addColumn('key_hash', 'text', (c) => c.primaryKey())
        .addColumn('route', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pending', 'done')`))
        .addColumn('http_status', 'integer')
        .addColumn('response_sealed', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createIndex('http_idempotency_created_at')
        .on('http_idempotency')
        .column('created_at')
        .execute();
    },
  },
};
