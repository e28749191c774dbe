import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bpsToPercent,
  diffOf,
  feeOn,
  fieldsOf,
  fromUnits,
  paramsOf,
  percentToBps,
  type Rule,
  toUnits,
} from './policyForm.ts';

const SHIPPED: Rule[] = [
  { code: 'currency_chain', enabled: true, params: { allowed: ['USDT/ERC20'] } },
  { code: 'window', enabled: true, params: { start: '12:00', end: '24:00', timezone: 'Asia/Hong_Kong' } },
  { code: 'min_amount', enabled: true, params: { amount: '100', currency: 'USDT' } },
  { code: 'max_amount', enabled: true, params: { amount: '200000', currency: 'USDT' } },
  { code: 'fee', enabled: true, params: { address_bps: 0, bank_bps: 500 } },
  { code: 'daily_count', enabled: true, params: { max: 2, timezone: 'Asia/Hong_Kong' } },
  { code: 'turnover', enabled: false, params: { percent: 90 } },
];
const byCode = Object.fromEntries(SHIPPED.map((r) => [r.code, r]));

describe('the withdrawal policy form', () => {
  it('gives back the shipped parameters unchanged from their own fields', () => {
    for (const rule of SHIPPED) {
      expect(paramsOf(rule.code, fieldsOf(rule), byCode)).toEqual({ params: rule.params });
    }
  });

  it('refuses what the server refuses, naming the field', () => {
    const problems = (code: Rule['code'], fields: Record<string, string>) => {
      const result = paramsOf(code, fields, byCode);
      return 'problems' in result ? result.problems : {};
    };
    expect(problems('fee', { address_bps: '0', bank_bps: '60' }).bank_bps?.key).toBe('percent');
    expect(problems('fee', { address_bps: '-1', bank_bps: '5' }).address_bps?.key).toBe('percent');
    expect(problems('fee', { address_bps: '1.234', bank_bps: '5' }).address_bps?.key).toBe('percent');
    expect(problems('fee', { address_bps: '', bank_bps: '5' }).address_bps?.key).toBe('required');
    expect(problems('min_amount', { amount: '250000', currency: 'USDT' }).amount).toEqual({
      key: 'minAboveMax',
      values: { min: '250000', max: '200000', currency: 'USDT' },
    });
    expect(problems('max_amount', { amount: '99.5', currency: 'USDT' }).amount?.key).toBe('minAboveMax');
    expect(problems('min_amount', { amount: '0.000000001', currency: 'USDT' }).amount).toEqual({
      key: 'scale',
      values: { decimals: 8 },
    });
    expect(problems('min_amount', { amount: '0', currency: 'USDT' }).amount?.key).toBe('positive');
    expect(problems('min_amount', { amount: '1e3', currency: 'USDT' }).amount?.key).toBe('amount');
    expect(problems('window', { start: '12:00', end: '12:00', timezone: 'UTC' }).end?.key).toBe('sameTime');
    expect(problems('window', { start: '24:00', end: '12:00', timezone: 'UTC' }).start?.key).toBe('time');
    expect(problems('window', { start: '09:00', end: '17:00', timezone: 'Mars/Base' }).timezone?.key).toBe(
      'timezone',
    );
    expect(problems('daily_count', { max: '0', timezone: 'UTC' }).max).toEqual({
      key: 'whole',
      values: { min: 1, max: 1000 },
    });
    expect(problems('currency_chain', { allowed: 'USDT-ERC20' }).allowed?.key).toBe('pairs');
    expect(paramsOf('currency_chain', { allowed: 'usdt/erc20, USDT/TRC20' }, byCode)).toEqual({
      params: { allowed: ['USDT/ERC20', 'USDT/TRC20'] },
    });
  });

  it('fees are typed in percent (two decimals) and sent in basis points, through no float', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5_000 }), (bps) => {
        expect(percentToBps(bpsToPercent(bps))).toBe(bps);
      }),
    );
    expect(percentToBps('4.5')).toBe(450);
    expect(percentToBps('0.07')).toBe(7);
  });

  it('the preview charges the fee up, as the server does', () => {
    expect(feeOn(toUnits('1000', 8), 450)).toBe(toUnits('45', 8));
    expect(feeOn(1n, 1)).toBe(1n);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        fc.integer({ min: 0, max: 5_000 }),
        (units, bps) => {
          const fee = feeOn(units, bps);
          // The smallest fee not below the exact amount × bps / 10,000.
          expect(fee * 10_000n >= units * BigInt(bps)).toBe(true);
          expect((fee - 1n) * 10_000n < units * BigInt(bps)).toBe(true);
        },
      ),
    );
    expect(fromUnits(toUnits('950.5', 8), 8)).toBe('950.5');
  });

  it('the diff lists only what changed', () => {
    const fee = SHIPPED[4] as Rule;
    expect(
      diffOf(
        { enabled: true, fields: fieldsOf(fee) },
        { enabled: false, fields: { ...fieldsOf(fee), bank_bps: '4.5' } },
      ),
    ).toEqual([
      { field: 'enabled', from: 'true', to: 'false' },
      { field: 'bank_bps', from: '5', to: '4.5' },
    ]);
  });
});
