import { useMemo, useState } from 'react';
import { useSpotMarkets } from '../../../shared/market/api/getSpotMarkets.ts';
import { useConversion } from '../../../shared/spot/hooks/useConversion.ts';
import { conversionOutcome, digitsOf, marketBetween } from '../logic/exchange.ts';

/**
 * The /exchange screen's state: the enabled markets and their currencies, the chosen `from` and `to`
 * (and swapping them), the market between them, the conversion (`useConversion`), the digits each side
 * is shown with, and the outcome of a settled conversion.
 */
export function useExchange() {
  const markets = useSpotMarkets();
  const list = (markets.data ?? []).filter((m) => m.status === 'enabled');
  const currencies = useMemo(() => [...new Set(list.flatMap((m) => [m.base, m.quote]))].sort(), [list]);
  const [from, setFrom] = useState<string | null>('USDT');
  const [to, setTo] = useState<string | null>('BTC');
  const market = from && to ? marketBetween(list, from, to) : undefined;
  const conversion = useConversion(market, from);
  const { result, setAmount } = conversion;

  const fromDigits = market && from ? digitsOf(market, from) : 8;
  const toDigits = market && to ? digitsOf(market, to) : 8;
  const swap = () => {
    setFrom(to);
    setTo(from);
    setAmount('');
  };
  const outcome = result && market ? conversionOutcome(result, market) : null;

  return {
    ...conversion,
    loading: markets.isPending,
    currencies,
    from,
    setFrom,
    to,
    setTo,
    market,
    fromDigits,
    toDigits,
    swap,
    outcome,
  };
}

export type Exchange = ReturnType<typeof useExchange>;
