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
  /**
   * Exactly once (issue 12): the record is written as `applied` inside the effect's own transaction;
   * `claim_id` fences it to one claimant, `request_hash` refuses an rtoken reused for another request.
   * Pending rows are gone: a live claim is a PostgreSQL advisory lock, which dies with its process.
   */
  '20261125_0001_http_idempotency_applied': {
    async up(db: Kysely<unknown>) {
      await sql`delete from http_idempotency where state = 'pending'`.execute(db);
      await db.schema
        .alterTable('http_idempotency')
        .addColumn('claim_id', 'text')
        .addColumn('request_hash', 'text')
        .execute();
      await sql`alter table http_idempotency drop constraint if exists http_idempotency_state_check`.execute(
        db,
      );
      await sql`alter table http_idempotency add constraint http_idempotency_state_check
        check (state in ('applied', 'done'))`.execute(db);
    },
  },
};
