import type { AdminLoanData, CreditTableData } from '@bourse/protocol';

/** Rows the loan tests share (pure tests and screen tests): one plausible loan, the seeded score table. */

export function adminLoan(overrides: Partial<AdminLoanData> = {}): AdminLoanData {
  return {
    loan_id: 'lon_1',
    product_id: 'lnp_quick',
    product_name: 'Quick loan',
    state: 'disbursed',
    previous_id: null,
    next_id: null,
    amount: '500',
    term_days: 30,
    daily_rate: '0.1',
    interest_free_days: 3,
    overdue_rate: '0.2',
    late_fee: '10',
    interest: '13.5',
    total_repayable: '513.5',
    apr: '38.28',
    cost_cap: '500',
    worst_case_total: '1000',
    lender: 'Main lender',
    agreement_version: '2026-11',
    agreement_accepted_at: 0,
    proof_ids: [],
    created_at: 0,
    withdrawn_at: null,
    decided_at: 0,
    reject_reason: null,
    awaiting_second: false,
    disbursed_at: 0,
    due_at: 0,
    days_elapsed: 5,
    days_past_due: 0,
    outstanding: { principal: '500', interest: '0.5', fees: '0', total: '500.5' },
    charged: '0.5',
    repaid: '0',
    cleared_at: null,
    cleared_late: null,
    customer_id: 'usr_alice',
    applicant: {
      uid: '80012345',
      name: 'Alice Chan',
      country: 'HK',
      verification_level: 2,
      account_age_days: 90,
    },
    lender_id: 'lnl_main',
    score_at_apply: 620,
    limit_at_apply: '3000',
    first_approved_by: null,
    decided_by: 'stf_other',
    decision_note: null,
    write_off: null,
    ...overrides,
  };
}

export const TABLE: CreditTableData = {
  version: 1,
  base_points: 300,
  bands: {
    verification: [
      { from: '0', points: 0 },
      { from: '2', points: 100 },
    ],
    account_age: [
      { from: '0', points: 0 },
      { from: '90', points: 50 },
    ],
    deposits: [
      { from: '0', points: 0 },
      { from: '1000.5', points: 60 },
    ],
    trading_volume: [{ from: '0', points: 0 }],
    loans_on_time: [{ from: '0', points: 0 }],
    loans_late: [
      { from: '0', points: 0 },
      { from: '1', points: -50 },
    ],
    overdue_days: [{ from: '0', points: 0 }],
  },
  limits: [
    { score_min: 0, limit: '0' },
    { score_min: 400, limit: '500' },
  ],
  published_at: 0,
};
