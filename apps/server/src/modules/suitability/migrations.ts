import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { DEFAULT_CAPS, DEFAULT_SCORING } from './defaults.ts';

export const suitabilityMigrations: Record<string, Migration> = {
  '20261126_0900_suitability_init': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table suitability_scoring_version (
          version integer primary key check (version >= 1),
          scoring jsonb not null,
          created_at timestamptz not null,
          created_by text,
          reason text not null
        );
        create table suitability_cap (
          profile text not null check (profile in ('permissive', 'eu_retail', 'custom')),
          rating text not null check (rating in ('not_assessed', 'conservative', 'balanced', 'aggressive')),
          product text not null check (product in ('contracts', 'options', 'earn', 'launchpad', 'loans')),
          max_leverage integer check (max_leverage between 0 and 100),
          max_amount numeric(20, 0) not null check (max_amount >= 0),
          updated_at timestamptz not null,
          updated_by text,
          primary key (profile, rating, product),
          check ((product = 'contracts') = (max_leverage is not null))
        );
        create table suitability_assessment (
          id text primary key,
          customer_id text not null,
          scoring_version integer not null references suitability_scoring_version (version),
          answers jsonb not null,
          points integer not null,
          points_rating text not null check (points_rating in ('conservative', 'balanced', 'aggressive')),
          ceiling text check (ceiling in ('conservative', 'balanced')),
          rating text not null check (rating in ('conservative', 'balanced', 'aggressive')),
          taken_at timestamptz not null,
          retake_after timestamptz not null
        );
        create index suitability_assessment_customer on suitability_assessment (customer_id, taken_at desc, id desc);
      `.execute(db);
      // Version 1 and the seeded caps (defaults.ts; from here on the database is the truth).
      await sql`insert into suitability_scoring_version (version, scoring, created_at, created_by, reason)
        values (1, ${JSON.stringify(DEFAULT_SCORING)}::jsonb, now(), null, 'shipped with the platform')`.execute(
        db,
      );
      for (const [profile, byRating] of Object.entries(DEFAULT_CAPS))
        for (const [rating, byProduct] of Object.entries(byRating))
          for (const [product, cap] of Object.entries(byProduct))
            await sql`insert into suitability_cap (profile, rating, product, max_leverage, max_amount, updated_at)
              values (${profile}, ${rating}, ${product}, ${cap.max_leverage}, ${cap.max_amount}, now())`.execute(
              db,
            );
    },
  },
};
