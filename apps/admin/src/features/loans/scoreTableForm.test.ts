import { describe, expect, it } from 'vitest';
import { formOfTable, scoreTableBody } from './scoreTableForm.ts';
import { TABLE } from './testing.ts';

describe('the score table form', () => {
  it('round-trips the table in force into a body for the next version', () => {
    const form = { ...formOfTable(TABLE), reason: 'quarterly review' };
    expect(form.bands.deposits).toBe('0 0\n1000.5 60');
    const { body, problems } = scoreTableBody(form);
    expect(problems).toEqual([]);
    expect(body).toEqual({
      base_points: 300,
      bands: TABLE.bands,
      limits: TABLE.limits,
      reason: 'quarterly review',
    });
  });

  it('names unreadable lines, a missing reason, and what @bourse/risk would refuse', () => {
    const form = formOfTable(TABLE);
    expect(scoreTableBody({ ...form, limits: '0 0\nfour 500' }).problems).toEqual([
      { field: 'limits', rule: 'unreadable', line: 2 },
      { field: 'reason', rule: 'reason', line: null },
    ]);
    const wrong = {
      ...form,
      reason: 'try',
      bands: { ...form.bands, account_age: '10 0\n5 50', loans_late: '0 0\n1 20' },
      limits: '0 100\n400 50',
    };
    expect(scoreTableBody(wrong).problems).toEqual([
      { field: 'account_age', rule: 'first_from_not_zero', line: 1 },
      { field: 'account_age', rule: 'from_not_ascending', line: 2 },
      { field: 'loans_late', rule: 'points_not_monotone', line: 2 },
      { field: 'limits', rule: 'limit_not_monotone', line: 2 },
    ]);
    expect(scoreTableBody(wrong).body).toBeNull();
  });
});
