import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

export const contentMigrations: Record<string, Migration> = {
  '20261121_0300_content_init': {
    async up(db: Kysely<unknown>) {
      let table = db.schema
        .createTable('content_item')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('banner', 'news', 'announcement')`));
      for (const field of ['title', 'summary', 'body']) {
        for (const lang of ['en', 'zh', 'ft']) {
          table = table.addColumn(`${field}_${lang}`, 'text', (c) => c.notNull().defaultTo(''));
        }
      }
      await table
        .addColumn('image_url', 'text')
        .addColumn('link', 'text')
        .addColumn('status', 'text', (c) =>
          c.notNull().defaultTo('draft').check(sql`status in ('draft', 'published')`),
        )
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('published_at', 'timestamptz')
        .addColumn('demo', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
        .addCheckConstraint(
          'content_item_published_has_time',
          sql`status = 'draft' or published_at is not null`,
        )
        .execute();
      await db.schema
        .createIndex('content_item_public')
        .on('content_item')
        .columns(['kind', 'status', 'sort', 'published_at'])
        .execute();
    },
  },
  /** Help categories, more kinds, help articles' category. Scheduling reuses `published_at`. */
  '20261127_0100_content_help': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('content_category')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name_en', 'text', (c) => c.notNull())
        .addColumn('name_zh', 'text', (c) => c.notNull())
        .addColumn('name_ft', 'text', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('demo', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('created_at', 'timestamptz', (c) => c.notNull())
        .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
        .execute();
      await sql`alter table content_item drop constraint content_item_kind_check`.execute(db);
      await sql`alter table content_item add constraint content_item_kind_check check (kind in ('banner', 'news', 'announcement', 'help', 'about', 'security', 'benefit', 'text'))`.execute(
        db,
      );
      await db.schema
        .alterTable('content_item')
        .addColumn('category_id', 'text', (c) => c.references('content_category.id'))
        .execute();
      await sql`alter table content_item add constraint content_item_help_has_category check ((kind = 'help') = (category_id is not null))`.execute(
        db,
      );
      await db.schema.createIndex('content_item_category').on('content_item').column('category_id').execute();
    },
  },
};
