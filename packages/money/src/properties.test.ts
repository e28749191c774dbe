import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate, applyBps, applyRate, mulDiv, multiply, rescale } from './arith.ts';
import { MAX_SCALE } from './assets.ts';
import { formatUnits, parseDecimal, toDecimalString } from './decimal.ts';
import { divRound, ROUND_CHARGE, ROUND_PAYOUT, ROUNDINGS, type Rounding } from './rounding.ts';

const SCALES = Array.from({ length: MAX_SCALE + 1 }, (_, scale) => scale);
const rounding = fc.constantFrom(...ROUNDINGS);
const nonZero = (limit: bigint) => fc.bigInt({ min: -limit, max: limit }).filter((d) => d !== 0n);
const LIMIT = 10n ** 40n;

/**
 * Reference floor(n / d), found only by comparing products — an independent
 * route from divRound's truncating division.
 */
function referenceFloor(n: bigint, d: bigint): bigint {
  // Normalise to a positive denominator: n/d = (-n)/(-d).
  const [num, den] = d < 0n ? [-n, -d] : [n, d];
  let low = -(num < 0n ? -num : num) - 1n; // low * den <= num
  let high = (num < 0n ? -num : num) + 1n; // high * den > num
  while (high - low > 1n) {
    const mid = (low + high) / 2n;
    if (mid * den <= num) low = mid;
    else high = mid;
  }
  return low;
}

/** Reference rounding of the rational n/d, decided by exact comparisons. */
function referenceRound(n: bigint, d: bigint, mode: Rounding): bigint {
  const [num, den] = d < 0n ? [-n, -d] : [n, d];
  const floor = referenceFloor(num, den);
  if (floor * den === num) return floor;
  const ceil = floor + 1n;
  const positive = num > 0n;
  // Compare (num/den - floor) with 1/2 as 2*(num - floor*den) vs den.
  const twice = 2n * (num - floor * den);
  const nearest = twice < den ? floor : twice > den ? ceil : undefined;
  switch (mode) {
    case 'up':
      return positive ? ceil : floor;
    case 'down':
      return positive ? floor : ceil;
    case 'ceil':
      return ceil;
    case 'floor':
      return floor;
    case 'halfUp':
      return nearest ?? (positive ? ceil : floor);
    case 'halfEven':
      return nearest ?? (floor % 2n === 0n ? floor : ceil);
  }
}

describe('property: divRound', () => {
  it('agrees with the exact rational reference for every mode and sign', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -LIMIT, max: LIMIT }), nonZero(10n ** 20n), rounding, (n, d, mode) => {
        expect(divRound(n, d, mode)).toBe(referenceRound(n, d, mode));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees on ties and small values, where the edge cases live', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -50n, max: 50n }), nonZero(8n), rounding, (k, d, mode) => {
        // k * d + d/2 style numerators hit exact ties whenever d is even.
        const n = k * d + d / 2n;
        expect(divRound(n, d, mode)).toBe(referenceRound(n, d, mode));
        expect(divRound(k, d, mode)).toBe(referenceRound(k, d, mode));
      }),
      { numRuns: 2000 },
    );
  });

  it('ceil ≥ exact ≥ floor, every mode lands within one unit of exact', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -LIMIT, max: LIMIT }), nonZero(10n ** 12n), rounding, (n, d, mode) => {
        const [num, den] = d < 0n ? [-n, -d] : [n, d];
        const ceil = divRound(n, d, 'ceil');
        const floor = divRound(n, d, 'floor');
        expect(ceil * den >= num).toBe(true);
        expect(floor * den <= num).toBe(true);
        expect(ceil - floor <= 1n).toBe(true);
        const q = divRound(n, d, mode);
        expect(q === ceil || q === floor).toBe(true);
        // 'down' never increases magnitude; 'up' never decreases it.
        const exactAbsTimesDen = num < 0n ? -num : num;
        const down = divRound(n, d, 'down');
        const up = divRound(n, d, 'up');
        expect((down < 0n ? -down : down) * den <= exactAbsTimesDen).toBe(true);
        expect((up < 0n ? -up : up) * den >= exactAbsTimesDen).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('property: format ∘ parse', () => {
  it.each(SCALES)('round-trips every amount at scale %i', (scale) => {
    const limit = 10n ** BigInt(20 + scale) - 1n;
    fc.assert(
      fc.property(fc.bigInt({ min: -limit, max: limit }), fc.boolean(), (units, group) => {
        const text = formatUnits(units, { scale });
        expect(text).toBe(toDecimalString(units, scale));
        expect(parseDecimal(text, { scale, allowNegative: true })).toEqual({ ok: true, units });
        // Grouped output is the same number with commas.
        const grouped = formatUnits(units, { scale, group });
        expect(grouped.replaceAll(',', '')).toBe(text);
        // Padded output parses to the same value too.
        const padded = formatUnits(units, { scale, minFractionDigits: scale });
        expect(parseDecimal(padded, { scale, allowNegative: true })).toEqual({ ok: true, units });
      }),
      { numRuns: 300 },
    );
  });

  const digits = (maxLength: number) =>
    fc.array(fc.constantFrom(...'0123456789'), { maxLength }).map((chars) => chars.join(''));

  it('parse then format yields the canonical spelling of any valid input', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_SCALE }),
        fc.boolean(),
        digits(22),
        digits(MAX_SCALE),
        fc.nat({ max: 4 }),
        (scale, negative, intDigits, fracRaw, extraZeros) => {
          const frac = fracRaw.slice(0, scale) + '0'.repeat(extraZeros);
          const body = intDigits === '' && frac === '' ? '0' : `${intDigits}${frac === '' ? '' : `.${frac}`}`;
          const input = `${negative ? '-' : ''}${body}`;
          const result = parseDecimal(input, { scale, allowNegative: true, maxIntegerDigits: 22 });
          if (!result.ok) throw new Error(`rejected ${input}: ${result.error}`);
          const intCanon = intDigits.replace(/^0+/, '') || '0';
          const fracCanon = frac.replace(/0+$/, '');
          const isZero = /^0$/.test(intCanon) && fracCanon === '';
          const expected = `${negative && !isZero ? '-' : ''}${intCanon}${fracCanon === '' ? '' : `.${fracCanon}`}`;
          expect(formatUnits(result.units, { scale })).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('rounded formatting equals rescale then format', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_SCALE }),
        fc.integer({ min: 0, max: MAX_SCALE }),
        fc.bigInt({ min: -LIMIT, max: LIMIT }),
        rounding,
        (scale, shown, units, mode) => {
          const maxFractionDigits = Math.min(scale, shown);
          const viaRescale = rescale(units, { from: scale, to: maxFractionDigits, rounding: mode });
          expect(formatUnits(units, { scale, maxFractionDigits, rounding: mode })).toBe(
            formatUnits(viaRescale, { scale: maxFractionDigits }),
          );
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('property: rescale', () => {
  it('up then down is the identity for every mode', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_SCALE }),
        fc.integer({ min: 0, max: MAX_SCALE }),
        fc.bigInt({ min: -LIMIT, max: LIMIT }),
        rounding,
        (a, b, units, mode) => {
          const [from, to] = a <= b ? [a, b] : [b, a];
          const up = rescale(units, { from, to, rounding: mode });
          expect(rescale(up, { from: to, to: from, rounding: mode })).toBe(units);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('property: allocate', () => {
  it('sums exactly, stays within one unit of the exact share, zero weights get nothing', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -LIMIT, max: LIMIT }),
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 12n }), { minLength: 1, maxLength: 20 }),
        (units, weights) => {
          fc.pre(weights.some((w) => w > 0n));
          const parts = allocate(units, weights);
          const total = weights.reduce((acc, w) => acc + w, 0n);
          expect(parts).toHaveLength(weights.length);
          expect(parts.reduce((acc, p) => acc + p, 0n)).toBe(units);
          parts.forEach((part, i) => {
            const weight = weights[i] ?? 0n;
            if (weight === 0n) expect(part).toBe(0n);
            // |part * total - units * weight| < total  ⇔  |part - exact share| < 1
            const diff = part * total - units * weight;
            expect((diff < 0n ? -diff : diff) < total).toBe(true);
          });
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('property: charge and payout policies', () => {
  const amount = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n });
  const bps = fc.integer({ min: -10_000, max: 100_000 });

  it('ROUND_CHARGE is never below exact, ROUND_PAYOUT never above (bps)', () => {
    fc.assert(
      fc.property(amount, bps, (units, rate) => {
        const exactTimes10k = units * BigInt(rate);
        expect(applyBps(units, rate, ROUND_CHARGE) * 10_000n >= exactTimes10k).toBe(true);
        expect(applyBps(units, rate, ROUND_PAYOUT) * 10_000n <= exactTimes10k).toBe(true);
        expect(applyBps(units, rate, ROUND_CHARGE) - applyBps(units, rate, ROUND_PAYOUT) <= 1n).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('the same holds for decimal rates, and a rate equals its bps', () => {
    fc.assert(
      fc.property(amount, bps, (units, rate) => {
        const rateText = formatUnits(BigInt(rate), { scale: 4 });
        const charge = applyRate({ units, rate: rateText, rounding: ROUND_CHARGE });
        const payout = applyRate({ units, rate: rateText, rounding: ROUND_PAYOUT });
        expect(charge).toBe(applyBps(units, rate, ROUND_CHARGE));
        expect(payout).toBe(applyBps(units, rate, ROUND_PAYOUT));
        expect(charge * 10_000n >= units * BigInt(rate)).toBe(true);
        expect(payout * 10_000n <= units * BigInt(rate)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('the same holds for multiply and mulDiv', () => {
    fc.assert(
      fc.property(
        amount,
        amount,
        fc.integer({ min: 0, max: MAX_SCALE }),
        fc.integer({ min: 0, max: MAX_SCALE }),
        fc.integer({ min: 0, max: MAX_SCALE }),
        (a, b, aScale, bScale, resultScale) => {
          const shift = aScale + bScale - resultScale;
          const charge = multiply({ a, aScale, b, bScale, resultScale, rounding: ROUND_CHARGE });
          const payout = multiply({ a, aScale, b, bScale, resultScale, rounding: ROUND_PAYOUT });
          const swapped = multiply({
            a: b,
            aScale: bScale,
            b: a,
            bScale: aScale,
            resultScale,
            rounding: ROUND_CHARGE,
          });
          expect(swapped).toBe(charge);
          if (shift <= 0) {
            expect(charge).toBe(payout);
            return;
          }
          const divisor = 10n ** BigInt(shift);
          expect(charge * divisor >= a * b).toBe(true);
          expect(payout * divisor <= a * b).toBe(true);
          expect(mulDiv(a, b, divisor, ROUND_CHARGE)).toBe(charge);
          expect(mulDiv(a, b, divisor, ROUND_PAYOUT)).toBe(payout);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
