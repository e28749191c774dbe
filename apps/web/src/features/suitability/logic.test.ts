import { describe, expect, it } from 'vitest';
import { answeredCount, capLines, maxPoints, ratingColor } from './logic.ts';

describe('suitability logic', () => {
  it('reads a cap as lines per product class', () => {
    expect(capLines('contracts', { max_leverage: 50, max_amount: '20000' })).toEqual([
      { key: 'leverage', max: 50 },
      { key: 'margin', amount: '20000' },
    ]);
    expect(capLines('contracts', { max_leverage: 0, max_amount: '0' })).toEqual([{ key: 'notAllowed' }]);
    expect(capLines('options', { max_leverage: null, max_amount: '200' })).toEqual([
      { key: 'stake', amount: '200' },
    ]);
    expect(capLines('options', { max_leverage: null, max_amount: '0' })).toEqual([{ key: 'notAllowed' }]);
    expect(capLines('loans', { max_leverage: null, max_amount: '500' })).toEqual([
      { key: 'amount', amount: '500' },
    ]);
    expect(capLines('earn', undefined)).toEqual([]);
  });

  it('counts answers and the best points of a question', () => {
    expect(answeredCount(['a', 'b', 'c'], { a: 'x', c: '' })).toBe(1);
    expect(
      maxPoints(
        { questions: { q: { a: { points: 1, ceiling: null }, b: { points: 3, ceiling: 'balanced' } } } },
        'q',
      ),
    ).toBe(3);
    expect(maxPoints({ questions: {} }, 'q')).toBe(0);
    expect(ratingColor('not_assessed')).toBe('gray');
    expect(ratingColor('aggressive')).toBe('red');
  });
});
