import type { Db, Tx } from '../db/database.ts';

/**
 * The contract between the back office (`modules/staff`, which implements it) and every module
 * that offers staff calls under `/api/admin`. A module declares the permission a route needs in
 * its route config; the staff hook resolves the staff session, checks the permission against the
 * staff member's roles and attaches `request.staff`, or refuses (LOGIN_REQUIRED / FORBIDDEN).
 * Every staff action writes one audit record in the same transaction as the change it makes.
 */
export { STAFF_ROLES, type StaffRole } from './staff-roles.ts';

import type { StaffRole } from './staff-roles.ts';

/** What a staff member may do; roles are sets of these (ROLE_PERMISSIONS in modules/staff). */
export const STAFF_PERMISSIONS = [
  'staff.manage',
  'audit.read',
  'customers.read',
  'customers.disable',
  'deposits.read',
  'deposits.confirm',
  'withdrawals.read',
  'withdrawals.decide',
  'adjustments.create',
  'adjustments.approve',
  'settings.write',
  'outbox.read',
  'ledger.verify',
  'content.write',
  'markets.write',
  /** Contract positions, exposure, the insurance account, option orders (read only). */
  'risk.read',
  /** The identity verification queue and its documents (every document view audited), decrypted ID numbers. */
  'verification.read',
  /** Approve, reject or ask for a revision of a verification submission (audited, notified). */
  'verification.decide',
  /** Check a caller's security answer against the customer's (match / no match, audited). */
  'customers.verify',
  /** Earn (modules/earn): products, orders, reserves, accrual runs, redemptions, settings (read only). */
  'earn.read',
  /** Earn: create products and change their state (open, pause, close), funding accounts, cut-off and VIP thresholds (audited). */
  'earn.write',
  /** Earn: request or decide (never one's own) a payment into a funding account (four eyes, audited). */
  'earn.fund',
  /** ETF model portfolios, orders, rebalances and NAV history (read only). */
  'funds.read',
  /** Open or pause an ETF model portfolio (audited, with a reason). */
  'funds.write',
  /** New-coin subscription (modules/launchpad): projects, subscriptions, allocation runs and roots, escrow (read only). */
  'launchpad.read',
  /** Launchpad: create projects, announce them, record an issuer's withdrawal, pay the escrow to the issuer (audited). */
  'launchpad.write',
  /** Loans (modules/loans): products, lenders, applications, loans, repayments, score reviews, settings (read only; proof links audited). */
  'loans.read',
  /** Loans: create and pause products, lender accounts and funding requests, the score table, settings, close score reviews (audited). */
  'loans.write',
  /** Loans: approve (four eyes above the threshold) or reject applications, decide lender funding (never one's own), confirm vouchers (audited). */
  'loans.decide',
  /** C2C (modules/c2c): merchants, offers, orders, disputes with evidence links (read only; links audited). */
  'c2c.read',
  /** C2C: approve or suspend merchants, create, update and pause offers, write in an order's chat (audited). */
  'c2c.write',
  /** C2C: decide disputes — release to the buyer or return to the seller, four eyes above the threshold (audited). */
  'c2c.decide',
  /** Customer service (modules/support): queues, conversations with attachment links (audited), metrics (read only). */
  'support.read',
  /** Customer service: take or assign, reply, internal notes, status, canned replies (audited). */
  'support.write',
  /** Referral (modules/referral): the programme, income lines, linked-account flags, totals (read only). */
  'referral.read',
  /** Referral: change the programme (depth, shares) and clear linked-account flags (audited, with a reason). */
  'referral.write',
] as const;
export type StaffPermission = (typeof STAFF_PERMISSIONS)[number];

export type StaffContext = Readonly<{
  staffId: string;
  sessionId: string;
  roles: readonly StaffRole[];
}>;

export type AuditInput = {
  actorId: string;
  /** Dotted verb, e.g. `withdrawal.approve`, `deposit.confirm`, `customer.disable`. */
  action: string;
  targetType: string;
  targetId: string;
  before?: unknown;
  after?: unknown;
  /** Why: the reason the staff member typed, required for decisions that refuse or move money. */
  reason?: string;
};

/** Appends one hash-chained record; pass the transaction that makes the change it records. */
export type AuditLog = {
  record(q: Db | Tx, input: AuditInput): Promise<{ id: string; hash: string }>;
};

declare module 'fastify' {
  interface FastifyRequest {
    staff: StaffContext | null;
  }
  interface FastifyContextConfig {
    /** A staff call: only a staff session whose roles grant this permission reaches the handler. */
    permission?: StaffPermission;
  }
}
