import type { Logger } from 'pino';
import type { Db, Tx } from '../../db/database.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Ledger } from '../ledger/index.ts';
import type { FeeCursor, FeePaidRow } from '../spot/index.ts';

/** What the parts of the referral module share: the ports wiring.ts injects and the named limits. */

export type Q = Db | Tx;

/** How often the income job runs unless configured (REFERRAL_JOB_INTERVAL_MS). */
export const REFERRAL_JOB_INTERVAL_MS = 60_000;

export type InviteePage = {
  total: number;
  rows: { id: string; uid: string; name: string; contact: string; created_at: Date; level: number }[];
};

export type ReferralDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Pick<Ledger, 'post'>;
  audit: AuditLog;
  /**
   * The active jurisdiction profile's maximum referral depth (modules/jurisdiction): permissive 4,
   * eu_retail 1, custom 0…4; 0 where referral rewards are banned.
   */
  referralMaxDepth: () => Promise<number>;
  /** Fees paid on the real spot books, in settlement order (modules/spot `feesPaidAfter`). */
  fees: {
    markets: (q: Q) => Promise<string[]>;
    after: (q: Q, input: { symbol: string; after: FeeCursor | null; limit: number }) => Promise<FeePaidRow[]>;
  };
  /** Invitations (modules/accounts): the chain above a customer, the invitees below, the code and link. */
  invitations: {
    chain: (q: Q, customerId: string, depth: number) => Promise<string[]>;
    codeOf: (customerId: string) => Promise<{ code: string; link: string } | null>;
    counts: (customerId: string, depth: number) => Promise<Map<number, number>>;
    page: (input: {
      customerId: string;
      depth: number;
      level?: number;
      offset: number;
      limit: number;
    }) => Promise<InviteePage>;
  };
  /**
   * Linked accounts: a description of what two customers share, or null — a device (accounts'
   * sessions: same address and browser) and payout details (withdrawals' addresses, cards, wallets).
   */
  linked: {
    device: (q: Q, a: string, b: string) => Promise<string | null>;
    payout: (q: Q, a: string, b: string) => Promise<string | null>;
  };
  customerUids: (customerIds: readonly string[]) => Promise<Map<string, string>>;
  customerByUid: (uid: string) => Promise<string | null>;
};
