import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';

export type SavedAddress = {
  id: string;
  currency: string;
  chain: string;
  address: string;
  remark: string;
  memo: string;
  created_at: number;
};
export type AddressList = { list: SavedAddress[]; chains: Record<string, string[]>; max: number };

/** `GET web/getAddressList`: saved withdrawal addresses and the networks per currency. */
export function useAddresses() {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getAddressList', token],
    queryFn: () => apiGet<AddressList>('web/getAddressList'),
    enabled: token !== null,
  });
}

/** `POST web/addAddress`. */
export function useAddAddress() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { currency: string; chain: string; address: string; remark: string; memo: string }) =>
      apiPost<SavedAddress>('web/addAddress', input),
    onSuccess: () => client.invalidateQueries({ queryKey: ['web/getAddressList'] }),
  });
}

/** `POST web/delAddress`. */
export function useDeleteAddress() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (addressId: string) => apiPost<null>('web/delAddress', { address_id: addressId }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['web/getAddressList'] }),
  });
}
