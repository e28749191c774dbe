import type { SpotMarketData } from '@bourse/protocol';
import { units } from '../../../shared/spot/logic/amounts.ts';

/** The quote currency of quick purchases (spec: "quick coin purchase" with USDT). */
export const QUOTE = 'USDT';
export const PRESETS = ['50', '100', '500', '1000'] as const;

/** The coins on offer: enabled markets quoted in USDT. */
export function quickBuyCoins(markets: readonly SpotMarketData[]): SpotMarketData[] {
  return markets.filter((m) => m.quote === QUOTE && m.status === 'enabled');
}

/** The picked coin's market, else the first on offer. */
export function pickedCoin(
  coins: readonly SpotMarketData[],
  symbol: string | null,
): SpotMarketData | undefined {
  return coins.find((m) => m.symbol === symbol) ?? coins[0];
}

/** Whether a quoted quantity is below the market's minimum (nothing quoted: no). */
export function belowMinQuantity(qty: bigint | undefined, market: SpotMarketData | undefined): boolean {
  return qty !== undefined && market !== undefined && qty < (units(market.min_quantity) ?? 0n);
}
