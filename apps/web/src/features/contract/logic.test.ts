import type { ContractInstrumentData } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import {
  amountBreak,
  closeLotsBreak,
  contractOrderChecks,
  defaultContract,
  defaultLeverage,
  fractionPct,
  groupContracts,
  lotsBreak,
  priceBreak,
  riskProgress,
  tpSlBreaks,
} from './logic.ts';

const inst = (symbol: string, asset_class: ContractInstrumentData['asset_class']) =>
  ({ symbol, asset_class }) as ContractInstrumentData;

describe('contract form rules', () => {
  const rules = { lot_step: '0.01', min_lots: '0.01', max_lots: '50' };
  it('names the lots rule an input breaks', () => {
    expect(lotsBreak('', rules)).toBeNull();
    expect(lotsBreak('abc', rules)).toBe('invalid');
    expect(lotsBreak('0', rules)).toBe('invalid');
    expect(lotsBreak('0.015', rules)).toBe('step');
    expect(lotsBreak('50.01', rules)).toBe('max');
    expect(lotsBreak('0.01', rules)).toBeNull();
    expect(lotsBreak('1', { lot_step: '0.1', min_lots: '0.5', max_lots: '10' })).toBeNull();
    expect(lotsBreak('0.2', { lot_step: '0.1', min_lots: '0.5', max_lots: '10' })).toBe('min');
  });

  it('checks the price tick', () => {
    expect(priceBreak('100.05', '0.1')).toBe('tick');
    expect(priceBreak('100.1', '0.1')).toBeNull();
    expect(priceBreak('-1', '0.1')).toBe('invalid');
  });

  it('applies the TP/SL side rule for buys and sells', () => {
    expect(tpSlBreaks({ side: 'buy', tp: '110', sl: '90', reference: '100' })).toEqual([]);
    expect(tpSlBreaks({ side: 'buy', tp: '90', sl: '110', reference: '100' })).toEqual(['tpSide', 'slSide']);
    expect(tpSlBreaks({ side: 'sell', tp: '90', sl: '110', reference: '100' })).toEqual([]);
    expect(tpSlBreaks({ side: 'sell', tp: '110', sl: '', reference: '100' })).toEqual(['tpSide']);
    expect(tpSlBreaks({ side: 'buy', tp: 'x', sl: '', reference: null })).toEqual(['tpInvalid']);
    expect(tpSlBreaks({ side: 'buy', tp: '1', sl: '2', reference: null })).toEqual([]);
  });

  it('caps a margin top-up and a partial close', () => {
    expect(amountBreak('100', '500')).toBeNull();
    expect(amountBreak('500.01', '500')).toBe('max');
    expect(amountBreak('1.001', '500')).toBe('invalid');
    expect(closeLotsBreak('0.5', '1', '0.01')).toBeNull();
    expect(closeLotsBreak('1.01', '1', '0.01')).toBe('max');
    expect(closeLotsBreak('0.005', '1', '0.01')).toBe('step');
  });
});

describe('display helpers', () => {
  it('shows a fraction as a percent, exactly', () => {
    expect(fractionPct('0.4215')).toBe('42.15');
    expect(fractionPct('0')).toBe('0');
    expect(fractionPct(null)).toBeNull();
    expect(fractionPct('-0.0001')).toBe('-0.01');
    expect(fractionPct('0.000125')).toBe('0.0125');
  });

  it('measures the risk rate against the liquidation level', () => {
    expect(riskProgress('0.4', '0.8')).toBe(50);
    expect(riskProgress('0.9', '0.8')).toBe(100);
    expect(riskProgress(null, '0.8')).toBe(0);
  });

  it('groups the picker and picks the most popular metal', () => {
    const items = [inst('BTC/USDT-PERP', 'crypto_perp'), inst('XAG/USD', 'metal'), inst('XAU/USD', 'metal')];
    expect(groupContracts(items).map((g) => [g.group, g.items.length])).toEqual([
      ['perpetual', 1],
      ['metal', 2],
    ]);
    expect(defaultContract(items, ['BTC/USDT', 'XAU/USD', 'XAG/USD'])).toBe('XAU/USD');
    expect(defaultContract([inst('EUR/USD', 'forex')], [])).toBe('EUR/USD');
    expect(defaultContract([], [])).toBeNull();
  });

  it('starts the leverage at the highest choice up to 10x', () => {
    expect(defaultLeverage([1, 2, 5, 10, 20, 50, 100])).toBe(10);
    expect(defaultLeverage([20, 50])).toBe(20);
    expect(defaultLeverage([1, 2])).toBe(2);
  });

  it('checks the typed order: preview once lots (and a limit price) are valid, send once TP/SL read', () => {
    const instrument = { lot_step: '0.01', min_lots: '0.01', max_lots: '50', price_tick: '0.5' };
    const base = { instrument, side: 'buy' as const, type: 'market' as const, price: '', tp: '', sl: '' };
    expect(contractOrderChecks({ ...base, lots: '', last: '100' })).toMatchObject({
      quotable: false,
      ready: false,
      reference: '100',
    });
    expect(contractOrderChecks({ ...base, lots: '0.005', last: '100' })).toMatchObject({
      lotsProblem: 'step',
      quotable: false,
    });
    expect(contractOrderChecks({ ...base, lots: '1', last: '100' })).toMatchObject({
      quotable: true,
      ready: true,
    });
    // a TP on the wrong side is named but does not block; an unreadable one does
    expect(contractOrderChecks({ ...base, lots: '1', tp: '90', last: '100' })).toMatchObject({
      sideBreaks: ['tpSide'],
      ready: true,
    });
    expect(contractOrderChecks({ ...base, lots: '1', sl: 'x', last: '100' })).toMatchObject({
      sideBreaks: ['slInvalid'],
      quotable: true,
      ready: false,
    });
    const limit = { ...base, type: 'limit' as const, lots: '1', last: '100' };
    expect(contractOrderChecks({ ...limit, price: '' })).toMatchObject({ quotable: false, reference: null });
    expect(contractOrderChecks({ ...limit, price: '99.3' })).toMatchObject({
      priceProblem: 'tick',
      reference: null,
      quotable: false,
    });
    expect(contractOrderChecks({ ...limit, price: ' 99.5 ' })).toMatchObject({
      reference: '99.5',
      ready: true,
    });
  });
});
