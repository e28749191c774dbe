import { describe, expect, it } from 'vitest';
import { marketDefaults, mayOpenMarket, tickFor } from './marketForm.ts';

describe('opening a listed coin’s spot market: the form', () => {
  it('starts from a tick of four significant digits of the issue price', () => {
    expect(tickFor('0.05', 6)).toBe('0.00001');
    expect(tickFor('0.5', 6)).toBe('0.0001');
    expect(tickFor('1', 6)).toBe('0.001');
    expect(tickFor('12.5', 6)).toBe('0.01');
    expect(tickFor('2500', 6)).toBe('1');
    expect(tickFor('25000', 6)).toBe('10');
    expect(tickFor('0.000000001', 6)).toBe('0.000001');
    expect(tickFor('0.000000001', 8)).toBe('0.00000001');
  });

  it('lots of 0.01 for a divisible coin when the tick leaves room in USDT’s decimals', () => {
    expect(marketDefaults({ price: '5', coin_scale: 8 })).toMatchObject({
      price_tick: '0.001',
      lot_size: '0.01',
      min_quantity: '0.01',
    });
    expect(marketDefaults({ price: '0.5', coin_scale: 8 })).toMatchObject({
      price_tick: '0.0001',
      lot_size: '0.01',
    });
    expect(marketDefaults({ price: '0.00001', coin_scale: 8 })).toMatchObject({
      price_tick: '0.00000001',
      lot_size: '1',
    });
    expect(marketDefaults({ price: '0.0001', coin_scale: 8 })).toMatchObject({
      price_tick: '0.0000001',
      lot_size: '0.1',
    });
    expect(marketDefaults({ price: '0.001', coin_scale: 8 })).toMatchObject({
      price_tick: '0.000001',
      lot_size: '0.01',
    });
    expect(marketDefaults({ price: '3', coin_scale: 0 })).toMatchObject({ lot_size: '1', min_quantity: '1' });
  });

  it('may open once distributed and listed, and only once', () => {
    const p = { state: 'distributed' as const, listing_at: 1_000, market_symbol: null };
    expect(mayOpenMarket(p, 999)).toBe(false);
    expect(mayOpenMarket(p, 1_000)).toBe(true);
    expect(mayOpenMarket({ ...p, market_symbol: 'X/USDT' }, 2_000)).toBe(false);
    expect(mayOpenMarket({ ...p, state: 'allocating' }, 2_000)).toBe(false);
  });
});
