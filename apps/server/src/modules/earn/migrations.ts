import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const earnMigrations: Record<string, Migration> = {
  '20261126_1000_earn_init': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table earn_setting (
          id integer primary key check (id = 1),
          cutoff_hour integer not null check (cutoff_hour between 0 and 23),
          time_zone text not null,
          vip_levels jsonb not null check (jsonb_typeof(vip_levels) = 'array'),
          updated_at timestamptz not null,
          updated_by text
        );
        insert into earn_setting (id, cutoff_hour, time_zone, vip_levels, updated_at)
        values (1, 0, 'UTC', '[]', now());

        create table earn_funding (
          id text primary key,
          code text not null unique check (code ~ '^[a-z0-9]{4,32}$'),
          name text not null,
          source jsonb not null,
          currency text not null,
          created_at timestamptz not null,
          created_by text not null
        );
        create table earn_funding_request (
          id text primary key,
          funding_id text not null references earn_funding (id),
          amount_units numeric(38,0) not null check (amount_units > 0),
          reason text not null,
          state text not null check (state in ('pending', 'approved', 'rejected')),
          requested_by text not null,
          requested_at timestamptz not null,
          decided_by text,
          decided_at timestamptz,
          decision_reason text,
          entry_id text,
          check ((state = 'pending') = (decided_at is null)),
          check (decided_by is null or decided_by <> requested_by),
          check ((state = 'approved') = (entry_id is not null))
        );
        create index earn_funding_request_by on earn_funding_request (funding_id, requested_at desc);

        create table earn_product (
          id text primary key,
          code text not null unique check (code ~ '^[a-z0-9]{4,32}$'),
          kind text not null check (kind in ('custody', 'vip')),
          state text not null check (state in ('draft', 'active', 'paused', 'closed')),
          names jsonb not null,
          descriptions jsonb not null,
          funding_id text not null references earn_funding (id),
          currency text not null,
          term_days integer not null check (term_days between 1 and 3650),
          annual_rate numeric not null check (annual_rate > 0 and annual_rate <= 50),
          min_amount_units numeric(38,0) not null check (min_amount_units > 0),
          max_amount_units numeric(38,0) not null check (max_amount_units >= min_amount_units),
          capacity_units numeric(38,0) not null check (capacity_units >= min_amount_units),
          subscribed_units numeric(38,0) not null default 0 check (subscribed_units >= 0),
          sale_starts_at timestamptz,
          sale_ends_at timestamptz,
          redeem_rule text not null
            check (redeem_rule in ('forfeit_rewards', 'principal_percent', 'principal_daily', 'none')),
          penalty_rate numeric check (penalty_rate > 0 and penalty_rate <= 100),
          redeem_delay_days integer not null check (redeem_delay_days between 0 and 30),
          min_tier text check (min_tier in ('primary', 'advanced', 'address')),
          min_rating text not null,
          vip_level integer check (vip_level between 1 and 10),
          jurisdictions jsonb not null check (jsonb_typeof(jurisdictions) = 'array'),
          created_at timestamptz not null,
          created_by text not null,
          updated_at timestamptz not null,
          check ((kind = 'vip') = (vip_level is not null)),
          check ((redeem_rule in ('principal_percent', 'principal_daily')) = (penalty_rate is not null)),
          check (sale_ends_at is null or sale_starts_at is null or sale_ends_at > sale_starts_at)
        );
        create index earn_product_list on earn_product (kind, created_at desc);

        create table earn_order (
          id text primary key,
          customer_id text not null,
          book text not null check (book in ('real', 'demo')),
          product_id text not null references earn_product (id),
          kind text not null,
          currency text not null,
          amount_units numeric(38,0) not null check (amount_units > 0),
          term_days integer not null check (term_days > 0),
          annual_rate numeric not null,
          daily_reward_units numeric(38,0) not null check (daily_reward_units > 0),
          total_reward_units numeric(38,0) not null check (total_reward_units = daily_reward_units * term_days),
          accrued_units numeric(38,0) not null check (accrued_units >= 0 and accrued_units <= total_reward_units),
          days_accrued integer not null check (days_accrued between 0 and term_days),
          state text not null check (state in ('in_custody', 'redeeming', 'redeemed', 'completed')),
          cutoff_hour integer not null,
          time_zone text not null,
          first_day text not null check (first_day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
          next_accrual_at timestamptz,
          matures_at timestamptz not null,
          redeem_rule text not null,
          penalty_rate numeric,
          redeem_delay_days integer not null,
          fund_code text not null,
          reserve_code text not null,
          created_at timestamptz not null,
          buy_entry_id text not null,
          completed_at timestamptz,
          quote_id text,
          principal_returned_units numeric(38,0),
          rewards_paid_units numeric(38,0),
          rewards_forfeited_units numeric(38,0),
          penalty_units numeric(38,0),
          redeem_requested_at timestamptz,
          arrives_at timestamptz,
          check (accrued_units = daily_reward_units * days_accrued),
          check ((state = 'in_custody') = (next_accrual_at is not null)),
          check ((state in ('redeeming', 'redeemed')) = (quote_id is not null)),
          check (state <> 'completed' or (days_accrued = term_days and completed_at is not null)),
          check (state <> 'redeemed' or completed_at is not null)
        );
        create index earn_order_due on earn_order (next_accrual_at) where state = 'in_custody';
        create index earn_order_arriving on earn_order (arrives_at) where state = 'redeeming';
        create index earn_order_customer on earn_order (customer_id, created_at desc);
        create index earn_order_product on earn_order (product_id, customer_id) where state = 'in_custody';

        create table earn_accrual (
          order_id text not null references earn_order (id),
          day integer not null check (day > 0),
          amount_units numeric(38,0) not null check (amount_units > 0),
          cutoff_at timestamptz not null,
          posted_at timestamptz not null,
          entry_id text not null unique,
          primary key (order_id, day)
        );
        create table earn_accrual_run (
          id text primary key,
          cutoff_at timestamptz not null unique,
          orders integer not null default 0,
          matured integer not null default 0,
          totals jsonb not null default '{}',
          demo_orders integer not null default 0,
          started_at timestamptz not null,
          finished_at timestamptz
        );
        create table earn_quote (
          id text primary key,
          order_id text not null references earn_order (id),
          customer_id text not null,
          days_accrued integer not null,
          principal_units numeric(38,0) not null check (principal_units > 0),
          forfeited_units numeric(38,0) not null check (forfeited_units >= 0),
          penalty_units numeric(38,0) not null check (penalty_units >= 0 and penalty_units <= principal_units),
          returned_units numeric(38,0) not null check (returned_units = principal_units - penalty_units),
          arrives_at timestamptz not null,
          expires_at timestamptz not null,
          created_at timestamptz not null,
          used_at timestamptz
        );
        create index earn_quote_order on earn_quote (order_id, created_at desc);
      `.execute(db);
    },
  },
};
