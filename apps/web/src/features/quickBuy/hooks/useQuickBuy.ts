import { useState } from 'react';
import { useSpotMarkets } from '../../../shared/market/api/getSpotMarkets.ts';
import { useConversion } from '../../../shared/spot/hooks/useConversion.ts';
import { belowMinQuantity, pickedCoin, QUOTE, quickBuyCoins } from '../logic/quickBuy.ts';

/**
 * The quick-buy screen's state: the coins on offer, the picked one's market, the conversion from USDT
 * (`useConversion`; every coin here is quoted in USDT, so it is always a market buy), and whether the
 * quoted quantity is below the market's minimum.
 */
export function useQuickBuy() {
  const markets = useSpotMarkets();
  const coins = quickBuyCoins(markets.data ?? []);
  const [symbol, setSymbol] = useState<string | null>(null);
  const market = pickedCoin(coins, symbol);
  const conversion = useConversion(market, QUOTE);
  const tooSmall = belowMinQuantity(conversion.quote?.qty, market);
  return { ...conversion, loading: markets.isPending, coins, setSymbol, market, tooSmall };
}

export type QuickBuy = ReturnType<typeof useQuickBuy>;
