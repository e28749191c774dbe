import { describe, expect, it } from 'vitest';
import { cut, isAmountText, ratePercent, redeemEstimate, signOfText, toSell } from './logic.ts';

describe('ETF screen logic', () => {
  it('shows rates as percent text without floats', () => {
    expect(ratePercent('0.002')).toBe('0.2');
    expect(ratePercent('0.0015')).toBe('0.15');
    expect(ratePercent('0.01')).toBe('1');
    expect(ratePercent('0')).toBe('0');
  });

  it('accepts plain amounts only', () => {
    expect(isAmountText('100')).toBe(true);
    expect(isAmountText('100.12345678')).toBe(true);
    expect(isAmountText('100.123456789')).toBe(false);
    expect(isAmountText('1e3')).toBe(false);
    expect(isAmountText('-5')).toBe(false);
    expect(isAmountText('')).toBe(false);
  });

  it('estimates a redemption as holdings plus cash, and lists what is sold', () => {
    const order = {
      holdings: [
        {
          asset: 'BTC',
          quantity: '0.004',
          price: '100000',
          value: '400.1',
          weight_bps: 4000,
          target_bps: 4000,
        },
        { asset: 'ETH', quantity: '0', price: '3000', value: '0', weight_bps: 0, target_bps: 3000 },
      ],
      cash: '599.9',
    };
    expect(redeemEstimate(order)).toBe('1000');
    expect(toSell(order).map((h) => h.asset)).toEqual(['BTC']);
    expect(cut('1.00010345', 4)).toBe('1.0001');
    expect(cut('499.9', 4)).toBe('499.9000');
    expect(cut('-0.99996', 4)).toBe('-0.9999');
    expect(signOfText('-0.5')).toBe(-1);
    expect(signOfText('0.00')).toBe(0);
    expect(signOfText('2')).toBe(1);
  });
});
