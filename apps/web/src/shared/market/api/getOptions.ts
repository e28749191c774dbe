import type { OptionInstrumentData } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';

/** `GET web/getOptions` (public): instruments offering up/down options, their stakes, durations and rates. */
export function fetchOptions(): Promise<OptionInstrumentData[]> {
  return apiGet<{ items: OptionInstrumentData[] }>('web/getOptions').then((data) => data.items);
}

/** Refreshed every 30 s: open/closed follows the trading hours, and the operator may change the settings. */
export function useOptionInstruments() {
  return useQuery({
    queryKey: ['web/getOptions'],
    queryFn: fetchOptions,
    staleTime: 15_000,
    refetchInterval: 30_000,
  });
}
