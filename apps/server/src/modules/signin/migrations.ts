import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The sign-in tables (README.md, "Tables"). The database holds the rules the service checks: one
 * claim per customer and customer-day (the primary key), a streak of 1…7, positive amounts, seven
 * of them in the settings; a funding request is decided at most once, by someone else, and an
 * approved one names its ledger entry.
 */
export const signinMigrations: Record<string, Migration> = {
  '20261220_0900_signin_init': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table signin_settings (
          id text primary key check (id = 'signin'),
          enabled boolean not null,
          time_zone text not null check (length(time_zone) between 1 and 64),
          currency text not null check (currency ~ '^[A-Z0-9]{2,12}$'),
          amount_units numeric(38, 0)[] not null
            check (cardinality(amount_units) = 7 and 0 < all (amount_units)),
          verification text not null check (verification in ('none', 'primary')),
          condition_en text not null check (length(condition_en) <= 300),
          condition_zh text not null check (length(condition_zh) <= 300),
          condition_ft text not null check (length(condition_ft) <= 300),
          updated_at timestamptz not null,
          updated_by text
        );

        create table signin_claim (
          customer_id text not null,
          day text not null check (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
          streak integer not null check (streak between 1 and 7),
          amount_units numeric(38, 0) not null check (amount_units > 0),
          currency text not null,
          book text not null check (book in ('real', 'demo')),
          time_zone text not null,
          at timestamptz not null,
          entry_id text not null,
          primary key (customer_id, day)
        );
        create index signin_claim_at on signin_claim (at desc);

        create table signin_funding_request (
          id text primary key,
          amount_units numeric(38, 0) not null check (amount_units > 0),
          currency text not null,
          reason text not null check (length(reason) between 1 and 500),
          state text not null check (state in ('pending', 'approved', 'rejected')),
          requested_by text not null,
          requested_at timestamptz not null,
          decided_by text,
          decided_at timestamptz,
          decision_reason text,
          entry_id text,
          check ((state = 'pending') = (decided_by is null)),
          check ((state = 'pending') = (decided_at is null)),
          check (decided_by is null or decided_by <> requested_by),
          check ((state = 'approved') = (entry_id is not null))
        );
        create index signin_funding_request_at on signin_funding_request (requested_at desc);
      `.execute(db);
    },
  },
};
