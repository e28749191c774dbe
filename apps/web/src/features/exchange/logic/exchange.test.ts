import type { SpotMarketData } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import { units } from '../../../shared/spot/logic/amounts.ts';
import { conversionOutcome, digitsOf, marketBetween } from './exchange.ts';

const u = (v: string) => units(v) ?? 0n;
const btc = {
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  quantity_scale: 4,
  price_scale: 1,
} as SpotMarketData;
const eth = {
  symbol: 'ETH/USDT',
  base: 'ETH',
  quote: 'USDT',
  quantity_scale: 3,
  price_scale: 4,
} as SpotMarketData;

describe('exchange logic', () => {
  it('finds the market between two currencies either way round', () => {
    expect(marketBetween([eth, btc], 'USDT', 'BTC')).toBe(btc);
    expect(marketBetween([eth, btc], 'BTC', 'USDT')).toBe(btc);
    expect(marketBetween([eth, btc], 'BTC', 'ETH')).toBeUndefined();
  });

  it('shows base amounts at the quantity scale and quote amounts at least at 2 places', () => {
    expect(digitsOf(btc, 'BTC')).toBe(4);
    expect(digitsOf(btc, 'USDT')).toBe(2);
    expect(digitsOf(eth, 'USDT')).toBe(4);
  });

  it('a sell pays base and receives quote less the fee; a buy pays quote plus the fee', () => {
    const filled = { filled_amount: '100', fee: '0.2', filled_quantity: '0.001' };
    expect(conversionOutcome({ ...filled, side: 'sell' }, btc)).toEqual({
      paid: u('0.001'),
      received: u('99.8'),
      from: 'BTC',
      to: 'USDT',
    });
    expect(conversionOutcome({ ...filled, side: 'buy' }, btc)).toEqual({
      paid: u('100.2'),
      received: u('0.001'),
      from: 'USDT',
      to: 'BTC',
    });
  });
});
