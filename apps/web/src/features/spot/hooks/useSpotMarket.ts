import type { SpotMarketData } from '@bourse/protocol';
import { useSearchParams } from 'react-router';
import { useInfo } from '../../../api/info.ts';
import { useToken } from '../../../lib/session.ts';
import { useSpotMarkets } from '../../../shared/market/api/getSpotMarkets.ts';

/** The market named by `?symbol=` (else the first enabled one) and whether the customer trades on the demo book. */
export function useSpotMarket() {
  const [params, setParams] = useSearchParams();
  const markets = useSpotMarkets();
  const list = markets.data ?? [];
  const wanted = params.get('symbol');
  const market: SpotMarketData | undefined = wanted
    ? list.find((m) => m.symbol === wanted)
    : (list.find((m) => m.status === 'enabled') ?? list[0]);
  const token = useToken();
  const info = useInfo();
  const demo = token !== null && info.data?.is_demo === 1;
  const select = (symbol: string) => {
    const next = new URLSearchParams(params);
    next.set('symbol', symbol);
    setParams(next, { replace: true });
  };
  return { markets, list, market, wanted, demo, loggedIn: token !== null, select };
}
