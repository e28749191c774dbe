import { describe, expect, it } from 'vitest';
import {
  MoneyParseError,
  type ParseOptions,
  type ParseResult,
  parseDecimal,
  parseUnitsOrThrow,
} from './decimal.ts';

const ok = (units: bigint): ParseResult => ({ ok: true, units });
const fail = (error: Exclude<ParseResult, { ok: true }>['error']): ParseResult => ({ ok: false, error });

const S2: ParseOptions = { scale: 2 };
const S2_SIGNED: ParseOptions = { scale: 2, allowNegative: true };

const TABLE: readonly [string, ParseOptions, ParseResult][] = [
  // Empty and malformed
  ['', S2, fail('EMPTY')],
  [' ', S2, fail('INVALID')],
  ['  ', S2, fail('INVALID')],
  ['-', S2_SIGNED, fail('INVALID')],
  ['.', S2, fail('INVALID')],
  ['-.', S2_SIGNED, fail('INVALID')],
  ['1.', S2, fail('INVALID')],
  ['-1.', S2_SIGNED, fail('INVALID')],
  ['1e5', S2, fail('INVALID')],
  ['1E5', S2, fail('INVALID')],
  ['1e-2', S2, fail('INVALID')],
  ['0x10', S2, fail('INVALID')],
  ['0b1', S2, fail('INVALID')],
  ['0o7', S2, fail('INVALID')],
  ['1n', S2, fail('INVALID')],
  ['١', S2, fail('INVALID')],
  ['١٢.٥', S2, fail('INVALID')],
  ['１', S2, fail('INVALID')],
  ['NaN', S2, fail('INVALID')],
  ['Infinity', S2, fail('INVALID')],
  ['-Infinity', S2_SIGNED, fail('INVALID')],
  ['+1', S2, fail('INVALID')],
  ['--1', S2_SIGNED, fail('INVALID')],
  ['-+1', S2_SIGNED, fail('INVALID')],
  ['1-', S2_SIGNED, fail('INVALID')],
  ['1,000', S2, fail('INVALID')],
  ['1,5', S2, fail('INVALID')],
  ['1_000', S2, fail('INVALID')],
  ['1 000', S2, fail('INVALID')],
  ['1\u00a0000', S2, fail('INVALID')],
  ['1..2', S2, fail('INVALID')],
  ['1.2.3', S2, fail('INVALID')],
  [' 1', S2, fail('INVALID')],
  ['1 ', S2, fail('INVALID')],
  ['\t1', S2, fail('INVALID')],
  ['1\n', S2, fail('INVALID')],
  ['- 1', S2_SIGNED, fail('INVALID')],
  ['$1', S2, fail('INVALID')],
  ['1$', S2, fail('INVALID')],
  // Accepted spellings
  ['0', S2, ok(0n)],
  ['1', S2, ok(100n)],
  ['0.5', S2, ok(50n)],
  ['.5', S2, ok(50n)],
  ['-.5', S2_SIGNED, ok(-50n)],
  ['00012.30', S2, ok(1230n)],
  ['1.50000', S2, ok(150n)],
  ['0.00', S2, ok(0n)],
  ['-1.25', S2_SIGNED, ok(-125n)],
  ['000000000000000000000001', S2, ok(100n)],
  // Sign and zero
  ['-1', S2, fail('NEGATIVE')],
  ['-0', S2, fail('NEGATIVE')],
  ['-0.00', S2, fail('NEGATIVE')],
  ['-0', S2_SIGNED, ok(0n)],
  ['-0', { scale: 2, allowNegative: true, allowZero: false }, fail('ZERO')],
  ['0', { scale: 2, allowZero: false }, fail('ZERO')],
  ['0.000', { scale: 2, allowZero: false }, fail('ZERO')],
  ['0.01', { scale: 2, allowZero: false }, ok(1n)],
  // Precision
  ['1.005', S2, fail('TOO_PRECISE')],
  ['1.0050', S2, fail('TOO_PRECISE')],
  ['0.001', S2, fail('TOO_PRECISE')],
  ['1.0', { scale: 0 }, ok(1n)],
  ['1.5', { scale: 0 }, fail('TOO_PRECISE')],
  ['0.000000000000000001', { scale: 18 }, ok(1n)],
  ['0.0000000000000000010', { scale: 18 }, ok(1n)],
  ['0.0000000000000000001', { scale: 18 }, fail('TOO_PRECISE')],
  ['12345678901234567890.123456789012345678', { scale: 18 }, ok(12345678901234567890123456789012345678n)],
  // Magnitude: 20 significant integer digits by default
  ['99999999999999999999', S2, ok(9999999999999999999900n)],
  ['99999999999999999999.99', S2, ok(9999999999999999999999n)],
  ['100000000000000000000', S2, fail('TOO_LARGE')],
  ['000099999999999999999999', S2, ok(9999999999999999999900n)],
  ['999', { scale: 2, maxIntegerDigits: 3 }, ok(99900n)],
  ['0999.99', { scale: 2, maxIntegerDigits: 3 }, ok(99999n)],
  ['1000', { scale: 2, maxIntegerDigits: 3 }, fail('TOO_LARGE')],
  ['0.5', { scale: 2, maxIntegerDigits: 0 }, ok(50n)],
  ['1', { scale: 2, maxIntegerDigits: 0 }, fail('TOO_LARGE')],
  // Check order: NEGATIVE, TOO_LARGE, TOO_PRECISE, ZERO
  ['-100000000000000000000.001', S2, fail('NEGATIVE')],
  ['-100000000000000000000.001', S2_SIGNED, fail('TOO_LARGE')],
  ['0.001', { scale: 2, allowZero: false }, fail('TOO_PRECISE')],
];

describe('parseDecimal table', () => {
  it.each(TABLE)('%j with %j', (input, options, expected) => {
    expect(parseDecimal(input, options)).toEqual(expected);
  });
});

describe('parseDecimal on over-long input', () => {
  it('rejects a million integer digits as TOO_LARGE', () => {
    expect(parseDecimal('1'.repeat(1_000_000), S2)).toEqual(fail('TOO_LARGE'));
  });

  it('accepts a million trailing zeros and a million leading zeros', () => {
    expect(parseDecimal(`0.${'0'.repeat(1_000_000)}`, S2)).toEqual(ok(0n));
    expect(parseDecimal(`${'0'.repeat(1_000_000)}7.1`, S2)).toEqual(ok(710n));
  });

  it('rejects a significant digit far beyond the scale as TOO_PRECISE', () => {
    expect(parseDecimal(`0.${'0'.repeat(100_000)}1`, { scale: 18 })).toEqual(fail('TOO_PRECISE'));
  });

  it('rejects long garbage as INVALID', () => {
    expect(parseDecimal(`${'1'.repeat(100_000)}x`, S2)).toEqual(fail('INVALID'));
  });
});

describe('parseDecimal options', () => {
  it.each([-1, 19, 1.5, Number.NaN])('throws for scale %s', (scale) => {
    expect(() => parseDecimal('1', { scale })).toThrow(RangeError);
  });

  it.each([-1, 1.5, Number.POSITIVE_INFINITY])('throws for maxIntegerDigits %s', (maxIntegerDigits) => {
    expect(() => parseDecimal('1', { scale: 2, maxIntegerDigits })).toThrow(RangeError);
  });

  it('treats a non-string from untyped callers as INVALID', () => {
    expect(parseDecimal(12 as unknown as string, S2)).toEqual(fail('INVALID'));
    expect(parseDecimal(null as unknown as string, S2)).toEqual(fail('INVALID'));
  });
});

describe('parseUnitsOrThrow', () => {
  it('returns units for valid input', () => {
    expect(parseUnitsOrThrow('1.23', { scale: 8 })).toBe(123000000n);
    expect(parseUnitsOrThrow('-1', { scale: 0, allowNegative: true })).toBe(-1n);
  });

  it('throws a MoneyParseError carrying the code', () => {
    expect(() => parseUnitsOrThrow('1.234', S2)).toThrow(MoneyParseError);
    try {
      parseUnitsOrThrow('abc', S2);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(MoneyParseError);
      expect((error as MoneyParseError).code).toBe('INVALID');
      expect((error as MoneyParseError).message).toContain('"abc"');
    }
  });

  it('keeps the error message short for huge input', () => {
    try {
      parseUnitsOrThrow('9'.repeat(10_000), S2);
      expect.unreachable();
    } catch (error) {
      expect((error as MoneyParseError).code).toBe('TOO_LARGE');
      expect((error as MoneyParseError).message.length).toBeLessThan(200);
    }
  });
});
