import type { UpdatePasswordBody } from '@bourse/protocol';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api.ts';

export type UpdatePasswordInput = Omit<UpdatePasswordBody, 'token' | 'lang' | 'rtoken'>;

/**
 * `POST web/updatePassword`: change (old_password; ends the customer's other sessions) or reset
 * by code (account + code, scene `reset`).
 */
export function postUpdatePassword(input: UpdatePasswordInput): Promise<unknown> {
  return apiPost<unknown>('web/updatePassword', input);
}

export function useUpdatePassword() {
  return useMutation({ mutationFn: postUpdatePassword });
}
