import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const accountsMigrations: Record<string, Migration> = {
  '20261121_0002_accounts_init': {
    async up(db: Kysely<unknown>) {
      await sql`create sequence accounts_uid_seq start with 10000001`.execute(db);
      await db.schema
        .createTable('accounts_customer')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('uid', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text')
        .addColumn('email', 'text')
        .addColumn('phone', 'text')
        .addColumn('area_code', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('country', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('password_hash', 'text')
        .addColumn('invitation_code', 'text', (c) => c.notNull().unique())
        .addColumn('invited_by', 'text', (c) => c.references('accounts_customer.id'))
        .addColumn('is_demo', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('demo_expires_at', 'timestamptz')
        .addColumn('wallet_address', 'text')
        .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
        .addColumn('status', 'text', (c) =>
          c.notNull().defaultTo('active').check(sql`status in ('active', 'disabled')`),
        )
        .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0).check(sql`failed_logins >= 0`))
        .addColumn('locked_until', 'timestamptz')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
        .addCheckConstraint('accounts_customer_demo_expiry', sql`is_demo = (demo_expires_at is not null)`)
        .addCheckConstraint('accounts_customer_email_lower', sql`email = lower(email)`)
        .addCheckConstraint('accounts_customer_wallet_lower', sql`wallet_address = lower(wallet_address)`)
        .execute();
      // Case-insensitive uniqueness: two races for one email make exactly one account.
      await sql`create unique index accounts_customer_email_key on accounts_customer (email) where email is not null`.execute(
        db,
      );
      await sql`create unique index accounts_customer_phone_key on accounts_customer (phone) where phone is not null`.execute(
        db,
      );
      await sql`create unique index accounts_customer_name_key on accounts_customer (lower(name)) where name is not null`.execute(
        db,
      );
      await sql`create unique index accounts_customer_wallet_key on accounts_customer (wallet_address) where wallet_address is not null`.execute(
        db,
      );

      await db.schema
        .createTable('accounts_session')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_id', 'text', (c) => c.notNull().references('accounts_customer.id'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('revoked_at', 'timestamptz')
        .addColumn('revoked_reason', 'text', (c) =>
          c.check(sql`revoked_reason in ('logout', 'password_changed')`),
        )
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .createIndex('accounts_session_customer')
        .on('accounts_session')
        .column('customer_id')
        .execute();

      await db.schema
        .createTable('accounts_code')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('scene', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('consumed_at', 'timestamptz')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('accounts_code_target')
        .on('accounts_code')
        .columns(['target', 'scene', 'created_at'])
        .execute();

      await db.schema
        .createTable('accounts_wallet_nonce')
        .addColumn('nonce', 'text', (c) => c.primaryKey())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
        .addColumn('consumed_at', 'timestamptz')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
    },
  },
  // Login failures of identifiers no customer has, counted like a customer's own counter, so an unknown
  // identifier counts down and locks exactly as a known one does (no account enumeration).
  '20261125_0001_accounts_login_guard': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('accounts_login_guard')
        .addColumn('key_hash', 'text', (c) => c.primaryKey())
        .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0).check(sql`failed_logins >= 0`))
        .addColumn('locked_until', 'timestamptz')
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
        .execute();
    },
  },
  // The profile and security centre (issue 15): name change limit, hashed security answers, the
  // anti-phishing phrase; the customer's security events; staff answer checks (rate limit).
  '20261126_0001_accounts_security': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('accounts_security')
        .addColumn('customer_id', 'text', (c) => c.primaryKey().references('accounts_customer.id'))
        .addColumn('name_changed_at', 'timestamptz')
        .addColumn('answer1_hash', 'text')
        .addColumn('answer2_hash', 'text')
        .addColumn('answer3_hash', 'text')
        .addColumn('questions_set_at', 'timestamptz')
        .addColumn('phrase', 'text')
        .addColumn('phrase_set_at', 'timestamptz')
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
        .addCheckConstraint(
          'accounts_security_answers_together',
          sql`(answer1_hash is null) = (questions_set_at is null) and (answer2_hash is null) = (questions_set_at is null) and (answer3_hash is null) = (questions_set_at is null)`,
        )
        .execute();
      await db.schema
        .createTable('accounts_security_event')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_id', 'text', (c) => c.notNull().references('accounts_customer.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('accounts_security_event_customer')
        .on('accounts_security_event')
        .columns(['customer_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('accounts_answer_check')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_id', 'text', (c) => c.notNull().references('accounts_customer.id'))
        .addColumn('staff_id', 'text', (c) => c.notNull())
        .addColumn('question', 'integer', (c) => c.notNull().check(sql`question between 1 and 3`))
        .addColumn('matched', 'boolean', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('accounts_answer_check_customer')
        .on('accounts_answer_check')
        .columns(['customer_id', 'created_at'])
        .execute();
    },
  },
};
