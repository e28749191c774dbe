import { LOAN_CAPS } from '@bourse/risk';
import { describe, expect, it } from 'vitest';
import {
  bodyOf,
  capsOfProfile,
  capsText,
  emptyProductForm,
  formProblems,
  limitText,
  type ProductForm,
  productPreview,
  termsOf,
  withinLimit,
} from './productForm.ts';

const filled = (patch: Partial<ProductForm> = {}): ProductForm => ({
  ...emptyProductForm(),
  names: { en: 'Quick loan', zh: '快贷', ft: '快貸' },
  descriptions: { en: 'Short loans', zh: '短期', ft: '短期' },
  lender_id: 'lnl_main',
  reason: 'new product approved',
  ...patch,
});

describe('the loan product form', () => {
  it('reads terms separated by commas, spaces or a Chinese comma, and refuses anything else', () => {
    expect(termsOf('7, 14 30，60')).toEqual([7, 14, 30, 60]);
    expect(termsOf('7, x')).toBeNull();
    expect(termsOf('7.5')).toBeNull();
    expect(termsOf('')).toEqual([]);
  });

  it('picks the caps the server holds products to: eu_retail strict, permissive and custom looser', () => {
    expect(capsOfProfile('eu_retail')).toBe(LOAN_CAPS.eu_retail);
    expect(capsOfProfile('permissive')).toBe(LOAN_CAPS.permissive);
    expect(capsOfProfile('custom')).toBe(LOAN_CAPS.permissive);
    expect(capsText(LOAN_CAPS.eu_retail)).toEqual({
      daily_rate_max: '0.8',
      total_cost_max: '100',
      late_fee_max: '15',
    });
  });

  it('previews the quote a customer would read with the same maths as the server', () => {
    const preview = productPreview(filled(), LOAN_CAPS.eu_retail);
    expect(preview.kind).toBe('quote');
    if (preview.kind !== 'quote') return;
    // 500 USDT × 0.1 % a day × (30 − 3 free days) = 13.5 USDT.
    expect(preview.quote.interestUnits).toBe(1_350_000_000n);
    expect(preview.quote.totalRepayableUnits).toBe(51_350_000_000n);
    expect(preview.quote.chargeableDays).toBe(27);
    expect(preview.quote.aprBps > preview.quote.simpleAnnualRateBps).toBe(true);
  });

  it('names every cap a product breaks before it is saved, with the bound in the field’s unit', () => {
    const preview = productPreview(filled({ daily_rate: '0.9', late_fee: '20' }), LOAN_CAPS.eu_retail);
    expect(preview.kind).toBe('breaks');
    if (preview.kind !== 'breaks') return;
    expect(preview.violations.map((v) => [v.field, v.rule, limitText(v)])).toEqual([
      ['daily_rate', 'daily_rate_cap', '0.8'],
      ['late_fee', 'late_fee_cap', '15'],
    ]);
    // The same product passes under the permissive profile's caps (1 % a day, 50 USDT).
    expect(productPreview(filled({ daily_rate: '0.9', late_fee: '20' }), LOAN_CAPS.permissive).kind).toBe(
      'quote',
    );
  });

  it('refuses a term whose interest alone exceeds the total-cost cap, naming the longest term that fits', () => {
    const preview = productPreview(filled({ daily_rate: '0.8', term_days: '30, 200' }), LOAN_CAPS.eu_retail);
    expect(preview.kind).toBe('breaks');
    if (preview.kind !== 'breaks') return;
    expect(preview.violations).toEqual([{ field: 'term_days', rule: 'total_cost_cap', limit: 128n }]);
    expect(limitText(preview.violations[0] as never)).toBe('128');
  });

  it('says which fields are not numbers, and when the sample is outside the product', () => {
    expect(productPreview(filled({ amount_min: 'ten', daily_rate: '-1' }), LOAN_CAPS.permissive)).toEqual({
      kind: 'unreadable',
      fields: ['amount_min', 'daily_rate'],
    });
    const big = productPreview(filled({ sample_amount: '5000' }), LOAN_CAPS.permissive);
    expect(big).toEqual({
      kind: 'sample',
      problem: { field: 'amount', rule: 'above_max', limit: 100_000_000_000n },
    });
    const term = productPreview(filled({ sample_term: '21' }), LOAN_CAPS.permissive);
    expect(term).toEqual({
      kind: 'sample',
      problem: { field: 'term_days', rule: 'not_offered', limit: null },
    });
  });

  it('names missing texts, lender and reason, and sends the body the server expects', () => {
    expect(formProblems(emptyProductForm())).toEqual([
      'names.en',
      'names.zh',
      'names.ft',
      'descriptions.en',
      'descriptions.zh',
      'descriptions.ft',
      'lender_id',
      'reason',
    ]);
    expect(formProblems(filled())).toEqual([]);
    expect(bodyOf(filled({ term_days: '7,14, 30' }))).toEqual({
      names: { en: 'Quick loan', zh: '快贷', ft: '快貸' },
      descriptions: { en: 'Short loans', zh: '短期', ft: '短期' },
      lender_id: 'lnl_main',
      amount_min: '100',
      amount_max: '1000',
      term_days: [7, 14, 30],
      daily_rate: '0.1',
      interest_free_days: 3,
      overdue_rate: '0.2',
      late_fee: '10',
      reason: 'new product approved',
    });
  });

  it('compares an amount with a limit exactly', () => {
    expect(withinLimit('1000', '1000.00')).toBe(true);
    expect(withinLimit('1000.00000001', '1000')).toBe(false);
  });
});
