import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';

export const BANK_FIELDS = [
  'bank_name',
  'bank_account',
  'card_number',
  'swift_code',
  'routing_number',
  'bank_address',
  'bank_phone',
  'payee_name',
  'payee_phone',
  'payee_address',
] as const;
export type BankField = (typeof BANK_FIELDS)[number];

/** What the server shows of a card: masked number, SWIFT and routing. */
export type BankCard = {
  id: string;
  bank_name: string;
  bank_account: string;
  card_number: string;
  swift_code: string;
  routing_number: string;
  payee_name: string;
  label: string;
  created_at: number;
};

/** `GET web/getBankList`. */
export function useBanks() {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getBankList', token],
    queryFn: () => apiGet<{ list: BankCard[]; max: number }>('web/getBankList'),
    enabled: token !== null,
  });
}

/** `POST web/addBank` (the card is sealed at rest on the server). */
export function useAddBank() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Record<BankField, string>) => apiPost<BankCard>('web/addBank', input),
    onSuccess: () => client.invalidateQueries({ queryKey: ['web/getBankList'] }),
  });
}

/** `POST web/delPayee`. */
export function useDeleteBank() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (payeeId: string) => apiPost<null>('web/delPayee', { payee_id: payeeId }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['web/getBankList'] }),
  });
}
