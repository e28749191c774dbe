import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';

/**
 * The seven-day sign-in reward (modules/signin; the spec's `/signRule`). One programme: a time zone
 * whose local calendar day is the customer-day, seven amounts (day 1 … day 7 of a streak; a missed
 * day resets to day 1), paid once per customer-day as promotional credit into the customer's spot
 * account from the named marketing budget `marketing_budget_signin`, with any condition stated
 * beside the amount. Times are epoch ms; amounts decimal strings in the programme's currency.
 */

const lit = <T extends string>(values: readonly T[]) =>
  Type.Unsafe<T>(Type.Union(values.map((v) => Type.Literal(v))));

export const SIGNIN_LIMITS = {
  /** Days in a cycle: the streak runs 1…7, then starts again at 1. */
  cycleDays: 7,
  conditionMax: 300,
  reasonMin: 3,
  reasonMax: 500,
  /** Largest reward of one day, in whole currency units. */
  amountMax: '1000000',
  pageSizeMax: 100,
} as const;

/**
 * What the programme is doing now: `on`; `off` (switched off by staff); `budget_empty` (the budget
 * cannot pay the smallest day's amount); `profile_forbids` (the active jurisdiction profile allows
 * no promotional incentives).
 */
export const SIGNIN_STATES = ['on', 'off', 'budget_empty', 'profile_forbids'] as const;
export type SigninState = (typeof SIGNIN_STATES)[number];
/** Verification a customer needs before a real-book sign-in pays. */
export const SIGNIN_VERIFICATIONS = ['none', 'primary'] as const;
export type SigninVerification = (typeof SIGNIN_VERIFICATIONS)[number];
/** The budget's ledger account (a `marketing_budget_` family member, never negative). */
export const SIGNIN_BUDGET_ACCOUNT = 'marketing_budget_signin';

export type SigninTexts = { en: string; zh: string; ft: string };

/** The signed-in customer's side of `GET web/signin`. */
export type SigninMeData = {
  /** The streak as it stands today: 0 when none is running (never signed, or a day was missed). */
  streak: number;
  signed_today: boolean;
  /** The streak day a sign-in today earns (null when already signed today). */
  today_streak_day: number | null;
  /** Its amount (null when already signed today). */
  today_amount: string | null;
  last_day: string | null;
  /** `demo`: paid in virtual money in the demo book (README of modules/signin). */
  book: 'real' | 'demo';
  /** Whether the verification the programme needs is in place (always true for `none` and demo). */
  verified: boolean;
};

/** `GET web/signin` (open without login): the programme as data, and the customer's side when signed in. */
export type SigninInfoData = {
  state: SigninState;
  time_zone: string;
  currency: string;
  /** Day 1 … day 7. */
  amounts: string[];
  verification: SigninVerification;
  /** Stated beside the amount; all empty when there is none. */
  condition: SigninTexts;
  /** What the budget holds now. */
  budget_remaining: string;
  cycle_days: number;
  /** The server's instant, today's customer-day in the programme's zone, and when it ends. */
  now: number;
  today: string;
  next_boundary_at: number;
  me: SigninMeData | null;
};

/** `POST web/signin`: today's sign-in, paid. */
export type SigninClaimData = {
  day: string;
  streak: number;
  amount: string;
  currency: string;
  at: number;
  next_boundary_at: number;
};

export const SigninEmptyQuery = Type.Object({ ...CommonFields }, { additionalProperties: false });
export const SigninClaimBody = Type.Object({ ...CommonFields }, { additionalProperties: false });

// ================================================================ back office

const reason = Type.String({ minLength: SIGNIN_LIMITS.reasonMin, maxLength: SIGNIN_LIMITS.reasonMax });
const amount = Type.String({ minLength: 1, maxLength: 40 });
const condition = Type.String({ maxLength: SIGNIN_LIMITS.conditionMax });

/** `GET admin/signin/settings`. */
export type AdminSigninSettingsData = {
  enabled: boolean;
  time_zone: string;
  currency: string;
  amounts: string[];
  verification: SigninVerification;
  condition: SigninTexts;
  updated_at: number | null;
  updated_by: string | null;
  /** What customers see now (the same rule as `web/signin`). */
  state: SigninState;
  /** Whether the active jurisdiction profile allows promotional incentives. */
  promo_incentives: boolean;
  budget_remaining: string;
};

/** `POST admin/signin/settings` (audited, with a reason). */
export const AdminSigninSettingsBody = Type.Object(
  {
    ...CommonFields,
    enabled: Type.Boolean(),
    time_zone: Type.String({ minLength: 1, maxLength: 64 }),
    amounts: Type.Array(amount, { minItems: SIGNIN_LIMITS.cycleDays, maxItems: SIGNIN_LIMITS.cycleDays }),
    verification: lit(SIGNIN_VERIFICATIONS),
    condition: Type.Object({ en: condition, zh: condition, ft: condition }, { additionalProperties: false }),
    reason,
  },
  { additionalProperties: false },
);
export type AdminSigninSettingsBody = Static<typeof AdminSigninSettingsBody>;

/** `GET admin/signin/budget`: the budget account and what went through it. */
export type AdminSigninBudgetData = {
  account: string;
  currency: string;
  balance: string;
  /** Approved funding requests, in total. */
  funded_total: string;
  /** Real-book rewards paid, in total, and how many. */
  paid_total: string;
  paid_count: number;
  /** Requests waiting for a second staff member. */
  pending: number;
};

export const SIGNIN_FUNDING_STATES = ['pending', 'approved', 'rejected'] as const;
export type SigninFundingState = (typeof SIGNIN_FUNDING_STATES)[number];

export type AdminSigninFundingData = {
  request_id: string;
  amount: string;
  currency: string;
  reason: string;
  state: SigninFundingState;
  requested_by: string;
  requested_at: number;
  decided_by: string | null;
  decided_at: number | null;
  decision_reason: string | null;
};

/** `POST admin/signin/funding-requests`: ask to pay `amount` into the budget; another staff member decides. */
export const AdminSigninFundingBody = Type.Object(
  { ...CommonFields, amount, reason },
  { additionalProperties: false },
);
export type AdminSigninFundingBody = Static<typeof AdminSigninFundingBody>;

/** `POST admin/signin/funding-requests/:id/approve|reject` (never by the requester). */
export const AdminSigninDecisionBody = Type.Object(
  { ...CommonFields, reason },
  { additionalProperties: false },
);
export type AdminSigninDecisionBody = Static<typeof AdminSigninDecisionBody>;

const page = Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' }));
const pageSize = Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' }));

export const AdminSigninFundingQuery = Type.Object(
  { ...CommonFields, state: Type.Optional(lit(SIGNIN_FUNDING_STATES)), page, page_size: pageSize },
  { additionalProperties: false },
);
export type AdminSigninFundingQuery = Static<typeof AdminSigninFundingQuery>;

export const AdminSigninPayoutsQuery = Type.Object(
  { ...CommonFields, page, page_size: pageSize },
  { additionalProperties: false },
);
export type AdminSigninPayoutsQuery = Static<typeof AdminSigninPayoutsQuery>;

/** `GET admin/signin/payouts`: recent sign-ins, newest first. */
export type AdminSigninPayoutData = {
  uid: string;
  day: string;
  streak: number;
  amount: string;
  currency: string;
  book: 'real' | 'demo';
  at: number;
  entry_id: string;
};
