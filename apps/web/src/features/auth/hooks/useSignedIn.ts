import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { postSetLanguage } from '../../../api/setLanguage.ts';
import { STORAGE_KEYS } from '../../../config/app.ts';
import { currentLang } from '../../../lib/i18n.ts';
import { takeReturnTo } from '../../../lib/returnTo.ts';
import { setToken } from '../../../lib/session.ts';
import { session } from '../../../lib/storage.ts';

/**
 * After any way of logging in: keep the token, tell the server the interface language (so its
 * messages follow), greet, and go where the customer was heading.
 */
export function useSignedIn(): (token: string, message: string) => void {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    (token: string, message: string) => {
      setToken(token);
      session.remove(STORAGE_KEYS.demoExpired);
      queryClient.clear();
      postSetLanguage(currentLang()).catch((error: unknown) => {
        console.warn('[auth] could not store the language on the server', error);
      });
      notifications.show({ color: 'teal', message, autoClose: 4000 });
      navigate(takeReturnTo('/'), { replace: true });
    },
    [navigate, queryClient],
  );
}
