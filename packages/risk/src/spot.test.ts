import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baseUnits, mathOf, notionalUnits, parseRate, scaleProblem, spotFee, toSteps } from './spot.ts';

describe('spot maths (one source for the server and the web preview)', () => {
  const btc = mathOf({ base: 'BTC', quote: 'USDT', priceTick: '0.01', lotSize: '0.00001' });

  it('price × quantity is exact in quote minor units on the market grid', () => {
    // 65000.12 × 0.00003 = 1.9500036 USDT = 195_000_360 × 10^-8
    expect(notionalUnits(btc, 6_500_012n, 3n)).toBe(195_000_360n);
    expect(baseUnits(btc, 3n)).toBe(3_000n);
  });

  it('the fee is ⌊value × rate⌋: never above the posted rate, less than one minor unit below it', () => {
    expect(spotFee(195_000_360n, parseRate('0.001'))).toBe(195_000n);
    expect(spotFee(999n, parseRate('0.001'))).toBe(0n);
    expect(spotFee(0n, parseRate('0.002'))).toBe(0n);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (value, rateUnits) => {
          const rate = { num: BigInt(rateUnits), den: 10n ** 8n };
          const fee = spotFee(value, rate);
          // fee ≤ value × rate < fee + 1, in exact integers.
          expect(fee * rate.den <= value * rate.num).toBe(true);
          expect(value * rate.num < (fee + 1n) * rate.den).toBe(true);
        },
      ),
    );
  });

  it('refuses a negative value or rate', () => {
    expect(() => spotFee(-1n, parseRate('0.001'))).toThrow(RangeError);
  });

  it('reads prices and quantities onto the grid, or says why not', () => {
    expect(toSteps('65000.12', 2, 1n)).toEqual({ ok: true, steps: 6_500_012n });
    expect(toSteps('65000.123', 2, 1n)).toEqual({ ok: false, error: 'OFF_GRID' });
    expect(toSteps('0', 2, 1n)).toEqual({ ok: false, error: 'NOT_POSITIVE' });
    expect(toSteps('abc', 2, 1n)).toEqual({ ok: false, error: 'INVALID' });
  });

  it('a tick and lot finer than the currencies can hold is not a market', () => {
    expect(scaleProblem({ priceScale: 2, qtyScale: 9, baseScale: 8, quoteScale: 8 })).toEqual({
      field: 'lot_size',
      max: 8,
    });
    expect(scaleProblem({ priceScale: 4, qtyScale: 5, baseScale: 8, quoteScale: 8 })).toEqual({
      field: 'price_tick',
      max: 3,
    });
    expect(scaleProblem({ priceScale: 2, qtyScale: 5, baseScale: 8, quoteScale: 8 })).toBeNull();
  });
});
