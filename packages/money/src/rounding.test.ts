import { describe, expect, it } from 'vitest';
import { divRound, isRounding, ROUND_CHARGE, ROUND_PAYOUT, ROUNDINGS, type Rounding } from './rounding.ts';

type Expected = Record<Rounding, bigint>;

function row(
  up: bigint,
  down: bigint,
  ceil: bigint,
  floor: bigint,
  halfUp: bigint,
  halfEven: bigint,
): Expected {
  return { up, down, ceil, floor, halfUp, halfEven };
}

const E = 10n ** 29n;

// [numerator, denominator (> 0), expected per mode]; each row is also run
// with both signs flipped, which must not change the quotient.
const TABLE: readonly [string, bigint, bigint, Expected][] = [
  ['0', 0n, 1n, row(0n, 0n, 0n, 0n, 0n, 0n)],
  ['2 exact', 4n, 2n, row(2n, 2n, 2n, 2n, 2n, 2n)],
  ['-2 exact', -4n, 2n, row(-2n, -2n, -2n, -2n, -2n, -2n)],
  ['0.5 tie', 1n, 2n, row(1n, 0n, 1n, 0n, 1n, 0n)],
  ['-0.5 tie', -1n, 2n, row(-1n, 0n, 0n, -1n, -1n, 0n)],
  ['1.5 tie (odd below)', 3n, 2n, row(2n, 1n, 2n, 1n, 2n, 2n)],
  ['-1.5 tie', -3n, 2n, row(-2n, -1n, -1n, -2n, -2n, -2n)],
  ['2.5 tie (even below)', 5n, 2n, row(3n, 2n, 3n, 2n, 3n, 2n)],
  ['-2.5 tie', -5n, 2n, row(-3n, -2n, -2n, -3n, -3n, -2n)],
  ['3.5 tie', 7n, 2n, row(4n, 3n, 4n, 3n, 4n, 4n)],
  ['-3.5 tie', -7n, 2n, row(-4n, -3n, -3n, -4n, -4n, -4n)],
  ['1.4 below half', 7n, 5n, row(2n, 1n, 2n, 1n, 1n, 1n)],
  ['-1.4', -7n, 5n, row(-2n, -1n, -1n, -2n, -1n, -1n)],
  ['1.6 above half', 8n, 5n, row(2n, 1n, 2n, 1n, 2n, 2n)],
  ['-1.6', -8n, 5n, row(-2n, -1n, -1n, -2n, -2n, -2n)],
  ['1/3', 1n, 3n, row(1n, 0n, 1n, 0n, 0n, 0n)],
  ['-1/3', -1n, 3n, row(-1n, 0n, 0n, -1n, 0n, 0n)],
  ['2/3', 2n, 3n, row(1n, 0n, 1n, 0n, 1n, 1n)],
  ['-2/3', -2n, 3n, row(-1n, 0n, 0n, -1n, -1n, -1n)],
  ['tiny positive', 1n, 10n ** 18n, row(1n, 0n, 1n, 0n, 0n, 0n)],
  ['tiny negative', -1n, 10n ** 18n, row(-1n, 0n, 0n, -1n, 0n, 0n)],
  ['huge tie, even below', E * 10n + 5n, 10n, row(E + 1n, E, E + 1n, E, E + 1n, E)],
  ['huge tie, odd below', (E + 1n) * 10n + 5n, 10n, row(E + 2n, E + 1n, E + 2n, E + 1n, E + 2n, E + 2n)],
  ['-huge tie', -(E * 10n + 5n), 10n, row(-E - 1n, -E, -E, -E - 1n, -E - 1n, -E)],
  ['just above huge tie', E * 10n + 6n, 10n, row(E + 1n, E, E + 1n, E, E + 1n, E + 1n)],
  ['just below huge tie', E * 10n + 4n, 10n, row(E + 1n, E, E + 1n, E, E, E)],
];

const CASES = TABLE.flatMap(([label, n, d, expected]) =>
  ROUNDINGS.map((mode) => [label, mode, n, d, expected[mode]] as const),
);

describe('divRound table: every mode × sign × tie', () => {
  it.each(CASES)('%s, %s', (_label, mode, n, d, expected) => {
    expect(divRound(n, d, mode)).toBe(expected);
    expect(divRound(-n, -d, mode)).toBe(expected);
  });
});

describe('divRound errors', () => {
  it.each(ROUNDINGS)('throws on a zero denominator (%s)', (mode) => {
    expect(() => divRound(1n, 0n, mode)).toThrow(RangeError);
    expect(() => divRound(0n, 0n, mode)).toThrow(RangeError);
  });

  it('throws on an unknown rounding mode instead of silently truncating', () => {
    expect(() => divRound(3n, 2n, 'nearest' as Rounding)).toThrow(RangeError);
    expect(() => divRound(4n, 2n, 'HALF_UP' as Rounding)).toThrow(RangeError);
  });
});

describe('policies', () => {
  it('charges round toward +infinity and payouts toward -infinity', () => {
    expect(ROUND_CHARGE).toBe('ceil');
    expect(ROUND_PAYOUT).toBe('floor');
    expect(divRound(1n, 3n, ROUND_CHARGE)).toBe(1n);
    expect(divRound(1n, 3n, ROUND_PAYOUT)).toBe(0n);
    // A rebate (negative charge) still moves toward the platform's side.
    expect(divRound(-1n, 3n, ROUND_CHARGE)).toBe(0n);
    expect(divRound(-1n, 3n, ROUND_PAYOUT)).toBe(-1n);
  });

  it('isRounding accepts exactly the six modes', () => {
    for (const mode of ROUNDINGS) expect(isRounding(mode)).toBe(true);
    for (const bad of ['', 'UP', 'round', 'half_up', null, undefined, 1]) expect(isRounding(bad)).toBe(false);
    expect(ROUNDINGS).toHaveLength(6);
    expect(Object.isFrozen(ROUNDINGS)).toBe(true);
  });
});
