import type { SpotBalanceData, SpotMarketData, SpotOrderType, SpotSide } from '@bourse/protocol';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api.ts';
import { useTicker } from '../../../lib/marketStore.ts';
import { newClientOid, useCreateOrder } from '../../../shared/spot/api/createOrder.ts';
import { show, sliderQty, units } from '../../../shared/spot/logic/amounts.ts';
import type { Level } from '../../../shared/spot/logic/quote.ts';
import { type BookState, depthView } from '../logic/book.ts';
import { spotOrderFigures } from '../logic/orderFigures.ts';

function bookLevels(book: BookState, side: SpotSide): Level[] {
  const view = depthView(book, 200);
  return (side === 'buy' ? view.asks : view.bids).map((r) => ({ price: r.priceUnits, qty: r.qtyUnits }));
}

/**
 * One side's spot order form state: price, quantity and the percent-of-balance slider, the balance
 * available on this side, the figures they give (`spotOrderFigures`), and `submit` (the server's refusal
 * lands in `refusal`). A book level picked elsewhere (`pickedPrice`) fills the price.
 */
export function useSpotOrder({
  market,
  side,
  kind,
  book,
  balance,
  pickedPrice,
}: {
  market: SpotMarketData;
  side: SpotSide;
  kind: SpotOrderType;
  book: BookState;
  balance: SpotBalanceData | undefined;
  pickedPrice: { price: string; at: number } | null;
}) {
  const { t } = useTranslation('trade');
  const [price, setPrice] = useState('');
  const [qty, setQty] = useState('');
  const [pct, setPct] = useState(0);
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const create = useCreateOrder();
  const availableText = balance ? (side === 'buy' ? balance.quote_available : balance.base_available) : null;
  const available = units(availableText) ?? 0n;

  // A clicked book level fills the price (limit orders).
  useEffect(() => {
    if (pickedPrice) setPrice(pickedPrice.price);
  }, [pickedPrice]);

  // A market order is checked (and a buy frozen) at the reference price, a buy plus the band.
  const ticker = useTicker(market.symbol);
  const tickerReference = units(ticker?.mark) ?? units(ticker?.last);
  const levels = bookLevels(book, side);
  const figures = spotOrderFigures({ market, side, kind, price, qty, levels, tickerReference, available });

  const onSlide = (value: number) => {
    setPct(value);
    const slidePrice = kind === 'limit' ? figures.priceUnits : figures.checkAt;
    const q = sliderQty({
      side,
      pct: value,
      available,
      price: slidePrice,
      lot: figures.rules.lot,
      buyFeeRate: figures.buyFeeRate,
    });
    setQty(q === 0n ? '' : show(q, market.quantity_scale));
  };

  const submit = () => {
    if (!figures.ready) return;
    setRefusal(null);
    create.mutate(
      {
        symbol: market.symbol,
        side,
        type: kind,
        ...(kind === 'limit' ? { price: price.trim() } : {}),
        quantity: qty.trim(),
        client_oid: newClientOid(),
      },
      {
        onSuccess: (order) => {
          setQty('');
          setPct(0);
          notifications.show({
            color: 'teal',
            message: t('form.placed', {
              side: t(`orders.sideName.${order.side}`),
              qty: order.quantity,
              base: market.base,
            }),
          });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.kind === 'refused') setRefusal(error);
        },
      },
    );
  };

  return {
    ...figures,
    price,
    setPrice,
    qty,
    setQty,
    pct,
    setPct,
    availableText,
    onSlide,
    submit,
    pending: create.isPending,
    refusal,
  };
}

export type SpotOrder = ReturnType<typeof useSpotOrder>;
