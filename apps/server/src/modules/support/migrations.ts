import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The support tables (README.md, "Tables"). The status machine is mirrored by CHECKs: a resolved
 * conversation has its resolved time and an unresolved one none; a note is staff-only; a staff
 * message names its author; a message carries text or a file.
 */
export const supportMigrations: Record<string, Migration> = {
  '20261215_0900_support_init': {
    async up(db: Kysely<unknown>) {
      await sql`
        create table support_settings (
          id text primary key check (id = 'support'),
          hours text not null check (length(hours) between 4 and 200),
          updated_at timestamptz not null,
          updated_by text
        );

        create table support_agent (
          staff_id text primary key,
          code text not null unique check (code ~ '^[A-Z0-9-]{4,16}$'),
          display_name text not null check (length(display_name) between 1 and 60),
          created_at timestamptz not null
        );

        create table support_conversation (
          id text primary key,
          customer_id text not null,
          subject text not null check (length(subject) between 1 and 120),
          ref_type text check (ref_type in ('c2c_order', 'other')),
          ref_id text,
          status text not null check (status in ('open', 'pending', 'resolved')),
          assignee_id text,
          lang text not null check (lang in ('en', 'zh', 'ft')),
          message_seq integer not null default 0 check (message_seq >= 0),
          created_at timestamptz not null,
          updated_at timestamptz not null,
          first_response_at timestamptz,
          resolved_at timestamptz,
          check ((ref_type is null) = (ref_id is null)),
          check ((status = 'resolved') = (resolved_at is not null)),
          check (first_response_at is null or first_response_at >= created_at)
        );
        create index support_conversation_customer on support_conversation (customer_id, updated_at desc);
        create index support_conversation_queue on support_conversation (status, assignee_id, updated_at);

        create table support_message (
          id text primary key,
          conversation_id text not null references support_conversation (id),
          seq integer not null check (seq > 0),
          kind text not null check (kind in ('customer', 'staff', 'note')),
          staff_id text,
          body text,
          file_id text,
          out_of_hours boolean not null default false,
          at timestamptz not null,
          unique (conversation_id, seq),
          check ((kind = 'customer') = (staff_id is null)),
          check (body is not null or file_id is not null),
          check (kind <> 'note' or file_id is null)
        );

        create table support_canned (
          id text primary key,
          title text not null check (length(title) between 1 and 80),
          body_en text not null,
          body_zh text not null,
          body_ft text not null,
          deleted_at timestamptz,
          updated_at timestamptz not null,
          updated_by text
        );
      `.execute(db);
    },
  },
};
