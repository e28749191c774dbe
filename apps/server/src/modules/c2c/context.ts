import { toDecimalString } from '@bourse/money';
import type { C2cPrivateMessage, RequiredTier } from '@bourse/protocol';
import { C2C_FIAT_SCALE, C2C_PRICE_SCALE } from '@bourse/risk';
import type { Logger } from 'pino';
import type { Db, Tx } from '../../db/database.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Contact } from '../accounts/index.ts';
import type { Ledger } from '../ledger/index.ts';
import { type AccountRef, familyCode } from '../ledger/index.ts';
import type { Notifier } from '../notify/index.ts';
import type { Uploads } from '../uploads/index.ts';

/**
 * What the parts of the C2C module share: their dependencies (ports injected by wiring.ts), the
 * published constants (README.md, "Limits"), the ledger accounts and formatting. Every figure comes
 * from `@bourse/risk` `c2c.ts`; nothing here computes money.
 */

/** The customer account coins are escrowed from and paid into. */
export const MAIN_ACCOUNT_TYPE = 'spot' as const;
const MINUTE_MS = 60_000;
/** The spec's order validity: 3 hours, unless the method's window says otherwise. */
export const DEFAULT_WINDOW_MINUTES = 180;
/** After "paid", the receiver has this long to confirm; then the order becomes a dispute. */
export const CONFIRM_WINDOW_MINUTES = 120;
/** After a dispute opens, the other side has this long to answer before the auto rule looks at it. */
export const DISPUTE_RESPONSE_MINUTES = 24 * 60;
/** Reminders go out this long before the pay and confirm deadlines. */
export const REMINDER_BEFORE_MINUTES = 30;
/** Orders one job step takes per batch (each in its own transaction). */
export const JOB_BATCH = 200;
/** How often the deadline job runs (on the injected clock). */
export const C2C_JOB_INTERVAL_MS = 30_000;
/** Above this amount (coin units) a dispute decision needs two staff members; the auto rule never decides it. */
export const DEFAULT_FOUR_EYES_UNITS = 10_000n * 100_000_000n;
/** Feed symbols a spread offer prices off, per coin/fiat pair (the recorded feed price, rule 2). */
export const FEED_SYMBOLS: Readonly<Record<string, string>> = {
  'USDT/CNY': 'USD/CNH',
  'USDT/HKD': 'USD/HKD',
};

export const minutes = (n: number) => n * MINUTE_MS;

export type FeedPrice = { price: string; source: string; at: Date };

export type C2cDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  audit: AuditLog;
  /**
   * The name a customer's payments and collection accounts must carry: the verified real name
   * (modules/verification `verifiedName`), null before primary approval; a demo account's fixed
   * demo name (wiring.ts).
   */
  verifiedName: (customerId: string) => Promise<string | null>;
  /**
   * Refuses unless the customer meets the active jurisdiction profile's `c2c` verification rule
   * (modules/verification `requireFeature`: VERIFICATION_<TIER>_REQUIRED naming the feature and the
   * tier). Not asked for a demo account (play money on the demo desk, under the demo name).
   */
  requireFeature: (customerId: string) => Promise<void>;
  /** The active profile's `c2c` rule, shown on the rules page before it refuses. */
  featureTier: () => Promise<RequiredTier>;
  /** Whether the customer's advanced verification is approved (merchants need it). */
  merchantTierApproved: (customerId: string) => Promise<boolean>;
  /** When the customer's account was opened (account-age limits). */
  accountCreatedAt: (customerId: string) => Promise<Date | null>;
  /** The recorded feed price of a symbol now, or null when none is fit to use (modules/market). */
  feedPrice: (symbol: string) => FeedPrice | null;
  /** Remittance proofs, evidence and attachments: uploads of purpose `remittance_proof`. */
  uploads: Pick<Uploads, 'attach' | 'staffLinks' | 'partyLink'>;
  documentRetainUntil: (at: Date) => Promise<Date>;
  /** Live delivery on the customer's private channel `c2c_private:<uid>` (wiring.ts, the ws registry). */
  publish?: (customerId: string, message: C2cPrivateMessage) => void | Promise<void>;
  notifier?: Pick<Notifier, 'send'>;
  contacts?: { contactOf(customerId: string): Promise<Contact | null> };
  customerUids?: (customerIds: string[]) => Promise<Map<string, string>>;
  customerByUid?: (uid: string) => Promise<string | null>;
  fourEyesUnits?: bigint;
  /** The shortest payment window an offer may set (config C2C_WINDOW_MIN_MINUTES; default C2C_LIMITS' 15). */
  windowMinutesMin?: number;
  /** Test hook: runs inside a job transition's transaction after its ledger entry (a crash there rolls it back). */
  afterJobPost?: (orderId: string, event: string) => void | Promise<void>;
};

export type Q = Db | Tx;
export { C2C_DEMO_NAME } from '@bourse/protocol';
/** Real money, or the demo book's play money (demo accounts trade with the operator's demo desk). */
export type Book = 'real' | 'demo';
export const bookOf = (auth: { isDemo: boolean }): Book => (auth.isDemo ? 'demo' : 'real');

/** The order's own escrow account: `c2c_escrow_<order id without its prefix>`. */
export const escrowAccount = (orderId: string, book: Book = 'real'): AccountRef => ({
  book,
  platform: familyCode('c2c_escrow_', orderId.slice(4).toLowerCase()),
});
export const spotOf = (customerId: string, book: Book = 'real'): AccountRef => ({
  book,
  customerId,
  accountType: MAIN_ACCOUNT_TYPE,
});

export const priceText = (units: bigint | string) => toDecimalString(BigInt(units), C2C_PRICE_SCALE);
/** Fiat as a bank transfer states it: always two decimals ("710.00"). */
export function fiatText(cents: bigint | string): string {
  const v = BigInt(cents);
  const unit = 10n ** BigInt(C2C_FIAT_SCALE);
  const sign = v < 0n ? '-' : '';
  const a = v < 0n ? -v : v;
  return `${sign}${a / unit}.${(a % unit).toString().padStart(C2C_FIAT_SCALE, '0')}`;
}
export const coinText = (units: bigint | string, scale: number) => toDecimalString(BigInt(units), scale);
export const ms = (d: Date | null) => (d === null ? null : d.getTime());
export const dateText = (d: Date | null) =>
  d === null ? '' : d.toISOString().slice(0, 16).replace('T', ' ');
