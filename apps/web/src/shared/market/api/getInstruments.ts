import type { InstrumentData, InstrumentsPage } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api.ts';

/** `GET web/getInstruments?symbol=`: one instrument's contract specification, or null when unknown. */
export async function fetchInstrument(symbol: string): Promise<InstrumentData | null> {
  const page = await apiGet<InstrumentsPage>('web/getInstruments', { symbol });
  return page.items.find((i) => i.symbol === symbol) ?? null;
}

export function useInstrument(symbol: string | null) {
  return useQuery({
    queryKey: ['web/getInstruments', symbol],
    queryFn: () => fetchInstrument(symbol as string),
    enabled: symbol !== null,
    staleTime: 300_000,
  });
}
