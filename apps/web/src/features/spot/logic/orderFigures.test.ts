import type { SpotMarketData } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import { show, units } from '../../../shared/spot/logic/amounts.ts';
import { levelsOf } from '../../../shared/spot/logic/quote.ts';
import { spotOrderFigures } from './orderFigures.ts';

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
const asks = levelsOf([
  ['100', '0.5'],
  ['101', '1'],
]);
const base = { market, side: 'buy' as const, levels: asks, tickerReference: null, available: u('1000') };

describe('spot order figures', () => {
  it('a limit order is valued and checked at its own price', () => {
    const f = spotOrderFigures({ ...base, kind: 'limit', price: '99', qty: '1' });
    expect(f.priceUnits).toBe(u('99'));
    expect(f.checkAt).toBe(u('99'));
    expect(f.fee?.notional === null || f.fee === null ? null : show(f.fee.notional, 2)).toBe('99');
    expect(f.breaks).toEqual([]);
    expect(f.ready).toBe(true);
    expect(f.buyFeeRate).toBe(u('0.002'));
  });

  it('a market buy is estimated against the book and checked at the reference plus the band', () => {
    const f = spotOrderFigures({ ...base, kind: 'market', price: '', qty: '1' });
    expect(f.estimate?.complete).toBe(true);
    expect(f.priceUnits).toBeNull();
    // no ticker: the best ask (100) plus 5%
    expect(f.checkAt).toBe(u('105'));
    expect(
      spotOrderFigures({ ...base, kind: 'market', price: '', qty: '1', tickerReference: u('200') }).checkAt,
    ).toBe(u('210'));
    expect(f.ready).toBe(true);
  });

  it('names the rules an order breaks, and sends nothing without a quantity (and a limit price)', () => {
    expect(
      spotOrderFigures({ ...base, kind: 'limit', price: '99', qty: '20' }).breaks.map((b) => b.rule),
    ).toEqual(['balance']);
    expect(spotOrderFigures({ ...base, kind: 'limit', price: '', qty: '1' })).toMatchObject({
      breaks: [],
      ready: false,
    });
    expect(spotOrderFigures({ ...base, kind: 'market', price: '', qty: '' })).toMatchObject({
      fee: null,
      estimate: null,
      ready: false,
    });
    expect(spotOrderFigures({ ...base, kind: 'market', price: '', qty: '1', levels: [] }).checkAt).toBeNull();
  });
});
