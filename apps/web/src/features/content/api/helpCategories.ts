import type { HelpCategoryData } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';
import { useLang } from '../../../lib/i18n.ts';

/** `GET web/getHelpCategories`: the help centre's topics in order, with their article counts. */
export function useHelpCategories() {
  const lang = useLang();
  return useQuery({
    queryKey: ['web/getHelpCategories', lang],
    queryFn: () => apiGet<HelpCategoryData[]>('web/getHelpCategories', { lang }),
    staleTime: 60_000,
  });
}
