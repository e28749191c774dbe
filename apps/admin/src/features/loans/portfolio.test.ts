import { describe, expect, it } from 'vitest';
import { bucketOf, portfolioOf } from './portfolio.ts';
import { adminLoan } from './testing.ts';

describe('the portfolio', () => {
  it('puts days past due into buckets 1–7, 8–30, 31–60 and over 60', () => {
    expect([null, 0, 1, 7, 8, 30, 31, 60, 61, 400].map(bucketOf)).toEqual([
      'current',
      'current',
      'd1_7',
      'd1_7',
      'd8_30',
      'd8_30',
      'd31_60',
      'd31_60',
      'd61',
      'd61',
    ]);
  });

  it('sums what open loans owe exactly, per bucket, and the income charged and received', () => {
    const loans = [
      adminLoan(),
      adminLoan({
        loan_id: 'lon_2',
        state: 'overdue',
        days_past_due: 12,
        outstanding: { principal: '300.1', interest: '20.2', fees: '10', total: '330.3' },
        charged: '40.2',
        repaid: '210',
      }),
      adminLoan({ loan_id: 'lon_3', state: 'cleared', outstanding: null, charged: '13.5', repaid: '513.5' }),
      adminLoan({
        loan_id: 'lon_4',
        state: 'unreviewed',
        disbursed_at: null,
        outstanding: null,
        charged: '0',
      }),
      adminLoan({ loan_id: 'lon_5', state: 'rejected', disbursed_at: null, outstanding: null, charged: '0' }),
    ];
    const p = portfolioOf(loans);
    expect(p.open).toBe(2);
    expect(p.owed).toEqual({ principal: '800.1', interest: '20.7', fees: '10', total: '830.8' });
    expect(p.buckets.map((b) => [b.bucket, b.count, b.owed.total])).toEqual([
      ['current', 1, '500.5'],
      ['d1_7', 0, '0'],
      ['d8_30', 1, '330.3'],
      ['d31_60', 0, '0'],
      ['d61', 0, '0'],
    ]);
    // Charged 0.5 + 40.2 + 13.5 = 54.2; still owed 20.7 + 10 = 30.7; received 23.5.
    expect(p.income).toEqual({ charged: '54.2', owed: '30.7', received: '23.5' });
    expect(p.disbursed).toBe('1500');
    expect(p.repaid).toBe('723.5');
    expect(p.counts.unreviewed).toBe(1);
    expect(p.counts.rejected).toBe(1);
  });

  it('is all zeros for no loans', () => {
    const p = portfolioOf([]);
    expect(p.open).toBe(0);
    expect(p.owed.total).toBe('0');
    expect(p.income.received).toBe('0');
  });
});
