import { describe, expect, it } from 'vitest';
import {
  amountProblem,
  amountUnits,
  canRedeem,
  daysUntil,
  ledgerScale,
  maturityAmount,
  pageCount,
  profitSoFar,
  progressPercent,
  REFUSAL_LINKS,
  refusalFix,
  rewardExample,
  secondsLeft,
  subscribedPercent,
  zoneName,
} from './logic.ts';

describe('rewardExample: floor(amount × rate / 100 / 365) in minor units, × term', () => {
  it('1,000 USDT at 5 % for 30 days: 0.13698630 a day, 4.109589 over the term', () => {
    const example = rewardExample({ amount: '1000', annualRate: '5', termDays: 30, currency: 'USDT' });
    // 1000 × 10^8 × 5 / 100 / 365 = 13,698,630.136… → 13,698,630 units.
    expect(example?.dailyUnits).toBe(13_698_630n);
    expect(example?.daily).toBe('0.1369863');
    expect(example?.totalUnits).toBe(13_698_630n * 30n);
    expect(example?.total).toBe('4.109589');
  });

  it('rounds each day down, never up (the term total is the day times the days, not the rounded year share)', () => {
    // 1 unit short of a whole day's reward: 0.00000365 USDT at 100 % → 0.00000001 a day exactly; 0.00000364 → 0.
    expect(
      rewardExample({ amount: '0.00000365', annualRate: '100', termDays: 7, currency: 'USDT' })?.total,
    ).toBe('0.00000007');
    expect(
      rewardExample({ amount: '0.00000364', annualRate: '100', termDays: 7, currency: 'USDT' })?.total,
    ).toBe('0');
  });

  it('uses the four rate decimals exactly (no float drift)', () => {
    // 12,345.67 × 3.6525 % / 365 = 1.2354125…; floor at 8 places.
    const example = rewardExample({
      amount: '12345.67',
      annualRate: '3.6525',
      termDays: 1,
      currency: 'USDT',
    });
    const expected = (1_234_567_000_000n * 36_525n) / (100n * 365n * 10_000n);
    expect(example?.dailyUnits).toBe(expected);
    expect(example?.daily).toBe('1.23541259');
  });

  it('works at the currency’s own scale (ETH has 18 places)', () => {
    const example = rewardExample({ amount: '1', annualRate: '3.65', termDays: 10, currency: 'ETH' });
    expect(example?.daily).toBe('0.0001');
    expect(example?.total).toBe('0.001');
  });

  it('is null for what is not a number', () => {
    expect(rewardExample({ amount: 'abc', annualRate: '5', termDays: 30, currency: 'USDT' })).toBeNull();
    expect(rewardExample({ amount: '10', annualRate: 'x', termDays: 30, currency: 'USDT' })).toBeNull();
    expect(rewardExample({ amount: '-1', annualRate: '5', termDays: 30, currency: 'USDT' })).toBeNull();
    expect(rewardExample({ amount: '1', annualRate: '5', termDays: 1.5, currency: 'USDT' })).toBeNull();
    // More places than the currency has is not an amount.
    expect(
      rewardExample({ amount: '0.000000001', annualRate: '5', termDays: 1, currency: 'USDT' }),
    ).toBeNull();
  });
});

describe('amountProblem', () => {
  const base = { currency: 'USDT', min: '100', max: '5000', mayBuy: '2000' };
  it('names the first problem in order', () => {
    expect(amountProblem({ ...base, amount: '' })).toBe('empty');
    expect(amountProblem({ ...base, amount: '1,000' })).toBe('invalid');
    expect(amountProblem({ ...base, amount: '0' })).toBe('invalid');
    expect(amountProblem({ ...base, amount: '99.99' })).toBe('belowMin');
    expect(amountProblem({ ...base, amount: '5000.01' })).toBe('aboveMax');
    expect(amountProblem({ ...base, amount: '2000.01' })).toBe('aboveMayBuy');
  });
  it('accepts the bounds themselves', () => {
    expect(amountProblem({ ...base, amount: '100' })).toBeNull();
    expect(amountProblem({ ...base, amount: '2000' })).toBeNull();
    expect(amountProblem({ ...base, mayBuy: null, amount: '5000' })).toBeNull();
  });
});

describe('subscribedPercent', () => {
  it('is the subscribed share of the capacity, one decimal, at most 100', () => {
    expect(subscribedPercent('2500', '10000', 'USDT')).toBe(25);
    expect(subscribedPercent('1', '3', 'USDT')).toBe(33.3);
    expect(subscribedPercent('12000', '10000', 'USDT')).toBe(100);
    expect(subscribedPercent('0', '0', 'USDT')).toBe(0);
  });
});

describe('time figures', () => {
  it('counts the quote down in whole seconds, never below zero', () => {
    expect(secondsLeft(61_000, 1_000)).toBe(60);
    expect(secondsLeft(60_500, 1_000)).toBe(60);
    expect(secondsLeft(1_000, 5_000)).toBe(0);
  });
  it('counts days up to an arrival', () => {
    expect(daysUntil(3 * 86_400_000, 0)).toBe(3);
    expect(daysUntil(86_400_001, 0)).toBe(2);
    expect(daysUntil(0, 5)).toBe(0);
  });
  it('shows the share of the term accrued', () => {
    expect(progressPercent(3, 7)).toBe(42.9);
    expect(progressPercent(9, 7)).toBe(100);
    expect(progressPercent(0, 0)).toBe(0);
  });
  it('pages', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(21, 10)).toBe(3);
  });
});

describe('refusalFix', () => {
  it('sends a missing tier to verification, a rating to the questionnaire, funds to the assets', () => {
    expect(refusalFix('EARN_TIER_REQUIRED')).toBe('verification');
    expect(refusalFix('VERIFICATION_REQUIRED')).toBe('verification');
    expect(refusalFix('EARN_RATING_TOO_LOW')).toBe('questionnaire');
    expect(refusalFix('SUITABILITY_CAP_EXCEEDED')).toBe('questionnaire');
    expect(refusalFix('EARN_VIP_LEVEL_REQUIRED')).toBe('vip');
    expect(refusalFix('INSUFFICIENT_BALANCE')).toBe('funds');
    expect(refusalFix('EARN_CAPACITY_EXCEEDED')).toBeNull();
    expect(REFUSAL_LINKS.verification).toBe('/sfyz');
    expect(REFUSAL_LINKS.questionnaire).toBe('/questionnaire');
  });
});

describe('orders', () => {
  it('only running orders with a rule that allows it may be redeemed early', () => {
    expect(canRedeem('in_custody', 'forfeit_rewards')).toBe(true);
    expect(canRedeem('in_custody', 'none')).toBe(false);
    expect(canRedeem('redeeming', 'forfeit_rewards')).toBe(false);
    expect(canRedeem('completed', 'principal_percent')).toBe(false);
  });
  it('reads amounts at the ledger scale', () => {
    expect(ledgerScale('USDT')).toBe(8);
    expect(ledgerScale('XYZ')).toBe(8);
    expect(amountUnits('1.5', 'USDT')).toBe(150_000_000n);
  });
});

describe('maturityAmount', () => {
  it('adds the reward to the principal exactly', () => {
    expect(maturityAmount('1000', '4.109589', 'USDT')).toBe('1004.109589');
    expect(maturityAmount('0.1', '0.2', 'USDT')).toBe('0.3');
    expect(maturityAmount('x', '1', 'USDT')).toBeNull();
  });
});

describe('zoneName', () => {
  it('names a zone in the reader’s language, else keeps the IANA name', () => {
    expect(zoneName('UTC', 'en-US', 0)).toBe('Coordinated Universal Time');
    expect(zoneName('Asia/Hong_Kong', 'en-US', 0)).toBe('Hong Kong Standard Time');
    expect(zoneName('Asia/Hong_Kong', 'zh-CN', 0)).toBe('香港标准时间');
    expect(zoneName('Mars/Base', 'en-US', 0)).toBe('Mars/Base');
  });
});

describe('profitSoFar', () => {
  it('is the accrued rewards while running, what was paid once redeemed early', () => {
    expect(profitSoFar({ accrued: '0.4', redemption: null })).toBe('0.4');
    const redemption = {
      principal_returned: '1000',
      rewards_paid: '0',
      rewards_forfeited: '0.4',
      penalty: '0',
      requested_at: 0,
      arrives_at: 0,
    };
    expect(profitSoFar({ accrued: '0.4', redemption })).toBe('0');
  });
});
