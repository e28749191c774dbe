import { describe, expect, it } from 'vitest';
import { feeOf, show, units } from './amounts.ts';
import { buyWithQuote, fillBase, levelsOf } from './quote.ts';

const u = (v: string) => units(v) ?? 0n;
const asks = levelsOf([
  ['100', '1'],
  ['101', '2'],
  ['105', '10'],
]);

describe('quotes from the book', () => {
  it('drops malformed and empty levels', () => {
    expect(
      levelsOf([
        ['x', '1'],
        ['1', '0'],
        ['2', '3'],
      ]),
    ).toEqual([{ price: u('2'), qty: u('3') }]);
  });

  it('walks levels from the best price for a base quantity', () => {
    const fill = fillBase(asks, u('2.5'), 'buy');
    expect(show(fill.value)).toBe('251.5');
    expect(show(fill.avgPrice ?? 0n)).toBe('100.6');
    expect(fill.complete).toBe(true);
  });

  it('says when the book is too thin', () => {
    const fill = fillBase(asks, u('20'), 'buy');
    expect(show(fill.qty)).toBe('13');
    expect(fill.complete).toBe(false);
    expect(fillBase([], u('1'), 'sell').avgPrice).toBeNull();
  });

  it('buys whole lots with a quote budget, value plus fee within the budget', () => {
    const fee = u('0.001');
    const fill = buyWithQuote(asks, u('250'), u('0.01'), fee, 8);
    expect(show(fill.qty)).toBe('2.48');
    expect(show(fill.value)).toBe('249.48');
    expect(fill.value + feeOf(fill.value, fee, 8) <= u('250')).toBe(true);
    // One more lot would not fit.
    const more = fillBase(asks, fill.qty + u('0.01'), 'buy');
    expect(more.value + feeOf(more.value, fee, 8) > u('250')).toBe(true);
    expect(fill.complete).toBe(true);
  });

  it('a budget beyond the visible book is incomplete', () => {
    const fill = buyWithQuote(asks, u('100000'), u('0.01'), 0n, 8);
    expect(show(fill.qty)).toBe('13');
    expect(fill.complete).toBe(false);
  });

  it('a budget below one lot buys nothing', () => {
    const fill = buyWithQuote(asks, u('0.5'), u('0.01'), 0n, 8);
    expect(fill.qty).toBe(0n);
    expect(fill.avgPrice).toBeNull();
  });
});
