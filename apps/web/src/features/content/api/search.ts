import type { ContentPage } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';
import { useLang } from '../../../lib/i18n.ts';

export const SEARCH_PAGE = 20;

/** `GET web/searchContent`: entries whose title or text in the reader's language contains `q` (Chinese too). */
export function useContentSearch(q: string) {
  const lang = useLang();
  const text = q.trim();
  return useQuery({
    queryKey: ['web/searchContent', lang, text],
    queryFn: () => apiGet<ContentPage>('web/searchContent', { q: text, page_size: SEARCH_PAGE, lang }),
    enabled: text.length > 0,
    staleTime: 30_000,
  });
}
