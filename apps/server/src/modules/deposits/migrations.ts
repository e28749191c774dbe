import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const depositsMigrations: Record<string, Migration> = {
  '20261121_0550_deposits_init': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('deposits_channel')
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('chain', 'text', (c) => c.notNull().check(sql`chain ~ '^[A-Z0-9]{2,12}$'`))
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('crypto', 'bank')`))
        .addColumn('open', 'boolean', (c) => c.notNull())
        .addColumn('min_units', sql`numeric(38, 0)`, (c) => c.notNull().check(sql`min_units > 0`))
        .addColumn('confirmations', 'integer', (c) =>
          c.notNull().check(sql`confirmations between 0 and 10000`),
        )
        .addColumn('instructions', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('sort', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
        .addPrimaryKeyConstraint('deposits_channel_pk', ['currency', 'chain'])
        .execute();
      // Spec 9: minimum deposits 1 USDT, 0.001 BTC, 0.1 ETH, 10 TRX. USDT on TRC20 starts closed.
      await sql`insert into deposits_channel (currency, chain, kind, open, min_units, confirmations, instructions, sort, updated_at) values
        ('USDT', 'ERC20', 'crypto', true, 100000000, 12, '', 1, now()),
        ('USDT', 'TRC20', 'crypto', false, 100000000, 20, '', 2, now()),
        ('BTC', 'BTC', 'crypto', true, 100000, 2, '', 3, now()),
        ('ETH', 'ERC20', 'crypto', true, 100000000000000000, 12, '', 4, now()),
        ('TRX', 'TRC20', 'crypto', true, 10000000, 20, '', 5, now()),
        ('USDT', 'BANK', 'bank', true, 100000000, 0,
         'Bank: Bourse Demo Bank · Account name: Bourse Ltd · Account: 000-123456-789 · SWIFT: BOURHKHH', 6, now())`.execute(
        db,
      );

      await sql`create sequence deposits_child_index_seq minvalue 0 start with 0 maxvalue 2147483647`.execute(
        db,
      );
      await db.schema
        .createTable('deposits_key')
        .addColumn('customer_id', 'text', (c) => c.primaryKey())
        .addColumn('child_index', 'integer', (c) =>
          c
            .notNull()
            .unique()
            .defaultTo(sql`nextval('deposits_child_index_seq')`)
            .check(sql`child_index >= 0`),
        )
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('deposits_address')
        .addColumn('address_key', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('family', 'text', (c) => c.notNull().check(sql`family in ('evm', 'btc', 'tron')`))
        .addColumn('customer_id', 'text', (c) => c.notNull().references('deposits_key.customer_id'))
        .addColumn('child_index', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addPrimaryKeyConstraint('deposits_address_pk', ['family', 'address_key'])
        .addUniqueConstraint('deposits_address_customer_family', ['customer_id', 'family'])
        .execute();

      await db.schema
        .createTable('deposits_crypto')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('chain', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('txid', 'text', (c) => c.notNull())
        .addColumn('output_index', 'integer', (c) => c.notNull().check(sql`output_index >= 0`))
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('amount_units', sql`numeric(38, 0)`, (c) => c.notNull().check(sql`amount_units > 0`))
        .addColumn('confirmations', 'integer', (c) => c.notNull().check(sql`confirmations >= 0`))
        .addColumn('status', 'text', (c) =>
          c.notNull().check(sql`status in ('pending', 'held', 'credited', 'failed')`),
        )
        .addColumn('entry_id', 'text')
        .addColumn('released_by', 'text')
        .addColumn('events', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
        .addUniqueConstraint('deposits_crypto_output', ['chain', 'txid', 'output_index'])
        .addCheckConstraint(
          'deposits_crypto_credited_entry',
          sql`(status = 'credited') = (entry_id is not null)`,
        )
        .execute();
      await db.schema
        .createIndex('deposits_crypto_customer')
        .on('deposits_crypto')
        .columns(['customer_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('deposits_proof')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('mime', 'text', (c) => c.notNull().check(sql`mime in ('image/jpeg', 'image/png')`))
        .addColumn('bytes', 'bytea', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull().check(sql`size > 0 and size <= 8388608`))
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('deposits_bank')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('amount_units', sql`numeric(38, 0)`, (c) => c.notNull().check(sql`amount_units > 0`))
        .addColumn('reference', 'text', (c) => c.notNull())
        .addColumn('proof_id', 'text', (c) => c.notNull().unique().references('deposits_proof.id'))
        .addColumn('status', 'text', (c) =>
          c.notNull().check(sql`status in ('pending', 'confirmed', 'rejected')`),
        )
        .addColumn('reject_reason', 'text')
        .addColumn('decided_by', 'text')
        .addColumn('decided_at', 'timestamptz')
        .addColumn('entry_id', 'text')
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addCheckConstraint(
          'deposits_bank_confirmed_entry',
          sql`(status = 'confirmed') = (entry_id is not null)`,
        )
        .execute();
      await db.schema
        .createIndex('deposits_bank_customer')
        .on('deposits_bank')
        .columns(['customer_id', 'created_at'])
        .execute();
    },
  },
  /**
   * Remittance proofs move to the upload pipeline (modules/uploads, purpose `deposit_proof`):
   * `deposits_bank.proof_id` now names an `uploads_file` row claimed through the `attach` port, so
   * it no longer references `deposits_proof`. That table stays (forward-only) with the proofs
   * uploaded before; nothing writes to it any more.
   */
  '20261126_1600_deposits_proof_uploads': {
    async up(db: Kysely<unknown>) {
      await sql`alter table deposits_bank drop constraint deposits_bank_proof_id_fkey`.execute(db);
    },
  },
};
