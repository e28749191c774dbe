import type { SpotMarketData } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import { units } from '../../../shared/spot/logic/amounts.ts';
import { belowMinQuantity, pickedCoin, quickBuyCoins } from './quickBuy.ts';

const m = (symbol: string, quote: string, status: SpotMarketData['status'] = 'enabled') =>
  ({ symbol, quote, status, min_quantity: '0.0001' }) as SpotMarketData;

describe('quick buy logic', () => {
  const btc = m('BTC/USDT', 'USDT');
  const eth = m('ETH/USDT', 'USDT');
  const markets = [m('ETH/BTC', 'BTC'), btc, m('SOL/USDT', 'USDT', 'halted'), eth];

  it('offers enabled USDT markets and falls back to the first', () => {
    expect(quickBuyCoins(markets)).toEqual([btc, eth]);
    expect(pickedCoin([btc, eth], 'ETH/USDT')).toBe(eth);
    expect(pickedCoin([btc, eth], null)).toBe(btc);
    expect(pickedCoin([btc, eth], 'SOL/USDT')).toBe(btc);
    expect(pickedCoin([], null)).toBeUndefined();
  });

  it('names a quantity below the minimum, only when there is one', () => {
    expect(belowMinQuantity(units('0.00005') ?? 0n, btc)).toBe(true);
    expect(belowMinQuantity(units('0.0001') ?? 0n, btc)).toBe(false);
    expect(belowMinQuantity(undefined, btc)).toBe(false);
    expect(belowMinQuantity(0n, undefined)).toBe(false);
  });
});
