import type { SpotMarketData } from '@bourse/protocol';
import { type OrderRules, show, units } from './amounts.ts';

/** Percent with two decimals of a decimal rate ("0.001" → "0.1%"), exact. */
export function ratePct(rate: string): string {
  const u = units(rate);
  return u === null ? rate : `${show(u * 100n, 4)}%`;
}

export function rulesOf(market: SpotMarketData): OrderRules {
  return {
    tick: units(market.price_tick) ?? 0n,
    lot: units(market.lot_size) ?? 0n,
    minQty: units(market.min_quantity) ?? 0n,
    minNotional: units(market.min_notional) ?? 0n,
    maxNotional: units(market.max_notional) ?? 0n,
  };
}
