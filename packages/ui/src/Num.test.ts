import { describe, expect, it } from 'vitest';
import { formatNum, trendColor, trendOf } from './Num.tsx';

describe('formatNum', () => {
  it('formats decimal strings exactly, beyond float precision', () => {
    expect(formatNum('1234567.123456789012345678', { locale: 'en-US' })).toBe('1,234,567.123456789012345678');
    expect(formatNum('90071992547409931', { locale: 'en-US' })).toBe('90,071,992,547,409,931');
  });

  it("keeps a string's own scale and only pads to `decimals`", () => {
    expect(formatNum('1.80', { locale: 'en-US' })).toBe('1.80');
    expect(formatNum('1.8', { locale: 'en-US', decimals: 2 })).toBe('1.80');
    expect(formatNum('1.23456', { locale: 'en-US', decimals: 2 })).toBe('1.23456');
  });

  it('signs on request and leaves zero unsigned', () => {
    expect(formatNum('2.5', { locale: 'en-US', signed: true })).toBe('+2.5');
    expect(formatNum('-2.5', { locale: 'en-US', signed: true })).toBe('-2.5');
    expect(formatNum('0', { locale: 'en-US', signed: true })).toBe('0');
  });

  it('follows the locale', () => {
    expect(formatNum('1234.5', { locale: 'zh-CN' })).toBe('1,234.5');
    expect(formatNum(1234.5, { locale: 'de-DE', decimals: 2 })).toBe('1.234,50');
  });

  it('returns what is not a decimal unchanged', () => {
    expect(formatNum('abc', { locale: 'en-US' })).toBe('abc');
    expect(formatNum('1e5', { locale: 'en-US' })).toBe('1e5');
  });

  it('formats bigints', () => {
    expect(formatNum(12345678901234567890n, { locale: 'en-US' })).toBe('12,345,678,901,234,567,890');
  });
});

describe('formatNum kinds go through the shared formatters', () => {
  it('price at the tick scale, quantity at the lot scale, money and fiat, percent', () => {
    expect(formatNum('65432.1', { locale: 'en-US', kind: 'price', scale: 2 })).toBe('65,432.10');
    expect(formatNum('0.123456', { locale: 'zh-CN', kind: 'quantity', scale: 4 })).toBe('0.1234');
    expect(formatNum('1234.5678', { locale: 'zh-TW', kind: 'money', scale: 2 })).toBe('1,234.56');
    expect(formatNum('1234.5', { locale: 'en-US', kind: 'fiat' })).toBe('1,234.50');
    expect(formatNum('2.5', { locale: 'en-US', percent: true, signed: true })).toBe('+2.50%');
    expect(formatNum('-1.8', { locale: 'en-US', percent: true })).toBe('-1.80%');
  });

  it('a kind without a scale keeps the digits of the value', () => {
    expect(formatNum('1.230', { locale: 'en-US', kind: 'price' })).toBe('1.230');
  });
});

describe('trend', () => {
  it('reads the sign of strings and numbers', () => {
    expect(trendOf('0.01')).toBe('up');
    expect(trendOf('-0.01')).toBe('down');
    expect(trendOf('-0.00')).toBe('flat');
    expect(trendOf('x')).toBe('flat');
    expect(trendOf(-3)).toBe('down');
    expect(trendOf(0n)).toBe('flat');
  });

  it('colours by the rise preference', () => {
    expect(trendColor('up', 'green')).toBe('green');
    expect(trendColor('down', 'green')).toBe('red');
    expect(trendColor('up', 'red')).toBe('red');
    expect(trendColor('down', 'red')).toBe('green');
    expect(trendColor('flat', 'red')).toBeUndefined();
  });
});
