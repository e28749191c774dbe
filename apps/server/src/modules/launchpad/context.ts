import { registerAsset, toDecimalString } from '@bourse/money';
import type {
  AdminLaunchpadMarketBody,
  JurisdictionProfileId,
  Lang,
  LaunchpadProjectData,
  LaunchpadSubscriptionData,
  Localized,
  RequiredTier,
  RiskRating,
  VerificationTier,
} from '@bourse/protocol';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Contact } from '../accounts/index.ts';
import { type AccountRef, familyCode, type Ledger } from '../ledger/index.ts';
import type { Notifier } from '../notify/index.ts';
import type { ProjectRow, SubscriptionRow } from './repo.ts';
import { coinsOfLots, feeRateText, USDT } from './rules.ts';

/**
 * What the parts of the launchpad share: their dependencies (ports injected by wiring.ts), the
 * ledger accounts of a project, and the wire forms of projects and subscriptions.
 */

/** The customer's account the subscription money is frozen in and the released coins arrive in. */
export const MAIN_ACCOUNT_TYPE = 'spot' as const;
/** Allocated coins wait, frozen (locked), in the customer's own funding account until release. */
export const LOCKED_ACCOUNT_TYPE = 'funding' as const;
/** Subscriptions one job step takes per batch (each in its own transaction). */
export const JOB_BATCH = 200;

/** What opening a coin's spot market asks of the market and spot modules (a port wired by wiring.ts). */
export type SpotListing = {
  symbol: string;
  name: string;
  base: string;
  quote: string;
  /** The catalogue's reference price: the issue price on the tick grid (a seed, never a price of record). */
  ref_price: string;
} & Omit<AdminLaunchpadMarketBody, 'reason' | 'token' | 'lang' | 'rtoken'>;

export type LaunchpadDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  audit: AuditLog;
  /** The active jurisdiction profile (modules/jurisdiction). */
  activeProfile: () => Promise<JurisdictionProfileId>;
  /** Refuses unless the customer has the verification the profile asks for `launchpad` (modules/verification). */
  requireFeature: (customerId: string, feature: 'launchpad') => Promise<void>;
  /**
   * The tier the active profile asks for `launchpad` (modules/verification `featureTier`): projects
   * carry it as `profile_tier`, so the rules page shows it before `requireFeature` refuses.
   */
  featureTier: (feature: 'launchpad') => Promise<RequiredTier>;
  /** Whether the customer's verification of `tier` is approved (modules/verification `tierOf`). */
  tierApproved: (customerId: string, tier: VerificationTier) => Promise<boolean>;
  /** The customer's risk rating (modules/suitability). */
  rating: (customerId: string) => Promise<RiskRating>;
  /** Refuses an amount (USDT minor units) above the rating's launchpad cap (modules/suitability `checkCap`). */
  checkCap: (customerId: string, amountUnits: bigint) => Promise<void>;
  /** The rating's launchpad cap in USDT minor units (null: none), for `may_subscribe`. */
  ratingCapUsdt?: (customerId: string) => Promise<bigint | null>;
  /** Back-office labels (uid) of customers, and the reverse, wired by wiring.ts. */
  customerUids?: (customerIds: string[]) => Promise<Map<string, string>>;
  customerByUid?: (uid: string) => Promise<string | null>;
  /**
   * Adds the coin's instrument (priced by its own book) to the catalogue and opens its spot market
   * (modules/market `addInstrument`, modules/spot `createMarket`); idempotent for the same settings.
   */
  openSpotMarket?: (staff: StaffContext, listing: SpotListing) => Promise<void>;
  /**
   * Tells the subscriber when the job refunds, allocates or releases (notices.ts; after the change
   * commits). wiring.ts passes notify's notifier with the `launchpad` kind.
   */
  notifier?: Notifier | null;
  /** Where and in which language to tell them (the accounts module's `contactOf`); needed with `notifier`. */
  contacts?: { contactOf(customerId: string): Promise<Contact | null> } | null;
  /** Test hook: runs inside a subscription's allocation transaction after its ledger entry. */
  afterAllocationPost?: (subscriptionId: string) => void | Promise<void>;
};

export const supplyAccount = (code: string): AccountRef => ({
  book: 'real',
  platform: familyCode('launchpad_supply_', code),
});
export const escrowAccount = (code: string): AccountRef => ({
  book: 'real',
  platform: familyCode('launchpad_escrow_', code),
});
export const customerAccount = (customerId: string, type: 'spot' | 'funding'): AccountRef => ({
  book: 'real',
  customerId,
  accountType: type,
});

/** The project's coin is a currency of the ledger from the moment a row names it (idempotent). */
export function listCoin(p: Pick<ProjectRow, 'coin' | 'coin_scale'>): void {
  registerAsset(p.coin, p.coin_scale);
}

export function localized(map: Localized, lang: Lang): string {
  return map[lang] ?? map.en;
}

const ms = (d: Date | null) => (d === null ? null : d.getTime());
const usdtText = (units: bigint | string) => toDecimalString(BigInt(units), USDT.scale);

/**
 * A project's wire form (the rules page is built from it alone) without the profile's rule, which
 * `webProject` adds for customers.
 */
export function projectData(p: ProjectRow, lang: Lang): Omit<LaunchpadProjectData, 'profile_tier'> {
  const lots = (n: string | bigint) => coinsOfLots(p, BigInt(n));
  const supply = BigInt(p.supply_lots);
  const subscribed = BigInt(p.subscribed_lots);
  const remaining = supply > subscribed ? supply - subscribed : 0n;
  const alloc = p.allocation;
  return {
    project_id: p.id,
    coin: p.coin,
    coin_scale: p.coin_scale,
    name: localized(p.names, lang),
    issuer: p.issuer,
    description: localized(p.descriptions, lang),
    whitepaper_url: p.whitepaper_url,
    risk_warning: localized(p.risk_warnings, lang),
    state: p.state,
    mode: p.mode,
    price: usdtText(p.price_units),
    pay_currency: 'USDT',
    lot_size: toDecimalString(BigInt(p.lot_units), p.coin_scale),
    circulation: toDecimalString(BigInt(p.circulation_units), p.coin_scale),
    supply: lots(supply),
    soft_cap: lots(p.soft_cap_lots),
    per_customer_cap: lots(p.cap_lots),
    min_subscription: lots(p.min_lots),
    margin_ratio: '100',
    fee_rate: feeRateText(p.fee_bps),
    opens_at: p.opens_at.getTime(),
    closes_at: p.closes_at.getTime(),
    listing_at: p.listing_at.getTime(),
    lockup_days: p.lockup_days,
    release_at: p.release_at.getTime(),
    refund_hours: p.refund_hours,
    eligibility: { min_tier: p.min_tier, min_rating: p.min_rating, jurisdictions: p.jurisdictions },
    subscribed: lots(subscribed),
    subscribers: p.subscribers,
    passed: lots(alloc ? alloc.committed_lots : '0'),
    remaining: lots(p.mode === 'first_come' ? remaining : supply),
    progress: toDecimalString((subscribed * 10_000n) / supply, 2),
    sold_out: p.mode === 'first_come' && remaining === 0n,
    failure_reason: p.failure_reason,
    failed_at: ms(p.failed_at),
    refund_deadline_at: ms(p.refund_deadline_at),
    announced_at: ms(p.announced_at),
    allocation: alloc,
    market_symbol: p.market_symbol,
    market_opened_at: ms(p.market_opened_at),
  };
}

/** What a customer reads of a project: with the active profile's `launchpad` rule (read once per answer). */
export function webProject(p: ProjectRow, lang: Lang, profileTier: RequiredTier): LaunchpadProjectData {
  return { ...projectData(p, lang), profile_tier: profileTier };
}

export function subscriptionData(s: SubscriptionRow, p: ProjectRow, lang: Lang): LaunchpadSubscriptionData {
  const opt = (v: string | null, f: (x: string) => string) => (v === null ? null : f(v));
  return {
    subscription_id: s.id,
    project_id: s.project_id,
    project_name: localized(p.names, lang),
    coin: p.coin,
    seq: s.seq,
    state: s.state,
    quantity: coinsOfLots(p, BigInt(s.lots)),
    price: usdtText(p.price_units),
    margin: usdtText(s.cost_units),
    fee_frozen: usdtText(s.fee_units),
    frozen: usdtText(s.frozen_units),
    review_reason: s.review_reason,
    allocated: opt(s.allocated_lots, (v) => coinsOfLots(p, BigInt(v))),
    paid: opt(s.paid_units, usdtText),
    fee_paid: opt(s.fee_paid_units, usdtText),
    refunded: opt(s.refunded_units, usdtText),
    failure_reason: s.failure_reason,
    token_state: s.token_state,
    release_at: p.release_at.getTime(),
    released_at: ms(s.released_at),
    created_at: s.created_at.getTime(),
    reviewed_at: ms(s.reviewed_at),
    allocated_at: ms(s.allocated_at),
    refunded_at: ms(s.refunded_at),
  };
}
