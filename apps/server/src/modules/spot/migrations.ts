import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const spotMigrations: Record<string, Migration> = {
  '20261121_0800_spot_init': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table spot_market (
          symbol text primary key,
          base text not null,
          quote text not null,
          price_tick numeric not null check (price_tick > 0),
          lot_size numeric not null check (lot_size > 0),
          min_quantity numeric not null check (min_quantity > 0),
          min_notional numeric not null check (min_notional >= 0),
          max_notional numeric not null check (max_notional > 0),
          maker_fee_rate numeric not null check (maker_fee_rate >= 0 and maker_fee_rate <= 0.1),
          taker_fee_rate numeric not null check (taker_fee_rate >= 0 and taker_fee_rate <= 0.1),
          price_band_bps integer not null check (price_band_bps between 1 and 10000),
          status text not null check (status in ('enabled', 'halted')),
          halt_reason text,
          created_at timestamptz not null,
          updated_at timestamptz not null,
          check (status = 'enabled' or halt_reason is not null)
        );
        create table spot_journal (
          symbol text not null,
          book text not null check (book in ('real', 'demo')),
          seq bigint not null check (seq > 0),
          command jsonb not null,
          created_at timestamptz not null,
          primary key (symbol, book, seq)
        );
        create function spot_journal_append_only() returns trigger language plpgsql as $$
          begin raise exception 'spot_journal is append-only'; end $$;
        create trigger spot_journal_no_change before update or delete on spot_journal
          for each row execute function spot_journal_append_only();
        create trigger spot_journal_no_truncate before truncate on spot_journal
          for each statement execute function spot_journal_append_only();
        create table spot_cursor (
          symbol text not null,
          book text not null check (book in ('real', 'demo')),
          settled_seq bigint not null,
          primary key (symbol, book)
        );
        create table spot_order (
          id text primary key,
          customer_id text not null,
          book text not null check (book in ('real', 'demo')),
          symbol text not null references spot_market (symbol),
          client_oid text,
          side text not null check (side in ('buy', 'sell')),
          type text not null check (type in ('limit', 'market')),
          tif text not null check (tif in ('GTC', 'IOC', 'FOK')),
          post_only boolean not null,
          price_ticks bigint,
          freeze_price_ticks bigint,
          qty_lots bigint not null check (qty_lots > 0),
          filled_lots bigint not null default 0 check (filled_lots >= 0 and filled_lots <= qty_lots),
          filled_amount_units numeric(38,0) not null default 0,
          fee_units numeric(38,0) not null default 0,
          frozen_units numeric(38,0) not null check (frozen_units >= 0),
          frozen_currency text not null,
          fee_rate_maker numeric not null,
          fee_rate_taker numeric not null,
          status text not null check (status in ('unfilled', 'partially_filled', 'filled', 'cancelled')),
          cancel_reason text,
          seq bigint not null,
          created_at timestamptz not null,
          updated_at timestamptz not null,
          unique (customer_id, client_oid)
        );
        create index spot_order_open on spot_order (customer_id, created_at desc) where status in ('unfilled', 'partially_filled');
        create index spot_order_customer on spot_order (customer_id, created_at desc);
        create index spot_order_book_open on spot_order (symbol, book) where status in ('unfilled', 'partially_filled');
        create table spot_trade (
          id text primary key,
          symbol text not null,
          book text not null check (book in ('real', 'demo')),
          engine_trade_id bigint not null,
          seq bigint not null,
          maker_order_id text not null references spot_order (id),
          taker_order_id text not null references spot_order (id),
          maker_customer_id text not null,
          taker_customer_id text not null,
          taker_side text not null check (taker_side in ('buy', 'sell')),
          price_ticks bigint not null,
          qty_lots bigint not null check (qty_lots > 0),
          amount_units numeric(38,0) not null,
          maker_fee_units numeric(38,0) not null,
          taker_fee_units numeric(38,0) not null,
          entry_id text not null,
          created_at timestamptz not null,
          unique (symbol, book, engine_trade_id)
        );
        create index spot_trade_maker on spot_trade (maker_customer_id, created_at desc);
        create index spot_trade_taker on spot_trade (taker_customer_id, created_at desc);
        create index spot_trade_book on spot_trade (symbol, book, engine_trade_id desc);
        create table spot_setting (
          key text primary key,
          value jsonb not null,
          updated_at timestamptz not null
        );
      `.execute(db);
    },
  },
  '20261121_0801_spot_snapshot': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table spot_snapshot (
          symbol text not null,
          book text not null check (book in ('real', 'demo')),
          seq bigint not null,
          snapshot jsonb not null,
          created_at timestamptz not null,
          primary key (symbol, book, seq)
        );
      `.execute(db);
    },
  },
  '20261229_0900_spot_book_lease': {
    async up(db: Kysely<unknown>) {
      // SPOT_LEASES=on: one owner process per book; expiry is judged by the database's now().
      await sql`
        create table spot_book_lease (
          symbol text not null,
          book text not null check (book in ('real', 'demo')),
          owner text not null,
          epoch bigint not null check (epoch > 0),
          expires_at timestamptz not null,
          primary key (symbol, book)
        );
      `.execute(db);
    },
  },
  '20261231_0800_spot_trade_fee_account': {
    async up(db: Kysely<unknown>) {
      // Fees went to the shared `fee_income` until each market got its own fee account
      // (`spot_fees_<market>`): the trades settled before say so; null is the market's own account.
      await sql`
        alter table spot_trade add column fee_account text;
        update spot_trade set fee_account = 'fee_income';
      `.execute(db);
    },
  },
};
