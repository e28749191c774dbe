import { scaleOf, toDecimalString } from '@bourse/money';
import type { CustomerSummary, RechargeChannel, RecordStatus } from '@bourse/protocol';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Contact } from '../accounts/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Notifier } from '../notify/index.ts';
import type { Uploads } from '../uploads/index.ts';
import type { CustodyProvider } from './provider.ts';
import type { BankRow, ChannelRow, CryptoRow } from './repo.ts';

/** What the parts of the deposits service share: their dependencies, the wire statuses, a channel's shape. */

export type DepositsDeps = {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  log: Logger;
  provider: CustodyProvider;
  audit: AuditLog;
  /** The staff queue's customer context, a page at a time (staff/customer-context.ts, wired by wiring.ts). */
  customerSummaries: (customerIds: readonly string[], now: Date) => Promise<Map<string, CustomerSummary>>;
  /**
   * Refuses unless the customer has the verification the active jurisdiction profile asks for
   * deposits (modules/verification `requireFeature`, passed in by wiring.ts).
   */
  requireFeature: (customerId: string, feature: 'deposit') => Promise<void>;
  /**
   * The upload pipeline (modules/uploads): a bank deposit claims its remittance proof with `attach`
   * (purpose `deposit_proof`); finance staff see it through an audited `staffLinks` link.
   */
  uploads: Pick<Uploads, 'attach' | 'staffLinks'>;
  /**
   * Until when a claimed document is kept: the active jurisdiction profile's document retention
   * (modules/verification `documentRetainUntil`, the rule its own documents use; wired by wiring.ts).
   */
  documentRetainUntil: (at: Date) => Promise<Date>;
  /**
   * Tells the customer when a deposit is credited, held below the minimum, or a bank deposit is
   * confirmed or rejected (notices.ts; after the change commits). wiring.ts passes notify's
   * notifier with the `deposit` kind.
   */
  notifier?: Notifier | null;
  /** Where and in which language to tell them (the accounts module's `contactOf`); needed with `notifier`. */
  contacts?: { contactOf(customerId: string): Promise<Contact | null> } | null;
};

/** Deposits land in the customer's spot account (what they trade from). */
export const DEPOSIT_ACCOUNT_TYPE = 'spot' as const;

export function channelData(row: ChannelRow): RechargeChannel {
  return {
    currency: row.currency,
    chain: row.chain,
    kind: row.kind,
    open: row.open,
    min_amount: toDecimalString(BigInt(row.min_units), scaleOf(row.currency)),
    confirmations: row.confirmations,
    instructions: row.instructions,
  };
}

export function cryptoStatus(status: CryptoRow['status']): RecordStatus {
  return status === 'credited' ? 2 : status === 'failed' ? 0 : 1;
}

export function bankStatus(status: BankRow['status']): RecordStatus {
  return status === 'confirmed' ? 2 : status === 'rejected' ? 0 : 1;
}

/** Deposits are real money: a demo session is refused. */
export function realOnly(auth: AuthContext): void {
  if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
}
