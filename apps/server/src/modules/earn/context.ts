import type {
  EarnOrderData,
  EarnProductData,
  JurisdictionProfileId,
  Lang,
  RequiredTier,
  RiskRating,
  VerificationTier,
} from '@bourse/protocol';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Contact } from '../accounts/index.ts';
import { type AccountRef, type Book, familyCode, type Ledger } from '../ledger/index.ts';
import type { Notifier } from '../notify/index.ts';
import { dayCutoff } from './calendar.ts';
import type { OrderRow, ProductRow } from './repo.ts';
import { amountText, dailyRateText, rate4Of, rateText } from './rules.ts';

/**
 * What the parts of the earn service share: their dependencies (ports injected by wiring.ts), the
 * ledger accounts of a product, and the wire form of products and orders.
 */

/** Where principal comes from and goes back to: the account deposits credit (deposits DEPOSIT_ACCOUNT_TYPE). */
export const MAIN_ACCOUNT_TYPE = 'spot' as const;
/** The customer's own earn account: principal and accrued rewards sit in its frozen bucket. */
export const EARN_ACCOUNT_TYPE = 'earn' as const;
/** Orders one job run takes per batch (each order-day in its own transaction). */
export const ACCRUAL_BATCH = 200;
/** How often the accrual job looks for due cut-offs and arrived redemptions. */
export const EARN_JOB_INTERVAL_MS = 60_000;

export type EarnDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  audit: AuditLog;
  /** The active jurisdiction profile (modules/jurisdiction). */
  jurisdiction: {
    active(): Promise<{ id: JurisdictionProfileId; earn_principal_penalty: boolean }>;
  };
  /** Refuses unless the customer has the verification the profile asks for `earn` (modules/verification). */
  requireFeature: (customerId: string, feature: 'earn') => Promise<void>;
  /**
   * The tier the active profile asks for `earn` (modules/verification `featureTier`): products carry
   * it as `profile_tier`, so the rule page shows it before `requireFeature` refuses.
   */
  featureTier: (feature: 'earn') => Promise<RequiredTier>;
  /** Whether the customer's verification of `tier` is approved (modules/verification `tierOf`). */
  tierApproved: (customerId: string, tier: VerificationTier) => Promise<boolean>;
  /** The customer's risk rating (modules/suitability). */
  rating: (customerId: string) => Promise<RiskRating>;
  /** What the rating allows in earn a purchase, in USDT minor units (null: no figure; eligibility's `may_buy`). */
  ratingCapUsdt?: (customerId: string) => Promise<bigint | null>;
  /** The rating's amount cap for earn, in USDT minor units (modules/suitability `checkCap`). */
  ratingCaps: {
    checkCap(customerId: string, req: { productClass: 'earn'; amountUnits: bigint }): Promise<void>;
  };
  /** `units` of `currency` in USDT minor units at the recorded reference price; null without a price. */
  usdtValue: (currency: string, units: bigint) => bigint | null;
  /** The VIP inputs: 30-day traded notional and total balance, both in USDT minor units. */
  vipInputs: (customerId: string) => Promise<{ volume30d: bigint; balance: bigint }>;
  /** Back-office labels (uid) of customers (accounts), wired by wiring.ts. */
  customerUids?: (customerIds: string[]) => Promise<Map<string, string>>;
  /** The customer id of a uid (accounts), for the back office's uid filter. */
  customerByUid?: (uid: string) => Promise<string | null>;
  /**
   * Tells the customer when an order matures, is redeemed, or its delayed redemption is paid out
   * (notices.ts; after the change commits). wiring.ts passes notify's notifier with the `earn` kind.
   */
  notifier?: Notifier | null;
  /** Where and in which language to tell them (the accounts module's `contactOf`); needed with `notifier`. */
  contacts?: { contactOf(customerId: string): Promise<Contact | null> } | null;
  /** Test hook: runs inside an order-day's transaction after its ledger entry (a crash there rolls it back). */
  afterAccrualPost?: (orderId: string, day: number) => void | Promise<void>;
};

export function fundAccount(book: Book, code: string): AccountRef {
  return { book, platform: familyCode('earn_fund_', code) };
}

export function reserveAccount(book: Book, code: string): AccountRef {
  return { book, platform: familyCode('earn_reserve_', code) };
}

export function customerAccount(book: Book, customerId: string, type: 'spot' | 'earn'): AccountRef {
  return { book, customerId, accountType: type };
}

/** A platform account's available balance (0 when never opened). */
export async function platformAvailable(
  deps: Pick<EarnDeps, 'ledger' | 'db'>,
  q: Parameters<Ledger['platformBalances']>[0],
  book: Book,
  platform: ReturnType<typeof familyCode>,
  currency: string,
): Promise<bigint> {
  const rows = await deps.ledger.platformBalances(q, { book, platform });
  return rows.find((r) => r.currency === currency)?.availableUnits ?? 0n;
}

export function localized(map: Record<Lang, string>, lang: Lang): string {
  return map[lang] ?? map.en;
}

export function ms(d: Date | null): number | null {
  return d === null ? null : d.getTime();
}

/**
 * A product's wire form without the profile's rule (products.ts `webProduct` adds it for customers);
 * the figures that need the ledger come in `money`.
 */
export function productData(
  p: ProductRow,
  lang: Lang,
  funding: { id: string; name: string; source: Record<Lang, string> },
  money: { reserved: bigint; fundingAvailable: bigint; capacityLeft: bigint },
  cutoff: { hour: number; time_zone: string },
): Omit<EarnProductData, 'profile_tier'> {
  const rate4 = rate4Of(p.annual_rate);
  const c = p.currency;
  return {
    product_id: p.id,
    kind: p.kind,
    state: p.state,
    name: localized(p.names, lang),
    description: localized(p.descriptions, lang),
    currency: c,
    term_days: p.term_days,
    annual_rate: rateText(rate4),
    daily_rate: dailyRateText(rate4),
    min_amount: amountText(BigInt(p.min_amount_units), c),
    max_amount: amountText(BigInt(p.max_amount_units), c),
    capacity: amountText(BigInt(p.capacity_units), c),
    subscribed: amountText(BigInt(p.subscribed_units), c),
    capacity_left: amountText(money.capacityLeft, c),
    reserved: amountText(money.reserved, c),
    funding_available: amountText(money.fundingAvailable, c),
    funding_account: { funding_id: funding.id, name: funding.name, source: localized(funding.source, lang) },
    sale_starts_at: ms(p.sale_starts_at),
    sale_ends_at: ms(p.sale_ends_at),
    redeem_rule: p.redeem_rule,
    penalty_rate: p.penalty_rate === null ? null : rateText(rate4Of(p.penalty_rate)),
    redeem_delay_days: p.redeem_delay_days,
    min_tier: p.min_tier,
    min_rating: p.min_rating,
    vip_level: p.vip_level,
    jurisdictions: p.jurisdictions,
    cutoff,
  };
}

export function orderData(o: OrderRow, productName: string): EarnOrderData {
  const c = o.currency;
  const rate4 = rate4Of(o.annual_rate);
  const redeemed = o.quote_id !== null && o.redeem_requested_at !== null && o.arrives_at !== null;
  return {
    order_id: o.id,
    product_id: o.product_id,
    kind: o.kind,
    product_name: productName,
    currency: c,
    amount: amountText(BigInt(o.amount_units), c),
    term_days: o.term_days,
    annual_rate: rateText(rate4),
    daily_rate: dailyRateText(rate4),
    daily_reward: amountText(BigInt(o.daily_reward_units), c),
    total_reward: amountText(BigInt(o.total_reward_units), c),
    accrued: amountText(BigInt(o.accrued_units), c),
    days_accrued: o.days_accrued,
    days_left: o.state === 'in_custody' ? o.term_days - o.days_accrued : 0,
    state: o.state,
    created_at: o.created_at.getTime(),
    matures_at: o.matures_at.getTime(),
    redemption: redeemed
      ? {
          principal_returned: amountText(BigInt(o.principal_returned_units ?? '0'), c),
          rewards_paid: amountText(BigInt(o.rewards_paid_units ?? '0'), c),
          rewards_forfeited: amountText(BigInt(o.rewards_forfeited_units ?? '0'), c),
          penalty: amountText(BigInt(o.penalty_units ?? '0'), c),
          requested_at: (o.redeem_requested_at as Date).getTime(),
          arrives_at: (o.arrives_at as Date).getTime(),
        }
      : null,
    completed_at: ms(o.completed_at),
    redeem_rule: o.redeem_rule,
    penalty_rate: o.penalty_rate === null ? null : rateText(rate4Of(o.penalty_rate)),
    redeem_delay_days: o.redeem_delay_days,
  };
}

/** The cut-off of the order's next day (null when every day is posted). */
export function nextAccrualAt(
  o: Pick<OrderRow, 'first_day' | 'cutoff_hour' | 'time_zone' | 'term_days'>,
  daysAccrued: number,
) {
  return daysAccrued >= o.term_days ? null : dayCutoff(o, daysAccrued + 1);
}
