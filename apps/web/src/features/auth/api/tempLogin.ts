import type { TempLoginData } from '@bourse/protocol';
import { useMutation } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';

/** `GET web/tempLogin`: a new demo account with virtual funds and an expiry. */
export function fetchTempLogin(): Promise<TempLoginData> {
  return apiGet<TempLoginData>('web/tempLogin');
}

export function useTempLogin() {
  return useMutation({ mutationFn: fetchTempLogin });
}
