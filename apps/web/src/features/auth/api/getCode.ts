import type { CodeScene, GetCodeData } from '@bourse/protocol';
import { useMutation } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';

/** GetCodeQuery's fields (its static type widens `scene` to never, so it is spelled out here). */
export type GetCodeInput = { account: string; area_code?: string; scene: CodeScene };

/** `GET web/getCode`: sends a code; answers how long it lives and when another may be asked for. */
export function fetchCode(input: GetCodeInput): Promise<GetCodeData> {
  return apiGet<GetCodeData>('web/getCode', input);
}

/** A GET, but it sends a message: a mutation, never cached or refetched. */
export function useGetCode() {
  return useMutation({ mutationFn: fetchCode });
}
