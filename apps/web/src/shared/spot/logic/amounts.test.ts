import { parseRate, spotFee } from '@bourse/risk';
import { describe, expect, it } from 'vitest';
import {
  decimalsOf,
  feeOf,
  feePreview,
  floorToStep,
  marketCheckPrice,
  notionalOf,
  type OrderRules,
  percentOf,
  ruleBreaks,
  show,
  sliderQty,
  units,
} from './amounts.ts';

const u = (v: string): bigint => {
  const x = units(v);
  if (x === null) throw new Error(`bad ${v}`);
  return x;
};

/** USDT's scale: fees are whole 10^-8 USDT, as the ledger holds them. */
const USDT = 8;

describe('parsing and showing', () => {
  it('parses decimals exactly and refuses non-decimals', () => {
    expect(units('0.1')! + units('0.2')!).toBe(units('0.3'));
    expect(units('')).toBeNull();
    expect(units('1e3')).toBeNull();
    expect(units('-1')).toBeNull();
    expect(units(' 2.5 ')).toBe(u('2.5'));
  });
  it('shows at a number of decimals, rounding down by default', () => {
    expect(show(u('1.23456'), 2)).toBe('1.23');
    expect(show(u('1.231'), 2, 'ceil')).toBe('1.24');
    expect(show(u('10'), 4)).toBe('10');
  });
  it('reads step decimals', () => {
    expect(decimalsOf('0.01')).toBe(2);
    expect(decimalsOf('1')).toBe(0);
    expect(decimalsOf('0.00010')).toBe(4);
  });
});

describe('percent slider', () => {
  it('takes 25/50/75/100 % of the balance, rounded down', () => {
    expect(percentOf(u('100'), 25)).toBe(u('25'));
    expect(percentOf(u('0.00000000000000001'), 50)).toBe(u('0.000000000000000005'));
    expect(percentOf(3n, 25)).toBe(0n);
    expect(() => percentOf(1n, 101)).toThrow(RangeError);
    expect(() => percentOf(1n, 12.5)).toThrow(RangeError);
  });

  it('sell: a share of the base balance in whole lots', () => {
    expect(sliderQty({ side: 'sell', pct: 50, available: u('1.23456'), price: null, lot: u('0.001') })).toBe(
      u('0.617'),
    );
    expect(sliderQty({ side: 'sell', pct: 100, available: u('0.0009'), price: null, lot: u('0.001') })).toBe(
      0n,
    );
  });

  it('buy: a share of the quote balance over the price, floored to lots, never above the balance', () => {
    const qty = sliderQty({
      side: 'buy',
      pct: 100,
      available: u('1000'),
      price: u('30000'),
      lot: u('0.0001'),
    });
    expect(show(qty)).toBe('0.0333');
    expect(notionalOf(u('30000'), qty) <= u('1000')).toBe(true);
    const quarter = sliderQty({ side: 'buy', pct: 25, available: u('1000'), price: u('3'), lot: u('1') });
    expect(show(quarter)).toBe('83');
  });

  it('buy with the fee in quote on top: price × qty + fee stays within the balance', () => {
    const fee = u('0.001');
    const qty = sliderQty({
      side: 'buy',
      pct: 100,
      available: u('100'),
      price: u('10'),
      lot: u('0.01'),
      buyFeeRate: fee,
    });
    expect(show(qty)).toBe('9.99');
    const notional = notionalOf(u('10'), qty);
    expect(notional + feeOf(notional, fee, USDT) <= u('100')).toBe(true);
  });

  it('buy without a price gives nothing', () => {
    expect(sliderQty({ side: 'buy', pct: 100, available: u('100'), price: null, lot: u('1') })).toBe(0n);
    expect(sliderQty({ side: 'buy', pct: 100, available: u('100'), price: 0n, lot: u('1') })).toBe(0n);
  });

  it('floors to a step', () => {
    expect(floorToStep(u('1.2345'), u('0.01'))).toBe(u('1.23'));
    expect(floorToStep(u('5'), 0n)).toBe(u('5'));
  });
});

describe('fee preview', () => {
  it('charges what the server charges: ⌊value × rate⌋ in the quote minor unit (@bourse/risk spotFee)', () => {
    // 0.00000999 USDT at 0.1 % is 0.00000000999: below one minor unit (10^-8), so no fee.
    expect(feeOf(u('0.00000999'), u('0.001'), USDT)).toBe(0n);
    // 12.34567891 × 0.001 = 0.01234567891 → 0.01234567 (rounded down to 8 decimals).
    expect(show(feeOf(u('12.34567891'), u('0.001'), USDT))).toBe('0.01234567');
    expect(show(feeOf(u('1234.5'), u('0.002'), USDT))).toBe('2.469');
    // The same figure the server's spot settlement computes in quote minor units.
    expect(feeOf(u('12.34567891'), u('0.001'), USDT) / 10n ** 10n).toBe(
      spotFee(1_234_567_891n, parseRate('0.001')),
    );
  });

  it('limit order: maker and taker fee in quote on the notional', () => {
    const preview = feePreview({
      kind: 'limit',
      price: u('100'),
      qty: u('2'),
      makerRate: u('0.001'),
      takerRate: u('0.002'),
      quoteScale: USDT,
    });
    expect(show(preview.notional!)).toBe('200');
    expect(show(preview.maker!)).toBe('0.2');
    expect(show(preview.taker!)).toBe('0.4');
  });

  it('market order: only the taker rate, at the estimated price; nothing without an estimate', () => {
    const preview = feePreview({
      kind: 'market',
      price: u('10.5'),
      qty: u('3'),
      makerRate: u('0.001'),
      takerRate: u('0.002'),
      quoteScale: USDT,
    });
    expect(preview.maker).toBeNull();
    expect(show(preview.notional!)).toBe('31.5');
    expect(show(preview.taker!)).toBe('0.063');
    const unknown = feePreview({
      kind: 'market',
      price: null,
      qty: u('3'),
      makerRate: 1n,
      takerRate: 1n,
      quoteScale: USDT,
    });
    expect(unknown).toEqual({ notional: null, maker: null, taker: null });
  });

  it('a tiny fee shown with fewer digits rounds up for display only', () => {
    const preview = feePreview({
      kind: 'limit',
      price: u('0.01'),
      qty: u('1'),
      makerRate: u('0.001'),
      takerRate: u('0.001'),
      quoteScale: USDT,
    });
    expect(show(preview.taker!, 8, 'ceil')).toBe('0.00001');
    expect(show(preview.taker!, 4, 'ceil')).toBe('0.0001');
  });
});

describe('rule checks before submitting', () => {
  const rules: OrderRules = {
    tick: u('0.01'),
    lot: u('0.001'),
    minQty: u('0.01'),
    minNotional: u('5'),
    maxNotional: u('100000'),
  };
  const check = (o: {
    side?: 'buy' | 'sell';
    price: string | null;
    qty: string;
    available: string;
    estimate?: string;
  }) =>
    ruleBreaks({
      rules,
      side: o.side ?? 'buy',
      price: o.price === null ? null : u(o.price),
      qty: u(o.qty),
      estimatePrice: o.estimate ? u(o.estimate) : null,
      available: u(o.available),
      quoteScale: USDT,
    }).map((b) => b.rule);

  it('passes a good order', () => {
    expect(check({ price: '100.01', qty: '0.5', available: '1000' })).toEqual([]);
  });
  it('names each broken rule', () => {
    expect(check({ price: '100.001', qty: '0.5', available: '1000' })).toEqual(['tick']);
    expect(check({ price: '100', qty: '0.5005', available: '1000' })).toEqual(['lot']);
    expect(check({ price: '1000', qty: '0.005', available: '1000' })).toEqual(['minQty']);
    expect(check({ price: '1', qty: '1', available: '1000' })).toEqual(['minNotional']);
    expect(check({ price: '100000', qty: '2', available: '999999999' })).toEqual(['maxNotional']);
    expect(check({ price: '100', qty: '20', available: '1000' })).toEqual(['balance']);
  });
  it('sell checks the base balance; a market order is judged at the estimate', () => {
    expect(check({ side: 'sell', price: null, qty: '2', available: '1', estimate: '100' })).toEqual([
      'balance',
    ]);
    expect(check({ side: 'sell', price: null, qty: '0.02', available: '1', estimate: '100' })).toEqual([
      'minNotional',
    ]);
    expect(check({ side: 'buy', price: null, qty: '0.02', available: '1' })).toEqual([]);
  });
});

describe('market-order check price', () => {
  it('a buy is judged at the reference plus the band, on the grid; a sell at the reference', () => {
    expect(
      show(marketCheckPrice({ side: 'buy', reference: u('100.005'), bandBps: 500, tick: u('0.01') })),
    ).toBe('105');
    expect(show(marketCheckPrice({ side: 'buy', reference: u('100'), bandBps: 250, tick: u('0.01') }))).toBe(
      '102.5',
    );
    expect(
      show(marketCheckPrice({ side: 'sell', reference: u('100.009'), bandBps: 500, tick: u('0.01') })),
    ).toBe('100');
  });
});
