import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';
import type { JurisdictionProfileId, Paged } from './derivatives.ts';
import type { Localized } from './earn.ts';
import type { RequiredTier } from './verification.ts';

/**
 * Loans and the credit score (modules/loans; issue 18). The spec's calls keep their names where they
 * fit: `lendList` (products), `lendMy` (my credit and the loan in progress), `lendMylist` (my loans
 * and applications), `lendBack` (repay; a POST, since it moves money). The maths is `@bourse/risk`
 * (`loans.ts`, `loan-quote.ts`, `loan-state.ts`, `credit-score.ts`): every figure here is one of its
 * results, formatted. Amounts are USDT decimal strings; daily rates and caps are percent strings
 * ("0.1" = 0.1 % a day); the APR is a percent string with two decimals; times are epoch ms; days
 * are whole numbers (day 0 is the disbursement day, a loan is due at the end of day `term_days`).
 */

const lit = <T extends string>(values: readonly T[]) =>
  Type.Unsafe<T>(Type.Union(values.map((v) => Type.Literal(v))));

/**
 * The spec's loan states. unreviewed: applied, waiting for staff (four-eyes above the threshold: one
 * approval recorded, `awaiting_second`). disbursed: paid out, nothing repaid yet. repaying: partly
 * repaid, not past due. overdue: past due with something owed (a days-past-due classification).
 * cleared: everything repaid. rejected: refused by staff with a reason code. withdrawn: withdrawn by
 * the customer before review. re_applied: a rejected application the customer applied again after
 * (linked both ways). written_off: what the borrower still owed taken off the books by two staff
 * members (the loss falls on the lender account; nothing is charged after).
 */
export const LOAN_STATES = [
  'unreviewed',
  'disbursed',
  'repaying',
  'cleared',
  'overdue',
  'rejected',
  'withdrawn',
  're_applied',
  'written_off',
] as const;
export type LoanStatus = (typeof LOAN_STATES)[number];

/** A customer has at most one application or loan in one of these states at a time. */
export const LOAN_OPEN_STATES = ['unreviewed', 'disbursed', 'repaying', 'overdue'] as const;

/** Why staff rejected an application (catalogue codes; shown to the customer in their language). */
export const LOAN_REJECT_REASONS = [
  'score_too_low',
  'income_insufficient',
  'documents_unclear',
  'identity_mismatch',
  'debt_too_high',
  'other',
] as const;
export type LoanRejectReason = (typeof LOAN_REJECT_REASONS)[number];

/** Why staff write a loan off (catalogue codes, audited with the staff member's reason). */
export const LOAN_WRITE_OFF_REASONS = ['uncollectable', 'deceased', 'fraud_victim', 'settlement'] as const;
export type LoanWriteOffReason = (typeof LOAN_WRITE_OFF_REASONS)[number];

/** balance: from the customer's spot USDT at once. voucher: a bank transfer with a voucher staff confirm. */
export const LOAN_REPAYMENT_METHODS = ['balance', 'voucher'] as const;
export type LoanRepaymentMethod = (typeof LOAN_REPAYMENT_METHODS)[number];
export const LOAN_REPAYMENT_STATES = ['pending', 'confirmed', 'rejected'] as const;
export type LoanRepaymentState = (typeof LOAN_REPAYMENT_STATES)[number];

export const LOAN_PRODUCT_STATES = ['active', 'paused'] as const;
export type LoanProductState = (typeof LOAN_PRODUCT_STATES)[number];

/** The factors of the published credit-score formula (`@bourse/risk` CREDIT_FACTORS, same order). */
export const CREDIT_SCORE_FACTORS = [
  'verification',
  'account_age',
  'deposits',
  'trading_volume',
  'loans_on_time',
  'loans_late',
  'overdue_days',
] as const;
export type CreditScoreFactor = (typeof CREDIT_SCORE_FACTORS)[number];

export const LOAN_LIMITS = {
  /** Proof uploads one application may carry (credit report, housing, income, bank statement, ID photo). */
  proofsMax: 5,
  noteMax: 500,
  reasonMin: 3,
  reasonMax: 500,
  nameMax: 80,
  textMax: 2000,
  agreementVersionMax: 40,
  pageSizeMax: 100,
} as const;

// ================================================================ credit score

/**
 * One factor of my score: its value (a tier rank 0…3, days, USDT or a count of loans — `unit`), the
 * points it earns, the best it could earn, the next step up and a hint key (`credit_hint.<hint>`).
 */
export type CreditFactorData = {
  factor: CreditScoreFactor;
  unit: 'tier' | 'days' | 'usdt' | 'loans';
  value: string;
  points: number;
  best_points: number;
  next: { value: string; points: number } | null;
  hint: string | null;
};

/** The published table: each factor's bands (a value ≥ `from` earns `points`) and the limit per score. */
export type CreditTableData = {
  version: number;
  base_points: number;
  bands: Record<CreditScoreFactor, Array<{ from: string; points: number }>>;
  limits: Array<{ score_min: number; limit: string }>;
  published_at: number;
};

/**
 * `GET web/getCreditScore` (login; the verification the profile's `credit_score` rule asks, refused
 * with VERIFICATION_<TIER>_REQUIRED naming the feature and the tier).
 */
export const GetCreditScoreQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
export type CreditScoreData = {
  /**
   * The active jurisdiction profile's verification rules (modules/verification, operator data; the
   * `custom` profile's are edited by staff): `score_tier` the `credit_score` rule, `loans_tier` the
   * `loans` rule applying checks. `none`: no verification step.
   */
  score_tier: RequiredTier;
  loans_tier: RequiredTier;
  score: number;
  version: number;
  base_points: number;
  breakdown: CreditFactorData[];
  /** The loan limit this score gives (USDT), from the published limit table. */
  limit: string;
  table: CreditTableData;
  /** My open request for a human review, if any. */
  review: { review_id: string; state: 'open' | 'closed'; created_at: number } | null;
};

/** `POST web/requestScoreReview` (login, idempotent): ask a person to look at my score. */
export const RequestScoreReviewBody = Type.Object(
  { ...CommonFields, note: Type.Optional(Type.String({ maxLength: LOAN_LIMITS.noteMax })) },
  { additionalProperties: false },
);
export type RequestScoreReviewBody = Static<typeof RequestScoreReviewBody>;
export type ScoreReviewData = {
  review_id: string;
  state: 'open' | 'closed';
  score: number;
  version: number;
  note: string;
  created_at: number;
};

// ================================================================ products and the quote

/** The caps of the active jurisdiction profile every product and loan is held to. */
export type LoanCapsData = {
  profile: JurisdictionProfileId;
  /** Percent a day (contractual and overdue rates alike). */
  daily_rate_max: string;
  /** Percent of the principal: everything charged on top of it, together. */
  total_cost_max: string;
  late_fee_max: string;
};

export type LoanProductData = {
  product_id: string;
  name: string;
  description: string;
  state: LoanProductState;
  amount_min: string;
  amount_max: string;
  term_days: number[];
  daily_rate: string;
  interest_free_days: number;
  overdue_rate: string;
  late_fee: string;
  lender: { lender_id: string; name: string; source: string };
};

/**
 * `GET web/lendList` (public): the products on offer, the caps they obey, the agreement in force and
 * the verification the active jurisdiction profile asks (shown before anything refuses).
 */
export const LendListQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
export type LendListData = {
  items: LoanProductData[];
  caps: LoanCapsData;
  agreement_version: string;
  /** The profile's `loans` rule: the tier applying needs approved (`none`: no verification step). */
  loans_tier: RequiredTier;
  /** The profile's `credit_score` rule: the tier the score (and the limit it gives) needs approved. */
  score_tier: RequiredTier;
};

/** `GET web/getLoanQuote` (public): the schedule of an amount and term before anything is submitted. */
export const GetLoanQuoteQuery = Type.Object(
  {
    ...CommonFields,
    product_id: Type.String({ minLength: 1, maxLength: 64 }),
    amount: Type.String({ minLength: 1, maxLength: 40 }),
    term_days: Type.String({ pattern: '^[0-9]{1,4}$' }),
  },
  { additionalProperties: false },
);
export type GetLoanQuoteQuery = Static<typeof GetLoanQuoteQuery>;
export type LoanQuoteData = {
  product_id: string;
  amount: string;
  term_days: number;
  daily_rate: string;
  interest_free_days: number;
  chargeable_days: number;
  interest: string;
  total_repayable: string;
  /** Annual percentage rate, all costs included (shown before the daily rate). */
  apr: string;
  simple_annual_rate: string;
  overdue_rate: string;
  overdue_interest_per_day: string;
  late_fee: string;
  /** The most the loan may ever cost on top of the principal, and what lateness may add at most. */
  cost_cap: string;
  overdue_charges_max: string;
  cap_reached_on_day: number | null;
  worst_case_total: string;
  /** If disbursed now: the repayment date (disbursement + term days). */
  repayment_at: number;
  caps: LoanCapsData;
};

// ================================================================ applications and loans

/**
 * `POST web/applyLoan` (login, idempotent by rtoken): advanced verification, the limit, one open
 * application or loan at a time. `accept_agreement` "1" with the `agreement_version` shown (recorded
 * with the time); `proof_ids`: upload ids (purpose `loan_proof`), comma-separated, at most 5;
 * `reapply_of`: my rejected application this one re-applies for (linked both ways).
 */
export const ApplyLoanBody = Type.Object(
  {
    ...CommonFields,
    product_id: Type.String({ minLength: 1, maxLength: 64 }),
    amount: Type.String({ minLength: 1, maxLength: 40 }),
    term_days: Type.String({ pattern: '^[0-9]{1,4}$' }),
    accept_agreement: Type.Optional(Type.String({ maxLength: 1 })),
    agreement_version: Type.String({ minLength: 1, maxLength: LOAN_LIMITS.agreementVersionMax }),
    proof_ids: Type.Optional(Type.String({ maxLength: 5 * 41 })),
    reapply_of: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type ApplyLoanBody = Static<typeof ApplyLoanBody>;

/** `POST web/withdrawLoan` (login, idempotent): withdraw an application still unreviewed. */
export const WithdrawLoanBody = Type.Object(
  { ...CommonFields, loan_id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export type WithdrawLoanBody = Static<typeof WithdrawLoanBody>;

export type LoanOutstandingData = { principal: string; interest: string; fees: string; total: string };

export type LoanData = {
  /** Also the contract number. */
  loan_id: string;
  product_id: string;
  product_name: string;
  state: LoanStatus;
  previous_id: string | null;
  next_id: string | null;
  amount: string;
  term_days: number;
  daily_rate: string;
  interest_free_days: number;
  overdue_rate: string;
  late_fee: string;
  /** The quote the customer accepted: interest, total, APR, cost cap, worst case. */
  interest: string;
  total_repayable: string;
  apr: string;
  cost_cap: string;
  worst_case_total: string;
  lender: string;
  agreement_version: string;
  agreement_accepted_at: number;
  proof_ids: string[];
  created_at: number;
  withdrawn_at: number | null;
  decided_at: number | null;
  reject_reason: LoanRejectReason | null;
  /** Four eyes: one approval recorded, a second staff member's pending. */
  awaiting_second: boolean;
  disbursed_at: number | null;
  due_at: number | null;
  /** Whole days since disbursement, and past due (the overdue classification). */
  days_elapsed: number | null;
  days_past_due: number | null;
  outstanding: LoanOutstandingData | null;
  /** Interest, overdue interest and fees charged so far (never above cost_cap), and everything repaid. */
  charged: string;
  repaid: string;
  cleared_at: number | null;
  cleared_late: boolean | null;
};

export type LoanDayData = {
  day: number;
  kind: 'interest' | 'overdue';
  interest: string;
  fee: string;
  capped: boolean;
  posted_at: number;
};

export type LoanRepaymentData = {
  repayment_id: string;
  loan_id: string;
  method: LoanRepaymentMethod;
  state: LoanRepaymentState;
  amount: string;
  paid: { fees: string; interest: string; principal: string } | null;
  voucher_id: string | null;
  created_at: number;
  decided_at: number | null;
  decision_reason: string | null;
};

/** `GET web/getLoan` (login): one of my loans with every charged day and repayment. */
export const GetLoanQuery = Type.Object(
  { ...CommonFields, loan_id: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export type GetLoanQuery = Static<typeof GetLoanQuery>;
export type LoanDetailData = {
  loan: LoanData;
  days: LoanDayData[];
  repayments: LoanRepaymentData[];
  /** Repaying everything now: what it takes (interest to date only, when early) and what that saves. */
  payoff: { total: string; interest_to_date: string; interest_saved: string } | null;
};

/** `GET web/lendMy` (login): my credit and the loan or application in progress. */
export const LendMyQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
export type LendMyData = {
  /** Null until the verification the profile's `credit_score` rule asks is approved. */
  score: number | null;
  limit: string | null;
  /** Whether I meet the profile's `loans` rule now (always true when it is `none`). */
  loans_verified: boolean;
  open: LoanData | null;
  outstanding: string;
  counts: Record<LoanStatus, number>;
};

/** `GET web/lendMylist` (login): my loans and applications, newest first. */
export const LendMylistQuery = Type.Object(
  {
    ...CommonFields,
    state: Type.Optional(lit(LOAN_STATES)),
    page: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
    page_size: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  { additionalProperties: false },
);
export type LendMylistQuery = Static<typeof LendMylistQuery>;
export type LendMylistData = Paged<LoanData>;

/**
 * `POST web/lendBack` (login, idempotent): repay `amount` of a loan — `balance` (default) from my spot
 * USDT at once, interest accrued to today first (early: interest to date only); `voucher`: a bank
 * transfer, its voucher an upload id (purpose `loan_voucher`) that staff confirm.
 */
export const LendBackBody = Type.Object(
  {
    ...CommonFields,
    loan_id: Type.String({ minLength: 1, maxLength: 64 }),
    amount: Type.String({ minLength: 1, maxLength: 40 }),
    method: Type.Optional(lit(LOAN_REPAYMENT_METHODS)),
    voucher_id: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  },
  { additionalProperties: false },
);
export type LendBackBody = Static<typeof LendBackBody>;
/** What `lendBack` answers: the repayment (confirmed, or pending for a voucher) and the loan after it. */
export type LendBackData = { repayment: LoanRepaymentData; loan: LoanData };

// ================================================================ back office (/api/admin, JSON)

const reason = Type.String({ minLength: LOAN_LIMITS.reasonMin, maxLength: LOAN_LIMITS.reasonMax });
const amount = Type.String({ minLength: 1, maxLength: 40 });
const localized = (max: number) =>
  Type.Object(
    {
      en: Type.String({ minLength: 1, maxLength: max }),
      zh: Type.String({ minLength: 1, maxLength: max }),
      ft: Type.String({ minLength: 1, maxLength: max }),
    },
    { additionalProperties: false },
  );
const pageFields = {
  page: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })),
  page_size: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
};

export type AdminLoanProductData = Omit<LoanProductData, 'name' | 'description'> & {
  names: Localized;
  descriptions: Localized;
  created_at: number;
  created_by: string;
};

/**
 * `POST admin/loans/products` (loans.write, audited): a product, open at once. Rates are percent a
 * day ("0.1"); refused `LOAN_PRODUCT_CAPS {field, rule, limit}` outside the active profile's caps.
 */
export const AdminLoanProductBody = Type.Object(
  {
    ...CommonFields,
    names: localized(LOAN_LIMITS.nameMax),
    descriptions: localized(LOAN_LIMITS.textMax),
    lender_id: Type.String({ minLength: 1, maxLength: 64 }),
    amount_min: amount,
    amount_max: amount,
    term_days: Type.Array(Type.Integer({ minimum: 0, maximum: 100_000 }), { minItems: 1, maxItems: 30 }),
    daily_rate: Type.String({ minLength: 1, maxLength: 16 }),
    interest_free_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    overdue_rate: Type.String({ minLength: 1, maxLength: 16 }),
    late_fee: amount,
    reason,
  },
  { additionalProperties: false },
);
export type AdminLoanProductBody = Static<typeof AdminLoanProductBody>;

/** `POST admin/loans/products/:id/state` (loans.write, audited): pause or open a product (running loans are untouched). */
export const AdminLoanProductStateBody = Type.Object(
  { ...CommonFields, action: Type.Union([Type.Literal('open'), Type.Literal('pause')]), reason },
  { additionalProperties: false },
);
export type AdminLoanProductStateBody = Static<typeof AdminLoanProductStateBody>;

/** A named lender account (`loan_lender_<code>`): what it may lend, and what borrowers owe it. */
export type AdminLenderData = {
  lender_id: string;
  name: string;
  source: Localized;
  /** Money to lend (available), owed to it by borrowers (outstanding), paid in, repaid. */
  available: string;
  outstanding: string;
  funded_total: string;
  created_at: number;
};

/** `POST admin/loans/lenders` (loans.write, audited). */
export const AdminLenderBody = Type.Object(
  {
    ...CommonFields,
    name: Type.String({ minLength: 1, maxLength: LOAN_LIMITS.nameMax }),
    source: localized(LOAN_LIMITS.textMax),
    reason,
  },
  { additionalProperties: false },
);
export type AdminLenderBody = Static<typeof AdminLenderBody>;

/** `POST admin/loans/lenders/:id/requests` (loans.write): ask to pay operator money into a lender account. */
export const AdminLenderFundingBody = Type.Object(
  { ...CommonFields, amount, reason },
  { additionalProperties: false },
);
export type AdminLenderFundingBody = Static<typeof AdminLenderFundingBody>;

export type AdminLenderFundingData = {
  request_id: string;
  lender_id: string;
  amount: string;
  reason: string;
  state: 'pending' | 'approved' | 'rejected';
  requested_by: string;
  requested_at: number;
  decided_by: string | null;
  decided_at: number | null;
  decision_reason: string | null;
};

/** Approve / reject a funding request, a voucher, an application: the staff member's reason. */
export const AdminLoanDecisionBody = Type.Object(
  { ...CommonFields, reason },
  { additionalProperties: false },
);
export type AdminLoanDecisionBody = Static<typeof AdminLoanDecisionBody>;

/** `POST admin/loans/applications/:id/reject` (loans.decide, audited, notified). */
export const AdminLoanRejectBody = Type.Object(
  { ...CommonFields, reason_code: lit(LOAN_REJECT_REASONS), reason },
  { additionalProperties: false },
);
export type AdminLoanRejectBody = Static<typeof AdminLoanRejectBody>;

/**
 * `POST admin/loans/loans/:id/write-off` (loans.decide, audited): the first call records the request,
 * a different staff member's call confirms it and takes what is owed off the books.
 */
export const AdminLoanWriteOffBody = Type.Object(
  { ...CommonFields, reason_code: lit(LOAN_WRITE_OFF_REASONS), reason },
  { additionalProperties: false },
);
export type AdminLoanWriteOffBody = Static<typeof AdminLoanWriteOffBody>;

/** A loan's write-off: requested by one staff member, confirmed (`written_off_at`) by another. */
export type AdminLoanWriteOffData = {
  reason_code: LoanWriteOffReason;
  reason: string;
  requested_by: string;
  requested_at: number;
  written_off_by: string | null;
  written_off_at: number | null;
  /** What the borrower owed when it was written off (the lender's loss). */
  amount: string | null;
};

/** `POST admin/loans/repayments/:id/confirm` (loans.decide): the amount received (default: the voucher's). */
export const AdminLoanVoucherConfirmBody = Type.Object(
  { ...CommonFields, amount: Type.Optional(amount), reason },
  { additionalProperties: false },
);
export type AdminLoanVoucherConfirmBody = Static<typeof AdminLoanVoucherConfirmBody>;

export type AdminLoanApplicantData = {
  uid: string;
  name: string;
  country: string;
  verification_level: number;
  account_age_days: number;
};

export type AdminLoanData = LoanData & {
  customer_id: string;
  applicant: AdminLoanApplicantData;
  lender_id: string;
  score_at_apply: number;
  limit_at_apply: string;
  first_approved_by: string | null;
  decided_by: string | null;
  decision_note: string | null;
  /** A write-off requested (awaiting a second staff member) or done; null when none. */
  write_off: AdminLoanWriteOffData | null;
};

/** `GET admin/loans/queue` (loans.read): unreviewed applications, oldest first, with today's score breakdown. */
export type AdminLoanQueueItem = AdminLoanData & { score: CreditScoreData; above_threshold: boolean };

export const AdminLoansQuery = Type.Object(
  {
    ...CommonFields,
    state: Type.Optional(lit(LOAN_STATES)),
    uid: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    ...pageFields,
  },
  { additionalProperties: false },
);
export type AdminLoansQuery = Static<typeof AdminLoansQuery>;

export const AdminLoanPageQuery = Type.Object(
  { ...CommonFields, ...pageFields },
  { additionalProperties: false },
);
export type AdminLoanPageQuery = Static<typeof AdminLoanPageQuery>;

/** `GET admin/loans/documentLink` (loans.read, audited by the upload pipeline): a proof or a voucher of a loan. */
export const AdminLoanDocumentQuery = Type.Object(
  {
    ...CommonFields,
    loan_id: Type.String({ minLength: 1, maxLength: 64 }),
    file_id: Type.String({ minLength: 1, maxLength: 40 }),
  },
  { additionalProperties: false },
);
export type AdminLoanDocumentQuery = Static<typeof AdminLoanDocumentQuery>;

export type AdminLoanRepaymentData = LoanRepaymentData & { customer_id: string; uid: string };

/** `GET admin/loans/repayments` (loans.read): vouchers waiting (state `pending`) or every repayment. */
export const AdminLoanRepaymentsQuery = Type.Object(
  { ...CommonFields, state: Type.Optional(lit(LOAN_REPAYMENT_STATES)), ...pageFields },
  { additionalProperties: false },
);
export type AdminLoanRepaymentsQuery = Static<typeof AdminLoanRepaymentsQuery>;

/** `GET admin/loans/score-reviews` (loans.read): customers' requests for a human review of their score. */
export const AdminScoreReviewsQuery = Type.Object(
  {
    ...CommonFields,
    state: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
    ...pageFields,
  },
  { additionalProperties: false },
);
export type AdminScoreReviewsQuery = Static<typeof AdminScoreReviewsQuery>;

/** `GET admin/loans/funding-requests` (loans.read). */
export const AdminLenderFundingQuery = Type.Object(
  {
    ...CommonFields,
    lender_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    state: Type.Optional(
      Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]),
    ),
    ...pageFields,
  },
  { additionalProperties: false },
);
export type AdminLenderFundingQuery = Static<typeof AdminLenderFundingQuery>;

/** `GET admin/loans/loans/:id` (loans.read): one loan with its days and repayments. */
export type AdminLoanDetailData = {
  loan: AdminLoanData;
  days: LoanDayData[];
  repayments: LoanRepaymentData[];
};

export type AdminScoreReviewData = ScoreReviewData & {
  customer_id: string;
  uid: string;
  closed_by: string | null;
  closed_at: number | null;
  closing_note: string | null;
};

export type AdminLoanSettingsData = {
  /** Approvals above this amount (USDT) need a second staff member. */
  approval_threshold: string;
  agreement_version: string;
  updated_at: number;
  updated_by: string | null;
};

/** `POST admin/loans/settings` (loans.write, audited). */
export const AdminLoanSettingsBody = Type.Object(
  {
    ...CommonFields,
    approval_threshold: amount,
    agreement_version: Type.String({ minLength: 1, maxLength: LOAN_LIMITS.agreementVersionMax }),
    reason,
  },
  { additionalProperties: false },
);
export type AdminLoanSettingsBody = Static<typeof AdminLoanSettingsBody>;

const band = Type.Object(
  { from: Type.String({ minLength: 1, maxLength: 40 }), points: Type.Integer() },
  { additionalProperties: false },
);
const bands = Type.Array(band, { minItems: 0, maxItems: 20 });

/** `POST admin/loans/score-table` (loans.write, audited): publish a new version of the score and limit tables. */
export const AdminScoreTableBody = Type.Object(
  {
    ...CommonFields,
    base_points: Type.Integer(),
    bands: Type.Object(
      Object.fromEntries(CREDIT_SCORE_FACTORS.map((f) => [f, bands])) as Record<
        CreditScoreFactor,
        typeof bands
      >,
      { additionalProperties: false },
    ),
    limits: Type.Array(
      Type.Object(
        { score_min: Type.Integer(), limit: Type.String({ minLength: 1, maxLength: 40 }) },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 50 },
    ),
    reason,
  },
  { additionalProperties: false },
);
export type AdminScoreTableBody = Static<typeof AdminScoreTableBody>;
