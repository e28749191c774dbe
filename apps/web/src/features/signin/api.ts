import type { SigninClaimData, SigninInfoData } from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';

/**
 * The sign-in reward's calls (packages/protocol/src/signin.ts, docs/api.md "Sign-in"): `GET
 * web/signin` is open (the programme as data; with a session, my streak too), `POST web/signin`
 * signs in for today.
 */

const INFO = 'web/signin';

/** `GET web/signin`: keyed by the session so logging in or out refetches my side. */
export function useSigninInfo() {
  const token = useToken();
  return useQuery({
    queryKey: [INFO, token],
    queryFn: () => apiGet<SigninInfoData>(INFO),
    refetchInterval: 60_000,
  });
}

/** `POST web/signin`: once per customer-day; the page's data is refetched after it. */
export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost<SigninClaimData>(INFO),
    onSettled: () => client.invalidateQueries({ queryKey: [INFO] }),
  });
}
