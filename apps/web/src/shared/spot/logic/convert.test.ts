import type { SpotMarketData } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import { feeOf, show, units } from './amounts.ts';
import { quoteConversion } from './convert.ts';

const u = (v: string) => units(v) ?? 0n;
const market: SpotMarketData = {
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  price_tick: '0.01',
  price_scale: 2,
  lot_size: '0.0001',
  quantity_scale: 4,
  min_quantity: '0.0001',
  min_notional: '5',
  max_notional: '1000000',
  maker_fee_rate: '0.001',
  taker_fee_rate: '0.002',
  price_band_bps: 500,
  status: 'enabled',
  halt_reason: null,
};
const bids: Array<[string, string]> = [
  ['99', '0.5'],
  ['98', '1'],
];
const asks: Array<[string, string]> = [
  ['100', '0.5'],
  ['101', '1'],
];

describe('convert quotes', () => {
  it('base → quote sells whole lots into the bids and takes the taker fee from the proceeds', () => {
    const q = quoteConversion({
      market,
      from: 'BTC',
      amount: u('0.70005'),
      bids,
      asks,
      available: u('1'),
      reference: null,
    });
    expect(q.side).toBe('sell');
    expect(show(q.qty)).toBe('0.7');
    expect(show(q.fill.value)).toBe('69.1');
    expect(show(q.fee)).toBe('0.1382');
    expect(show(q.receive)).toBe('68.9618');
    expect(show(q.pay)).toBe('0.7');
    expect(show(q.rate ?? 0n)).toBe('98.714285714285714285');
    expect(q.breaks).toEqual([]);
  });

  it('quote → base spends the budget on asks with the fee on top; the rate is inverted', () => {
    const q = quoteConversion({
      market,
      from: 'USDT',
      amount: u('100'),
      bids,
      asks,
      available: u('1000'),
      reference: null,
    });
    expect(q.side).toBe('buy');
    expect(show(q.qty)).toBe('0.993');
    expect(show(q.fill.value)).toBe('99.793');
    expect(q.pay).toBe(q.fill.value + feeOf(q.fill.value, u('0.002'), 8));
    expect(q.pay <= u('100')).toBe(true);
    expect(q.receive).toBe(q.qty);
    expect(q.rate !== null && q.rate > 0n).toBe(true);
  });

  it('a market buy is checked at the reference plus the band: a budget near the balance names the balance rule', () => {
    const q = quoteConversion({
      market,
      from: 'USDT',
      amount: u('100'),
      bids,
      asks,
      available: u('100'),
      reference: u('100'),
    });
    expect(q.breaks.map((b) => b.rule)).toEqual(['balance']);
  });

  it('names the minimum value before the customer confirms', () => {
    const q = quoteConversion({
      market,
      from: 'BTC',
      amount: u('0.01'),
      bids,
      asks,
      available: u('1'),
      reference: null,
    });
    expect(q.breaks.map((b) => b.rule)).toEqual(['minNotional']);
  });
});
