import { translate } from '@bourse/i18n';
import { scaleOf, toDecimalString } from '@bourse/money';
import {
  type Lang,
  type MyPromotionData,
  type Paged,
  type PromotionIncomeData,
  type PromotionIncomeQuery,
  type PromotionInviteeData,
  type PromotionInviteesQuery,
  REFERRAL_FLAG_REASONS,
  REFERRAL_LIMITS,
} from '@bourse/protocol';
import { effectiveReferralDepth } from '@bourse/risk';
import type { AuthContext } from '../../http/context.ts';
import { pageOf } from '../../http/paging.ts';
import { refuse } from '../../http/refusal.ts';
import type { ReferralDeps } from './context.ts';
import * as repo from './repo.ts';

/** The customer's `/invite`: code and link, headcount and income per level, invitees, income lines. */

export const amountText = (units: bigint | string, currency: string) =>
  toDecimalString(BigInt(units), scaleOf(currency));

/** "20" for 2000 bps, "12.5" for 1250: the share as a percentage without a float. */
export function percentText(bps: number): string {
  const whole = Math.floor(bps / 100);
  const rest = bps % 100;
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}`;
}

/** The programme as it applies now: enabled, the effective depth and the shares paid. */
export async function programme(deps: ReferralDeps) {
  const s = await repo.settings(deps.db);
  const profileMax = await deps.referralMaxDepth();
  const depth = s.enabled ? effectiveReferralDepth(s.depth, profileMax) : 0;
  return { settings: s, profileMax, depth, offered: depth > 0 };
}

export async function myPromotion(deps: ReferralDeps, auth: AuthContext): Promise<MyPromotionData> {
  const p = await programme(deps);
  const invitation = await deps.invitations.codeOf(auth.customerId);
  if (!invitation) refuse('SESSION_EXPIRED');
  const shown = Math.max(p.depth, 1);
  const [counts, totals] = await Promise.all([
    deps.invitations.counts(auth.customerId, shown),
    repo.incomeTotals(deps.db, auth.customerId),
  ]);
  const levels = Array.from({ length: shown }, (_, i) => {
    const level = i + 1;
    return {
      level,
      share_bps: p.depth >= level ? (p.settings.shares_bps[i] ?? 0) : 0,
      headcount: counts.get(level) ?? 0,
      income: totals
        .filter((t) => Number(t.level) === level)
        .map((t) => ({ currency: t.currency, amount: amountText(t.units, t.currency) })),
    };
  });
  const byCurrency = new Map<string, bigint>();
  for (const t of totals) byCurrency.set(t.currency, (byCurrency.get(t.currency) ?? 0n) + BigInt(t.units));
  return {
    offered: p.offered,
    depth: p.depth,
    invitation_code: invitation.code,
    invite_link: invitation.link,
    levels,
    total: [...byCurrency].map(([currency, units]) => ({ currency, amount: amountText(units, currency) })),
    exclusions: [...REFERRAL_FLAG_REASONS],
  };
}

export async function invitees(
  deps: ReferralDeps,
  auth: AuthContext,
  q: PromotionInviteesQuery,
): Promise<Paged<PromotionInviteeData>> {
  const { page, pageSize } = pageOf(q, REFERRAL_LIMITS);
  const p = await programme(deps);
  const depth = Math.max(p.depth, 1);
  const level = q.level ? Number(q.level) : undefined;
  if (level !== undefined && level > depth) return { total: 0, page, page_size: pageSize, items: [] };
  const r = await deps.invitations.page({
    customerId: auth.customerId,
    depth,
    ...(level !== undefined ? { level } : {}),
    offset: (page - 1) * pageSize,
    limit: pageSize,
  });
  return {
    total: r.total,
    page,
    page_size: pageSize,
    items: r.rows.map((row) => ({
      uid: row.uid,
      name: row.name,
      contact: row.contact,
      registered_at: row.created_at.getTime(),
      level: row.level,
    })),
  };
}

export function remarkOf(lang: Lang, row: repo.IncomeRow): string {
  return translate(lang, 'message.referral.remark', {
    level: row.level,
    share: percentText(row.share_bps),
    fee: amountText(row.fee_units, row.fee_currency),
    currency: row.fee_currency,
    trade: row.source_id,
  });
}

export async function income(
  deps: ReferralDeps,
  auth: AuthContext,
  q: PromotionIncomeQuery,
  lang: Lang,
): Promise<Paged<PromotionIncomeData>> {
  const { page, pageSize } = pageOf(q, REFERRAL_LIMITS);
  const r = await repo.incomePage(deps.db, {
    inviterId: auth.customerId,
    status: 'paid',
    offset: (page - 1) * pageSize,
    limit: pageSize,
  });
  return {
    total: r.total,
    page,
    page_size: pageSize,
    items: r.rows.map((row) => ({
      id: row.id,
      amount: amountText(row.amount_units, row.fee_currency),
      currency: row.fee_currency,
      level: row.level,
      share_bps: row.share_bps,
      fee: amountText(row.fee_units, row.fee_currency),
      fee_currency: row.fee_currency,
      trade_id: row.source_id,
      remark: remarkOf(lang, row),
      created_at: row.created_at.getTime(),
    })),
  };
}
