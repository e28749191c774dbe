import type { JurisdictionData } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';

/** `GET web/getJurisdiction` (public): the active profile, which may turn up/down options off. */
export function fetchJurisdiction(): Promise<JurisdictionData> {
  return apiGet<JurisdictionData>('web/getJurisdiction');
}

export function useJurisdiction() {
  return useQuery({ queryKey: ['web/getJurisdiction'], queryFn: fetchJurisdiction, staleTime: 60_000 });
}
