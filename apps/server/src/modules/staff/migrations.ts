import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The back office's tables. The audit log is append-only (a trigger refuses UPDATE, DELETE and
 * TRUNCATE) and hash-chained: each record's hash covers the previous record's hash.
 */
export const staffMigrations: Record<string, Migration> = {
  '20261121_0400_staff_init': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('staff_member')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('roles', sql`text[]`, (c) =>
          c
            .notNull()
            .check(
              sql`roles <@ array['administrator','finance','compliance','support','content']::text[] and cardinality(roles) > 0`,
            ),
        )
        .addColumn('totp_secret_sealed', 'text')
        .addColumn('totp_enrolled_at', 'timestamptz')
        .addColumn('totp_last_step', 'bigint')
        .addColumn('status', 'text', (c) =>
          c.notNull().defaultTo('active').check(sql`status in ('active', 'disabled')`),
        )
        .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('locked_until', 'timestamptz')
        .addColumn('created_by', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('staff_session')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('staff_id', 'text', (c) => c.notNull().references('staff_member.id'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull())
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('revoked_at', 'timestamptz')
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('user_agent', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('staff_session_staff').on('staff_session').column('staff_id').execute();

      await db.schema
        .createTable('staff_challenge')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('staff_id', 'text', (c) => c.notNull().references('staff_member.id'))
        .addColumn('ticket_hash', 'text', (c) => c.notNull().unique())
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('totp', 'enrol')`))
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('consumed_at', 'timestamptz')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('staff_audit')
        .addColumn('seq', 'bigint', (c) => c.primaryKey())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('actor_id', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('before', 'jsonb')
        .addColumn('after', 'jsonb')
        .addColumn('reason', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('prev_hash', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .execute();
      await db.schema
        .createIndex('staff_audit_target')
        .on('staff_audit')
        .columns(['target_type', 'target_id'])
        .execute();
      await sql`create function staff_audit_append_only() returns trigger language plpgsql as $$
        begin
          raise exception 'staff: % is append-only (% refused)', tg_table_name, tg_op
            using errcode = 'restrict_violation';
        end $$`.execute(db);
      await sql`create trigger staff_audit_append_only
        before update or delete or truncate on staff_audit
        for each statement execute function staff_audit_append_only()`.execute(db);

      await db.schema
        .createTable('staff_adjustment')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('account_type', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('direction', 'text', (c) => c.notNull().check(sql`direction in ('credit', 'debit')`))
        .addColumn('amount_units', sql`numeric(38,0)`, (c) => c.notNull().check(sql`amount_units > 0`))
        .addColumn('value_usdt', 'text')
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('maker_id', 'text', (c) => c.notNull().references('staff_member.id'))
        .addColumn('needs_approval', 'boolean', (c) => c.notNull())
        .addColumn('status', 'text', (c) =>
          c.notNull().check(sql`status in ('pending', 'posted', 'rejected')`),
        )
        .addColumn('checker_id', 'text', (c) => c.references('staff_member.id'))
        .addColumn('decision_reason', 'text')
        .addColumn('decided_at', 'timestamptz')
        .addColumn('entry_id', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addCheckConstraint('staff_adjustment_four_eyes', sql`checker_id is null or checker_id <> maker_id`)
        .execute();
      await db.schema
        .createIndex('staff_adjustment_status')
        .on('staff_adjustment')
        .columns(['status', 'created_at'])
        .execute();
      await db.schema
        .createIndex('staff_adjustment_customer')
        .on('staff_adjustment')
        .columns(['customer_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('staff_ledger_report')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('schedule', 'manual')`))
        .addColumn('ok', 'boolean', (c) => c.notNull())
        .addColumn('report', 'jsonb', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('staff_ledger_report_created')
        .on('staff_ledger_report')
        .column('created_at')
        .execute();
    },
  },
};
