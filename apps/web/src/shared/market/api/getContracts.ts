import type { ContractInstrumentData } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';
import { useToken } from '../../../lib/session.ts';

/** `GET web/getContracts` (public): every contract instrument and its rules. */
export function useContracts() {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getContracts', token],
    queryFn: () => apiGet<{ items: ContractInstrumentData[] }>('web/getContracts').then((d) => d.items),
    staleTime: 30_000,
    // `open` follows the trading hours: refresh now and then.
    refetchInterval: 60_000,
  });
}
