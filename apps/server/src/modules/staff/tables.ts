import type { StaffRole } from '../../http/staff-roles.ts';

/** The back office's tables: staff, their sessions and login challenges, the audit log, adjustments. */
export type StaffTables = {
  staff_member: {
    id: string;
    email: string;
    name: string;
    password_hash: string;
    roles: StaffRole[];
    /** The TOTP secret, sealed with the server secret (lib/crypto seal); null until a login starts enrolment. */
    totp_secret_sealed: string | null;
    totp_enrolled_at: Date | null;
    /** The last accepted TOTP time step: a code is good once (replay protection). */
    totp_last_step: string | null;
    status: 'active' | 'disabled';
    failed_logins: number;
    locked_until: Date | null;
    created_by: string | null;
    created_at: Date;
    updated_at: Date;
  };
  staff_session: {
    id: string;
    staff_id: string;
    token_hash: string;
    created_at: Date;
    last_seen_at: Date;
    expires_at: Date;
    revoked_at: Date | null;
    ip: string;
    user_agent: string;
  };
  staff_challenge: {
    id: string;
    staff_id: string;
    ticket_hash: string;
    kind: 'totp' | 'enrol';
    expires_at: Date;
    consumed_at: Date | null;
    created_at: Date;
  };
  staff_audit: {
    seq: string;
    id: string;
    actor_id: string;
    action: string;
    target_type: string;
    target_id: string;
    before: unknown;
    after: unknown;
    reason: string | null;
    created_at: Date;
    prev_hash: string;
    hash: string;
  };
  staff_adjustment: {
    id: string;
    customer_id: string;
    account_type: string;
    currency: string;
    direction: 'credit' | 'debit';
    amount_units: string;
    /** The amount valued in USDT at creation (null when no price was available: approval needed). */
    value_usdt: string | null;
    reason: string;
    maker_id: string;
    needs_approval: boolean;
    status: 'pending' | 'posted' | 'rejected';
    checker_id: string | null;
    decision_reason: string | null;
    decided_at: Date | null;
    entry_id: string | null;
    created_at: Date;
  };
  staff_ledger_report: {
    id: string;
    source: 'schedule' | 'manual';
    ok: boolean;
    report: unknown;
    actor_id: string | null;
    created_at: Date;
  };
};
