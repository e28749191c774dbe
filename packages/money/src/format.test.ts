import { describe, expect, it } from 'vitest';
import { type FormatOptions, formatUnits, toDecimalString } from './decimal.ts';
import { ROUNDINGS, type Rounding } from './rounding.ts';

const TABLE: readonly [bigint, FormatOptions, string][] = [
  // Canonical: trailing zeros trimmed, no '-0'
  [150n, { scale: 2 }, '1.5'],
  [100n, { scale: 2 }, '1'],
  [0n, { scale: 8 }, '0'],
  [-1n, { scale: 8 }, '-0.00000001'],
  [1n, { scale: 8 }, '0.00000001'],
  [5n, { scale: 0 }, '5'],
  [-5n, { scale: 0 }, '-5'],
  [1n, { scale: 18 }, '0.000000000000000001'],
  [10n ** 18n, { scale: 18 }, '1'],
  [-123456789012345678901234567890n, { scale: 18 }, '-123456789012.34567890123456789'],
  // Padding
  [150n, { scale: 2, minFractionDigits: 2 }, '1.50'],
  [0n, { scale: 8, minFractionDigits: 2 }, '0.00'],
  [5n, { scale: 0, minFractionDigits: 2 }, '5.00'],
  [123456789n, { scale: 8, minFractionDigits: 2 }, '1.23456789'],
  // Rounding to fewer digits; default rounding is 'down'
  [123456789n, { scale: 8, maxFractionDigits: 2 }, '1.23'],
  [129999999n, { scale: 8, maxFractionDigits: 2 }, '1.29'],
  [-129999999n, { scale: 8, maxFractionDigits: 2 }, '-1.29'],
  [-1n, { scale: 8, maxFractionDigits: 2 }, '0'],
  [-1n, { scale: 8, maxFractionDigits: 2, rounding: 'floor' }, '-0.01'],
  [1n, { scale: 8, maxFractionDigits: 2, rounding: 'ceil' }, '0.01'],
  [150n, { scale: 2, maxFractionDigits: 0, rounding: 'halfEven' }, '2'],
  [250n, { scale: 2, maxFractionDigits: 0, rounding: 'halfEven' }, '2'],
  [250n, { scale: 2, maxFractionDigits: 0, rounding: 'halfUp' }, '3'],
  [199n, { scale: 2, maxFractionDigits: 1, rounding: 'up' }, '2'],
  [199n, { scale: 2, maxFractionDigits: 1, minFractionDigits: 1, rounding: 'up' }, '2.0'],
  [100000000n, { scale: 8, minFractionDigits: 2, maxFractionDigits: 2 }, '1.00'],
  [1n, { scale: 2, maxFractionDigits: 6 }, '0.01'],
  // Grouping
  [123456789012n, { scale: 2, group: true }, '1,234,567,890.12'],
  [100000n, { scale: 2, group: true }, '1,000'],
  [99900n, { scale: 2, group: true }, '999'],
  [-123456700n, { scale: 2, group: true }, '-1,234,567'],
  [0n, { scale: 2, group: true }, '0'],
  [12345678n, { scale: 0, group: true }, '12,345,678'],
  [123456789n, { scale: 8, group: true }, '1.23456789'],
  [
    -99999999999999999n,
    { scale: 8, group: true, minFractionDigits: 2, maxFractionDigits: 2 },
    '-999,999,999.99',
  ],
];

describe('formatUnits table', () => {
  it.each(TABLE)('%s with %j', (units, options, expected) => {
    expect(formatUnits(units, options)).toBe(expected);
  });
});

// 0.125 and -0.125 shown with 2 digits: one tie, every mode.
const TIE: Record<Rounding, [string, string]> = {
  up: ['0.13', '-0.13'],
  down: ['0.12', '-0.12'],
  ceil: ['0.13', '-0.12'],
  floor: ['0.12', '-0.13'],
  halfUp: ['0.13', '-0.13'],
  halfEven: ['0.12', '-0.12'],
};

describe('formatUnits rounding of a tie', () => {
  it.each(ROUNDINGS)('%s', (rounding) => {
    const [positive, negative] = TIE[rounding];
    expect(formatUnits(125n, { scale: 3, maxFractionDigits: 2, rounding })).toBe(positive);
    expect(formatUnits(-125n, { scale: 3, maxFractionDigits: 2, rounding })).toBe(negative);
  });
});

describe('formatUnits errors', () => {
  it('rejects min > max', () => {
    expect(() => formatUnits(1n, { scale: 2, minFractionDigits: 3, maxFractionDigits: 2 })).toThrow(
      RangeError,
    );
  });

  it.each([-1, 19, 0.5])('rejects scale %s', (scale) => {
    expect(() => formatUnits(1n, { scale })).toThrow(RangeError);
  });

  it('rejects negative or fractional digit counts', () => {
    expect(() => formatUnits(1n, { scale: 2, minFractionDigits: -1 })).toThrow(RangeError);
    expect(() => formatUnits(1n, { scale: 2, maxFractionDigits: 1.5 })).toThrow(RangeError);
  });

  it('rejects a number where a bigint amount belongs', () => {
    expect(() => formatUnits(1.5 as unknown as bigint, { scale: 2 })).toThrow(TypeError);
  });

  it('rejects an unknown rounding only when it would be used', () => {
    const bogus = 'nearest' as Rounding;
    expect(() => formatUnits(125n, { scale: 3, maxFractionDigits: 2, rounding: bogus })).toThrow(RangeError);
  });
});

describe('toDecimalString', () => {
  it.each([
    [150000000n, 8, '1.5'],
    [100000000n, 8, '1'],
    [0n, 18, '0'],
    [-1n, 8, '-0.00000001'],
    [1234567890123456789012345678901234567890n, 18, '1234567890123456789012.34567890123456789'],
    [42n, 0, '42'],
  ] as const)('%s at scale %s is %s', (units, scale, expected) => {
    expect(toDecimalString(units, scale)).toBe(expected);
  });
});
