import type { RegisterBody, RegisterData } from '@bourse/protocol';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api.ts';

export type UserRegisterInput = Omit<RegisterBody, 'token' | 'lang' | 'rtoken'>;

/** `POST web/userRegister`: answers `token_h5`, which the app stores as the token. */
export function postUserRegister(input: UserRegisterInput): Promise<RegisterData> {
  return apiPost<RegisterData>('web/userRegister', input);
}

export function useUserRegister() {
  return useMutation({ mutationFn: postUserRegister });
}
