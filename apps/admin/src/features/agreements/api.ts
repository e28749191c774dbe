import type {
  AdminAgreementDraftBody,
  AdminAgreementsData,
  AdminAgreementVersionData,
  AdminAgreementVersionRow,
  AgreementKind,
} from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../app/api.ts';

/** The back office's agreement calls (packages/protocol/src/agreements.ts), all under `content.write`. */
export const KEYS = {
  list: ['agreements', 'list'] as const,
  version: (kind: AgreementKind, version: number) => ['agreements', 'version', kind, version] as const,
};

export function useAgreements() {
  return useQuery({ queryKey: KEYS.list, queryFn: () => api.get<AdminAgreementsData>('agreements') });
}

export function useAgreementVersion(key: { kind: AgreementKind; version: number } | null) {
  return useQuery({
    queryKey: key ? KEYS.version(key.kind, key.version) : ['agreements', 'version', 'none'],
    queryFn: () =>
      api.get<AdminAgreementVersionData>('agreements/version', {
        kind: key?.kind ?? '',
        version: String(key?.version ?? ''),
      }),
    enabled: key !== null,
  });
}

export type DraftTexts = Omit<AdminAgreementDraftBody, 'kind' | 'lang' | 'token' | 'rtoken'>;

export function saveDraft(kind: AgreementKind, texts: DraftTexts) {
  return api.post<AdminAgreementVersionRow>('agreements/draft', { kind, ...texts });
}

/** `effective_at` goes as a JSON number (ms); the version as the decimal string the schema names. */
export function publishVersion(body: {
  kind: AgreementKind;
  version: number;
  effective_at: number;
  reason: string;
}) {
  return api.postJson<AdminAgreementVersionRow>('agreements/publish', {
    ...body,
    version: String(body.version),
  });
}
