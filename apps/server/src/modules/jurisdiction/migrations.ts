import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const jurisdictionMigrations: Record<string, Migration> = {
  '20261121_0950_jurisdiction_init': {
    async up(db: Kysely<unknown>) {
      // One row: the custom profile starts as a copy of the permissive one.
      await sql`
        create table jurisdiction_setting (
          id integer primary key check (id = 1),
          active_profile text not null check (active_profile in ('permissive', 'eu_retail', 'custom')),
          custom_caps jsonb not null,
          custom_options_enabled boolean not null,
          updated_at timestamptz not null,
          updated_by text
        );
        insert into jurisdiction_setting (id, active_profile, custom_caps, custom_options_enabled, updated_at)
        values (1, 'permissive',
          '{"forex_major":100,"forex_minor":100,"gold":100,"index":100,"commodity":100,"stock":100,"crypto":100}',
          true, now());
      `.execute(db);
    },
  },
  '20261126_0950_jurisdiction_earn_penalty': {
    async up(db: Kysely<unknown>) {
      // Earn's principal early-redemption penalties: the custom profile starts like the permissive one.
      await sql`
        alter table jurisdiction_setting
          add column custom_earn_principal_penalty boolean not null default true;
      `.execute(db);
    },
  },
  '20261212_0900_jurisdiction_referral_incentives': {
    async up(db: Kysely<unknown>) {
      // Referral depth and promotional incentives: the custom profile starts like the permissive one.
      await sql`
        alter table jurisdiction_setting
          add column custom_referral_max_depth integer not null default 4
            check (custom_referral_max_depth between 0 and 4),
          add column custom_promo_incentives boolean not null default true;
      `.execute(db);
    },
  },
};
