import type { AssetAccountType, AssetData } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';

/** `GET web/getAsset2`: balances per account type with USDT values (refreshed every 10 s). */
export function useAssets(type?: AssetAccountType) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getAsset2', token, type ?? 'all'],
    queryFn: () => apiGet<AssetData>('web/getAsset2', { type }),
    enabled: token !== null,
    refetchInterval: 10_000,
  });
}
