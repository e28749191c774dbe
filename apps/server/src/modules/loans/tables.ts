import type {
  CreditScoreFactor,
  JurisdictionProfileId,
  LoanProductState,
  LoanRejectReason,
  LoanRepaymentMethod,
  LoanRepaymentState,
  LoanStatus,
  LoanWriteOffReason,
  Localized,
} from '@bourse/protocol';

/**
 * Kysely types of the loans tables (migrations.ts). Amounts are NUMERIC USDT minor units read as
 * strings; rates NUMERIC ppm (parts per million a day) as strings; times timestamptz. The loan's
 * `quote` and `loan_state` are the `@bourse/risk` values with every bigint as a decimal string.
 */

/** `LoanQuote` of @bourse/risk, bigints as strings (the quote the customer accepted). */
export type StoredQuote = Record<string, string | number | null>;

/** `LoanState` of @bourse/risk, bigints as strings: persisted with every ledger entry that changes it. */
export type StoredLoanState = {
  terms: {
    principalUnits: string;
    termDays: number;
    dailyRatePpm: string;
    interestFreeDays: number;
    overdueRatePpm: string;
    lateFeeUnits: string;
    costCapUnits: string;
  };
  outstanding: { feesUnits: string; interestUnits: string; principalUnits: string };
  accruedDays: number;
  accrualRemainder: string;
  overdueDaysCharged: number;
  costChargedUnits: string;
};

/** The caps a loan was quoted under (`LoanCaps`, bigints as strings) and the profile they came from. */
export type StoredCaps = {
  profile: JurisdictionProfileId;
  dailyRateMaxPpm: string;
  totalCostMaxPpm: string;
  lateFeeMaxUnits: string;
};

export type StoredBands = Record<CreditScoreFactor, Array<{ from: string; points: number }>>;
export type StoredLimits = Array<{ score_min: number; limit_units: string }>;

export type LoansTables = {
  /** One row (`id = 1`): the four-eyes threshold and the loan agreement version in force. */
  loans_setting: {
    id: number;
    approval_threshold_units: string;
    agreement_version: string;
    updated_at: Date;
    updated_by: string | null;
  };
  /** The published credit-score and limit tables, one row per version (never edited; the newest is in force). */
  loans_score_table: {
    version: number;
    base_points: number;
    bands: StoredBands;
    limits: StoredLimits;
    created_at: Date;
    created_by: string;
    reason: string;
  };
  /** A named lender account: its money is the ledger account `loan_lender_<code>`. */
  loans_lender: {
    id: string;
    code: string;
    name: string;
    source: Localized;
    created_at: Date;
    created_by: string;
  };
  /** A payment of operator money into a lender account: asked by one staff member, decided by another. */
  loans_funding_request: {
    id: string;
    lender_id: string;
    amount_units: string;
    reason: string;
    state: 'pending' | 'approved' | 'rejected';
    requested_by: string;
    requested_at: Date;
    decided_by: string | null;
    decided_at: Date | null;
    decision_reason: string | null;
    entry_id: string | null;
  };
  /** A loan product: data, never edited (only paused or opened again). */
  loans_product: {
    id: string;
    state: LoanProductState;
    names: Localized;
    descriptions: Localized;
    lender_id: string;
    amount_min_units: string;
    amount_max_units: string;
    term_days: number[];
    daily_rate_ppm: string;
    interest_free_days: number;
    overdue_rate_ppm: string;
    late_fee_units: string;
    created_at: Date;
    created_by: string;
    updated_at: Date;
  };
  /** An application and, once disbursed, the loan (its id is the contract number). */
  loans_loan: {
    id: string;
    customer_id: string;
    product_id: string;
    lender_id: string;
    lender_code: string;
    state: LoanStatus;
    amount_units: string;
    term_days: number;
    quote: StoredQuote;
    caps: StoredCaps;
    agreement_version: string;
    agreement_accepted_at: Date;
    proof_ids: string[];
    previous_id: string | null;
    next_id: string | null;
    score_at_apply: number;
    score_version: number;
    limit_at_apply_units: string;
    created_at: Date;
    withdrawn_at: Date | null;
    first_approved_by: string | null;
    first_approved_at: Date | null;
    decided_by: string | null;
    decided_at: Date | null;
    reject_reason: LoanRejectReason | null;
    decision_note: string | null;
    disbursed_at: Date | null;
    disburse_entry_id: string | null;
    due_at: Date | null;
    loan_state: StoredLoanState | null;
    /** The last loan-day charged (0: none); day d is charged once d × 24 h have passed since disbursement. */
    days_done: number;
    next_day_at: Date | null;
    repaid_units: string;
    reminded_at: Date | null;
    cleared_at: Date | null;
    cleared_late: boolean | null;
    /** Write-off (four eyes): requested by one staff member, confirmed by another (README.md, "Write-off"). */
    write_off_code: LoanWriteOffReason | null;
    write_off_reason: string | null;
    write_off_requested_by: string | null;
    write_off_requested_at: Date | null;
    written_off_by: string | null;
    written_off_at: Date | null;
    /** What the borrower owed when written off (the lender's loss), and its ledger entry. */
    write_off_units: string | null;
    write_off_entry_id: string | null;
  };
  /** One loan-day: contractual interest (days ≤ term) or the overdue charge (later days), posted once. */
  loans_day: {
    loan_id: string;
    day: number;
    kind: 'interest' | 'overdue';
    interest_units: string;
    fee_units: string;
    capped: boolean;
    entry_id: string | null;
    posted_at: Date;
  };
  /** A repayment: from the balance (confirmed at once) or a bank-transfer voucher staff decide. */
  loans_repayment: {
    id: string;
    loan_id: string;
    customer_id: string;
    method: LoanRepaymentMethod;
    state: LoanRepaymentState;
    amount_units: string;
    voucher_id: string | null;
    paid_fees_units: string | null;
    paid_interest_units: string | null;
    paid_principal_units: string | null;
    entry_id: string | null;
    created_at: Date;
    decided_by: string | null;
    decided_at: Date | null;
    decision_reason: string | null;
  };
  /** A customer's request for a human review of their credit score (with the score they saw). */
  loans_score_review: {
    id: string;
    customer_id: string;
    state: 'open' | 'closed';
    score: number;
    version: number;
    breakdown: unknown;
    note: string;
    created_at: Date;
    closed_by: string | null;
    closed_at: Date | null;
    closing_note: string | null;
  };
};
