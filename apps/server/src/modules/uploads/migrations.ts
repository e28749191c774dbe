import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Uploaded documents (range 1500–1519). Forward-only: a change is a new migration. */
export const uploadsMigrations: Record<string, Migration> = {
  '20261126_1500_uploads_init': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table uploads_file (
          id text primary key,
          customer_id text not null,
          purpose text not null check (purpose ~ '^[a-z_]{1,32}$'),
          mime text not null check (mime in ('image/jpeg', 'image/png')),
          width integer not null check (width > 0),
          height integer not null check (height > 0),
          size integer not null check (size > 0),
          sha256 text not null check (sha256 ~ '^[0-9a-f]{64}$'),
          source_sha256 text not null check (source_sha256 ~ '^[0-9a-f]{64}$'),
          key_ref text not null,
          iv bytea,
          tag bytea,
          ciphertext bytea,
          created_at timestamptz not null,
          attached_at timestamptz,
          attached_ref text,
          retain_until timestamptz,
          deleted_at timestamptz,
          delete_reason text check (delete_reason in ('unattached', 'retention')),
          check ((attached_at is null) = (attached_ref is null)),
          check ((deleted_at is null) = (delete_reason is null)),
          check (deleted_at is not null or (iv is not null and tag is not null and ciphertext is not null)),
          check (deleted_at is null or (iv is null and tag is null and ciphertext is null))
        );
        create index uploads_file_customer on uploads_file (customer_id, created_at desc);
        create index uploads_file_sha on uploads_file (sha256);
        create index uploads_file_source_sha on uploads_file (source_sha256);
        create index uploads_file_unattached on uploads_file (created_at)
          where deleted_at is null and attached_at is null;
        create index uploads_file_retention on uploads_file (retain_until)
          where deleted_at is null and retain_until is not null;
      `.execute(db);
    },
  },
};
