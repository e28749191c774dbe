import type { Generated } from 'kysely';

export type AccountsTables = {
  accounts_customer: {
    id: string;
    uid: string;
    name: string | null;
    email: string | null;
    /** E.164, e.g. +447911123456. */
    phone: string | null;
    area_code: string;
    country: string;
    password_hash: string | null;
    invitation_code: string;
    invited_by: string | null;
    is_demo: boolean;
    demo_expires_at: Date | null;
    wallet_address: string | null;
    language: string;
    status: 'active' | 'disabled';
    failed_logins: number;
    locked_until: Date | null;
    created_at: Date;
    updated_at: Date;
  };
  accounts_session: {
    id: string;
    customer_id: string;
    token_hash: string;
    created_at: Date;
    expires_at: Date;
    revoked_at: Date | null;
    revoked_reason: 'logout' | 'password_changed' | null;
    ip: string;
    user_agent: string;
  };
  accounts_code: {
    id: string;
    target: string;
    scene: string;
    code_hash: string;
    attempts: number;
    expires_at: Date;
    consumed_at: Date | null;
    created_at: Date;
  };
  /** Login failures per HMAC(SECRET, identifier) for identifiers no customer has. */
  accounts_login_guard: {
    key_hash: string;
    failed_logins: number;
    locked_until: Date | null;
    updated_at: Date;
  };
  accounts_wallet_nonce: {
    nonce: string;
    address: string;
    expires_at: Date;
    consumed_at: Date | null;
    created_at: Generated<Date>;
  };
  /** The profile and security centre: one row per customer who set any of it (profile.ts). */
  accounts_security: {
    customer_id: string;
    /** When the account name last changed (null: never set). */
    name_changed_at: Date | null;
    /** argon2id of each normalised answer (question 1 best friend, 2 idol, 3 most longed-for place). */
    answer1_hash: string | null;
    answer2_hash: string | null;
    answer3_hash: string | null;
    questions_set_at: Date | null;
    /** Shown in every message to this customer (notify's phrase port). */
    phrase: string | null;
    phrase_set_at: Date | null;
    updated_at: Date;
  };
  /** What changed in a customer's security settings and from where: the customer's own audit trail. */
  accounts_security_event: {
    id: string;
    customer_id: string;
    kind: string;
    detail: string;
    ip: string;
    created_at: Date;
  };
  /** Each staff check of a security answer (rate limit; the staff audit log has the record). */
  accounts_answer_check: {
    id: string;
    customer_id: string;
    staff_id: string;
    question: number;
    matched: boolean;
    created_at: Date;
  };
};
