import { scaleOf, toDecimalString } from '@bourse/money';
import type { CustomerSummary } from '@bourse/protocol';
import type { Logger } from 'pino';
import type { Db, Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Contact } from '../accounts/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Notifier } from '../notify/index.ts';
import type { Book } from './book.ts';
import { explorerUrl } from './chains.ts';
import { rulesFrom } from './policy.ts';
import type { PayoutProvider } from './provider.ts';
import * as repo from './repo.ts';
import type { Security } from './security.ts';
import type { WithdrawalStatus } from './tables.ts';

/**
 * What the parts of the withdrawals service share: their dependencies, the limits, the wire form
 * of a withdrawal, the rules as loaded, and the reason and note checks of the staff calls.
 */

/** Withdrawals pay out of the customer's spot account. */
export const WITHDRAW_ACCOUNT_TYPE = 'spot' as const;
export const PAGE_SIZE_MAX = 100;
export const REJECT_REASON_MAX = 500;
export const BANK_REFERENCE_MAX = 64;
/** Why a payout failed; the customer reads each in their language (withdraw catalogue `failReason`). */
export const PAYOUT_FAIL_REASONS = [
  'network_rejected',
  'destination_rejected',
  'provider_error',
  'bank_returned',
] as const;
export type PayoutFailReason = (typeof PAYOUT_FAIL_REASONS)[number];
/** How many due payouts one run of the payout job settles (each in its own transaction). */
export const PAYOUT_BATCH = 100;

/** Spec 4's generic record status: 0 failure, 1 processing/waiting, 2 success. */
export function statusCode(status: WithdrawalStatus): 0 | 1 | 2 {
  if (status === 'completed') return 2;
  if (status === 'pending' || status === 'processing') return 1;
  return 0;
}
export const STATUSES_OF_CODE: Record<'0' | '1' | '2', WithdrawalStatus[]> = {
  '0': ['failed', 'rejected', 'cancelled'],
  '1': ['pending', 'processing'],
  '2': ['completed'],
};

export type WithdrawalsDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  book: Book;
  security: Security;
  provider: PayoutProvider;
  /** The back office's audit log; staff calls are offered only when it exists. */
  audit: AuditLog | null;
  /** Tells the customer about every state change of their withdrawal (after it commits). */
  notifier?: Notifier | null;
  /** The staff queue's customer context, a page at a time (staff/customer-context.ts, wired by app.ts). */
  customerSummaries: (customerIds: readonly string[], now: Date) => Promise<Map<string, CustomerSummary>>;
  /**
   * Refuses unless the customer has the verification the active jurisdiction profile asks for
   * withdrawals (modules/verification `requireFeature`, passed in by wiring.ts).
   */
  requireFeature: (customerId: string, feature: 'withdraw') => Promise<void>;
  /** Where to tell them (the accounts module's `contactOf`); needed with `notifier`. */
  contacts?: { contactOf(customerId: string): Promise<Contact | null> } | null;
  /**
   * Four-eyes on bank payouts: marking paid a bank withdrawal of more than this (a decimal in the
   * withdrawal's currency; BANK_PAYOUT_APPROVAL_THRESHOLD) needs a second staff member to confirm.
   */
  bankPaidApprovalThreshold?: string;
  /** Test hook: runs inside a payout's settling transaction after its ledger entry (a crash there rolls it back). */
  afterSettlePost?: (withdrawalId: string) => void | Promise<void>;
};

/** Test hooks (see WithdrawalsDeps.afterSettlePost); tests may set them on the service. */
export type Faults = {
  afterSettlePost?: ((withdrawalId: string) => void | Promise<void>) | undefined;
  /** Runs inside a request's transaction after the Google step, the row and the freeze (a throw rolls them back). */
  afterRequestFreeze?: ((withdrawalId: string) => void | Promise<void>) | undefined;
};

/** The dependencies and the service's test hooks, as the parts receive them. */
export type WithdrawalsContext = WithdrawalsDeps & { faults: Faults };

export type RequestInput = {
  method: 'address' | 'bank';
  destinationId: string;
  currency: string;
  amount: string;
  tradePassword: string;
  googleCode?: string;
};

export const fmt = (units: string | bigint, currency: string) =>
  toDecimalString(BigInt(units), scaleOf(currency));

export function publicWithdrawal(row: repo.WithdrawalRow, destinationShown: string = row.destination_label) {
  return {
    id: row.id,
    method: row.method,
    currency: row.currency,
    chain: row.chain,
    destination: destinationShown,
    memo: row.memo,
    amount: fmt(row.amount, row.currency),
    fee: fmt(row.fee, row.currency),
    received: fmt(row.received, row.currency),
    status: statusCode(row.status),
    state: row.status,
    reject_reason: row.reject_reason ?? '',
    fail_reason: row.fail_reason ?? '',
    tx_hash: row.tx_hash ?? '',
    explorer_url: explorerUrl(row.chain, row.tx_hash),
    bank_reference: row.bank_reference ?? '',
    paid_requested: row.paid_requested_by ? 1 : 0,
    can_cancel: row.status === 'pending' ? 1 : 0,
    created_at: row.created_at.getTime(),
    updated_at: row.updated_at.getTime(),
  };
}

/** The answer's form of a row: a bank destination shows its bank name and the card's last 4. */
export function view(deps: Pick<WithdrawalsDeps, 'book'>, row: repo.WithdrawalRow) {
  if (row.method !== 'bank') return publicWithdrawal(row);
  const fields = deps.book.openBank(row.destination);
  return publicWithdrawal(row, `${fields.bank_name} **** ${fields.card_number.slice(-4)}`);
}

export async function loadRules(deps: Pick<WithdrawalsDeps, 'db'>, q: Db | Tx = deps.db) {
  return rulesFrom(await repo.listRules(q));
}

/** The audit log of a staff call; staff calls are offered only with one (a call without is a bug). */
export function staffAudit(deps: Pick<WithdrawalsDeps, 'audit'>): AuditLog {
  if (!deps.audit) throw new Error('staff calls need the audit log');
  return deps.audit;
}

export function checkReason(text: string): string {
  const why = text.trim();
  if (why === '') refuse('FIELD_REQUIRED', { field: 'reason' });
  if (why.length > REJECT_REASON_MAX) refuse('FIELD_TOO_LONG', { field: 'reason', max: REJECT_REASON_MAX });
  return why;
}

export function checkNote(text: string): string {
  const note = text.trim();
  if (note === '') refuse('FIELD_REQUIRED', { field: 'note' });
  if (note.length > REJECT_REASON_MAX) refuse('FIELD_TOO_LONG', { field: 'note', max: REJECT_REASON_MAX });
  return note;
}
