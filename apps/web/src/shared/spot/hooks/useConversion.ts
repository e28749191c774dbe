import type { SpotMarketData, SpotOrderData } from '@bourse/protocol';
import { useState } from 'react';
import { ApiError } from '../../../lib/api.ts';
import { useTicker } from '../../../lib/marketStore.ts';
import { newClientOid, useCreateOrder } from '../api/createOrder.ts';
import { settledOrder } from '../api/getOrder.ts';
import { useSpotBalance } from '../api/getSpotBalance.ts';
import { show, units } from '../logic/amounts.ts';
import { quoteConversion, useQuoteDepth } from './useMarketQuote.ts';

export type ConversionStep = 'form' | 'confirm' | 'done';

/**
 * One market-order conversion of `from` in `market` (the /exchange and quick-buy screens): the
 * amount typed, the live quote from the book at the market's reference price, the customer's
 * available `from` balance, and the form → confirm → done steps. `submit` places the market order
 * and shows the settled order, or the server's refusal back on the form.
 */
export function useConversion(market: SpotMarketData | undefined, from: string | null) {
  const [amount, setAmount] = useState('');
  const [step, setStep] = useState<ConversionStep>('form');
  const [result, setResult] = useState<SpotOrderData | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const depth = useQuoteDepth(market);
  const balance = useSpotBalance(market?.symbol ?? null);
  const create = useCreateOrder();

  const availableText =
    market && balance.data
      ? from === market.base
        ? balance.data.base_available
        : balance.data.quote_available
      : null;
  const available = units(availableText) ?? 0n;
  const ticker = useTicker(market?.symbol ?? null);
  const reference = units(ticker?.mark) ?? units(ticker?.last);
  const amountUnits = units(amount);
  const quote =
    market && depth.data && amountUnits !== null && amountUnits > 0n && from
      ? quoteConversion({
          market,
          from,
          amount: amountUnits,
          bids: depth.data.bids,
          asks: depth.data.asks,
          available,
          reference,
        })
      : null;

  const submit = () => {
    if (!market || !quote) return;
    setRefusal(null);
    create.mutate(
      {
        symbol: market.symbol,
        side: quote.side,
        type: 'market',
        quantity: show(quote.qty, market.quantity_scale),
        client_oid: newClientOid(),
      },
      {
        onSuccess: async (order) => {
          setResult(await settledOrder(order));
          setStep('done');
        },
        onError: (error) => {
          if (error instanceof ApiError && error.kind === 'refused') setRefusal(error.message);
          setStep('form');
        },
      },
    );
  };
  /** From the form to the confirm step. */
  const preview = () => {
    setRefusal(null);
    setStep('confirm');
  };
  /** After a result: an empty form again. */
  const again = () => {
    setStep('form');
    setAmount('');
    setResult(null);
  };

  return {
    amount,
    setAmount,
    amountUnits,
    step,
    setStep,
    result,
    refusal,
    depth,
    availableText,
    available,
    quote,
    submit,
    submitting: create.isPending,
    preview,
    again,
  };
}
