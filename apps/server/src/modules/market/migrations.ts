import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

const positive = (column: string) => sql.raw(`${column} > 0`);

export const marketMigrations: Record<string, Migration> = {
  '20261121_0200_market_init': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('market_instrument')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('symbol', 'text', (c) =>
          c.notNull().unique().check(sql`symbol ~ '^[A-Z0-9][A-Z0-9/._-]{0,31}$'`),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('asset_class', 'text', (c) =>
          c
            .notNull()
            .check(
              sql`asset_class in ('crypto_spot', 'crypto_perp', 'crypto_delivery', 'forex', 'metal', 'energy', 'stock', 'etf')`,
            ),
        )
        .addColumn('base', 'text', (c) => c.notNull())
        .addColumn('quote', 'text', (c) => c.notNull())
        .addColumn('price_tick', 'numeric', (c) => c.notNull().check(positive('price_tick')))
        .addColumn('lot_size', 'numeric', (c) => c.notNull().check(positive('lot_size')))
        .addColumn('contract_size', 'numeric', (c) => c.notNull().check(positive('contract_size')))
        .addColumn('max_leverage', 'integer', (c) => c.notNull().check(sql`max_leverage between 1 and 100`))
        .addColumn('trading_hours', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) =>
          c.notNull().defaultTo('active').check(sql`status in ('active', 'halted', 'delisted')`),
        )
        .addColumn('ref_price', 'numeric', (c) => c.notNull().check(positive('ref_price')))
        .addColumn('feed_symbol', 'text')
        .addColumn('expiry_at', 'timestamptz')
        .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(1000))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
        .addCheckConstraint(
          'market_instrument_delivery_expiry',
          sql`(asset_class = 'crypto_delivery') = (expiry_at is not null)`,
        )
        .execute();

      await db.schema
        .createTable('market_price')
        .addColumn('instrument_id', 'text', (c) => c.primaryKey().references('market_instrument.id'))
        .addColumn('last', 'numeric', (c) => c.notNull())
        .addColumn('bid', 'numeric', (c) => c.notNull())
        .addColumn('ask', 'numeric', (c) => c.notNull())
        .addColumn('mark', 'numeric', (c) => c.notNull())
        .addColumn('tick_seq', 'bigint', (c) => c.notNull())
        .addColumn('tick_at', 'timestamptz', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .execute();

      // Append-only and time-ordered: a BRIN index on `at` is tiny and serves the retention prune.
      await db.schema
        .createTable('market_tick')
        .addColumn('seq', 'bigint', (c) => c.primaryKey())
        .addColumn('instrument_id', 'text', (c) => c.notNull())
        .addColumn('at', 'timestamptz', (c) => c.notNull())
        .addColumn('price', 'numeric', (c) => c.notNull().check(positive('price')))
        .addColumn('bid', 'numeric', (c) => c.notNull())
        .addColumn('ask', 'numeric', (c) => c.notNull())
        .addColumn('mark', 'numeric', (c) => c.notNull())
        .addColumn('size', 'numeric', (c) => c.notNull().check(sql`size >= 0`))
        .addColumn('source', 'text', (c) => c.notNull())
        .addCheckConstraint('market_tick_spread', sql`bid <= ask`)
        .execute();
      await db.schema
        .createIndex('market_tick_instrument_at')
        .on('market_tick')
        .columns(['instrument_id', 'at', 'seq'])
        .execute();
      await sql`create index market_tick_at_brin on market_tick using brin (at)`.execute(db);

      await db.schema
        .createTable('market_candle')
        .addColumn('instrument_id', 'text', (c) => c.notNull())
        .addColumn('interval', 'text', (c) =>
          c.notNull().check(sql`interval in ('1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w')`),
        )
        .addColumn('open_time', 'timestamptz', (c) => c.notNull())
        .addColumn('open', 'numeric', (c) => c.notNull())
        .addColumn('high', 'numeric', (c) => c.notNull())
        .addColumn('low', 'numeric', (c) => c.notNull())
        .addColumn('close', 'numeric', (c) => c.notNull())
        .addColumn('volume', 'numeric', (c) => c.notNull())
        .addColumn('turnover', 'numeric', (c) => c.notNull())
        .addColumn('ticks', 'integer', (c) => c.notNull().check(sql`ticks > 0`))
        .addPrimaryKeyConstraint('market_candle_pkey', ['instrument_id', 'interval', 'open_time'])
        .addCheckConstraint(
          'market_candle_range',
          sql`low <= open and low <= close and high >= open and high >= close`,
        )
        .execute();
      // Start-up loads the open candle of every instrument per interval: one bucket per interval.
      await db.schema
        .createIndex('market_candle_bucket')
        .on('market_candle')
        .columns(['interval', 'open_time'])
        .execute();

      await db.schema
        .createTable('market_feed_cursor')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('batch_seq', 'bigint', (c) => c.notNull())
        .addColumn('tick_seq', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
        .execute();
    },
  },
};
