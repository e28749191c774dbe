import type {
  BankRechargeData,
  Envelope,
  RechargeAddressData,
  RechargeChannel,
  UploadProofData,
} from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_BASE } from '../../config/app.ts';
import { ApiError, apiGet, apiPost, newRtoken } from '../../lib/api.ts';
import { currentLang } from '../../lib/i18n.ts';
import { getToken, useToken } from '../../lib/session.ts';

/** `GET web/getRechargeChannels`: open/closed, minimum, confirmations — shown before the customer acts. */
export function useChannels() {
  return useQuery({
    queryKey: ['web/getRechargeChannels'],
    queryFn: () => apiGet<RechargeChannel[]>('web/getRechargeChannels'),
    staleTime: 30_000,
  });
}

/** `GET web/getRechargeAddress` (only for an open channel; a closed one is shown as closed instead). */
export function useDepositAddress(currency: string, chain: string | null, enabled: boolean) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getRechargeAddress', token, currency, chain],
    queryFn: () => apiGet<RechargeAddressData>('web/getRechargeAddress', { currency, chain }),
    enabled: enabled && token !== null && chain !== null,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** `POST web/uploadRechargeProof`: the raw image body (checked by content on the server). */
export async function uploadProof(file: File): Promise<UploadProofData> {
  const search = new URLSearchParams({ token: getToken() ?? '', lang: currentLang(), rtoken: newRtoken() });
  const response = await fetch(`${API_BASE}/web/uploadRechargeProof?${search.toString()}`, {
    method: 'POST',
    headers: { 'Content-Type': file.type || 'application/octet-stream', Accept: 'application/json' },
    body: file,
    credentials: 'same-origin',
  });
  const envelope = (await response.json()) as Envelope<UploadProofData>;
  if (envelope.code !== 1) throw new ApiError('refused', envelope.msg, envelope);
  return envelope.data;
}

/** `POST web/bankRecharge`. */
export function useBankRecharge() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { currency: string; amount: string; reference: string; proof_id: string }) =>
      apiPost<BankRechargeData>('web/bankRecharge', input),
    onSuccess: () => client.invalidateQueries({ queryKey: ['web/getRecords'] }),
  });
}
