import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const fundsMigrations: Record<string, Migration> = {
  '20261126_1300_funds_init': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table funds_model (
          id text primary key check (id in ('balanced', 'low_risk')),
          names jsonb not null,
          descriptions jsonb not null,
          weights jsonb not null check (jsonb_typeof(weights) = 'array'),
          drift_bps integer not null check (drift_bps > 0 and drift_bps <= 5000),
          min_amount_units numeric(38,0) not null check (min_amount_units > 0),
          max_amount_units numeric(38,0) not null check (max_amount_units >= min_amount_units),
          min_rating text not null,
          state text not null check (state in ('open', 'paused')),
          state_reason text,
          positions jsonb not null,
          nav_through timestamptz not null,
          created_at timestamptz not null,
          updated_at timestamptz not null
        );
        create table funds_nav (
          model_id text not null references funds_model (id),
          at timestamptz not null,
          nav_units numeric(38,0) not null check (nav_units >= 0),
          prices jsonb not null,
          rebalanced boolean not null,
          primary key (model_id, at)
        );
        create table funds_order (
          id text primary key,
          customer_id text not null,
          book text not null check (book in ('real', 'demo')),
          model_id text not null references funds_model (id),
          client_oid text,
          state text not null check (state in ('buying', 'in_custody', 'redeeming', 'redeemed')),
          amount_units numeric(38,0) not null check (amount_units > 0),
          cost_units numeric(38,0) check (cost_units >= 0),
          fee_units numeric(38,0) not null check (fee_units >= 0),
          units numeric(38,0) check (units >= 0),
          nav_units numeric(38,0) not null check (nav_units > 0),
          proceeds_units numeric(38,0) check (proceeds_units >= 0),
          weights jsonb not null,
          created_at timestamptz not null,
          bought_at timestamptz,
          redeem_requested_at timestamptz,
          redeemed_at timestamptz,
          rebalancing text,
          unique (customer_id, client_oid),
          check ((state = 'buying') = (bought_at is null)),
          check ((state = 'redeemed') = (redeemed_at is not null and proceeds_units is not null))
        );
        create index funds_order_customer on funds_order (customer_id, created_at desc);
        create index funds_order_model on funds_order (model_id, state, created_at desc);
        create index funds_order_pending on funds_order (state) where state in ('buying', 'redeeming');
        create table funds_order_holding (
          order_id text not null references funds_order (id),
          asset text not null,
          quantity_units numeric(38,0) not null check (quantity_units >= 0),
          primary key (order_id, asset)
        );
        create table funds_rebalance (
          id text primary key,
          order_id text not null references funds_order (id),
          model_id text not null,
          customer_id text not null,
          state text not null check (state in ('running', 'done')),
          drift_bps integer not null,
          before jsonb not null,
          after jsonb,
          started_at timestamptz not null,
          done_at timestamptz,
          check ((state = 'done') = (done_at is not null))
        );
        create index funds_rebalance_order on funds_rebalance (order_id, started_at desc);
        create unique index funds_rebalance_running on funds_rebalance (order_id) where state = 'running';
        create table funds_order_leg (
          id text primary key,
          order_id text not null references funds_order (id),
          phase text not null check (phase in ('buy', 'redeem', 'rebalance')),
          rebalance_id text references funds_rebalance (id),
          seq integer not null,
          asset text not null,
          symbol text not null,
          side text not null check (side in ('buy', 'sell')),
          quantity_units numeric(38,0) not null check (quantity_units >= 0),
          funded_units numeric(38,0) not null check (funded_units >= 0),
          reference_price numeric not null,
          spot_client_oid text not null unique,
          spot_order_id text,
          filled_units numeric(38,0) not null check (filled_units >= 0 and filled_units <= quantity_units),
          value_units numeric(38,0) not null check (value_units >= 0),
          fee_units numeric(38,0) not null check (fee_units >= 0),
          state text not null check (state in ('planned', 'funded', 'released', 'filled', 'partial', 'failed', 'skipped')),
          refusal jsonb,
          created_at timestamptz not null,
          updated_at timestamptz not null
        );
        create index funds_order_leg_order on funds_order_leg (order_id, seq);
        create index funds_order_leg_open on funds_order_leg (order_id) where state in ('planned', 'funded', 'released');
      `.execute(db);
    },
  },
};
