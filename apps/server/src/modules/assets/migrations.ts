import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const assetsMigrations: Record<string, Migration> = {
  '20261121_0500_assets_currency': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('assets_currency')
        .addColumn('currency', 'text', (c) => c.primaryKey().check(sql`currency ~ '^[A-Z0-9]{2,12}$'`))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('price_symbol', 'text')
        .addColumn('sort', 'integer', (c) => c.notNull())
        .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
        .execute();
      await sql`insert into assets_currency (currency, name, price_symbol, sort) values
        ('USDT', 'Tether USD', null, 1),
        ('BTC', 'Bitcoin', 'BTC/USDT', 2),
        ('ETH', 'Ethereum', 'ETH/USDT', 3),
        ('TRX', 'TRON', 'TRX/USDT', 4)`.execute(db);
    },
  },
};
