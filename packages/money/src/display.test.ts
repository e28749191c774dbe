import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDecimal } from './decimal.ts';
import { compareDecimal, isDecimal, isWholeInRange, negate, signOf, sumDecimals } from './decimal-text.ts';
import {
  formatDecimal,
  formatExact,
  formatFiat,
  formatMoney,
  formatPercent,
  formatPrice,
  formatQuantity,
  moneyScaleOf,
  scaleOfStep,
  separatorsOf,
} from './display.ts';
import { divRound } from './rounding.ts';

const LOCALES = ['en-US', 'zh-CN', 'zh-TW'] as const;

describe('the five formatters', () => {
  it.each([
    ['65432.1', 2, '65,432.10'],
    ['65432.125', 2, '65,432.12'], // tie to even, like the server's nearest tick
    ['65432.135', 2, '65,432.14'],
    ['0.5', 0, '0'],
    ['1.5', 0, '2'],
    ['-1234567.891', 1, '-1,234,567.9'],
    ['1', 4, '1.0000'],
  ])('formatPrice(%s, %i) = %s', (value, scale, shown) => {
    expect(formatPrice(value, scale)).toBe(shown);
  });

  it.each([
    ['0.123456789', 5, '0.12345'], // never more than held
    ['1.99999', 2, '1.99'],
    ['-1.99999', 2, '-1.99'],
    ['1000', 3, '1,000.000'],
  ])('formatQuantity(%s, %i) = %s', (value, scale, shown) => {
    expect(formatQuantity(value, scale)).toBe(shown);
  });

  it('formatMoney rounds toward −∞ like the server valuation; formatFiat shows two digits', () => {
    expect(formatMoney('1234.5678', 2)).toBe('1,234.56');
    expect(formatMoney('-0.001', 2)).toBe('-0.01');
    expect(formatMoney('0.00000001', 8)).toBe('0.00000001');
    expect(formatFiat('1234567.899')).toBe('1,234,567.89');
    expect(formatFiat('0')).toBe('0.00');
    expect(formatFiat(12n)).toBe('12.00');
  });

  it('formatPercent: percent values and fractions, two digits, half to even', () => {
    expect(formatPercent('1.234')).toBe('1.23%');
    expect(formatPercent('-0.005')).toBe('0.00%'); // −0.005 → 0.00 (tie to even), never −0
    expect(formatPercent('2.5', { signed: true })).toBe('+2.50%');
    expect(formatPercent('0.85', { fraction: true })).toBe('85.00%');
    expect(formatPercent('0.0001', { fraction: true })).toBe('0.01%');
    expect(formatPercent('1', { fraction: true, digits: 0 })).toBe('100%');
    expect(formatPercent('-0.1234', { fraction: true, digits: 1 })).toBe('-12.3%');
    expect(formatPercent('0.000055', { fraction: true, digits: 'all' })).toBe('0.0055%');
    expect(formatPercent('0.85', { fraction: true, digits: 'all' })).toBe('85%');
    expect(formatPercent('0.8', { fraction: true, digits: 'all' })).toBe('80%');
  });

  it('signs: + only when asked and only above zero; never −0', () => {
    expect(formatPrice('0.001', 2, { signed: true })).toBe('0.00');
    expect(formatPrice('-0.001', 2)).toBe('0.00');
    expect(formatPrice('3', 2, { signed: true })).toBe('+3.00');
    expect(formatPrice('-3', 2, { signed: true })).toBe('-3.00');
  });

  it('formatExact keeps the digits of the value, padded to a minimum', () => {
    expect(formatExact('1234.80')).toBe('1,234.80');
    expect(formatExact('1234.8', { minFractionDigits: 2 })).toBe('1,234.80');
    expect(formatExact(-1234567n)).toBe('-1,234,567');
    expect(formatExact('0.00000001')).toBe('0.00000001');
  });

  it('shows anything that is not a number as given', () => {
    expect(formatPrice('--', 2)).toBe('--');
    expect(formatPrice('1e5', 2)).toBe('1e5');
    expect(formatPrice('', 2)).toBe('');
    expect(formatPrice('.', 2)).toBe('.');
  });

  it('rejects an impossible scale', () => {
    expect(() => formatPrice('1', -1)).toThrow(RangeError);
    expect(() => formatQuantity('1', 1.5)).toThrow(RangeError);
  });

  it('display scales of currencies and steps', () => {
    expect(moneyScaleOf('USDT')).toBe(2);
    expect(moneyScaleOf('USD')).toBe(2);
    expect(moneyScaleOf('BTC')).toBe(8);
    expect(moneyScaleOf('ETH')).toBe(8);
    expect(moneyScaleOf('TRX')).toBe(6);
    expect(moneyScaleOf('XYZ')).toBe(8);
    expect(scaleOfStep('0.01')).toBe(2);
    expect(scaleOfStep('0.50')).toBe(1);
    expect(scaleOfStep('1')).toBe(0);
  });
});

describe('locales', () => {
  it.each(LOCALES)('%s separators are the ones Intl uses', (locale) => {
    const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
    const group = parts.find((p) => p.type === 'group')?.value;
    const decimal = parts.find((p) => p.type === 'decimal')?.value;
    expect(separatorsOf(locale)).toEqual({ group, decimal });
  });

  it.each(LOCALES)('%s matches Intl on exact decimal strings', (locale) => {
    for (const value of ['1234567.5', '-98765.4321', '0.001', '1000', '12']) {
      const intl = new Intl.NumberFormat(locale, {
        minimumFractionDigits: 4,
        maximumFractionDigits: 4,
        roundingMode: 'halfEven',
      } as Intl.NumberFormatOptions).format(value as Intl.StringNumericLiteral);
      expect(formatPrice(value, 4, { locale })).toBe(intl);
    }
  });

  it('app languages map to their locales', () => {
    expect(separatorsOf('zh')).toEqual(separatorsOf('zh-CN'));
    expect(separatorsOf('ft')).toEqual(separatorsOf('zh-TW'));
    expect(separatorsOf('xx-YY')).toEqual(separatorsOf('en-US'));
  });
});

const decimalArb = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 24n }), fc.integer({ min: 0, max: 18 }))
  .map(([negative, magnitude, scale]) => {
    const digits = magnitude.toString().padStart(scale + 1, '0');
    const text = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
    return {
      text: negative && magnitude > 0n ? `-${text}` : text,
      units: negative ? -magnitude : magnitude,
      scale,
    };
  });

describe('properties', () => {
  it('grouping never changes a digit: without separators it is the ungrouped form', () => {
    fc.assert(
      fc.property(
        decimalArb,
        fc.integer({ min: 0, max: 12 }),
        fc.constantFrom(...LOCALES),
        (d, digits, locale) => {
          const grouped = formatPrice(d.text, digits, { locale });
          const plain = formatDecimal(d.text, {
            minFractionDigits: digits,
            maxFractionDigits: digits,
            rounding: 'halfEven',
            group: false,
          });
          const { group } = separatorsOf(locale);
          expect(grouped.split(group).join('')).toBe(plain);
          // groups are of three digits, the first of one to three
          const integer = grouped.replace(/^[-+]/, '').split('.')[0] ?? '';
          expect(integer).toMatch(/^\d{1,3}(,\d{3})*$/);
        },
      ),
    );
  });

  it('round trip: a value shown at its own scale parses back to the same units', () => {
    fc.assert(
      fc.property(decimalArb, (d) => {
        const shown = formatQuantity(d.text, d.scale).split(',').join('');
        const parsed = parseDecimal(shown, { scale: d.scale, allowNegative: true, maxIntegerDigits: 40 });
        expect(parsed).toEqual({ ok: true, units: d.units });
      }),
    );
  });

  it('rounding matches divRound of the exact units (price half-even, quantity down, money floor)', () => {
    fc.assert(
      fc.property(decimalArb, fc.integer({ min: 0, max: 18 }), (d, digits) => {
        fc.pre(digits <= d.scale);
        const shift = 10n ** BigInt(d.scale - digits);
        const check = (shown: string, rounding: 'halfEven' | 'down' | 'floor') => {
          const parsed = parseDecimal(shown.split(',').join(''), {
            scale: digits,
            allowNegative: true,
            maxIntegerDigits: 40,
          });
          expect(parsed).toEqual({ ok: true, units: divRound(d.units, shift, rounding) });
        };
        check(formatPrice(d.text, digits), 'halfEven');
        check(formatQuantity(d.text, digits), 'down');
        check(formatMoney(d.text, digits), 'floor');
      }),
    );
  });

  it('a quantity or money amount is never shown larger than it is', () => {
    fc.assert(
      fc.property(decimalArb, fc.integer({ min: 0, max: 8 }), (d, digits) => {
        const shown = formatMoney(d.text, digits).split(',').join('');
        expect(compareDecimal(shown, d.text)).toBeLessThanOrEqual(0);
        const qty = formatQuantity(d.text, digits).split(',').join('');
        const abs = (s: string) => s.replace(/^-/, '');
        expect(compareDecimal(abs(qty), abs(d.text))).toBeLessThanOrEqual(0);
      }),
    );
  });
});

describe('decimal strings', () => {
  it('compare, sum, negate, sign', () => {
    expect(compareDecimal('1.10', '1.1')).toBe(0);
    expect(compareDecimal('-2', '1.5')).toBe(-1);
    expect(compareDecimal('10', '9.999')).toBe(1);
    expect(sumDecimals(['1.5', '-0.25', null, 'x', '2'])).toBe('3.25');
    expect(sumDecimals([])).toBe('0');
    expect(negate('12.5')).toBe('-12.5');
    expect(negate('-3')).toBe('3');
    expect(negate('0.00')).toBe('0');
    expect(negate('abc')).toBe('abc');
    expect(signOf('-0.1')).toBe(-1);
    expect(signOf('0.000')).toBe(0);
    expect(signOf('7')).toBe(1);
    expect(signOf(undefined)).toBe(0);
  });

  it('form checks', () => {
    expect(isDecimal(' 1.5 ')).toBe(true);
    expect(isDecimal('-1')).toBe(false);
    expect(isDecimal('1.')).toBe(false);
    expect(isWholeInRange('5', 1, 10)).toBe(true);
    expect(isWholeInRange('11', 1, 10)).toBe(false);
    expect(isWholeInRange('1.5', 1, 10)).toBe(false);
    expect(isWholeInRange('1234567', 1, 10_000_000)).toBe(false);
  });

  it('a sum is exact where floats are not', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
  });
});
