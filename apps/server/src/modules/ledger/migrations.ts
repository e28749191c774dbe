import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The ledger's tables. The database itself holds the invariants the service also checks, so a bug
 * elsewhere cannot write a negative customer balance or a posting across books:
 * - `available`/`frozen` are NUMERIC(38,0) minor units; frozen >= 0 always, available >= 0 unless the
 *   row is a documented clearing/contra platform account (never a customer's);
 * - a customer is pinned to one book (ledger_owner) and each of their accounts carries that book;
 * - a posting names its entry's book and its account's book and currency (composite foreign keys
 *   at first; a statement-level trigger since 20261230_0100);
 * - entries and postings are append-only (a trigger refuses UPDATE and DELETE).
 */
export const ledgerMigrations: Record<string, Migration> = {
  '20261121_0100_ledger_init': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('ledger_owner')
        .addColumn('customer_id', 'text', (c) => c.primaryKey())
        .addColumn('book', 'text', (c) => c.notNull().check(sql`book in ('real', 'demo')`))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addUniqueConstraint('ledger_owner_customer_book', ['customer_id', 'book'])
        .execute();

      await db.schema
        .createTable('ledger_account')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('book', 'text', (c) => c.notNull().check(sql`book in ('real', 'demo')`))
        .addColumn('customer_id', 'text')
        .addColumn('platform_code', 'text', (c) => c.check(sql`platform_code ~ '^[a-z][a-z0-9_]{1,47}$'`))
        .addColumn('account_type', 'text', (c) =>
          c.notNull().check(sql`account_type ~ '^[a-z][a-z0-9_]{1,31}$'`),
        )
        .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency ~ '^[A-Z0-9]{2,12}$'`))
        .addColumn('available', sql`numeric(38, 0)`, (c) => c.notNull().defaultTo(0))
        .addColumn('frozen', sql`numeric(38, 0)`, (c) => c.notNull().defaultTo(0))
        .addColumn('allow_negative', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('version', 'int8', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
        .addCheckConstraint('ledger_account_one_owner', sql`(customer_id is null) <> (platform_code is null)`)
        .addCheckConstraint(
          'ledger_account_platform_type',
          sql`(platform_code is not null) = (account_type = 'platform')`,
        )
        .addCheckConstraint('ledger_account_frozen_nonnegative', sql`frozen >= 0`)
        .addCheckConstraint('ledger_account_available_nonnegative', sql`allow_negative or available >= 0`)
        .addCheckConstraint(
          'ledger_account_customer_never_negative',
          sql`not allow_negative or customer_id is null`,
        )
        .addForeignKeyConstraint('ledger_account_owner_book', ['customer_id', 'book'], 'ledger_owner', [
          'customer_id',
          'book',
        ])
        .addUniqueConstraint('ledger_account_id_book_currency', ['id', 'book', 'currency'])
        .execute();
      await sql`create unique index ledger_account_customer_key
        on ledger_account (customer_id, book, account_type, currency) where customer_id is not null`.execute(
        db,
      );
      await sql`create unique index ledger_account_platform_key
        on ledger_account (platform_code, book, currency) where platform_code is not null`.execute(db);

      await db.schema
        .createTable('ledger_entry')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('seq', 'int8', (c) => c.notNull().generatedAlwaysAsIdentity().unique())
        .addColumn('book', 'text', (c) => c.notNull().check(sql`book in ('real', 'demo')`))
        .addColumn('reason', 'text', (c) => c.notNull().check(sql`reason ~ '^[a-z][a-z0-9_.]{1,63}$'`))
        .addColumn('reference_type', 'text', (c) =>
          c.notNull().check(sql`reference_type ~ '^[a-z][a-z0-9_]{1,31}$'`),
        )
        .addColumn('reference_id', 'text', (c) =>
          c.notNull().check(sql`length(reference_id) between 1 and 128`),
        )
        .addColumn('idempotency_key', 'text', (c) =>
          c.notNull().check(sql`length(idempotency_key) between 1 and 200`),
        )
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('reverses_entry_id', 'text', (c) => c.references('ledger_entry.id'))
        .addColumn('actor_id', 'text')
        .addColumn('memo', 'text', (c) => c.check(sql`length(memo) <= 500`))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addUniqueConstraint('ledger_entry_idempotency_key_key', ['idempotency_key'])
        .addUniqueConstraint('ledger_entry_reverses_once', ['reverses_entry_id'])
        .addUniqueConstraint('ledger_entry_id_book', ['id', 'book'])
        .execute();
      await db.schema
        .createIndex('ledger_entry_reference')
        .on('ledger_entry')
        .columns(['reference_type', 'reference_id'])
        .execute();

      await db.schema
        .createTable('ledger_posting')
        .addColumn('id', 'int8', (c) => c.primaryKey().generatedAlwaysAsIdentity())
        .addColumn('entry_id', 'text', (c) => c.notNull())
        .addColumn('account_id', 'text', (c) => c.notNull())
        .addColumn('book', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('bucket', 'text', (c) => c.notNull().check(sql`bucket in ('available', 'frozen')`))
        .addColumn('amount', sql`numeric(38, 0)`, (c) => c.notNull().check(sql`amount <> 0`))
        .addForeignKeyConstraint('ledger_posting_entry_book', ['entry_id', 'book'], 'ledger_entry', [
          'id',
          'book',
        ])
        .addForeignKeyConstraint(
          'ledger_posting_account_book_currency',
          ['account_id', 'book', 'currency'],
          'ledger_account',
          ['id', 'book', 'currency'],
        )
        .execute();
      await db.schema.createIndex('ledger_posting_entry').on('ledger_posting').column('entry_id').execute();
      await db.schema
        .createIndex('ledger_posting_account')
        .on('ledger_posting')
        .columns(['account_id', 'id'])
        .execute();

      // The journal is append-only: a correction is a new (reversing) entry, never an edit.
      await sql`create function ledger_append_only() returns trigger language plpgsql as $$
        begin
          raise exception 'ledger: % is append-only (% refused)', tg_table_name, tg_op
            using errcode = 'restrict_violation';
        end $$`.execute(db);
      for (const table of ['ledger_entry', 'ledger_posting']) {
        await sql`create trigger ${sql.raw(`${table}_append_only`)}
          before update or delete or truncate on ${sql.table(table)}
          for each statement execute function ledger_append_only()`.execute(db);
      }
    },
  },
  /**
   * Batched posting (issue 21): a balance update that fits on its page is a HOT update — no new
   * entry in any of the account's four indexes — so account pages keep 30 % free (fillfactor 70;
   * pages written before fill up to it as their rows are rewritten). The reversal uniqueness
   * becomes a partial unique index: NULLs never collide, so indexing them (every ordinary entry)
   * bought nothing; the rule "an entry is reversed at most once" is unchanged, and the index keeps
   * the constraint's name (a violation still reports `ledger_entry_reverses_once`).
   */
  '20261228_0100_ledger_batch_writes': {
    async up(db: Kysely<unknown>) {
      await sql`alter table ledger_account set (fillfactor = 70)`.execute(db);
      await sql`alter table ledger_entry drop constraint ledger_entry_reverses_once`.execute(db);
      await sql`create unique index ledger_entry_reverses_once on ledger_entry (reverses_entry_id)
        where reverses_entry_id is not null`.execute(db);
    },
  },
  /**
   * A posting's references checked once per statement, not once per row (issue 21). The two
   * composite foreign keys of `ledger_posting` ran two row-by-row triggers per posting — about a
   * third of a 1,000-entry batch's write statement. One AFTER ... FOR EACH STATEMENT trigger now
   * joins the statement's new postings (a transition table) against their entries and accounts and
   * refuses the whole statement if one names a missing entry or account, or one of another book or
   * currency — the same SQLSTATE (23503) and the same constraint names as the foreign keys did, so
   * the database still refuses a posting across books whoever writes it. What the foreign keys also
   * guaranteed — a referenced row cannot vanish or change key under a posting — holds by triggers
   * too: entries were already append-only; an account can no longer be deleted, truncated or have its
   * id, book or currency changed. The unique keys that existed only as the foreign keys' targets
   * (`ledger_entry (id, book)`, `ledger_account (id, book, currency)`) go: one index fewer written
   * per entry. `ledger:verify` still looks for cross-book postings (defence in depth).
   */
  '20261230_0100_ledger_posting_checks': {
    async up(db: Kysely<unknown>) {
      await sql`create function ledger_posting_references() returns trigger language plpgsql as $$
        declare
          bad record;
        begin
          select n.entry_id, n.account_id into bad
            from new_postings n
            left join ledger_account a on a.id = n.account_id
           where a.id is null or a.book <> n.book or a.currency <> n.currency
           limit 1;
          if found then
            raise exception 'ledger: a posting of entry % names account %, missing or of another book or currency',
              bad.entry_id, bad.account_id
              using errcode = 'foreign_key_violation', table = 'ledger_posting',
                    constraint = 'ledger_posting_account_book_currency';
          end if;
          select n.entry_id, n.account_id into bad
            from new_postings n
            left join ledger_entry e on e.id = n.entry_id
           where e.id is null or e.book <> n.book
           limit 1;
          if found then
            raise exception 'ledger: a posting names entry %, missing or of another book', bad.entry_id
              using errcode = 'foreign_key_violation', table = 'ledger_posting',
                    constraint = 'ledger_posting_entry_book';
          end if;
          return null;
        end $$`.execute(db);
      await sql`create trigger ledger_posting_references after insert on ledger_posting
        referencing new table as new_postings
        for each statement execute function ledger_posting_references()`.execute(db);

      await sql`create function ledger_account_fixed() returns trigger language plpgsql as $$
        begin
          raise exception 'ledger: an account is never deleted nor re-keyed (% refused)', tg_op
            using errcode = 'restrict_violation';
        end $$`.execute(db);
      await sql`create trigger ledger_account_never_deleted before delete or truncate on ledger_account
        for each statement execute function ledger_account_fixed()`.execute(db);
      await sql`create trigger ledger_account_keys_fixed before update of id, book, currency on ledger_account
        for each row when ((old.id, old.book, old.currency) is distinct from (new.id, new.book, new.currency))
        execute function ledger_account_fixed()`.execute(db);

      await sql`alter table ledger_posting drop constraint ledger_posting_entry_book,
                                           drop constraint ledger_posting_account_book_currency`.execute(db);
      await sql`alter table ledger_entry drop constraint ledger_entry_id_book`.execute(db);
      await sql`alter table ledger_account drop constraint ledger_account_id_book_currency`.execute(db);
    },
  },
};
