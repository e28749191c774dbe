import { describe, expect, it } from 'vitest';
import { conditionText, stripOf } from './strip.ts';

const AMOUNTS = ['1', '2', '3', '4', '5', '6', '7'];
const me = (over: object) => ({
  streak: 0,
  signed_today: false,
  today_streak_day: 1,
  today_amount: '1',
  last_day: null,
  book: 'real' as const,
  verified: true,
  ...over,
});

describe('the seven-day strip', () => {
  it('marks nothing without a session', () => {
    expect(stripOf(AMOUNTS, null).filter((d) => d.signed || d.today)).toEqual([]);
  });

  it('before signing: the running streak signed, today next', () => {
    const days = stripOf(AMOUNTS, me({ streak: 3, today_streak_day: 4 }));
    expect(days.filter((d) => d.signed).map((d) => d.n)).toEqual([1, 2, 3]);
    expect(days.find((d) => d.today)?.n).toBe(4);
  });

  it('after signing: today is signed; a reset streak starts at day 1; day 7 done wraps', () => {
    const done = stripOf(AMOUNTS, me({ streak: 4, signed_today: true, today_streak_day: null }));
    expect(done.filter((d) => d.signed).map((d) => d.n)).toEqual([1, 2, 3, 4]);
    expect(done.find((d) => d.today)?.n).toBe(4);
    const reset = stripOf(AMOUNTS, me({ streak: 0, today_streak_day: 1 }));
    expect(reset.filter((d) => d.signed)).toEqual([]);
    expect(reset.find((d) => d.today)?.n).toBe(1);
    const wrapped = stripOf(AMOUNTS, me({ streak: 7, today_streak_day: 1 }));
    expect(wrapped.filter((d) => d.signed)).toEqual([]);
  });

  it('states the condition in the page language, falling back to English; none when empty', () => {
    expect(conditionText({ en: 'Promo', zh: '推广', ft: '' }, 'zh')).toBe('推广');
    expect(conditionText({ en: 'Promo', zh: '推广', ft: '' }, 'ft')).toBe('Promo');
    expect(conditionText({ en: ' ', zh: '', ft: '' }, 'en')).toBeNull();
  });
});
