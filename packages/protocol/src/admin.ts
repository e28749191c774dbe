import { type Static, Type } from 'typebox';
import { CommonFields } from './access.ts';
import type { VerificationState, VerificationTier } from './verification.ts';

/**
 * The back office's calls under `/api/admin` (staff sessions: `Authorization: Bearer <staff token>`).
 * Bodies are JSON or form-encoded like every call; `roles` travels as a comma-separated list.
 */
export const ADMIN_LIMITS = {
  staffPasswordMin: 12,
  staffPasswordMax: 128,
  nameMax: 80,
  emailMax: 254,
  reasonMin: 3,
  reasonMax: 500,
  ticketMax: 64,
  searchMax: 64,
  pageSizeMax: 100,
  /** A login ticket (after the password step) is good this long. */
  challengeSeconds: 300,
} as const;

export const ADMIN_ROLES = ['administrator', 'finance', 'compliance', 'support', 'content'] as const;

const email = Type.String({ minLength: 3, maxLength: ADMIN_LIMITS.emailMax });
const reason = Type.String({ minLength: 1, maxLength: ADMIN_LIMITS.reasonMax });
const id = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_]+$' });
const rolesList = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern:
    '^(administrator|finance|compliance|support|content)(,(administrator|finance|compliance|support|content))*$',
});
const limit = Type.String({ pattern: '^[0-9]{1,3}$' });

export const StaffLoginBody = Type.Object(
  {
    ...CommonFields,
    email,
    password: Type.String({ minLength: 1, maxLength: ADMIN_LIMITS.staffPasswordMax }),
  },
  { additionalProperties: false },
);
export type StaffLoginBody = Static<typeof StaffLoginBody>;

export const StaffCodeBody = Type.Object(
  {
    ...CommonFields,
    ticket: Type.String({ minLength: 1, maxLength: ADMIN_LIMITS.ticketMax }),
    code: Type.String({ pattern: '^[0-9]{6}$' }),
  },
  { additionalProperties: false },
);
export type StaffCodeBody = Static<typeof StaffCodeBody>;

export const AdminEmptyBody = Type.Object({ ...CommonFields }, { additionalProperties: false });

export const CreateStaffBody = Type.Object(
  {
    ...CommonFields,
    email,
    name: Type.String({ minLength: 1, maxLength: ADMIN_LIMITS.nameMax }),
    password: Type.String({ minLength: 1, maxLength: ADMIN_LIMITS.staffPasswordMax }),
    roles: rolesList,
  },
  { additionalProperties: false },
);
export type CreateStaffBody = Static<typeof CreateStaffBody>;

export const StaffTargetBody = Type.Object(
  { ...CommonFields, staff_id: id, reason },
  { additionalProperties: false },
);
export type StaffTargetBody = Static<typeof StaffTargetBody>;

export const StaffRolesBody = Type.Object(
  { ...CommonFields, staff_id: id, roles: rolesList, reason },
  { additionalProperties: false },
);
export type StaffRolesBody = Static<typeof StaffRolesBody>;

export const CustomerSearchQuery = Type.Object(
  { ...CommonFields, q: Type.String({ maxLength: ADMIN_LIMITS.searchMax }), limit: Type.Optional(limit) },
  { additionalProperties: false },
);
export type CustomerSearchQuery = Static<typeof CustomerSearchQuery>;

export const CustomerDetailQuery = Type.Object(
  { ...CommonFields, customer_id: id },
  { additionalProperties: false },
);
export type CustomerDetailQuery = Static<typeof CustomerDetailQuery>;

export const CustomerStatusBody = Type.Object(
  { ...CommonFields, customer_id: id, reason },
  { additionalProperties: false },
);
export type CustomerStatusBody = Static<typeof CustomerStatusBody>;

export const CreateAdjustmentBody = Type.Object(
  {
    ...CommonFields,
    customer_id: id,
    account_type: Type.String({ minLength: 1, maxLength: 16 }),
    currency: Type.String({ minLength: 1, maxLength: 16 }),
    direction: Type.Union([Type.Literal('credit'), Type.Literal('debit')]),
    amount: Type.String({ maxLength: 64 }),
    reason,
  },
  { additionalProperties: false },
);
export type CreateAdjustmentBody = Static<typeof CreateAdjustmentBody>;

export const DecideAdjustmentBody = Type.Object(
  { ...CommonFields, adjustment_id: id, reason: Type.Optional(reason) },
  { additionalProperties: false },
);
export type DecideAdjustmentBody = Static<typeof DecideAdjustmentBody>;

export const AdjustmentsQuery = Type.Object(
  {
    ...CommonFields,
    status: Type.Optional(
      Type.Union([Type.Literal('pending'), Type.Literal('posted'), Type.Literal('rejected')]),
    ),
    customer_id: Type.Optional(id),
    limit: Type.Optional(limit),
  },
  { additionalProperties: false },
);
export type AdjustmentsQuery = Static<typeof AdjustmentsQuery>;

export const AuditQuery = Type.Object(
  {
    ...CommonFields,
    before_seq: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$' })),
    target_id: Type.Optional(id),
    actor_id: Type.Optional(id),
    limit: Type.Optional(limit),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

export const OutboxQuery = Type.Object(
  { ...CommonFields, before_id: Type.Optional(id), limit: Type.Optional(limit) },
  { additionalProperties: false },
);
export type OutboxQuery = Static<typeof OutboxQuery>;

export type StaffMe = {
  staff_id: string;
  email: string;
  name: string;
  roles: string[];
  permissions: string[];
};

/** A customer as the back office sees them (`searchCustomers`, `getCustomer`); times are epoch ms. */
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

/** A manual adjustment (`createAdjustment`, `getAdjustments`, `getCustomer`); amounts are decimal strings. */
export type AdjustmentView = {
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

/** `getCustomer`: profile, balances, recent journal lines and adjustments. */
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
  adjustments: AdjustmentView[];
  /** Display names of the staff in `adjustments` (makers and checkers), by staff id. */
  staff_names: Record<string, string>;
};

/** A customer's verification as the back-office queues show it (see CustomerSummary). */
export type CustomerVerification = {
  level: 0 | 1 | 2;
  status: 'unverified' | 'under_review' | 'verified';
  tiers: Record<VerificationTier, VerificationState>;
};

/** Per currency: how many and how much (a decimal string in the currency's scale). */
export type CustomerFlow = { currency: string; count: number; amount: string };

/**
 * Who a staff member is about to pay or credit, as the back-office queues (deposits, withdrawals) show it.
 * `verification` comes from modules/verification (composed in wiring.ts): `level` 0 none, 1 primary
 * approved, 2 advanced approved; `status` `verified` (primary approved), `under_review` (primary
 * submitted, not decided) or `unverified`; `tiers` the state of each tier.
 */
export type CustomerSummary = {
  customer_id: string;
  uid: string;
  name: string;
  status: 'active' | 'disabled';
  created_at: number;
  /** Whole days since the account was opened (the injected clock). */
  age_days: number;
  verification: CustomerVerification;
  last_login_at: number | null;
  activity: { days: number; deposits: CustomerFlow[]; withdrawals: CustomerFlow[] };
  /**
   * All time, for the risk rules (not shown): credited deposits and withdrawals paid or being paid
   * (pending, processing, completed) per currency in minor units, and how many were completed.
   */
  totals: {
    deposits: Record<string, string>;
    withdrawals: Record<string, string>;
    completed_withdrawals: number;
  };
};
