import { DEFAULT_CRYPTO_SCALE, isKnownAsset, parseDecimal, scaleOf, toDecimalString } from '@bourse/money';
import { EARN_LIMITS, type EarnOrderData, type EarnOrderState } from '@bourse/protocol';

/**
 * Pure logic of the earn screens (fixed-term custody and VIP products): the reward example computed
 * exactly as the server does, the amount field's checks, the capacity bar, the quote countdown and
 * where a refusal sends the customer. Money is bigint minor units (`@bourse/money`), never a float.
 */

const DAYS_PER_YEAR = 365n;
const PERCENT = 100n;

/** Ledger scale of a currency (USDT 8, ETH 18); an unknown code gets the default crypto scale. */
export function ledgerScale(currency: string): number {
  return isKnownAsset(currency) ? scaleOf(currency) : DEFAULT_CRYPTO_SCALE;
}

/** The rate as an integer over 10^rateScale ("5.25" → 52500n at scale 4); null when not a rate. */
function rateUnits(rate: string): bigint | null {
  const parsed = parseDecimal(rate.trim(), { scale: EARN_LIMITS.rateScale, maxIntegerDigits: 6 });
  return parsed.ok ? parsed.units : null;
}

/** Minor units of a decimal amount at the currency's ledger scale; null when not a plain non-negative decimal. */
export function amountUnits(amount: string, currency: string): bigint | null {
  const parsed = parseDecimal(amount.trim(), { scale: ledgerScale(currency) });
  return parsed.ok ? parsed.units : null;
}

export type RewardExample = { daily: string; total: string; dailyUnits: bigint; totalUnits: bigint };

/**
 * The reward of `amount` at `annualRate` % a year over `termDays`, with the server's rounding: one
 * day's reward is floor(amount × rate / 100 / 365) in minor units, and the term's reward is that day
 * times the days (each day posts the same whole minor units). Null when the amount or rate is not a
 * number.
 */
export function rewardExample(input: {
  amount: string;
  annualRate: string;
  termDays: number;
  currency: string;
}): RewardExample | null {
  const scale = ledgerScale(input.currency);
  const units = amountUnits(input.amount, input.currency);
  const rate = rateUnits(input.annualRate);
  if (units === null || rate === null || !Number.isInteger(input.termDays) || input.termDays < 0) return null;
  const rateDenominator = 10n ** BigInt(EARN_LIMITS.rateScale);
  // floor(units × rate / 100 / 365): one division at the end, so nothing is lost on the way.
  const dailyUnits = (units * rate) / (PERCENT * DAYS_PER_YEAR * rateDenominator);
  const totalUnits = dailyUnits * BigInt(input.termDays);
  return {
    daily: toDecimalString(dailyUnits, scale),
    total: toDecimalString(totalUnits, scale),
    dailyUnits,
    totalUnits,
  };
}

/** Why an amount cannot be bought, in the order the field shows it. */
export type AmountProblem = 'empty' | 'invalid' | 'belowMin' | 'aboveMax' | 'aboveMayBuy';

/**
 * Checks the typed amount against the product's minimum and maximum and what the customer may still
 * buy (`may_buy`, null when not signed in). The server checks again; this only says it early.
 */
export function amountProblem(input: {
  amount: string;
  currency: string;
  min: string;
  max: string;
  mayBuy: string | null;
}): AmountProblem | null {
  const text = input.amount.trim();
  if (text === '') return 'empty';
  const units = amountUnits(text, input.currency);
  if (units === null || units === 0n) return 'invalid';
  const min = amountUnits(input.min, input.currency);
  const max = amountUnits(input.max, input.currency);
  if (min !== null && units < min) return 'belowMin';
  if (max !== null && units > max) return 'aboveMax';
  if (input.mayBuy !== null) {
    const mayBuy = amountUnits(input.mayBuy, input.currency);
    if (mayBuy !== null && units > mayBuy) return 'aboveMayBuy';
  }
  return null;
}

/** Share of the capacity already subscribed, 0–100 with one decimal, for the bar (exact up to display). */
export function subscribedPercent(subscribed: string, capacity: string, currency: string): number {
  const used = amountUnits(subscribed, currency);
  const total = amountUnits(capacity, currency);
  if (used === null || total === null || total === 0n) return 0;
  const permille = (used * 1000n) / total;
  const clamped = permille > 1000n ? 1000n : permille;
  return Number(clamped) / 10;
}

/** Whole seconds until `expiresAt` (epoch ms) from `now`, never negative. */
export function secondsLeft(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

/** Whole days from `now` to `at` (rounded up), never negative: "arrives in 3 days". */
export function daysUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 86_400_000));
}

/**
 * Where a refusal can be fixed: a missing verification tier → the verification centre, a risk rating
 * → the questionnaire, not enough available balance → the assets overview, a VIP level → the VIP page;
 * anything else has nothing to do but read the rule.
 */
export type RefusalFix = 'verification' | 'questionnaire' | 'funds' | 'vip' | null;

export function refusalFix(code: string): RefusalFix {
  const upper = code.toUpperCase();
  if (/TIER|VERIF|KYC/.test(upper)) return 'verification';
  if (/RATING|SUITAB|QUESTIONNAIRE|ASSESS/.test(upper)) return 'questionnaire';
  if (/VIP/.test(upper)) return 'vip';
  if (/BALANCE|INSUFFICIENT|FUNDS/.test(upper)) return 'funds';
  return null;
}

export const REFUSAL_LINKS: Record<Exclude<RefusalFix, null>, string> = {
  verification: '/sfyz',
  questionnaire: '/questionnaire',
  funds: '/table1',
  vip: '/vip_index',
};

/** Running orders may be redeemed early (unless the rule says none); the others are history. */
export function canRedeem(state: EarnOrderState, rule: string): boolean {
  return state === 'in_custody' && rule !== 'none';
}

/** The customer's reward so far as a share of the order's whole reward, 0–100, for the progress bar. */
export function progressPercent(daysAccrued: number, termDays: number): number {
  if (termDays <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((daysAccrued / termDays) * 1000) / 10));
}

/** A page count for `total` items at `pageSize` a page (at least one page). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/** The first page of the amount field's "max": what the customer may buy, else the product's maximum. */
export function maxAmount(mayBuy: string | null, max: string): string {
  return mayBuy ?? max;
}

/** Principal plus the term's reward, exactly (what comes back at maturity); null when either is not an amount. */
export function maturityAmount(amount: string, reward: string, currency: string): string | null {
  const principal = amountUnits(amount, currency);
  const total = amountUnits(reward, currency);
  if (principal === null || total === null) return null;
  return toDecimalString(principal + total, ledgerScale(currency));
}

/**
 * A time zone's name in the reader's language ("Asia/Hong_Kong" → "Hong Kong Standard Time",
 * "香港标准时间"), as it is at `at`; the IANA name itself when the runtime does not know it.
 */
export function zoneName(zone: string, locale: string, at: number): string {
  try {
    const parts = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'long' }).formatToParts(at);
    return parts.find((p) => p.type === 'timeZoneName')?.value ?? zone;
  } catch {
    return zone;
  }
}

/**
 * "Profit so far" of an order: the rewards accrued while it runs; once redeemed early, what was
 * actually paid (the accrued rewards were forfeited).
 */
export function profitSoFar(order: Pick<EarnOrderData, 'accrued' | 'redemption'>): string {
  return order.redemption ? order.redemption.rewards_paid : order.accrued;
}
