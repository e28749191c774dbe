import { mulDiv } from '@bourse/money';

/**
 * Referral income (modules/referral): a share of a trading fee an invitee actually paid, per level of
 * inviters above them. Pure and bigint only; the server pays with it and the back office previews
 * with it, so both round the same way.
 *
 * - Each level gets `fee × share_bps / 10 000`, rounded DOWN (a payout: the platform never creates
 *   value by rounding), so each level ≤ fee × share and the sum ≤ fee × Σshares ≤ fee.
 * - The programme's shares are refused when they sum above 100 % (`referralSettingsProblem`).
 * - The depth paid is min(programme depth, the jurisdiction profile's maximum, levels with a share,
 *   inviters known); depth 0 pays nothing.
 */

/** The deepest programme any jurisdiction profile may allow (levels of inviters). */
export const REFERRAL_DEPTH_MAX = 4;
/** 100 % in basis points. */
export const REFERRAL_BPS_WHOLE = 10_000;

export type ReferralSettingsInput = {
  /** Levels the programme pays, 0…REFERRAL_DEPTH_MAX. */
  depth: number;
  /** Share of the fee per level in basis points: index 0 is level 1; exactly `depth` entries. */
  sharesBps: readonly number[];
  /** The active jurisdiction profile's maximum depth (0 where referral rewards are banned). */
  profileMaxDepth: number;
};

export type ReferralSettingsProblem =
  | { rule: 'depth_range'; max: number }
  | { rule: 'depth_profile'; max: number }
  | { rule: 'shares_count'; depth: number }
  | { rule: 'share_range'; level: number }
  | { rule: 'shares_total'; total_bps: number };

/** Why a programme setting cannot be saved, or null. The first problem found, in this order. */
export function referralSettingsProblem(input: ReferralSettingsInput): ReferralSettingsProblem | null {
  const { depth, sharesBps, profileMaxDepth } = input;
  if (!Number.isSafeInteger(depth) || depth < 0 || depth > REFERRAL_DEPTH_MAX)
    return { rule: 'depth_range', max: REFERRAL_DEPTH_MAX };
  if (depth > profileMaxDepth) return { rule: 'depth_profile', max: Math.max(0, profileMaxDepth) };
  if (sharesBps.length !== depth) return { rule: 'shares_count', depth };
  let total = 0;
  for (const [i, bps] of sharesBps.entries()) {
    if (!Number.isSafeInteger(bps) || bps < 0 || bps > REFERRAL_BPS_WHOLE)
      return { rule: 'share_range', level: i + 1 };
    total += bps;
  }
  if (total > REFERRAL_BPS_WHOLE) return { rule: 'shares_total', total_bps: total };
  return null;
}

/** The depth actually paid: min(programme depth, profile maximum), never below 0 nor above the cap. */
export function effectiveReferralDepth(depth: number, profileMaxDepth: number): number {
  return Math.max(0, Math.min(depth, profileMaxDepth, REFERRAL_DEPTH_MAX));
}

export type ReferralIncomeInput = {
  /** The fee the invitee paid, in minor units of its currency (≥ 0). */
  feeUnits: bigint;
  /** The invitee's inviters, nearest first: index 0 is level 1. */
  inviters: readonly string[];
  /** Shares per level in basis points (index 0 is level 1). */
  sharesBps: readonly number[];
  /** The effective depth (`effectiveReferralDepth`). */
  depth: number;
};

export type ReferralIncomeLine = { level: number; inviter: string; shareBps: number; amountUnits: bigint };

/**
 * The income per level for one fee, nearest inviter first: one line per level paid, including
 * lines that round to zero (the caller writes no entry for those). Throws on a negative fee or
 * shares over 100 % — callers validate settings first (`referralSettingsProblem`).
 */
export function referralIncome(input: ReferralIncomeInput): ReferralIncomeLine[] {
  const { feeUnits, inviters, sharesBps } = input;
  if (feeUnits < 0n) throw new RangeError('referralIncome: negative fee');
  const total = sharesBps.reduce((s, b) => s + b, 0);
  if (total > REFERRAL_BPS_WHOLE || sharesBps.some((b) => !Number.isSafeInteger(b) || b < 0))
    throw new RangeError('referralIncome: shares out of range');
  const levels = Math.max(0, Math.min(input.depth, REFERRAL_DEPTH_MAX, inviters.length, sharesBps.length));
  const lines: ReferralIncomeLine[] = [];
  for (let i = 0; i < levels; i++) {
    const shareBps = sharesBps[i] as number;
    lines.push({
      level: i + 1,
      inviter: inviters[i] as string,
      shareBps,
      amountUnits: mulDiv(feeUnits, BigInt(shareBps), BigInt(REFERRAL_BPS_WHOLE), 'down'),
    });
  }
  return lines;
}
