import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const inboxMigrations: Record<string, Migration> = {
  '20261127_0001_inbox': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('inbox_message')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('link', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('read_at', 'timestamptz')
        .execute();
      await db.schema
        .createIndex('inbox_message_customer')
        .on('inbox_message')
        .columns(['customer_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('inbox_announcement')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('state', 'text', (c) =>
          c.notNull().check(sql`state in ('draft', 'published', 'unpublished')`),
        )
        .addColumn('title_en', 'text', (c) => c.notNull())
        .addColumn('title_zh', 'text', (c) => c.notNull())
        .addColumn('title_ft', 'text', (c) => c.notNull())
        .addColumn('body_en', 'text', (c) => c.notNull())
        .addColumn('body_zh', 'text', (c) => c.notNull())
        .addColumn('body_ft', 'text', (c) => c.notNull())
        .addColumn('link', 'text')
        .addColumn('publish_at', 'timestamptz')
        .addColumn('broadcast_at', 'timestamptz')
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addCheckConstraint(
          'inbox_announcement_published_at',
          sql`state <> 'published' or publish_at is not null`,
        )
        .execute();
      await db.schema
        .createTable('inbox_announcement_read')
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('announcement_id', 'text', (c) => c.notNull().references('inbox_announcement.id'))
        .addColumn('read_at', 'timestamptz', (c) => c.notNull())
        .addPrimaryKeyConstraint('inbox_announcement_read_pk', ['customer_id', 'announcement_id'])
        .execute();
      await db.schema
        .createTable('inbox_cursor')
        .addColumn('customer_id', 'text', (c) => c.primaryKey())
        .addColumn('read_before', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('inbox_pref')
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('email', 'boolean', (c) => c.notNull())
        .addPrimaryKeyConstraint('inbox_pref_pk', ['customer_id', 'kind'])
        .execute();
    },
  },
};
