import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { SEED_FEATURE_RULES, SEED_RETENTION_DAYS } from './seeds.ts';

/** Identity verification tables (range 1520–1549). Forward-only: a change is a new migration. */
export const verificationMigrations: Record<string, Migration> = {
  '20261126_1520_verification_init': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table verification_submission (
          id text primary key,
          customer_id text not null,
          tier text not null check (tier in ('primary', 'advanced', 'address')),
          state text not null check (state in ('under_review', 'approved', 'rejected', 'revision_requested')),
          round integer not null check (round >= 0),
          previous_id text references verification_submission (id),
          nationality text not null,
          real_name text check (length(real_name) <= 100),
          id_type text check (id_type in ('1', '2', '3', '4', '5')),
          id_number_sealed text,
          id_hash text,
          data jsonb not null,
          submitted_at timestamptz not null,
          decided_at timestamptz,
          decided_by text,
          first_approved_by text,
          first_approved_at timestamptz,
          check ((tier = 'primary') = (id_hash is not null and id_number_sealed is not null and real_name is not null and id_type is not null))
        );
        create index verification_submission_queue on verification_submission (submitted_at) where state = 'under_review';
        create index verification_submission_customer on verification_submission (customer_id, tier, submitted_at desc);
        create index verification_submission_id_hash on verification_submission (id_hash) where id_hash is not null;
        create unique index verification_identity_approved on verification_submission (id_hash)
          where tier = 'primary' and state = 'approved';
        create table verification_tier (
          customer_id text not null,
          tier text not null check (tier in ('primary', 'advanced', 'address')),
          state text not null check (state in ('under_review', 'approved', 'rejected', 'revision_requested')),
          submission_id text not null references verification_submission (id),
          updated_at timestamptz not null,
          primary key (customer_id, tier)
        );
        create table verification_document (
          submission_id text not null references verification_submission (id),
          slot text not null,
          file_id text not null,
          status text not null check (status in ('pending', 'approved', 'rejected', 'revision_requested')),
          reason_code text,
          note text not null default '' check (length(note) <= 500),
          primary key (submission_id, slot)
        );
        create index verification_document_file on verification_document (file_id);
        create table verification_feature_rule (
          profile text not null check (profile in ('permissive', 'eu_retail', 'custom')),
          feature text not null,
          tier text not null check (tier in ('none', 'primary', 'advanced', 'address')),
          updated_at timestamptz not null,
          updated_by text,
          primary key (profile, feature)
        );
        create table verification_profile (
          profile text primary key check (profile in ('permissive', 'eu_retail', 'custom')),
          document_retention_days integer not null check (document_retention_days between 30 and 3650),
          updated_at timestamptz not null,
          updated_by text
        );
        create table verification_setting (
          id integer primary key check (id = 1),
          four_eyes_advanced boolean not null,
          updated_at timestamptz not null,
          updated_by text
        );
      `.execute(db);
      for (const [profile, rules] of Object.entries(SEED_FEATURE_RULES)) {
        for (const [feature, tier] of Object.entries(rules)) {
          await sql`insert into verification_feature_rule (profile, feature, tier, updated_at)
                    values (${profile}, ${feature}, ${tier}, now())`.execute(db);
        }
        await sql`insert into verification_profile (profile, document_retention_days, updated_at)
                  values (${profile}, ${SEED_RETENTION_DAYS}, now())`.execute(db);
      }
      await sql`insert into verification_setting (id, four_eyes_advanced, updated_at) values (1, false, now())`.execute(
        db,
      );
    },
  },
};
