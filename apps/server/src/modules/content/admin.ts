import {
  type AdminCategoryBody,
  type AdminCategoryData,
  type AdminCategoryDeleteBody,
  type AdminContentCreateBody,
  type AdminContentData,
  type AdminContentListQuery,
  type AdminContentPublishBody,
  type AdminContentUnpublishBody,
  type AdminContentUpdateBody,
  CONTENT_LIMITS,
  type ContentKind,
  type ContentState,
  type Paged,
} from '@bourse/protocol';
import { type Db, inTransaction, type Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { renderMarkdown } from './markdown.ts';
import { type CategoryRow, type ContentRow, findItem, listAll } from './repo.ts';
import type { Content } from './service.ts';
import { check } from './validate.ts';

const texts = (row: object, field: string) => {
  const r = row as Record<string, string>;
  return { en: r[`${field}_en`] ?? '', zh: r[`${field}_zh`] ?? '', ft: r[`${field}_ft`] ?? '' };
};

export function stateOf(row: ContentRow, now: Date): ContentState {
  if (row.status === 'draft') return 'draft';
  return row.published_at !== null && row.published_at > now ? 'scheduled' : 'published';
}

export function adminData(row: ContentRow, now: Date): AdminContentData {
  return {
    id: row.id,
    kind: row.kind as ContentKind,
    state: stateOf(row, now),
    title: texts(row, 'title'),
    summary: texts(row, 'summary'),
    body: texts(row, 'body'),
    category_id: row.category_id,
    image_url: row.image_url,
    link: row.link,
    sort: row.sort,
    published_at: row.published_at?.getTime() ?? null,
    demo: row.demo,
    created_at: row.created_at.getTime(),
    updated_at: row.updated_at.getTime(),
  };
}

export function categoryData(row: CategoryRow): AdminCategoryData {
  return {
    id: row.id,
    name: texts(row, 'name'),
    sort: row.sort,
    created_at: row.created_at.getTime(),
    updated_at: row.updated_at.getTime(),
  };
}

/** A reason typed by staff: trimmed, required where the action hides something from customers. */
function reasonOf(value: string | undefined, required: boolean): string | undefined {
  const reason = value?.trim() ?? '';
  if (required && reason.length === 0) refuse('FIELD_REQUIRED', { field: 'reason' });
  check(reason.length <= CONTENT_LIMITS.reasonMax, 'reason');
  return reason.length > 0 ? reason : undefined;
}

function pageOfQuery(query: { page?: string; page_size?: string }) {
  const page = Number(query.page ?? '1');
  const pageSize = Number(query.page_size ?? String(CONTENT_LIMITS.articlesPageSizeDefault));
  check(Number.isSafeInteger(page) && page >= 1 && page <= 1_000_000, 'page');
  check(
    Number.isSafeInteger(pageSize) && pageSize >= 1 && pageSize <= CONTENT_LIMITS.articlesPageSizeMax,
    'page_size',
  );
  return { page, pageSize };
}

export type ContentAdmin = ReturnType<typeof createContentAdmin>;

/**
 * The back office's content calls (`content.write`): every change runs in one transaction with its
 * audit record (who, what, before, after, why); the preview renders through the customers' sanitizer.
 */
export function createContentAdmin(deps: { db: Db; clock: Clock; audit: AuditLog; content: Content }) {
  const { db, clock, audit, content } = deps;

  async function audited(
    staff: StaffContext,
    action: string,
    work: (tx: Tx) => Promise<{ before?: ContentRow; after: ContentRow }>,
    reason?: string,
  ): Promise<AdminContentData> {
    const after = await inTransaction(db, async (tx) => {
      const change = await work(tx);
      await audit.record(tx, {
        actorId: staff.staffId,
        action,
        targetType: 'content_item',
        targetId: change.after.id,
        before: change.before,
        after: change.after,
        reason,
      });
      return change.after;
    });
    return adminData(after, clock.now());
  }

  return {
    async list(query: AdminContentListQuery): Promise<Paged<AdminContentData>> {
      const { page, pageSize } = pageOfQuery(query);
      const now = clock.now();
      const { total, rows } = await listAll(db, {
        kind: query.kind,
        state: query.state,
        now,
        offset: (page - 1) * pageSize,
        limit: pageSize,
      });
      return { total, page, page_size: pageSize, items: rows.map((row) => adminData(row, now)) };
    },

    async one(id: string): Promise<AdminContentData> {
      const row = await findItem(db, id);
      if (!row) refuse('NOT_FOUND');
      return adminData(row, clock.now());
    },

    create(staff: StaffContext, body: AdminContentCreateBody) {
      const { token: _t, lang: _l, rtoken: _r, ...input } = body;
      return audited(staff, 'content.create', async (tx) => ({
        after: await content.createArticle(input, tx),
      }));
    },

    update(staff: StaffContext, body: AdminContentUpdateBody) {
      const { token: _t, lang: _l, rtoken: _r, id, ...patch } = body;
      return audited(staff, 'content.update', (tx) => content.updateArticle(id, patch, tx));
    },

    publish(staff: StaffContext, body: AdminContentPublishBody) {
      const reason = reasonOf(body.reason, false);
      const action = body.publish_at ? 'content.schedule' : 'content.publish';
      return audited(
        staff,
        action,
        (tx) => content.publish(body.id, tx, { publish_at: body.publish_at }),
        reason,
      );
    },

    unpublish(staff: StaffContext, body: AdminContentUnpublishBody) {
      const reason = reasonOf(body.reason, true);
      return audited(staff, 'content.unpublish', (tx) => content.unpublish(body.id, tx), reason);
    },

    /** The same render customers get, so what staff preview is what customers will see. */
    preview: (markdown: string) => ({ html: renderMarkdown(markdown) }),

    async categories(): Promise<AdminCategoryData[]> {
      return (await content.categories.list()).map(categoryData);
    },

    async createCategory(staff: StaffContext, body: AdminCategoryBody): Promise<AdminCategoryData> {
      const row = await inTransaction(db, async (tx) => {
        const created = await content.categories.create(body, tx);
        await audit.record(tx, {
          actorId: staff.staffId,
          action: 'content.category.create',
          targetType: 'content_category',
          targetId: created.id,
          after: created,
        });
        return created;
      });
      return categoryData(row);
    },

    async updateCategory(staff: StaffContext, body: AdminCategoryBody): Promise<AdminCategoryData> {
      const row = await inTransaction(db, async (tx) => {
        const { before, after } = await content.categories.update(body, tx);
        await audit.record(tx, {
          actorId: staff.staffId,
          action: 'content.category.update',
          targetType: 'content_category',
          targetId: after.id,
          before,
          after,
        });
        return after;
      });
      return categoryData(row);
    },
    /** Deletes an empty help category with a reason (audited). */
    async deleteCategory(staff: StaffContext, body: AdminCategoryDeleteBody): Promise<{ id: string }> {
      const reason = body.reason.trim();
      if (reason === '') refuse('FIELD_REQUIRED', { field: 'reason' });
      await inTransaction(db, async (tx) => {
        const before = await content.categories.remove(body.id, tx);
        await audit.record(tx, {
          actorId: staff.staffId,
          action: 'content.category.delete',
          targetType: 'content_category',
          targetId: before.id,
          before,
          reason,
        });
      });
      return { id: body.id.trim() };
    },
  };
}
