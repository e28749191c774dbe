import type {
  AcceptAgreementData,
  AgreementData,
  AgreementKind,
  AgreementStatusData,
} from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../../lib/api.ts';
import { useLang } from '../../../lib/i18n.ts';
import { useToken } from '../../../lib/session.ts';

/**
 * The agreement calls (packages/protocol/src/agreements.ts). Texts come in the request's language,
 * so the language is part of the keys; the status depends on who asks, so the token is too.
 */

/** `GET web/getAgreement` (open): the version in force, or the one named. */
export function useAgreement(kind: AgreementKind, version: string | null) {
  const lang = useLang();
  return useQuery({
    queryKey: ['web/getAgreement', kind, version, lang],
    queryFn: () => apiGet<AgreementData>('web/getAgreement', { kind, version: version ?? undefined, lang }),
    staleTime: 60_000,
  });
}

/** `GET web/agreementStatus` (login): the versions in force I have not accepted. */
export function useAgreementStatus(options: { enabled?: boolean } = {}) {
  const lang = useLang();
  const token = useToken();
  return useQuery({
    queryKey: ['web/agreementStatus', token, lang],
    queryFn: () => apiGet<AgreementStatusData>('web/agreementStatus', { lang }),
    enabled: token !== null && options.enabled !== false,
    staleTime: 60_000,
    refetchInterval: 10 * 60_000,
  });
}

/** `POST web/acceptAgreement` (login, idempotent); the status is asked again after. */
export function useAcceptAgreement() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { kind: AgreementKind; version: number }) =>
      apiPost<AcceptAgreementData>('web/acceptAgreement', {
        kind: input.kind,
        version: String(input.version),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['web/agreementStatus'] }),
  });
}
