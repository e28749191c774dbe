import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const optionsMigrations: Record<string, Migration> = {
  '20261121_0960_options_init': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table options_setting (
          symbol text primary key,
          enabled boolean not null,
          min_stake_units numeric(38,0) not null check (min_stake_units > 0),
          max_stake_units numeric(38,0) not null check (max_stake_units >= min_stake_units),
          durations jsonb not null check (jsonb_typeof(durations) = 'array'),
          created_at timestamptz not null,
          updated_at timestamptz not null
        );
        create table options_order (
          id text primary key,
          customer_id text not null,
          book text not null check (book in ('real', 'demo')),
          symbol text not null,
          instrument_id text not null,
          client_oid text,
          direction text not null check (direction in ('up', 'down')),
          stake_units numeric(38,0) not null check (stake_units > 0),
          duration_s integer not null check (duration_s > 0),
          payout_rate numeric not null check (payout_rate > 0),
          open_price numeric not null check (open_price > 0),
          open_price_source text not null,
          open_price_at timestamptz not null,
          open_tick_seq bigint not null,
          opened_at timestamptz not null,
          expires_at timestamptz not null check (expires_at > opened_at),
          status text not null check (status in ('open', 'won', 'lost', 'tied')),
          settlement_price numeric,
          settlement_price_source text,
          settlement_price_at timestamptz,
          settlement_tick_seq bigint,
          payout_units numeric(38,0) check (payout_units >= 0),
          profit_units numeric(38,0),
          settled_at timestamptz,
          open_entry_id text not null,
          unique (customer_id, client_oid),
          -- settled exactly when every settlement field is there; a settlement price never after expiry
          check ((status = 'open') = (settled_at is null)),
          check (status = 'open' or (settlement_price is not null and settlement_price_source is not null
            and settlement_price_at is not null and settlement_price_at <= expires_at
            and payout_units is not null and profit_units = payout_units - stake_units))
        );
        create index options_order_due on options_order (instrument_id, expires_at) where status = 'open';
        create index options_order_expiry on options_order (expires_at) where status = 'open';
        create index options_order_customer on options_order (customer_id, opened_at desc);
        create index options_order_customer_open on options_order (customer_id) where status = 'open';
        create index options_order_book on options_order (book, symbol, opened_at desc);
      `.execute(db);
    },
  },
};
