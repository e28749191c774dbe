import type { AdjustmentView, CustomerDetail, CustomerProfile } from '@bourse/protocol';
import type { Rule } from '../features/withdrawals/policyForm.ts';

/** What the mocked API answers in the component tests: one plausible row of each kind, overridable. */
const DAY_MS = 86_400_000;
export const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);

export const CUSTOMER = {
  customer_id: 'usr_alice',
  uid: '80012345',
  name: 'Alice Chan',
  status: 'active' as const,
  created_at: NOW - 3 * DAY_MS,
  age_days: 3,
  verification: { level: 1, status: 'unverified' as const },
  last_login_at: NOW - 3_600_000,
  activity: {
    days: 30,
    deposits: [{ currency: 'USDT', count: 2, amount: '2500' }],
    withdrawals: [],
  },
};

export function withdrawal(overrides: Record<string, unknown> = {}) {
  return {
    id: 'wdr_1',
    method: 'address',
    currency: 'USDT',
    chain: 'TRC20',
    destination: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
    amount: '1500',
    fee: '1',
    received: '1499',
    customer: CUSTOMER,
    destination_history: { used_before: 0, first_used_at: null, other_customers: 2 },
    risk: [
      { code: 'new_account', params: { age: 3, days: 7 } },
      { code: 'shared_destination', params: { customers: 2 } },
    ],
    state: 'pending',
    reject_reason: '',
    fail_reason: '',
    tx_hash: '',
    explorer_url: '',
    bank_reference: '',
    paid_requested: 0,
    created_at: NOW,
    ...overrides,
  };
}

export function adjustment(overrides: Partial<AdjustmentView>): AdjustmentView {
  return {
    adjustment_id: 'adj_1',
    customer_id: 'usr_alice',
    account_type: 'spot',
    currency: 'USDT',
    direction: 'credit',
    amount: '1500',
    value_usdt: '1500',
    reason: 'Goodwill for the outage',
    maker_id: 'stf_other',
    needs_approval: true,
    status: 'pending',
    checker_id: null,
    decision_reason: null,
    decided_at: null,
    entry_id: null,
    created_at: Date.UTC(2026, 0, 2, 3, 4, 5),
    ...overrides,
  };
}

export function profile(overrides: Partial<CustomerProfile> = {}): CustomerProfile {
  return {
    customer_id: 'usr_alice',
    uid: '80012345',
    name: 'Alice Chan',
    email: 'alice@example.test',
    phone: '',
    country: 'HK',
    is_demo: false,
    status: 'active',
    language: 'en',
    created_at: Date.UTC(2026, 0, 2),
    locked_until: null,
    active_sessions: 2,
    ...overrides,
  };
}

export const DETAIL: CustomerDetail = {
  profile: profile(),
  balances: [
    { book: 'real', account_type: 'spot', currency: 'USDT', available: '12345.6789', frozen: '0' },
    { book: 'real', account_type: 'funding', currency: 'BTC', available: '0.5', frozen: '0.01' },
  ],
  journal: [
    {
      entry_id: 'jnl_7',
      reason: 'deposit',
      reference_type: 'deposit',
      reference_id: 'dep_1',
      account_type: 'spot',
      currency: 'USDT',
      bucket: 'available',
      amount: '-250.5',
      memo: null,
      created_at: Date.UTC(2026, 0, 3),
    },
  ],
  adjustments: [],
  staff_names: {},
};

export const RULES: Rule[] = [
  { code: 'min_amount', enabled: true, params: { amount: '100', currency: 'USDT' } },
  { code: 'max_amount', enabled: true, params: { amount: '200000', currency: 'USDT' } },
  { code: 'fee', enabled: true, params: { address_bps: 0, bank_bps: 500 } },
  { code: 'turnover', enabled: false, params: { percent: 90 } },
];
