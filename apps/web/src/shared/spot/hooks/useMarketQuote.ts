import type { SpotMarketData } from '@bourse/protocol';
import { useDepth } from '../api/getDepth.ts';

export { type ConvertQuote, quoteConversion } from '../logic/convert.ts';

/** The live depth of a market for quoting (refreshed every few seconds). */
export function useQuoteDepth(market: SpotMarketData | undefined) {
  return useDepth(market?.symbol ?? null);
}
