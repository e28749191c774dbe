import { describe, expect, it } from 'vitest';
import {
  amountProblem,
  applyBlocker,
  fullAmount,
  isRepayable,
  LOAN_ROUTES,
  planOf,
  refusalFix,
  refusedTier,
  repaymentPreview,
  repayProblem,
  usdtUnits,
  VERIFICATION_LINKS,
} from './logic.ts';
import { detail, LEND_LIST, loan, OVERDUE } from './test/fixtures.ts';

const PRODUCT = LEND_LIST.items[0] as (typeof LEND_LIST.items)[number];

describe('loan amounts', () => {
  it('reads USDT exactly, refusing zero, signs, floats written oddly and too many digits', () => {
    expect(usdtUnits('1000')).toBe(100_000_000_000n);
    expect(usdtUnits('0.00000001')).toBe(1n);
    for (const bad of ['0', '-1', '1e3', 'abc', '0.000000001', '']) expect(usdtUnits(bad)).toBeNull();
  });

  it('names the first broken rule: invalid, below the minimum, above the maximum, above my limit', () => {
    expect(amountProblem('', PRODUCT, '3000')).toBeNull();
    expect(amountProblem('x', PRODUCT, '3000')).toEqual({ kind: 'invalid' });
    expect(amountProblem('99.99', PRODUCT, '3000')).toEqual({ kind: 'belowMin', min: '100' });
    expect(amountProblem('5000.01', PRODUCT, null)).toEqual({ kind: 'aboveMax', max: '5000' });
    expect(amountProblem('3000.01', PRODUCT, '3000')).toEqual({ kind: 'aboveLimit', limit: '3000' });
    expect(amountProblem('3000', PRODUCT, '3000')).toBeNull();
  });
});

describe('who may apply, before trying', () => {
  const base = {
    signedIn: true,
    scoreRefusal: null,
    loansTier: 'advanced' as const,
    loansVerified: true,
    open: null,
    limit: '3000',
  };
  it('in the server order: login, demo, the profile’s loans rule, one open loan, a limit', () => {
    expect(applyBlocker({ ...base, signedIn: false })).toEqual({ kind: 'login' });
    expect(applyBlocker({ ...base, scoreRefusal: 'REAL_ACCOUNT_REQUIRED' })).toEqual({ kind: 'demo' });
    expect(applyBlocker({ ...base, loansVerified: false })).toEqual({
      kind: 'verification',
      tier: 'advanced',
    });
    expect(applyBlocker({ ...base, open: loan() })).toMatchObject({ kind: 'open' });
    expect(applyBlocker({ ...base, limit: '0' })).toEqual({ kind: 'noLimit' });
    expect(applyBlocker(base)).toBeNull();
  });

  it('the verification step is the tier the data names, none when the rule is none', () => {
    for (const tier of ['primary', 'advanced', 'address'] as const)
      expect(applyBlocker({ ...base, loansTier: tier, loansVerified: false })).toEqual({
        kind: 'verification',
        tier,
      });
    // No verification step: nothing blocks, even unverified and with the score refused (no limit known).
    expect(
      applyBlocker({
        ...base,
        loansTier: 'none',
        loansVerified: false,
        scoreRefusal: 'VERIFICATION_PRIMARY_REQUIRED',
        limit: null,
      }),
    ).toBeNull();
    // A refused score is not itself a loans rule (the server's apply does not ask for it).
    expect(applyBlocker({ ...base, scoreRefusal: 'VERIFICATION_ADVANCED_REQUIRED', limit: null })).toBeNull();
    // Not known yet (the overview still loading): the server's refusal names it if it comes.
    expect(applyBlocker({ ...base, loansVerified: null })).toBeNull();
    expect(applyBlocker({ ...base, loansTier: null, loansVerified: false })).toBeNull();
  });

  it('reads the tier a verification refusal names, and where each tier is completed', () => {
    expect(refusedTier('VERIFICATION_ADVANCED_REQUIRED', { feature: 'credit_score', tier: 'advanced' })).toBe(
      'advanced',
    );
    expect(refusedTier('VERIFICATION_ADDRESS_REQUIRED')).toBe('address');
    expect(refusedTier('REAL_ACCOUNT_REQUIRED', { tier: 'primary' })).toBeNull();
    expect(refusedTier(undefined)).toBeNull();
    expect(VERIFICATION_LINKS).toEqual({
      primary: '/authentication',
      advanced: '/authenticationhigh',
      address: '/dzrz',
    });
  });
});

describe('repaying', () => {
  it('applies fees, then interest, then principal, exactly', () => {
    const outstanding = { fees: '10', interest: '13.5', principal: '600', total: '623.5' };
    expect(repaymentPreview(outstanding, '5')).toEqual({
      paid: { fees: '5', interest: '0', principal: '0' },
      after: { fees: '5', interest: '13.5', principal: '600', total: '618.5' },
      unapplied: '0',
    });
    expect(repaymentPreview(outstanding, '100.00000001')?.paid).toEqual({
      fees: '10',
      interest: '13.5',
      principal: '76.50000001',
    });
    expect(repaymentPreview(outstanding, '700')?.unapplied).toBe('76.5');
    expect(repaymentPreview(outstanding, '0')).toBeNull();
  });

  it('checks an amount against what everything takes, and asks for the voucher by transfer', () => {
    expect(repayProblem({ amount: '624', owed: '623.5', method: 'balance', voucherId: null })).toEqual({
      kind: 'aboveOwed',
      owed: '623.5',
    });
    expect(repayProblem({ amount: '1', owed: '623.5', method: 'voucher', voucherId: null })).toEqual({
      kind: 'voucherMissing',
    });
    expect(repayProblem({ amount: '1', owed: '623.5', method: 'voucher', voucherId: 'upl_1' })).toBeNull();
    expect(repayProblem({ amount: 'x', owed: null, method: 'balance', voucherId: null })).toEqual({
      kind: 'invalid',
    });
  });

  it('repays everything with the payoff (interest to date), else the outstanding', () => {
    expect(fullAmount(detail(OVERDUE))).toBe('623.5');
    expect(fullAmount({ loan: OVERDUE, payoff: null })).toBe('623.5');
    expect(fullAmount({ loan: loan({ outstanding: null }), payoff: null })).toBeNull();
  });

  it('only a running loan is repayable', () => {
    expect(['disbursed', 'repaying', 'overdue'].every((s) => isRepayable(s as 'disbursed'))).toBe(true);
    expect(
      ['unreviewed', 'cleared', 'rejected', 'withdrawn', 're_applied'].some((s) =>
        isRepayable(s as 'cleared'),
      ),
    ).toBe(false);
  });
});

describe('the schedule and links', () => {
  it('free days first, then interest to the term', () => {
    expect(planOf({ term_days: 14, interest_free_days: 3 })).toEqual({
      freeDays: 3,
      interestFrom: 4,
      interestTo: 14,
      term: 14,
    });
    expect(planOf({ term_days: 3, interest_free_days: 5 })).toEqual({
      freeDays: 3,
      interestFrom: null,
      interestTo: 3,
      term: 3,
    });
  });

  it('sends each refusal where it is fixed', () => {
    expect(refusalFix('VERIFICATION_ADVANCED_REQUIRED')).toBe('advanced');
    expect(refusalFix('VERIFICATION_PRIMARY_REQUIRED')).toBe('verification');
    expect(refusalFix('LOAN_OPEN_EXISTS')).toBe('myLoans');
    expect(refusalFix('INSUFFICIENT_BALANCE')).toBe('funds');
    expect(refusalFix('LOAN_AGREEMENT_REQUIRED')).toBeNull();
    expect(LOAN_ROUTES.loan('lon 1')).toBe('/repaymentNew?loan_id=lon%201');
    expect(LOAN_ROUTES.reapply('lon_4')).toBe('/credit?reapply_of=lon_4');
  });
});
