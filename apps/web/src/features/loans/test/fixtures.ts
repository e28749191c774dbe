import {
  type CreditScoreData,
  type LendListData,
  type LendMyData,
  LOAN_STATES,
  type LoanData,
  type LoanDetailData,
  type LoanQuoteData,
  type LoanStatus,
} from '@bourse/protocol';

/** Answers of the loan calls as the server sends them (modules/loans), for the screen tests. */
export const NOW = Date.UTC(2026, 11, 10, 9, 0, 0);
export const DAY_MS = 86_400_000;

const FACTORS: CreditScoreData['breakdown'] = [
  {
    factor: 'verification',
    unit: 'tier',
    value: '2',
    points: 80,
    best_points: 120,
    next: { value: '3', points: 120 },
    hint: 'complete_verification',
  },
  {
    factor: 'account_age',
    unit: 'days',
    value: '200',
    points: 40,
    best_points: 60,
    next: { value: '365', points: 60 },
    hint: 'keep_account',
  },
  {
    factor: 'deposits',
    unit: 'usdt',
    value: '1500',
    points: 30,
    best_points: 80,
    next: { value: '5000', points: 50 },
    hint: 'deposit_more',
  },
  {
    factor: 'trading_volume',
    unit: 'usdt',
    value: '20000',
    points: 60,
    best_points: 60,
    next: null,
    hint: null,
  },
  {
    factor: 'loans_on_time',
    unit: 'loans',
    value: '1',
    points: 20,
    best_points: 60,
    next: { value: '3', points: 40 },
    hint: 'repay_on_time',
  },
  { factor: 'loans_late', unit: 'loans', value: '0', points: 0, best_points: 0, next: null, hint: null },
  { factor: 'overdue_days', unit: 'days', value: '0', points: 0, best_points: 0, next: null, hint: null },
];

export function creditScore(over: Partial<CreditScoreData> = {}): CreditScoreData {
  return {
    // The seeded rules of every built-in jurisdiction profile.
    loans_tier: 'advanced',
    score_tier: 'primary',
    score: 530,
    version: 1,
    base_points: 300,
    breakdown: FACTORS,
    limit: '3000',
    table: {
      version: 1,
      base_points: 300,
      bands: {} as CreditScoreData['table']['bands'],
      limits: [
        { score_min: 0, limit: '0' },
        { score_min: 400, limit: '500' },
        { score_min: 500, limit: '3000' },
        { score_min: 700, limit: '50000' },
      ],
      published_at: NOW - 30 * DAY_MS,
    },
    review: null,
    ...over,
  };
}

export const LEND_LIST: LendListData = {
  items: [
    {
      product_id: 'lnp_short',
      name: 'Short loan',
      description: 'Up to 30 days',
      state: 'active',
      amount_min: '100',
      amount_max: '5000',
      term_days: [7, 14, 30],
      daily_rate: '0.1',
      interest_free_days: 3,
      overdue_rate: '0.2',
      late_fee: '10',
      lender: { lender_id: 'lnl_1', name: 'Bourse Lending', source: 'operator capital' },
    },
  ],
  caps: { profile: 'eu_retail', daily_rate_max: '0.8', total_cost_max: '100', late_fee_max: '15' },
  agreement_version: '2026-12',
  loans_tier: 'advanced',
  score_tier: 'primary',
};

export function quote(over: Partial<LoanQuoteData> = {}): LoanQuoteData {
  return {
    product_id: 'lnp_short',
    amount: '1000',
    term_days: 14,
    daily_rate: '0.1',
    interest_free_days: 3,
    chargeable_days: 11,
    interest: '11',
    total_repayable: '1011',
    apr: '29.87',
    simple_annual_rate: '36.5',
    overdue_rate: '0.2',
    overdue_interest_per_day: '2',
    late_fee: '10',
    cost_cap: '1000',
    overdue_charges_max: '989',
    cap_reached_on_day: 509,
    worst_case_total: '2000',
    repayment_at: NOW + 14 * DAY_MS,
    caps: LEND_LIST.caps,
    ...over,
  };
}

export function loan(over: Partial<LoanData> = {}): LoanData {
  return {
    loan_id: 'lon_1',
    product_id: 'lnp_short',
    product_name: 'Short loan',
    state: 'disbursed',
    previous_id: null,
    next_id: null,
    amount: '1000',
    term_days: 14,
    daily_rate: '0.1',
    interest_free_days: 3,
    overdue_rate: '0.2',
    late_fee: '10',
    interest: '11',
    total_repayable: '1011',
    apr: '29.87',
    cost_cap: '1000',
    worst_case_total: '2000',
    lender: 'Bourse Lending',
    agreement_version: '2026-12',
    agreement_accepted_at: NOW - 6 * DAY_MS,
    proof_ids: [],
    created_at: NOW - 6 * DAY_MS,
    withdrawn_at: null,
    decided_at: NOW - 5 * DAY_MS,
    reject_reason: null,
    awaiting_second: false,
    disbursed_at: NOW - 5 * DAY_MS,
    due_at: NOW + 9 * DAY_MS,
    days_elapsed: 5,
    days_past_due: 0,
    outstanding: { principal: '1000', interest: '2', fees: '0', total: '1002' },
    charged: '2',
    repaid: '0',
    cleared_at: null,
    cleared_late: null,
    ...over,
  };
}

export const OVERDUE = loan({
  loan_id: 'lon_2',
  state: 'overdue',
  disbursed_at: NOW - 20 * DAY_MS,
  due_at: NOW - 6 * DAY_MS,
  days_elapsed: 20,
  days_past_due: 6,
  outstanding: { principal: '600', interest: '13.5', fees: '10', total: '623.5' },
  charged: '33.5',
  repaid: '410',
});

export const CLEARED = loan({
  loan_id: 'lon_3',
  state: 'cleared',
  outstanding: { principal: '0', interest: '0', fees: '0', total: '0' },
  repaid: '1011',
  charged: '11',
  cleared_at: NOW - DAY_MS,
  cleared_late: false,
});

export const REJECTED = loan({
  loan_id: 'lon_4',
  state: 'rejected',
  reject_reason: 'income_insufficient',
  disbursed_at: null,
  due_at: null,
  days_elapsed: null,
  days_past_due: null,
  outstanding: null,
  charged: '0',
});

export function detail(l: LoanData = loan(), over: Partial<LoanDetailData> = {}): LoanDetailData {
  return {
    loan: l,
    days: [
      { day: 4, kind: 'interest', interest: '1', fee: '0', capped: false, posted_at: NOW - DAY_MS },
      { day: 5, kind: 'interest', interest: '1', fee: '0', capped: false, posted_at: NOW },
    ],
    repayments: [],
    payoff: l.outstanding
      ? { total: l.outstanding.total, interest_to_date: l.outstanding.interest, interest_saved: '9' }
      : null,
    ...over,
  };
}

export function lendMy(over: Partial<LendMyData> = {}): LendMyData {
  const counts = Object.fromEntries(LOAN_STATES.map((s) => [s, 0])) as Record<LoanStatus, number>;
  return {
    score: 530,
    limit: '3000',
    loans_verified: true,
    open: null,
    outstanding: '0',
    counts,
    ...over,
  };
}
