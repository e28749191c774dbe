export type CustomerProfile = {
  customer_id: string;
  uid: string;
  name: string;
  email: string;
  phone: string;
  country: string;
  is_demo: boolean;
  status: 'active' | 'disabled';
  language: string;
  created_at: number;
  locked_until: number | null;
  active_sessions: number;
};

export type Adjustment = {
  adjustment_id: string;
  customer_id: string;
  account_type: string;
  currency: string;
  direction: 'credit' | 'debit';
  amount: string;
  value_usdt: string | null;
  reason: string;
  maker_id: string;
  needs_approval: boolean;
  status: 'pending' | 'posted' | 'rejected';
  checker_id: string | null;
  decision_reason: string | null;
  decided_at: number | null;
  entry_id: string | null;
  created_at: number;
};

export type CustomerDetail = {
  profile: CustomerProfile;
  balances: Array<{
    book: string;
    account_type: string;
    currency: string;
    available: string;
    frozen: string;
  }>;
  journal: Array<{
    entry_id: string;
    reason: string;
    reference_type: string;
    reference_id: string;
    memo: string | null;
    created_at: number;
    account_type: string;
    currency: string;
    bucket: string;
    amount: string;
  }>;
  adjustments: Adjustment[];
  staff_names: Record<string, string>;
};
