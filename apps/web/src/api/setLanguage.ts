import type { Lang } from '@bourse/protocol';
import { useMutation } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiPost } from '../lib/api.ts';
import { changeLang } from '../lib/i18n.ts';
import { getToken } from '../lib/session.ts';

/** `POST web/setLanguage`: the server's messages (codes, mail) follow the customer's language. */
export function postSetLanguage(language: Lang): Promise<unknown> {
  return apiPost<unknown>('web/setLanguage', { language });
}

/** Switch the interface (remembered on this device) and, when logged in, tell the server too. */
export function useChangeLanguage(): (lang: Lang) => void {
  const { mutate } = useMutation({ mutationFn: postSetLanguage });
  return useCallback(
    (lang: Lang) => {
      void changeLang(lang).then(() => {
        if (getToken()) mutate(lang);
      });
    },
    [mutate],
  );
}
