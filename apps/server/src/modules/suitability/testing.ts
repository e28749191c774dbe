import type { AssessedRating, SubmitQuestionnaireBody, SuitabilityQuestionId } from '@bourse/protocol';
import type { TestApp } from '../../../test/harness.ts';
import { type Customer, customer } from '../assets/testing.ts';

/** Test support for the risk questionnaire (imported by *.test.ts only). */

/** Answers that earn each rating under the shipped scoring table (version 1, defaults.ts). */
export const ANSWERS: Record<AssessedRating, Record<SuitabilityQuestionId, string>> = {
  // 30 points, no ceiling
  aggressive: {
    account_purpose: 'active_trading',
    investment_purpose: 'speculation',
    amount_band: 'over_1m',
    monthly_trades: 'over_1000',
    occupation: 'finance_professional',
    experience_years: 'over_3',
    derivatives_3y: 'over_10',
    leverage_loss: 'whole_margin',
    option_expiry: 'payout_or_stake_lost',
    loss_capacity: 'over_25',
  },
  // 19 points, no ceiling
  balanced: {
    account_purpose: 'hedging',
    investment_purpose: 'growth',
    amount_band: '10k_100k',
    monthly_trades: '100_500',
    occupation: 'employed',
    experience_years: '1_3',
    derivatives_3y: 'under_10',
    leverage_loss: 'whole_margin',
    option_expiry: 'payout_or_stake_lost',
    loss_capacity: '10_25',
  },
  // 0 points, ceiling conservative
  conservative: {
    account_purpose: 'learning',
    investment_purpose: 'preserve_capital',
    amount_band: '100_1k',
    monthly_trades: '5_100',
    occupation: 'student',
    experience_years: 'none',
    derivatives_3y: 'none',
    leverage_loss: 'unsure',
    option_expiry: 'unsure',
    loss_capacity: 'none',
  },
};

/** Gives a customer a rating through the real service (the questionnaire answered). */
export async function rate(t: TestApp, customerId: string, rating: AssessedRating = 'aggressive') {
  const answer = await t.app.suitability.submit(customerId, ANSWERS[rating] as SubmitQuestionnaireBody);
  if (answer.assessment.rating !== rating)
    throw new Error(`expected ${rating}, got ${answer.assessment.rating}`);
  return answer;
}

/** A registered (real) customer rated `rating` (default aggressive): for tests that trade contracts or options on the real book. */
export async function ratedCustomer(
  t: TestApp,
  rating: AssessedRating = 'aggressive',
  label = 'c',
): Promise<Customer> {
  const c = await customer(t, label);
  await rate(t, c.id, rating);
  return c;
}
