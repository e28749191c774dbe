import type {
  AdminCategoryData,
  AdminContentData,
  AdminContentPreviewData,
  ContentKind,
  ContentState,
  ContentTexts,
  Paged,
} from '@bourse/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../app/api.ts';

/**
 * The back office's content calls (packages/protocol/src/content.ts, "back office"): every one needs
 * `content.write`; changes are audited by the server.
 */
export const KEYS = {
  all: ['content'] as const,
  articles: (f: ArticlesFilter) => ['content', 'articles', f] as const,
  categories: ['content', 'categories'] as const,
};

export type ArticlesFilter = { kind?: ContentKind; state?: ContentState; page: number; page_size: number };

export function useArticles(filter: ArticlesFilter) {
  return useQuery({
    queryKey: KEYS.articles(filter),
    queryFn: () => api.get<Paged<AdminContentData>>('content/articles', filter),
    placeholderData: keepPreviousData,
  });
}

export function useCategories() {
  return useQuery({
    queryKey: KEYS.categories,
    queryFn: () => api.get<{ items: AdminCategoryData[] }>('content/categories').then((r) => r.items),
  });
}

/** What the editor sends: every text in three languages (markdown bodies). */
export type ArticleDraft = {
  kind: ContentKind;
  category_id: string | null;
  sort: number;
  link: string | null;
  image_url: string | null;
  title: ContentTexts;
  summary: ContentTexts;
  body: ContentTexts;
};

export const createArticle = (draft: ArticleDraft) =>
  api.postJson<AdminContentData>('content/articles/create', draft);
export const updateArticle = (id: string, draft: ArticleDraft) =>
  api.postJson<AdminContentData>('content/articles/update', { id, ...draft });
export const publishArticle = (body: { id: string; publish_at: number | null; reason: string }) =>
  api.postJson<AdminContentData>('content/articles/publish', body);
export const unpublishArticle = (body: { id: string; reason: string }) =>
  api.postJson<AdminContentData>('content/articles/unpublish', body);
export const previewMarkdown = (markdown: string) =>
  api.postJson<AdminContentPreviewData>('content/preview', { markdown });
export const deleteCategory = (body: { id: string; reason: string }) =>
  api.postJson<{ id: string }>('content/categories/delete', body);
export const saveCategory = (
  mode: 'create' | 'update',
  body: { id: string; name: ContentTexts; sort: number },
) => api.postJson<AdminCategoryData>(`content/categories/${mode}`, body);
