import type { AssetData } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';
import { useToken } from '../../../lib/session.ts';
import { STAKE_CURRENCY } from '../logic.ts';

/**
 * `GET web/getAsset2?type=options`: the options account (same query key as the assets screens, so a
 * transfer there refreshes this). Returns the available USDT as a decimal string ("0" when the
 * account has none yet).
 */
export function useOptionsBalance() {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getAsset2', token, 'options'],
    queryFn: () => apiGet<AssetData>('web/getAsset2', { type: 'options' }),
    enabled: token !== null,
    refetchInterval: 10_000,
    select: (data) =>
      data.accounts.find((a) => a.type === 'options')?.rows.find((r) => r.currency === STAKE_CURRENCY)
        ?.available ?? '0',
  });
}
