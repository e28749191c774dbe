import { describe, expect, it } from 'vitest';
import {
  abs,
  allocate,
  applyBps,
  applyRate,
  bpsPercentText,
  isNegative,
  isPositive,
  isZero,
  max,
  min,
  mulDiv,
  multiply,
  rescale,
  sum,
} from './arith.ts';
import { parseUnitsOrThrow } from './decimal.ts';
import { ROUND_CHARGE, ROUND_PAYOUT, ROUNDINGS, type Rounding } from './rounding.ts';

describe('rescale', () => {
  it('scales up exactly', () => {
    expect(rescale(150n, { from: 2, to: 8, rounding: 'down' })).toBe(150000000n);
    expect(rescale(-1n, { from: 0, to: 18, rounding: 'down' })).toBe(-(10n ** 18n));
    expect(rescale(7n, { from: 5, to: 5, rounding: 'down' })).toBe(7n);
  });

  it('scales down exactly when no digits are lost', () => {
    for (const rounding of ROUNDINGS) {
      expect(rescale(150000000n, { from: 8, to: 2, rounding })).toBe(150n);
    }
  });

  const DOWN: Record<Rounding, [bigint, bigint]> = {
    up: [124n, -124n],
    down: [123n, -123n],
    ceil: [124n, -123n],
    floor: [123n, -124n],
    halfUp: [123n, -123n],
    halfEven: [123n, -123n],
  };

  it.each(ROUNDINGS)('scales 1.23456789 down to 2 digits with %s', (rounding) => {
    const [positive, negative] = DOWN[rounding];
    expect(rescale(123456789n, { from: 8, to: 2, rounding })).toBe(positive);
    expect(rescale(-123456789n, { from: 8, to: 2, rounding })).toBe(negative);
  });

  it('rejects bad scales and roundings', () => {
    expect(() => rescale(1n, { from: -1, to: 2, rounding: 'down' })).toThrow(RangeError);
    expect(() => rescale(1n, { from: 2, to: 19, rounding: 'down' })).toThrow(RangeError);
    expect(() => rescale(1n, { from: 2, to: 0, rounding: 'sideways' as Rounding })).toThrow(RangeError);
  });
});

describe('mulDiv', () => {
  it('rounds once at the end', () => {
    expect(mulDiv(10n, 3n, 4n, 'down')).toBe(7n);
    expect(mulDiv(10n, 3n, 4n, 'halfEven')).toBe(8n);
    expect(mulDiv(10n, 3n, 4n, 'ceil')).toBe(8n);
    expect(mulDiv(-10n, 3n, 4n, 'floor')).toBe(-8n);
    expect(mulDiv(10n ** 30n, 10n ** 30n, 10n ** 30n, 'down')).toBe(10n ** 30n);
  });

  it('throws on a zero divisor', () => {
    expect(() => mulDiv(1n, 1n, 0n, 'down')).toThrow(RangeError);
  });
});

describe('multiply', () => {
  const price = parseUnitsOrThrow('65000.12', { scale: 8 });
  const quantity = parseUnitsOrThrow('0.00123456', { scale: 8 });

  it('computes a notional from price × quantity, rounding once (exact 80.2465481472)', () => {
    const at = (rounding: Rounding) =>
      multiply({ a: price, aScale: 8, b: quantity, bScale: 8, resultScale: 8, rounding });
    expect(at(ROUND_CHARGE)).toBe(8024654815n);
    expect(at(ROUND_PAYOUT)).toBe(8024654814n);
    expect(at('halfEven')).toBe(8024654815n);
  });

  it('pads when the result scale exceeds the product scale', () => {
    expect(multiply({ a: 3n, aScale: 0, b: 2n, bScale: 1, resultScale: 4, rounding: 'down' })).toBe(6000n);
  });

  it('handles mixed scales (ETH 18 × price at 8 → USD 8)', () => {
    const eth = parseUnitsOrThrow('1.5', { scale: 18 });
    const usdPrice = parseUnitsOrThrow('3000.00000001', { scale: 8 });
    // exact 4500.000000015 → 8 digits
    const notional = (rounding: Rounding) =>
      multiply({ a: eth, aScale: 18, b: usdPrice, bScale: 8, resultScale: 8, rounding });
    expect(notional('floor')).toBe(450000000001n);
    expect(notional('ceil')).toBe(450000000002n);
    expect(notional('halfEven')).toBe(450000000002n);
  });

  it('is exact for negative operands', () => {
    expect(multiply({ a: -15n, aScale: 1, b: 15n, bScale: 1, resultScale: 1, rounding: 'floor' })).toBe(-23n);
    expect(multiply({ a: -15n, aScale: 1, b: 15n, bScale: 1, resultScale: 1, rounding: 'ceil' })).toBe(-22n);
  });
});

describe('bpsPercentText', () => {
  it('shows basis points as an exact percent text', () => {
    expect(bpsPercentText(500)).toBe('5');
    expect(bpsPercentText(25)).toBe('0.25');
    expect(bpsPercentText(4000)).toBe('40');
    expect(bpsPercentText(125)).toBe('1.25');
    expect(bpsPercentText(8010)).toBe('80.1');
    expect(bpsPercentText(0)).toBe('0');
    expect(bpsPercentText(-50)).toBe('-0.5');
    expect(bpsPercentText(10n)).toBe('0.1');
  });
});

describe('applyBps', () => {
  it('is exact when it divides', () => {
    expect(applyBps(1_000_000n, 25, 'down')).toBe(2500n);
    expect(applyBps(1_000_000n, 25n, 'down')).toBe(2500n);
    expect(applyBps(1_000_000n, 10_000, 'down')).toBe(1_000_000n);
    expect(applyBps(1_000_000n, 0, 'up')).toBe(0n);
  });

  it('rounds a fee up and a payout down (exact 30.8625)', () => {
    expect(applyBps(12345n, 25, ROUND_CHARGE)).toBe(31n);
    expect(applyBps(12345n, 25, ROUND_PAYOUT)).toBe(30n);
    expect(applyBps(12345n, -25, ROUND_CHARGE)).toBe(-30n);
    expect(applyBps(-12345n, 25, ROUND_PAYOUT)).toBe(-31n);
  });

  it.each([2.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '25' as unknown as number])(
    'rejects non-integer bps %s',
    (bps) => {
      expect(() => applyBps(100n, bps, 'down')).toThrow(RangeError);
    },
  );
});

describe('applyRate', () => {
  it('parses the rate exactly (0.004 of 12345 = 49.38)', () => {
    expect(applyRate({ units: 12345n, rate: '0.004', rounding: ROUND_CHARGE })).toBe(50n);
    expect(applyRate({ units: 12345n, rate: '0.004', rounding: ROUND_PAYOUT })).toBe(49n);
    expect(applyRate({ units: 12345n, rate: '0.004', rounding: ROUND_CHARGE })).toBe(
      applyBps(12345n, 40, ROUND_CHARGE),
    );
  });

  it('handles identity, zero, large and negative rates', () => {
    expect(applyRate({ units: 12345n, rate: '1', rounding: 'down' })).toBe(12345n);
    expect(applyRate({ units: 12345n, rate: '0', rounding: 'up' })).toBe(0n);
    expect(applyRate({ units: 12345n, rate: '2.5', rounding: 'down' })).toBe(30862n);
    expect(applyRate({ units: 123456780000n, rate: '-0.0001', rounding: 'floor' })).toBe(-12345678n);
    expect(applyRate({ units: 1n, rate: '0.000000000000000001', rounding: 'ceil' })).toBe(1n);
    expect(applyRate({ units: 1n, rate: '0.000000000000000001', rounding: 'floor' })).toBe(0n);
  });

  it.each(['', '0.4%', '1e-3', ' 0.1', '.', 'NaN', '0.0000000000000000001'])('rejects rate %j', (rate) => {
    expect(() => applyRate({ units: 100n, rate, rounding: 'down' })).toThrow(RangeError);
  });
});

describe('helpers', () => {
  it('sum, min, max, abs', () => {
    expect(sum([])).toBe(0n);
    expect(sum([1n, -2n, 10n ** 30n])).toBe(10n ** 30n - 1n);
    expect(min(3n)).toBe(3n);
    expect(min(3n, -1n, 2n)).toBe(-1n);
    expect(max(3n, -1n, 5n)).toBe(5n);
    expect(abs(-7n)).toBe(7n);
    expect(abs(7n)).toBe(7n);
    expect(abs(0n)).toBe(0n);
  });

  it('sign predicates', () => {
    expect([isPositive(1n), isPositive(0n), isPositive(-1n)]).toEqual([true, false, false]);
    expect([isNegative(1n), isNegative(0n), isNegative(-1n)]).toEqual([false, false, true]);
    expect([isZero(1n), isZero(0n), isZero(-1n)]).toEqual([false, true, false]);
  });
});

describe('allocate', () => {
  it.each([
    [100n, [1n, 1n, 1n], [34n, 33n, 33n]],
    [-100n, [1n, 1n, 1n], [-34n, -33n, -33n]],
    [1n, [1n, 1n, 1n], [1n, 0n, 0n]],
    [2n, [1n, 1n, 1n], [1n, 1n, 0n]],
    [0n, [1n, 2n], [0n, 0n]],
    [100n, [0n, 1n, 1n], [0n, 50n, 50n]],
    [101n, [0n, 1n, 1n, 0n], [0n, 51n, 50n, 0n]],
    [10n, [3n, 7n], [3n, 7n]],
    [10n, [1n, 2n], [3n, 7n]],
    [5n, [1n], [5n]],
    [7n, [1n, 1n, 1n, 1n, 1n, 1n, 1n, 1n], [1n, 1n, 1n, 1n, 1n, 1n, 1n, 0n]],
    [1000n, [333n, 333n, 334n], [333n, 333n, 334n]],
    // Largest remainder wins over index order: 10 × (1,1,3)/5 = 2,2,6 exactly;
    // 11 × (1,1,3)/5 = 2.2, 2.2, 6.6 → the 0.6 remainder gets the unit.
    [11n, [1n, 1n, 3n], [2n, 2n, 7n]],
    [10n ** 30n + 1n, [1n, 1n], [5n * 10n ** 29n + 1n, 5n * 10n ** 29n]],
  ] as const)('%s by %s', (units, weights, expected) => {
    expect(allocate(units, weights)).toEqual(expected);
  });

  it('rejects empty, all-zero and negative weights', () => {
    expect(() => allocate(10n, [])).toThrow(RangeError);
    expect(() => allocate(10n, [0n, 0n])).toThrow(RangeError);
    expect(() => allocate(10n, [1n, -1n, 1n])).toThrow(RangeError);
    expect(() => allocate(10n, [1 as unknown as bigint])).toThrow(RangeError);
  });
});
