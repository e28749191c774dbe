import type { ApiKeyCreatedData, ApiKeyData, ApiKeysData } from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';

const KEYS = 'web/getApiKeys';

/** `GET web/getApiKeys`: my keys, never their secrets. */
export function useApiKeys() {
  const token = useToken();
  return useQuery({
    queryKey: [KEYS, token],
    queryFn: () => apiGet<ApiKeysData>(KEYS),
    enabled: token !== null,
  });
}

export type CreateKeyInput = {
  label: string;
  permission: 'read' | 'trade';
  ips: string;
  expires_days: string;
  trade_password: string;
  google_code?: string;
};

/** `POST web/createApiKey`: the answer carries the secret, shown once. */
export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateKeyInput) =>
      apiPost<ApiKeyCreatedData>('web/createApiKey', input as Record<string, string>),
    onSuccess: () => client.invalidateQueries({ queryKey: [KEYS] }),
  });
}

/** `POST web/revokeApiKey`. */
export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiPost<ApiKeyData>('web/revokeApiKey', { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: [KEYS] }),
  });
}

/** `GET web/hasTpassword`: whether the trade password and the Google code are set (the form asks for them). */
export function useStepUpStatus() {
  const token = useToken();
  return useQuery({
    queryKey: ['web/hasTpassword', token],
    queryFn: () => apiGet<{ transaction_password: '0' | '1'; google: '0' | '1' }>('web/hasTpassword'),
    enabled: token !== null,
  });
}
