import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';

export type Wallet = {
  id: string;
  wallet_type: 'alipay' | 'wechat';
  wallet_account: string;
  wallet_nickname: string;
  payee_name: string;
  created_at: number;
};

/** `GET web/getWalletList`. */
export function useWallets() {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getWalletList', token],
    queryFn: () => apiGet<{ list: Wallet[]; max: number }>('web/getWalletList'),
    enabled: token !== null,
  });
}

/** `POST web/addWallet`. */
export function useAddWallet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: {
      wallet_type: string;
      wallet_account: string;
      wallet_nickname: string;
      payee_name: string;
    }) => apiPost<Wallet>('web/addWallet', input),
    onSuccess: () => client.invalidateQueries({ queryKey: ['web/getWalletList'] }),
  });
}

/** `POST web/delPayee`. */
export function useDeleteWallet() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (payeeId: string) => apiPost<null>('web/delPayee', { payee_id: payeeId }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['web/getWalletList'] }),
  });
}
