import type {
  BindContactData,
  CodeScene,
  DevicesData,
  GetCodeData,
  SecurityCenterData,
} from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiGet, apiPost } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';

/** The profile and security centre's calls (docs/api.md, "Profile and security centre"). */

export const securityKey = (token: string | null) => ['web/securityCenter', token] as const;

/** `GET web/securityCenter`: the score, its items, the next step and the profile settings. */
export function useSecurityCenter() {
  const token = useToken();
  return useQuery({
    queryKey: securityKey(token),
    queryFn: () => apiGet<SecurityCenterData>('web/securityCenter'),
    enabled: token !== null,
  });
}

/** `GET web/devices`: the signed-in sessions, this one marked. */
export function useDevices() {
  const token = useToken();
  return useQuery({
    queryKey: ['web/devices', token],
    queryFn: () => apiGet<DevicesData>('web/devices'),
    enabled: token !== null,
  });
}

/** A change that moves the score or the profile: everything shown is read again after it. */
function useChange<I extends Record<string, string>, O>(call: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => apiPost<O>(call, input),
    onSuccess: () => client.invalidateQueries(),
  });
}

export const useSetUsername = () => useChange<{ name: string }, { name: string }>('web/setUsername');
export const useBindContact = () =>
  useChange<
    { type: 'email' | 'phone'; account: string; area_code?: string; code: string; old_code?: string },
    BindContactData
  >('web/bindContact');
export const useSetQuestions = () =>
  useChange<{ password: string; answer1: string; answer2: string; answer3: string }, unknown>(
    'web/setSecurityQuestions',
  );
export const useSetPhrase = () =>
  useChange<{ password: string; phrase: string }, { phrase: string }>('web/setAntiPhishing');
export const useRevokeDevice = () => useChange<{ id: string }, { ended: number }>('web/revokeDevice');
export const useRevokeOthers = () =>
  useChange<Record<string, never>, { ended: number }>('web/revokeOtherDevices');

/** `GET web/getCode` for the bind (new contact) and unbind (current contact) scenes. */
export function sendCode(input: {
  account: string;
  area_code?: string;
  scene: CodeScene;
}): Promise<GetCodeData> {
  return apiGet<GetCodeData>('web/getCode', input);
}

/** The server's refusal in its own localized words (other failures were shown by the client). */
export function refusalOf(error: unknown): string | null {
  return error instanceof ApiError && error.kind === 'refused' ? error.message : null;
}

/** The field a refusal names (`params.field`), e.g. which of two codes was wrong. */
export function refusedField(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.kind !== 'refused') return null;
  const field = error.params?.field;
  return typeof field === 'string' ? field : null;
}
