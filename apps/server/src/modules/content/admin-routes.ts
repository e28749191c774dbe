import {
  AdminCategoriesQuery,
  AdminCategoryBody,
  AdminCategoryDeleteBody,
  AdminContentCreateBody,
  AdminContentIdQuery,
  AdminContentListQuery,
  AdminContentPreviewBody,
  AdminContentPublishBody,
  AdminContentUnpublishBody,
  AdminContentUpdateBody,
} from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../http/envelope.ts';
import { staffOf } from '../../http/request.ts';
import type { ContentAdmin } from './admin.ts';

/** Back-office calls under /api/admin (`content.write`): articles, help categories, the preview; changes audited. */
export function contentAdminRoutes(admin: ContentAdmin) {
  return async (app: FastifyInstance) => {
    const tags = ['admin'];
    const config = { permission: 'content.write' as const };

    app.get(
      '/content/articles',
      {
        schema: { tags, summary: 'Every entry by kind and state', querystring: AdminContentListQuery },
        config,
      },
      async (request) => ok(request, await admin.list(request.query as AdminContentListQuery)),
    );
    app.get(
      '/content/article',
      { schema: { tags, summary: 'One entry in every language', querystring: AdminContentIdQuery }, config },
      async (request) => ok(request, await admin.one((request.query as AdminContentIdQuery).id)),
    );
    const post = <B>(
      path: string,
      summary: string,
      body: unknown,
      run: (request: Parameters<typeof staffOf>[0], body: B) => Promise<unknown> | unknown,
    ) =>
      app.post(path, { schema: { tags, summary, body: body as object }, config }, async (request) =>
        ok(request, await run(request, request.body as B)),
      );
    post<AdminContentCreateBody>(
      '/content/articles/create',
      'A new draft (audited)',
      AdminContentCreateBody,
      (r, b) => admin.create(staffOf(r), b),
    );
    post<AdminContentUpdateBody>(
      '/content/articles/update',
      'Change an entry (audited)',
      AdminContentUpdateBody,
      (r, b) => admin.update(staffOf(r), b),
    );
    post<AdminContentPublishBody>(
      '/content/articles/publish',
      'Publish now or at publish_at (audited)',
      AdminContentPublishBody,
      (r, b) => admin.publish(staffOf(r), b),
    );
    post<AdminContentUnpublishBody>(
      '/content/articles/unpublish',
      'Back to draft, with a reason (audited)',
      AdminContentUnpublishBody,
      (r, b) => admin.unpublish(staffOf(r), b),
    );
    post<AdminContentPreviewBody>(
      '/content/preview',
      'Markdown rendered through the customers’ sanitizer',
      AdminContentPreviewBody,
      (_r, b) => admin.preview(b.markdown),
    );
    app.get(
      '/content/categories',
      { schema: { tags, summary: 'Help categories', querystring: AdminCategoriesQuery }, config },
      async (request) => ok(request, { items: await admin.categories() }),
    );
    post<AdminCategoryBody>(
      '/content/categories/create',
      'A new help category (audited)',
      AdminCategoryBody,
      (r, b) => admin.createCategory(staffOf(r), b),
    );
    post<AdminCategoryBody>(
      '/content/categories/update',
      'Rename or re-sort a category (audited)',
      AdminCategoryBody,
      (r, b) => admin.updateCategory(staffOf(r), b),
    );
    post<AdminCategoryDeleteBody>(
      '/content/categories/delete',
      'Delete an empty help category, with a reason (audited)',
      AdminCategoryDeleteBody,
      (r, b) => admin.deleteCategory(staffOf(r), b),
    );
  };
}
