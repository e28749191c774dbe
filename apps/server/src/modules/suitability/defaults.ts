import type { CapsByRating, ProductClass, RiskRating, ScoringTable } from '@bourse/protocol';

/**
 * The shipped scoring table (version 1) and the caps seeded per jurisdiction profile. The
 * migrations copy these into the database once; from then on the database is the truth (staff
 * edit it with audit) and these constants are only the first version. README.md explains the
 * numbers.
 */

const p = (points: number, ceiling: 'conservative' | 'balanced' | null = null) => ({ points, ceiling });

export const DEFAULT_SCORING: ScoringTable = {
  questions: {
    account_purpose: {
      learning: p(0),
      long_term_investing: p(1),
      hedging: p(2),
      active_trading: p(3),
    },
    investment_purpose: {
      preserve_capital: p(0),
      steady_income: p(1),
      growth: p(2),
      speculation: p(3),
    },
    amount_band: { '100_1k': p(0), '1k_10k': p(1), '10k_100k': p(2), '100k_1m': p(3), over_1m: p(3) },
    monthly_trades: { '5_100': p(0), '100_500': p(1), '500_1000': p(2), over_1000: p(3) },
    occupation: {
      student: p(0),
      retired: p(0),
      employed: p(1),
      self_employed: p(1),
      finance_professional: p(3),
      other: p(0),
    },
    experience_years: { none: p(0), under_1: p(1), '1_3': p(2), over_3: p(3) },
    derivatives_3y: { none: p(0, 'balanced'), under_10: p(1), over_10: p(3) },
    // A 10× position loses its whole margin when the price falls 10 %.
    leverage_loss: {
      ten_percent: p(0, 'balanced'),
      whole_margin: p(3),
      one_percent: p(0, 'balanced'),
      unsure: p(0, 'balanced'),
    },
    // At expiry an up/down option pays stake × payout rate when right, and the stake is lost when wrong.
    option_expiry: {
      stake_refunded: p(0, 'balanced'),
      payout_or_stake_lost: p(3),
      keeps_running: p(0, 'balanced'),
      unsure: p(0, 'balanced'),
    },
    // Who can afford to lose nothing is conservative whatever else they answer.
    loss_capacity: { none: p(0, 'conservative'), under_10: p(1), '10_25': p(2), over_25: p(3) },
  },
  thresholds: { balanced: 10, aggressive: 20 },
  cooling_off_days: 30,
};

type Row = [maxLeverage: number | null, maxAmount: string];
type Seed = Record<RiskRating, Record<ProductClass, Row>>;

/** [max leverage (contracts only), max amount in whole USDT] per rating and product class. */
const PERMISSIVE: Seed = {
  not_assessed: {
    contracts: [5, '500'],
    options: [null, '50'],
    earn: [null, '5000'],
    launchpad: [null, '500'],
    loans: [null, '500'],
  },
  conservative: {
    contracts: [10, '2000'],
    options: [null, '200'],
    earn: [null, '20000'],
    launchpad: [null, '2000'],
    loans: [null, '2000'],
  },
  balanced: {
    contracts: [50, '20000'],
    options: [null, '2000'],
    earn: [null, '100000'],
    launchpad: [null, '20000'],
    loans: [null, '20000'],
  },
  aggressive: {
    contracts: [100, '200000'],
    options: [null, '10000'],
    earn: [null, '1000000'],
    launchpad: [null, '200000'],
    loans: [null, '200000'],
  },
};

const EU_RETAIL: Seed = {
  // ESMA appropriateness: no leveraged product before the customer's knowledge was assessed.
  not_assessed: {
    contracts: [0, '0'],
    options: [null, '0'],
    earn: [null, '1000'],
    launchpad: [null, '0'],
    loans: [null, '0'],
  },
  conservative: {
    contracts: [2, '1000'],
    options: [null, '0'],
    earn: [null, '5000'],
    launchpad: [null, '500'],
    loans: [null, '1000'],
  },
  balanced: {
    contracts: [10, '10000'],
    options: [null, '0'],
    earn: [null, '50000'],
    launchpad: [null, '5000'],
    loans: [null, '10000'],
  },
  aggressive: {
    contracts: [30, '50000'],
    options: [null, '0'],
    earn: [null, '250000'],
    launchpad: [null, '50000'],
    loans: [null, '50000'],
  },
};

function capsOf(seed: Seed): CapsByRating {
  return Object.fromEntries(
    Object.entries(seed).map(([rating, products]) => [
      rating,
      Object.fromEntries(
        Object.entries(products).map(([product, [max_leverage, max_amount]]) => [
          product,
          { max_leverage, max_amount },
        ]),
      ),
    ]),
  ) as CapsByRating;
}

/** The seeded caps; `custom` starts as a copy of `permissive`. */
export const DEFAULT_CAPS = {
  permissive: capsOf(PERMISSIVE),
  eu_retail: capsOf(EU_RETAIL),
  custom: capsOf(PERMISSIVE),
} as const;
