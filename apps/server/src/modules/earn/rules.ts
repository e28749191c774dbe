import { formatUnits, parseDecimal, scaleOf, toDecimalString } from '@bourse/money';
import { EARN_LIMITS, type EarnRedeemRule } from '@bourse/protocol';

/**
 * The money rules of a fixed-term order, pure and in bigint minor units (property-tested in
 * rules.test.ts and through the service in properties.test.ts):
 *
 * - a rate is a percent with EARN_LIMITS.rateScale decimals, held as `rate4` = percent × 10^4;
 * - daily reward = floor(amount × annual % / 365), in the currency's minor units;
 * - the whole reward of an order = daily reward × term days (reserved at purchase);
 * - early redemption: accrued rewards are forfeited (every rule); the principal penalties
 *   (`principal_percent`: rate % of the principal; `principal_daily`: rate % × remaining days ×
 *   principal) are capped at the principal and rounded down.
 */

const RATE_ONE = 10n ** BigInt(EARN_LIMITS.rateScale);
/** amount × rate4 / DIVISOR is a day's reward: 100 (percent) × 10^rateScale × 365 days. */
const DAY_DIVISOR = 100n * RATE_ONE * 365n;
const PERCENT_DIVISOR = 100n * RATE_ONE;

/** A percent string → rate4, or null when it is not a positive decimal with ≤ rateScale places at or under `max`. */
export function parseRate(text: string, max: string): bigint | null {
  const parsed = parseDecimal(text.trim(), {
    scale: EARN_LIMITS.rateScale,
    allowZero: false,
    maxIntegerDigits: 4,
  });
  if (!parsed.ok) return null;
  const ceiling = parseDecimal(max, { scale: EARN_LIMITS.rateScale });
  if (!ceiling.ok || parsed.units > ceiling.units) return null;
  return parsed.units;
}

/** rate4 → the percent as a decimal string with two to four places ("4.00", "0.0110"). */
export function rateText(rate4: bigint): string {
  return formatUnits(rate4, { scale: EARN_LIMITS.rateScale, minFractionDigits: 2 });
}

/** Percent string as stored (NUMERIC) → rate4. */
export function rate4Of(stored: string): bigint {
  const parsed = parseDecimal(stored, { scale: EARN_LIMITS.rateScale });
  if (!parsed.ok) throw new Error(`stored rate ${stored} is malformed`);
  return parsed.units;
}

/** The annual rate's daily figure, rounded half up to rateScale places. */
export function dailyRateText(rate4: bigint): string {
  const daily4 = (rate4 * 2n + 365n) / 730n; // rate4 / 365, half up
  return formatUnits(daily4, { scale: EARN_LIMITS.rateScale, minFractionDigits: 2 });
}

export function dailyReward(amountUnits: bigint, rate4: bigint): bigint {
  return (amountUnits * rate4) / DAY_DIVISOR;
}

export function totalReward(amountUnits: bigint, rate4: bigint, termDays: number): bigint {
  return dailyReward(amountUnits, rate4) * BigInt(termDays);
}

/**
 * The largest amount whose whole reward a funding balance covers: floor(x × r / D) × term ≤ F
 * exactly when x ≤ ((⌊F / term⌋ + 1) × D − 1) / r; 0 when ⌊F / term⌋ is 0.
 */
export function maxAmountFunded(fundingUnits: bigint, rate4: bigint, termDays: number): bigint {
  const perDay = fundingUnits / BigInt(termDays);
  // Less than one minor unit a day: no amount earns anything (a zero reward is refused), so nothing.
  if (perDay <= 0n) return 0n;
  return ((perDay + 1n) * DAY_DIVISOR - 1n) / rate4;
}

/** The principal penalty of an early redemption (0 for `forfeit_rewards`), never above the principal. */
export function penaltyOf(input: {
  rule: EarnRedeemRule;
  penaltyRate4: bigint | null;
  principalUnits: bigint;
  remainingDays: number;
}): bigint {
  const { rule, penaltyRate4, principalUnits } = input;
  if (rule === 'forfeit_rewards' || rule === 'none' || penaltyRate4 === null) return 0n;
  const raw =
    rule === 'principal_percent'
      ? (principalUnits * penaltyRate4) / PERCENT_DIVISOR
      : (principalUnits * penaltyRate4 * BigInt(Math.max(0, input.remainingDays))) / PERCENT_DIVISOR;
  return raw > principalUnits ? principalUnits : raw;
}

export type RedeemFigures = {
  principal: bigint;
  /** Accrued rewards given up (they go back to the funding account). */
  forfeited: bigint;
  penalty: bigint;
  /** principal − penalty: what reaches the customer's available balance. */
  returned: bigint;
  /** The order's reserve not yet paid out (back to the funding account). */
  unusedReserve: bigint;
};

/** What an early redemption of an order moves, now. */
export function redeemFigures(order: {
  amountUnits: bigint;
  accruedUnits: bigint;
  totalRewardUnits: bigint;
  daysAccrued: number;
  termDays: number;
  rule: EarnRedeemRule;
  penaltyRate4: bigint | null;
}): RedeemFigures {
  const penalty = penaltyOf({
    rule: order.rule,
    penaltyRate4: order.penaltyRate4,
    principalUnits: order.amountUnits,
    remainingDays: order.termDays - order.daysAccrued,
  });
  return {
    principal: order.amountUnits,
    forfeited: order.accruedUnits,
    penalty,
    returned: order.amountUnits - penalty,
    unusedReserve: order.totalRewardUnits - order.accruedUnits,
  };
}

/** Minor units → the currency's canonical decimal string. */
export function amountText(units: bigint, currency: string): string {
  return toDecimalString(units, scaleOf(currency));
}

export const DAY_MS = 86_400_000;
