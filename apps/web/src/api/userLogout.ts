import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../lib/api.ts';
import { i18n } from '../lib/i18n.ts';
import { forgetReturnTo } from '../lib/returnTo.ts';
import { clearToken } from '../lib/session.ts';

/** `POST web/userLogout`: ends this session on the server. */
export function postUserLogout(): Promise<unknown> {
  return apiPost<unknown>('web/userLogout');
}

/**
 * Logs out. The token is forgotten locally even when the server cannot be reached: the customer
 * asked to leave, and a token the app no longer holds cannot be used from this device. On a page
 * that needs login the access guard then shows /login; an open page stays.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postUserLogout,
    onSettled: () => {
      forgetReturnTo();
      clearToken();
      queryClient.clear();
      notifications.show({ color: 'teal', message: i18n.t('settings.loggedOut'), autoClose: 3000 });
    },
  });
}
