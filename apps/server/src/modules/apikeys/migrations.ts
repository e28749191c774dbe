import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const apikeysMigrations: Record<string, Migration> = {
  '20261126_0001_apikeys_key': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('apikeys_key')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('api_key', 'text', (c) => c.notNull().unique())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('permission', 'text', (c) => c.notNull().check(sql`permission in ('read', 'trade')`))
        .addColumn('ips', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('last_used_at', 'timestamptz')
        .addColumn('revoked_at', 'timestamptz')
        .addColumn('revoked_by', 'text', (c) => c.check(sql`revoked_by in ('customer', 'staff')`))
        .addColumn('revoked_staff_id', 'text')
        .addColumn('revoke_reason', 'text')
        .execute();
      await db.schema
        .createIndex('apikeys_key_customer')
        .on('apikeys_key')
        .columns(['customer_id', 'created_at'])
        .execute();
    },
  },
};
