import type { ContentPage, ListedKind } from '@bourse/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';
import { useLang } from '../../../lib/i18n.ts';

/** `GET web/getTextsList?kind=`: published entries of one kind (help of one category), in the reader's language. */
export function useEntries(options: { kind?: ListedKind; category?: string | null; pageSize: number }) {
  const lang = useLang();
  const category = options.category ?? undefined;
  return useQuery({
    queryKey: ['web/getTextsList', lang, options.kind ?? 'all', category ?? '', options.pageSize],
    queryFn: () =>
      apiGet<ContentPage>('web/getTextsList', {
        kind: options.kind,
        category,
        page: 1,
        page_size: options.pageSize,
        lang,
      }),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
