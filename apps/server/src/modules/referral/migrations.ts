import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The referral tables (README.md, "Tables"). CHECKs mirror the rules: depth 0…4 with one share of
 * 0…10 000 bps per level (their sum ≤ 100 % is checked by `referralSettingsProblem` before a
 * write: a CHECK cannot sum an array); an income line never above its fee, paid ⇔ it has its ledger
 * entry, excluded ⇔ it names why; one line per (source, source id, invitee, level).
 */
export const referralMigrations: Record<string, Migration> = {
  '20261227_0900_referral_init': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table referral_settings (
          id text primary key check (id = 'referral'),
          enabled boolean not null,
          depth integer not null check (depth between 0 and 4),
          shares_bps integer[] not null,
          updated_at timestamptz not null,
          updated_by text,
          check (cardinality(shares_bps) = depth),
          check (0 <= all (shares_bps) and 10000 >= all (shares_bps))
        );
        insert into referral_settings (id, enabled, depth, shares_bps, updated_at, updated_by)
        values ('referral', true, 1, '{2000}', now(), null);

        create table referral_cursor (
          symbol text primary key,
          seq bigint not null,
          engine_trade_id bigint not null,
          updated_at timestamptz not null
        );

        create table referral_income (
          id text primary key,
          inviter_id text not null,
          invitee_id text not null,
          level integer not null check (level between 1 and 4),
          status text not null check (status in ('paid', 'excluded')),
          excluded_reason text check (excluded_reason in ('self', 'same_device', 'same_payout')),
          source text not null check (source in ('spot_trade')),
          source_id text not null,
          fee_entry_id text not null,
          fee_currency text not null,
          fee_units numeric(38,0) not null check (fee_units > 0),
          share_bps integer not null check (share_bps between 0 and 10000),
          amount_units numeric(38,0) not null check (amount_units > 0 and amount_units <= fee_units),
          income_entry_id text unique,
          created_at timestamptz not null,
          unique (source, source_id, invitee_id, level),
          check ((status = 'paid') = (income_entry_id is not null)),
          check ((status = 'excluded') = (excluded_reason is not null))
        );
        create index referral_income_inviter on referral_income (inviter_id, created_at desc);
        create index referral_income_invitee on referral_income (invitee_id, created_at desc);

        create table referral_flag (
          id text primary key,
          inviter_id text not null,
          invitee_id text not null,
          reason text not null check (reason in ('self', 'same_device', 'same_payout')),
          detail text not null,
          flagged_at timestamptz not null,
          cleared_at timestamptz,
          cleared_by text,
          clear_reason text,
          unique (inviter_id, invitee_id, reason),
          check ((cleared_at is null) = (cleared_by is null)),
          check ((cleared_at is null) = (clear_reason is null))
        );
      `.execute(db);
    },
  },
};
