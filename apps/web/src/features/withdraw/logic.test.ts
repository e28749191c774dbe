import { describe, expect, it } from 'vitest';
import { checkAmount, preview, ruleParams } from './logic.ts';

const rules = [
  { code: 'fee', enabled: true, params: { address_bps: 0, bank_bps: 500 } },
  { code: 'daily_count', enabled: true, params: { max: 2, timezone: 'Asia/Hong_Kong' } },
  { code: 'currency_chain', enabled: true, params: { allowed: ['USDT/ERC20'] } },
];

describe('withdraw sheet logic', () => {
  it('previews the fee charged up and what arrives, exactly', () => {
    expect(preview(rules, { method: 'bank', amount: '123.45', currency: 'USDT' })).toEqual({
      fee: '6.1725',
      received: '117.2775',
    });
    expect(preview(rules, { method: 'bank', amount: '0.00000001', currency: 'USDT' })).toEqual({
      fee: '0.00000001',
      received: '0',
    });
    expect(preview(rules, { method: 'address', amount: '100', currency: 'USDT' })).toEqual({
      fee: '0',
      received: '100',
    });
    expect(preview(rules, { method: 'address', amount: 'abc', currency: 'USDT' })).toBeNull();
  });
  it('checks amounts as the server does', () => {
    expect(checkAmount('1e3', 'USDT')).toMatchObject({ ok: false, error: 'amount' });
    expect(checkAmount('-1', 'USDT')).toMatchObject({ ok: false });
    expect(checkAmount('0', 'USDT')).toMatchObject({ ok: false, error: 'amountZero' });
    expect(checkAmount('1.123456789', 'USDT')).toMatchObject({
      ok: false,
      error: 'amountPrecise',
      decimals: 8,
    });
    expect(checkAmount('150.5', 'USDT')).toEqual({ ok: true, units: 15_050_000_000n });
  });
  it('formats rule parameters', () => {
    expect(ruleParams(rules[2] as never, 0, (tz) => tz)).toEqual({ allowed: 'USDT (ERC20)' });
    expect(ruleParams(rules[1] as never, 1, (tz) => tz)).toEqual({ max: 2, used: 1 });
  });
});
