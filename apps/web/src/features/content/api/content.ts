import type { ArticleKind, ContentData, ContentPage } from '@bourse/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';
import { useLang } from '../../../lib/i18n.ts';

/** `GET web/getBanners`: published home banners, in order, in the reader's language. */
export function useBanners() {
  const lang = useLang();
  return useQuery({
    queryKey: ['web/getBanners', lang],
    queryFn: () => apiGet<ContentData[]>('web/getBanners', { lang }),
    staleTime: 60_000,
  });
}

/** `GET web/getTextsList` (spec 7): published news and announcements, newest first. */
export function useArticles(options: { kind?: ArticleKind; pageSize: number }) {
  const lang = useLang();
  return useQuery({
    queryKey: ['web/getTextsList', lang, options.kind ?? 'all', options.pageSize],
    queryFn: () =>
      apiGet<ContentPage>('web/getTextsList', {
        kind: options.kind,
        page: 1,
        page_size: options.pageSize,
        lang,
      }),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

/** `GET web/getArticle`: one published entry (an article or a banner's detail). */
export function useArticle(id: string | null) {
  const lang = useLang();
  return useQuery({
    queryKey: ['web/getArticle', lang, id],
    queryFn: () => apiGet<ContentData>('web/getArticle', { id: id as string, lang }),
    enabled: id !== null,
    staleTime: 60_000,
  });
}
