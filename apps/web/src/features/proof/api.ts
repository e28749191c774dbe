import type { GetProofLeafData, GetProofRootsData } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';

/** `GET web/getProofRoots`: the newest published root of every currency (public). */
export function useProofRoots() {
  return useQuery({
    queryKey: ['web/getProofRoots'],
    queryFn: () => apiGet<GetProofRootsData>('web/getProofRoots'),
    staleTime: 60_000,
  });
}

/** `GET web/getProofLeaf`: the customer's own leaf and path per currency. */
export function useProofLeaves() {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getProofLeaf', token],
    queryFn: () => apiGet<GetProofLeafData>('web/getProofLeaf'),
    enabled: token !== null,
    staleTime: 60_000,
  });
}
