import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const notifyMigrations: Record<string, Migration> = {
  '20261121_0003_notify_outbox': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('notify_outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('email', 'sms')`))
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('delivery', 'text', (c) =>
          c.notNull().check(sql`delivery in ('outbox', 'sent', 'failed')`),
        )
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema
        .createIndex('notify_outbox_recipient')
        .on('notify_outbox')
        .columns(['recipient', 'created_at'])
        .execute();
    },
  },
};
