import { LAUNCHPAD_PROJECT_STATES, LAUNCHPAD_SUBSCRIPTION_STATES } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import {
  coinUnits,
  countdownOf,
  countOf,
  fillPercent,
  hasProof,
  lotsOf,
  lotsToCoins,
  maxAsk,
  maxQuantity,
  PROJECT_STATE_COLORS,
  pageCount,
  paramKind,
  progressView,
  projectBadges,
  quantityProblem,
  REFUSAL_LINKS,
  recordReason,
  refusalFix,
  SUBSCRIPTION_STATE_COLORS,
  splitDuration,
  subscribeBlocker,
} from './logic.ts';

const RULES = {
  coin_scale: 6,
  lot_size: '10',
  min_subscription: '100',
  per_customer_cap: '5000',
  mode: 'first_come',
  supply: '1000000',
} as const;
/** Pro rata: one may ask for up to the supply; the cap bounds the allocation (server `maxLots`). */
const PRO_RATA = { ...RULES, mode: 'pro_rata', supply: '20000' } as const;

describe('quantityProblem: the field checks the lot size, the minimum, the cap and what I may still ask for', () => {
  it('names the first problem in order', () => {
    expect(quantityProblem('', RULES, '2000')).toBe('empty');
    expect(quantityProblem('  ', RULES, '2000')).toBe('empty');
    expect(quantityProblem('1,000', RULES, '2000')).toBe('invalid');
    expect(quantityProblem('-10', RULES, '2000')).toBe('invalid');
    expect(quantityProblem('0', RULES, '2000')).toBe('invalid');
    expect(quantityProblem('1e3', RULES, '2000')).toBe('invalid');
    // More places than the coin has is not a quantity.
    expect(quantityProblem('10.0000001', RULES, '2000')).toBe('invalid');
    expect(quantityProblem('105', RULES, '2000')).toBe('lotStep');
    expect(quantityProblem('90', RULES, '2000')).toBe('belowMin');
    expect(quantityProblem('5010', RULES, null)).toBe('aboveCap');
    expect(quantityProblem('2010', RULES, '2000')).toBe('aboveMay');
  });

  it('accepts whole lots within the bounds, the bounds themselves included', () => {
    expect(quantityProblem('100', RULES, '2000')).toBeNull();
    expect(quantityProblem('2000', RULES, '2000')).toBeNull();
    expect(quantityProblem('5000', RULES, null)).toBeNull();
    expect(quantityProblem(' 150.000 ', RULES, null)).toBeNull();
  });

  it('in pro rata accepts an ask above the cap, up to the supply (the cap bounds the allocation)', () => {
    expect(quantityProblem('5010', PRO_RATA, null)).toBeNull();
    expect(quantityProblem('20000', PRO_RATA, null)).toBeNull();
    expect(quantityProblem('20010', PRO_RATA, null)).toBe('aboveCap');
    expect(quantityProblem('9010', PRO_RATA, '9000')).toBe('aboveMay');
  });

  it('checks fractional lot sizes exactly (no float: 0.1 + 0.2 is a whole number of 0.1 lots)', () => {
    const fine = {
      ...RULES,
      coin_scale: 8,
      lot_size: '0.1',
      min_subscription: '0.1',
      per_customer_cap: '100',
    };
    expect(quantityProblem('0.3', fine, null)).toBeNull();
    expect(quantityProblem('0.35', fine, null)).toBe('lotStep');
    expect(lotsOf('0.3', '0.1', 8)).toBe(3n);
    expect(lotsOf('0.35', '0.1', 8)).toBeNull();
    expect(lotsOf('0', '0.1', 8)).toBeNull();
    expect(lotsToCoins(3n, '0.1', 8)).toBe('0.3');
    expect(lotsToCoins('12345678901234567890', '0.01', 8)).toBe('123456789012345678.9');
  });

  it('reads coin amounts at the coin scale', () => {
    expect(coinUnits('1.5', 2)).toBe(150n);
    expect(coinUnits('1.555', 2)).toBeNull();
    expect(coinUnits('abc', 2)).toBeNull();
  });
});

describe('maxQuantity', () => {
  it('is the least of the cap and what I may still ask for, rounded down to a lot', () => {
    expect(maxQuantity(RULES, '2345')).toBe('2340');
    expect(maxQuantity(RULES, '99999')).toBe('5000');
    expect(maxQuantity(RULES, null)).toBe('5000');
    expect(maxQuantity(RULES, '9')).toBeNull();
  });

  it('in pro rata is bounded by the supply, not the cap', () => {
    expect(maxQuantity(PRO_RATA, '99999')).toBe('20000');
    expect(maxQuantity(PRO_RATA, '7345')).toBe('7340');
    expect(maxAsk(PRO_RATA)).toBe('20000');
    expect(maxAsk(RULES)).toBe('5000');
  });
});

describe('progressView: subscribed against supply', () => {
  const base = { coin_scale: 2, supply: '1000000' };
  it('fills the bar with the server’s percent', () => {
    const view = progressView({ ...base, progress: '42.5', subscribed: '425000' });
    expect(view).toEqual({ bar: 42.5, percent: '42.5', oversubscribed: false, times: null });
  });

  it('in pro rata past 100 %: a full bar and oversubscribed ×N, rounded down', () => {
    const view = progressView({ ...base, progress: '247.89', subscribed: '2478900' });
    expect(view.bar).toBe(100);
    expect(view.oversubscribed).toBe(true);
    expect(view.times).toBe('2.47');
    expect(view.percent).toBe('247.89');
  });

  it('exactly the supply is full, not oversubscribed', () => {
    const view = progressView({ ...base, progress: '100', subscribed: '1000000' });
    expect(view).toEqual({ bar: 100, percent: '100', oversubscribed: false, times: null });
  });

  it('an unreadable percent shows an empty bar', () => {
    expect(progressView({ ...base, progress: 'x', subscribed: '0' }).bar).toBe(0);
  });
});

describe('countdownOf and splitDuration (time is passed in)', () => {
  const opens = Date.UTC(2026, 5, 1, 12, 0, 0);
  const closes = opens + 3 * 86_400_000;
  it('counts to the opening of an announced project, then to the close of an open one', () => {
    expect(countdownOf({ state: 'announced', opens_at: opens, closes_at: closes }, opens - 5_000)).toEqual({
      kind: 'opens',
      msLeft: 5_000,
    });
    expect(countdownOf({ state: 'open', opens_at: opens, closes_at: closes }, opens + 1)).toEqual({
      kind: 'closes',
      msLeft: closes - opens - 1,
    });
  });

  it('says opening / closing once the time has come but the state has not changed yet', () => {
    expect(countdownOf({ state: 'announced', opens_at: opens, closes_at: closes }, opens)?.kind).toBe(
      'opening',
    );
    expect(countdownOf({ state: 'open', opens_at: opens, closes_at: closes }, closes + 1)?.kind).toBe(
      'closing',
    );
  });

  it('has nothing to count for a project past its window', () => {
    for (const state of ['closed', 'allocating', 'distributed', 'failed', 'refunded'] as const)
      expect(countdownOf({ state, opens_at: opens, closes_at: closes }, opens)).toBeNull();
  });

  it('splits into days and hh:mm:ss, rounding the last second up', () => {
    expect(splitDuration(0)).toEqual({ days: 0, hms: '00:00:00' });
    expect(splitDuration(1)).toEqual({ days: 0, hms: '00:00:01' });
    expect(splitDuration(59_999)).toEqual({ days: 0, hms: '00:01:00' });
    expect(splitDuration(2 * 86_400_000 + 3 * 3_600_000 + 4 * 60_000 + 5_000)).toEqual({
      days: 2,
      hms: '03:04:05',
    });
    expect(splitDuration(-5)).toEqual({ days: 0, hms: '00:00:00' });
  });
});

describe('badges', () => {
  it('every project state and subscription state has a colour', () => {
    for (const state of LAUNCHPAD_PROJECT_STATES) expect(PROJECT_STATE_COLORS[state]).toBeTruthy();
    for (const state of LAUNCHPAD_SUBSCRIPTION_STATES) expect(SUBSCRIPTION_STATE_COLORS[state]).toBeTruthy();
  });

  it('open is green, failed red, and a sold-out first-come project carries the sold-out badge', () => {
    expect(projectBadges({ state: 'open', sold_out: false })).toEqual({
      state: 'open',
      color: 'teal',
      soldOut: false,
    });
    expect(projectBadges({ state: 'failed', sold_out: false }).color).toBe('red');
    expect(projectBadges({ state: 'open', sold_out: true }).soldOut).toBe(true);
  });
});

describe('subscribeBlocker', () => {
  const opens = 1_000_000;
  const project = { state: 'open' as const, opens_at: opens, closes_at: opens + 10_000, sold_out: false };
  const eligible = { eligible: true, refusal: null, available: '100', may_subscribe: '10', held: '0' };
  const input = { project, eligibility: eligible, signedIn: true, now: opens + 1 };
  it('is null when the window is open, something is left and the customer is eligible', () => {
    expect(subscribeBlocker(input)).toBeNull();
  });
  it('names the first reason', () => {
    expect(subscribeBlocker({ ...input, project: { ...project, state: 'announced' } })).toBe('notStarted');
    expect(subscribeBlocker({ ...input, project: { ...project, state: 'closed' } })).toBe('notOpen');
    expect(subscribeBlocker({ ...input, now: opens - 1 })).toBe('notStarted');
    expect(subscribeBlocker({ ...input, now: opens + 10_000 })).toBe('ended');
    expect(subscribeBlocker({ ...input, project: { ...project, sold_out: true } })).toBe('soldOut');
    expect(subscribeBlocker({ ...input, signedIn: false, eligibility: null })).toBe('login');
    expect(
      subscribeBlocker({
        ...input,
        eligibility: {
          ...eligible,
          eligible: false,
          refusal: { code: 'LAUNCHPAD_TIER_REQUIRED', params: {} },
        },
      }),
    ).toBe('refused');
  });
});

describe('the published allocation', () => {
  it('shows the uncapped share S′ / C′ in percent, rounded down; 100 when everyone was filled', () => {
    expect(fillPercent({ fill_numerator: '1000', fill_denominator: '2475' })).toBe('40.4');
    expect(fillPercent({ fill_numerator: '1', fill_denominator: '3' })).toBe('33.33');
    expect(fillPercent({ fill_numerator: '500', fill_denominator: '400' })).toBe('100');
    expect(fillPercent({ fill_numerator: '0', fill_denominator: '0' })).toBe('100');
  });

  it('counts for plural forms without losing the figure', () => {
    expect(countOf('1')).toBe(1);
    expect(countOf('250')).toBe(250);
    expect(countOf('123456789012345678901234567890')).toBe(Number.MAX_SAFE_INTEGER);
    expect(countOf('x')).toBe(0);
  });
});

describe('records', () => {
  const record = { state: 'allocated' as const, review_reason: null, failure_reason: null, allocated_at: 5 };
  it('shows the review rule or the project failure beside the state', () => {
    expect(recordReason(record)).toBeNull();
    expect(recordReason({ ...record, state: 'not_passed', review_reason: 'rating' })).toEqual({
      kind: 'review',
      code: 'rating',
    });
    expect(recordReason({ ...record, state: 'refunded', failure_reason: 'soft_cap_missed' })).toEqual({
      kind: 'failure',
      code: 'soft_cap_missed',
    });
  });

  it('offers the proof only for an allocated subscription', () => {
    expect(hasProof(record)).toBe(true);
    expect(hasProof({ state: 'passed', allocated_at: null })).toBe(false);
    expect(hasProof({ state: 'refunded', allocated_at: null })).toBe(false);
  });

  it('counts pages', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(21, 10)).toBe(3);
  });
});

describe('refusals', () => {
  it('send the customer where the rule can be met', () => {
    expect(refusalFix('LAUNCHPAD_TIER_REQUIRED')).toBe('verification');
    expect(refusalFix('LAUNCHPAD_RATING_REQUIRED')).toBe('questionnaire');
    expect(refusalFix('LAUNCHPAD_INSUFFICIENT_USDT')).toBe('funds');
    expect(refusalFix('LAUNCHPAD_ALREADY_SUBSCRIBED')).toBe('records');
    expect(refusalFix('LAUNCHPAD_JURISDICTION')).toBeNull();
    expect(REFUSAL_LINKS.records).toBe('/subscriptionRecord');
  });

  it('say which params are codes to translate and which are amounts (per reason: `required` is both)', () => {
    expect(paramKind('LAUNCHPAD_RATING_REQUIRED', 'required')).toBe('rating');
    expect(paramKind('LAUNCHPAD_INSUFFICIENT_USDT', 'required')).toBe('amount');
    expect(paramKind('LAUNCHPAD_TIER_REQUIRED', 'tier')).toBe('tier');
    expect(paramKind('LAUNCHPAD_JURISDICTION', 'profile')).toBe('jurisdiction');
    expect(paramKind('LAUNCHPAD_NOT_OPEN', 'state')).toBe('projectState');
    expect(paramKind('LAUNCHPAD_SOLD_OUT', 'x')).toBeNull();
  });
});
