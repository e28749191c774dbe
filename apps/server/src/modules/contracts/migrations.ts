import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const contractsMigrations: Record<string, Migration> = {
  '20261121_0900_contracts_init': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table contracts_setting (
          symbol text primary key,
          enabled boolean not null,
          spread numeric not null check (spread >= 0),
          fee_per_lot numeric not null check (fee_per_lot >= 0),
          max_leverage integer not null check (max_leverage between 1 and 100),
          min_lots numeric not null check (min_lots > 0),
          max_lots numeric not null check (max_lots >= min_lots),
          liquidation_level numeric not null check (liquidation_level > 0 and liquidation_level <= 1),
          margin_topup_max numeric not null check (margin_topup_max >= 0),
          funding_rate numeric,
          funding_interval_hours integer check (funding_interval_hours between 1 and 24),
          created_at timestamptz not null,
          updated_at timestamptz not null,
          check ((funding_rate is null) = (funding_interval_hours is null))
        );
        create table contracts_order (
          id text primary key,
          customer_id text not null,
          book text not null check (book in ('real', 'demo')),
          symbol text not null references contracts_setting (symbol),
          client_oid text,
          side text not null check (side in ('buy', 'sell')),
          type text not null check (type in ('market', 'limit')),
          price numeric not null check (price > 0),
          lots_units numeric(38,0) not null check (lots_units > 0),
          leverage integer not null check (leverage between 1 and 100),
          tp_price numeric,
          sl_price numeric,
          margin_units numeric(38,0) not null check (margin_units > 0),
          fee_units numeric(38,0) not null check (fee_units >= 0),
          fee_per_lot numeric not null,
          liquidation_level numeric not null,
          status text not null check (status in ('pending', 'filled', 'cancelled')),
          cancel_reason text check (cancel_reason in ('user', 'insufficient_balance', 'market_closed', 'expired', 'settings_changed')),
          position_id text,
          created_at timestamptz not null,
          updated_at timestamptz not null,
          unique (customer_id, client_oid),
          check ((status = 'cancelled') = (cancel_reason is not null)),
          check ((status = 'filled') = (position_id is not null))
        );
        create index contracts_order_pending on contracts_order (symbol, book) where status = 'pending';
        create index contracts_order_customer on contracts_order (customer_id, created_at desc);
        create table contracts_position (
          id text primary key,
          customer_id text not null,
          book text not null check (book in ('real', 'demo')),
          symbol text not null references contracts_setting (symbol),
          instrument_id text not null,
          order_id text not null unique references contracts_order (id),
          side text not null check (side in ('buy', 'sell')),
          leverage integer not null check (leverage between 1 and 100),
          lots_units numeric(38,0) not null check (lots_units >= 0),
          opened_lots_units numeric(38,0) not null check (opened_lots_units > 0 and lots_units <= opened_lots_units),
          open_price numeric not null check (open_price > 0),
          open_price_source text not null,
          open_price_at timestamptz not null,
          open_tick_seq bigint not null,
          open_rate numeric not null check (open_rate > 0),
          margin_units numeric(38,0) not null check (margin_units >= 0),
          fee_units numeric(38,0) not null check (fee_units >= 0),
          funding_units numeric(38,0) not null default 0,
          realized_pnl_units numeric(38,0) not null default 0,
          tp_price numeric,
          sl_price numeric,
          fee_per_lot numeric not null,
          liquidation_level numeric not null,
          status text not null check (status in ('open', 'closed', 'liquidated', 'delivered')),
          close_reason text check (close_reason in ('user', 'close_all', 'take_profit', 'stop_loss', 'liquidation', 'delivery')),
          close_price numeric,
          close_price_source text,
          close_price_at timestamptz,
          opened_at timestamptz not null,
          closed_at timestamptz,
          updated_at timestamptz not null,
          check ((status = 'open') = (lots_units > 0)),
          check ((status = 'open') = (closed_at is null)),
          check (status = 'open' or margin_units = 0)
        );
        create index contracts_position_open on contracts_position (symbol, book) where status = 'open';
        create index contracts_position_customer on contracts_position (customer_id, status, opened_at desc);
        create table contracts_close (
          id text primary key,
          position_id text not null references contracts_position (id),
          customer_id text not null,
          book text not null check (book in ('real', 'demo')),
          symbol text not null,
          side text not null check (side in ('buy', 'sell')),
          lots_units numeric(38,0) not null check (lots_units > 0),
          open_price numeric not null,
          close_price numeric not null check (close_price > 0),
          price_source text not null,
          price_at timestamptz not null,
          tick_seq bigint,
          rate numeric not null check (rate > 0),
          pnl_units numeric(38,0) not null,
          fee_units numeric(38,0) not null check (fee_units >= 0),
          released_units numeric(38,0) not null check (released_units >= 0),
          insurance_covered_units numeric(38,0) not null check (insurance_covered_units >= 0),
          uncovered_units numeric(38,0) not null check (uncovered_units >= 0),
          reason text not null check (reason in ('user', 'close_all', 'take_profit', 'stop_loss', 'liquidation', 'delivery')),
          entry_id text unique,
          closed_at timestamptz not null
        );
        create index contracts_close_position on contracts_close (position_id, closed_at desc);
        create index contracts_close_customer on contracts_close (customer_id, closed_at desc);
        create table contracts_funding (
          id text primary key,
          position_id text not null references contracts_position (id),
          customer_id text not null,
          book text not null check (book in ('real', 'demo')),
          symbol text not null,
          side text not null check (side in ('buy', 'sell')),
          funding_at timestamptz not null,
          rate numeric not null,
          mark_price numeric not null,
          mark_source text not null,
          mark_at timestamptz not null,
          usdt_rate numeric not null,
          amount_units numeric(38,0) not null,
          entry_id text,
          created_at timestamptz not null,
          unique (position_id, funding_at)
        );
        create index contracts_funding_customer on contracts_funding (customer_id, funding_at desc);
        create table contracts_engine_cursor (
          name text primary key,
          seq bigint not null check (seq >= 0),
          rounds bigint not null default 0,
          processed_through timestamptz,
          updated_at timestamptz not null
        );
      `.execute(db);
    },
  },
};
