import type { SpotMarketData, SpotOrderData } from '@bourse/protocol';
import { units } from '../../../shared/spot/logic/amounts.ts';

/** Decimal places shown for amounts of a currency in this market. */
export function digitsOf(market: SpotMarketData, currency: string): number {
  return currency === market.base ? market.quantity_scale : Math.max(market.price_scale, 2);
}

/** The market that converts `from` into `to`, either way round. */
export function marketBetween(markets: readonly SpotMarketData[], from: string, to: string) {
  return markets.find((m) => (m.base === from && m.quote === to) || (m.base === to && m.quote === from));
}

/**
 * What a settled conversion paid and received, in units: a sell paid the base filled and received the
 * quote less the fee; a buy paid the quote plus the fee and received the base filled.
 */
export function conversionOutcome(
  result: Pick<SpotOrderData, 'side' | 'filled_amount' | 'fee' | 'filled_quantity'>,
  market: Pick<SpotMarketData, 'base' | 'quote'>,
) {
  const filledAmount = units(result.filled_amount) ?? 0n;
  const fee = units(result.fee) ?? 0n;
  const filledQty = units(result.filled_quantity) ?? 0n;
  return result.side === 'sell'
    ? { paid: filledQty, received: filledAmount - fee, from: market.base, to: market.quote }
    : { paid: filledAmount + fee, received: filledQty, from: market.quote, to: market.base };
}
