import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** The proof-of-liabilities tables (range 0700–0749). Snapshots are written once and never changed. */
export const proofMigrations: Record<string, Migration> = {
  '20261121_0700_proof_init': {
    async up(db: Kysely<unknown>) {
      const hex = sql`~ '^[0-9a-f]{64}$'`;
      await db.schema
        .createTable('proof_snapshot')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('round_id', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull().check(sql`currency ~ '^[A-Z0-9]{1,16}$'`))
        .addColumn('root_hash', 'text', (c) => c.notNull().check(sql`root_hash ${hex}`))
        .addColumn('total', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`total >= 0`))
        .addColumn('ledger_total', sql`numeric(78, 0)`, (c) => c.notNull())
        .addColumn('leaf_count', 'integer', (c) => c.notNull().check(sql`leaf_count >= 0`))
        .addColumn('depth', 'integer', (c) => c.notNull().check(sql`depth between 0 and 64`))
        .addColumn('salt', 'text', (c) => c.notNull().check(sql`salt ${hex}`))
        .addColumn('published_at', 'timestamptz', (c) => c.notNull())
        .addUniqueConstraint('proof_snapshot_round_currency', ['round_id', 'currency'])
        // A snapshot is published only when its total equals the ledger's own figure.
        .addCheckConstraint('proof_snapshot_matches_ledger', sql`total = ledger_total`)
        .execute();
      await db.schema
        .createIndex('proof_snapshot_latest')
        .on('proof_snapshot')
        .columns(['currency', 'published_at desc', 'id desc'])
        .execute();

      await db.schema
        .createTable('proof_leaf')
        .addColumn('snapshot_id', 'text', (c) => c.notNull().references('proof_snapshot.id'))
        .addColumn('customer_id', 'text', (c) => c.notNull())
        .addColumn('leaf_index', 'integer', (c) => c.notNull().check(sql`leaf_index >= 0`))
        .addColumn('leaf_id', 'text', (c) => c.notNull().check(sql`leaf_id ${hex}`))
        .addColumn('nonce', 'text', (c) => c.notNull().check(sql`nonce ${hex}`))
        .addColumn('balance', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`balance >= 0`))
        .addPrimaryKeyConstraint('proof_leaf_pk', ['snapshot_id', 'customer_id'])
        .addUniqueConstraint('proof_leaf_position', ['snapshot_id', 'leaf_index'])
        .execute();
      await db.schema.createIndex('proof_leaf_customer').on('proof_leaf').columns(['customer_id']).execute();

      await db.schema
        .createTable('proof_node')
        .addColumn('snapshot_id', 'text', (c) => c.notNull().references('proof_snapshot.id'))
        .addColumn('level', 'integer', (c) => c.notNull().check(sql`level between 0 and 64`))
        .addColumn('idx', 'integer', (c) => c.notNull().check(sql`idx >= 0`))
        .addColumn('hash', 'text', (c) => c.notNull().check(sql`hash ${hex}`))
        .addColumn('sum', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`sum >= 0`))
        .addPrimaryKeyConstraint('proof_node_pk', ['snapshot_id', 'level', 'idx'])
        .execute();

      // Published proofs are evidence: never edited, never deleted.
      await sql`
        create function proof_append_only() returns trigger language plpgsql as $$
        begin
          raise exception 'proof tables are append-only (% on %)', tg_op, tg_table_name;
        end $$`.execute(db);
      for (const table of ['proof_snapshot', 'proof_leaf', 'proof_node']) {
        await sql`create trigger ${sql.raw(`${table}_append_only`)} before update or delete on ${sql.table(table)}
                  for each row execute function proof_append_only()`.execute(db);
        await sql`create trigger ${sql.raw(`${table}_no_truncate`)} before truncate on ${sql.table(table)}
                  for each statement execute function proof_append_only()`.execute(db);
      }
    },
  },
};
