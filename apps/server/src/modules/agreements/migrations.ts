import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const agreementsMigrations: Record<string, Migration> = {
  '20261127_0100_agreements_init': {
    async up(db: Kysely<unknown>) {
      let table = db.schema
        .createTable('agreements_version')
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('user', 'privacy', 'risk')`))
        .addColumn('version', 'integer', (c) => c.notNull().check(sql`version > 0`));
      for (const field of ['title', 'summary', 'body']) {
        for (const lang of ['en', 'zh', 'ft']) {
          table = table.addColumn(`${field}_${lang}`, 'text', (c) => c.notNull().defaultTo(''));
        }
      }
      await table
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('draft', 'published')`))
        .addColumn('effective_at', 'timestamptz')
        .addColumn('published_at', 'timestamptz')
        .addColumn('published_by', 'text')
        .addColumn('demo', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
        .addPrimaryKeyConstraint('agreements_version_pk', ['kind', 'version'])
        .addCheckConstraint(
          'agreements_version_published_dated',
          sql`status = 'draft' or (effective_at is not null and published_at is not null)`,
        )
        .execute();
      // One draft per kind: the next version is written in one place.
      await sql`create unique index agreements_version_one_draft on agreements_version (kind) where status = 'draft'`.execute(
        db,
      );
      await db.schema
        .createTable('agreements_acceptance')
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('accepted_at', 'timestamptz', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('web', 'register')`))
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .addPrimaryKeyConstraint('agreements_acceptance_pk', ['customer_id', 'kind', 'version'])
        .addForeignKeyConstraint(
          'agreements_acceptance_version_fk',
          ['kind', 'version'],
          'agreements_version',
          ['kind', 'version'],
        )
        .execute();
      await db.schema
        .createIndex('agreements_acceptance_by_version')
        .on('agreements_acceptance')
        .columns(['kind', 'version'])
        .execute();
    },
  },
};
