import { describe, expect, it } from 'vitest';
import { dateRangeOf, pageOf } from './paging.ts';
import { Refusal } from './refusal.ts';

const reasonOf = (run: () => unknown): string | null => {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof Refusal) return error.reason;
    throw error;
  }
};

describe('one paging rule', () => {
  const limits = { pageSizeDefault: 20, pageSizeMax: 100 };

  it('defaults, and refuses a page size outside the limits', () => {
    expect(pageOf({}, limits)).toEqual({ page: 1, pageSize: 20 });
    expect(pageOf({ page: '3', page_size: '50' }, limits)).toEqual({ page: 3, pageSize: 50 });
    expect(reasonOf(() => pageOf({ page: '0' }, limits))).toBe('BAD_INPUT');
    expect(reasonOf(() => pageOf({ page_size: '0' }, limits))).toBe('BAD_INPUT');
    expect(reasonOf(() => pageOf({ page_size: '101' }, limits))).toBe('LIMIT_TOO_LARGE');
  });
});

describe('one date-range rule: [start_time, end_time) in epoch milliseconds', () => {
  it('reads either end, or none', () => {
    expect(dateRangeOf({})).toEqual({ from: null, to: null });
    expect(dateRangeOf({ start_time: '1000' })).toEqual({ from: new Date(1000), to: null });
    expect(dateRangeOf({ end_time: '2000' })).toEqual({ from: null, to: new Date(2000) });
    expect(dateRangeOf({ start_time: '1000', end_time: '2000' })).toEqual({
      from: new Date(1000),
      to: new Date(2000),
    });
  });

  it('refuses an empty or backwards range, and what is not a time', () => {
    expect(reasonOf(() => dateRangeOf({ start_time: '2000', end_time: '1000' }))).toBe('DATE_RANGE_INVALID');
    expect(reasonOf(() => dateRangeOf({ start_time: '2000', end_time: '2000' }))).toBe('DATE_RANGE_INVALID');
    expect(reasonOf(() => dateRangeOf({ start_time: '1e3' }))).toBe('BAD_INPUT');
    expect(reasonOf(() => dateRangeOf({ end_time: '-5' }))).toBe('BAD_INPUT');
    expect(reasonOf(() => dateRangeOf({ end_time: '99999999999999999999' }))).toBe('BAD_INPUT');
  });
});
