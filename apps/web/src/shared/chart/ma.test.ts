import { describe, expect, it } from 'vitest';
import { fromUnits, movingAverage, toUnits } from './ma.ts';

describe('moving averages', () => {
  it('averages each full window exactly, null before it is full', () => {
    expect(movingAverage(['1.00', '2.00', '3.00', '4.00', '6.00'], 3, 2)).toEqual([
      null,
      null,
      '2.00',
      '3.00',
      '4.33',
    ]);
    expect(movingAverage(['10', '11'], 1, 0)).toEqual(['10', '11']);
    expect(movingAverage(['1.00'], 7, 2)).toEqual([null]);
  });

  it('rounds half up and never loses digits to floats', () => {
    // (0.1 + 0.2) / 2 = 0.15 exactly; a float sum would give 0.30000000000000004.
    expect(movingAverage(['0.1', '0.2'], 2, 2)).toEqual([null, '0.15']);
    expect(movingAverage(['0.01', '0.02'], 2, 2)).toEqual([null, '0.02']);
    expect(movingAverage(['-0.01', '-0.02'], 2, 2)).toEqual([null, '-0.02']);
    const big = '123456789012345678.123456';
    expect(movingAverage([big, big, big], 3, 6).at(-1)).toBe(big);
  });

  it('matches a plain reference over a long random series', () => {
    const closes = Array.from({ length: 300 }, (_, i) => fromUnits(BigInt(100_000 + ((i * 7919) % 5000)), 3));
    const ma25 = movingAverage(closes, 25, 3);
    for (let i = 24; i < closes.length; i++) {
      const window = closes.slice(i - 24, i + 1).map((c) => toUnits(c, 3));
      const sum = window.reduce((a, b) => a + b, 0n);
      const expected = (sum * 2n + 25n) / 50n;
      expect(ma25[i]).toBe(fromUnits(expected, 3));
    }
  });

  it('converts decimals to units and back', () => {
    expect(toUnits('12.5', 2)).toBe(1250n);
    expect(toUnits('-0.05', 2)).toBe(-5n);
    expect(fromUnits(5n, 3)).toBe('0.005');
    expect(fromUnits(-1250n, 2)).toBe('-12.50');
    expect(() => toUnits('1e3', 2)).toThrow();
  });
});
