import type { BankRechargeData, RechargeAddressData, RechargeChannel } from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';
import { uploaderFor } from '../../shared/upload/api.ts';

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

/**
 * The remittance proof goes through the one upload pipeline (`web/uploadDocument`, purpose
 * `deposit_proof`): checked by content, re-encoded without metadata, stored encrypted; the deposit
 * then names the stored file.
 */
export const uploadDepositProof = uploaderFor('deposit_proof');

/** `POST web/bankRecharge` with the uploaded proof's `file_id` as `proof_id`. */
export function useBankRecharge() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { currency: string; amount: string; reference: string; proof_id: string }) =>
      apiPost<BankRechargeData>('web/bankRecharge', input),
    onSuccess: () => client.invalidateQueries({ queryKey: ['web/getRecords'] }),
  });
}
