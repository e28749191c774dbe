import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const launchpadMigrations: Record<string, Migration> = {
  '20261127_0900_launchpad_init': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table launchpad_project (
          id text primary key,
          code text not null unique check (code ~ '^[a-z0-9]{4,32}$'),
          coin text not null unique check (coin ~ '^[A-Z][A-Z0-9]{1,9}$'),
          coin_scale integer not null check (coin_scale between 0 and 18),
          names jsonb not null,
          issuer text not null,
          descriptions jsonb not null,
          risk_warnings jsonb not null,
          whitepaper_url text not null check (whitepaper_url ~ '^https://'),
          mode text not null check (mode in ('pro_rata', 'first_come')),
          price_units numeric(38,0) not null check (price_units > 0),
          lot_units numeric(38,0) not null check (lot_units > 0),
          lot_price_units numeric(38,0) not null check (lot_price_units > 0),
          circulation_units numeric(38,0) not null check (circulation_units > 0),
          supply_lots numeric(38,0) not null check (supply_lots > 0),
          soft_cap_lots numeric(38,0) not null check (soft_cap_lots between 0 and supply_lots),
          cap_lots numeric(38,0) not null check (cap_lots > 0 and cap_lots <= supply_lots),
          min_lots numeric(38,0) not null check (min_lots > 0 and min_lots <= cap_lots),
          fee_bps integer not null check (fee_bps between 0 and 500),
          opens_at timestamptz not null,
          closes_at timestamptz not null,
          listing_at timestamptz not null,
          lockup_days integer not null check (lockup_days between 0 and 3650),
          release_at timestamptz not null,
          refund_hours integer not null check (refund_hours between 1 and 168),
          min_tier text check (min_tier in ('primary', 'advanced', 'address')),
          min_rating text not null check (min_rating in ('not_assessed', 'conservative', 'balanced', 'aggressive')),
          jurisdictions jsonb not null check (jsonb_typeof(jurisdictions) = 'array'),
          state text not null check (state in
            ('draft', 'announced', 'open', 'closed', 'allocating', 'distributed', 'failed', 'refunded')),
          subscribed_lots numeric(38,0) not null default 0 check (subscribed_lots >= 0),
          subscribers integer not null default 0 check (subscribers >= 0),
          next_seq integer not null default 0,
          failure_reason text check (failure_reason in ('soft_cap_missed', 'issuer_withdrew')),
          failed_at timestamptz,
          refund_deadline_at timestamptz,
          announced_at timestamptz,
          salt text,
          allocation jsonb,
          paid_out_units numeric(38,0) not null default 0 check (paid_out_units >= 0),
          created_at timestamptz not null,
          created_by text not null,
          check (opens_at < closes_at and closes_at <= listing_at),
          check ((state in ('failed', 'refunded')) = (failure_reason is not null)),
          check ((state = 'draft') = (announced_at is null)),
          check (state <> 'distributed' or allocation is not null)
        );

        create table launchpad_subscription (
          id text primary key,
          project_id text not null references launchpad_project (id),
          customer_id text not null,
          seq integer not null check (seq > 0),
          lots numeric(38,0) not null check (lots > 0),
          cost_units numeric(38,0) not null check (cost_units > 0),
          fee_units numeric(38,0) not null check (fee_units >= 0),
          frozen_units numeric(38,0) not null check (frozen_units = cost_units + fee_units),
          state text not null check (state in
            ('under_review', 'passed', 'not_passed', 'allocated', 'issuance_failed', 'refunded')),
          review_reason text check (review_reason in ('tier', 'jurisdiction', 'rating')),
          allocated_lots numeric(38,0) check (allocated_lots >= 0 and allocated_lots <= lots),
          paid_units numeric(38,0) check (paid_units >= 0),
          fee_paid_units numeric(38,0) check (fee_paid_units >= 0),
          refunded_units numeric(38,0) check (refunded_units >= 0),
          failure_reason text check (failure_reason in ('soft_cap_missed', 'issuer_withdrew')),
          token_state text not null default 'none' check (token_state in ('none', 'locked', 'released')),
          leaf_index integer,
          leaf_id text,
          commit_nonce text,
          allot_nonce text,
          created_at timestamptz not null,
          reviewed_at timestamptz,
          allocated_at timestamptz,
          refunded_at timestamptz,
          released_at timestamptz,
          unique (project_id, customer_id),
          unique (project_id, seq),
          unique (project_id, leaf_index),
          check ((state = 'not_passed') = (review_reason is not null)),
          check (state <> 'allocated' or (allocated_lots is not null and paid_units is not null
            and fee_paid_units is not null and refunded_units is not null)),
          check (refunded_units is null
            or coalesce(paid_units, 0) + coalesce(fee_paid_units, 0) + refunded_units = frozen_units)
        );
        create index launchpad_subscription_customer on launchpad_subscription (customer_id, created_at desc);
        create index launchpad_subscription_state on launchpad_subscription (project_id, state);

        create table launchpad_run (
          id text primary key,
          project_id text not null references launchpad_project (id),
          kind text not null check (kind in ('review', 'allocation', 'refund', 'release')),
          subscriptions integer not null default 0,
          lots numeric(38,0) not null default 0,
          amount_units numeric(38,0) not null default 0,
          started_at timestamptz not null,
          finished_at timestamptz,
          unique (project_id, kind)
        );
      `.execute(db);
    },
  },
  '20261203_0900_launchpad_market': {
    async up(db: Kysely<unknown>) {
      await sql`
        alter table launchpad_project
          add column market_symbol text,
          add column market_opened_at timestamptz,
          add constraint launchpad_project_market check ((market_symbol is null) = (market_opened_at is null))
      `.execute(db);
    },
  },
};
