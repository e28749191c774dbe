import { describe, expect, it } from 'vitest';
import { basisPointsUp } from './trading.ts';

describe("a fee rate as Binance's integer commission (units of 0.01 %)", () => {
  it('is exact for whole basis points and rounds a part of one up, without floats', () => {
    expect(basisPointsUp('0')).toBe(0);
    expect(basisPointsUp('0.001')).toBe(10);
    expect(basisPointsUp('0.0001')).toBe(1);
    // 0.00015 × 10,000 is 1.4999999999999998 in floating point: Math.round said 1 (less than charged).
    expect(basisPointsUp('0.00015')).toBe(2);
    expect(basisPointsUp('0.00025')).toBe(3);
    expect(basisPointsUp('0.00000001')).toBe(1);
    expect(basisPointsUp('0.02')).toBe(200);
  });
});
