import type { LoginBody, LoginData } from '@bourse/protocol';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api.ts';

export type UserLoginInput = Omit<LoginBody, 'token' | 'lang' | 'rtoken'>;

/** `POST web/userLogin`: by password, or by a `login` code for email and phone accounts. */
export function postUserLogin(input: UserLoginInput): Promise<LoginData> {
  return apiPost<LoginData>('web/userLogin', input);
}

export function useUserLogin() {
  return useMutation({ mutationFn: postUserLogin });
}
