import { scaleOf } from '@bourse/money';
import type {
  AdminReferralClearBody,
  AdminReferralFlagData,
  AdminReferralFlagsQuery,
  AdminReferralIncomeData,
  AdminReferralIncomeQuery,
  AdminReferralSettingsBody,
  AdminReferralSettingsData,
  AdminReferralTotalsData,
  Paged,
} from '@bourse/protocol';
import { REFERRAL_LIMITS } from '@bourse/protocol';
import { referralIncome, referralSettingsProblem } from '@bourse/risk';
import { inTransaction } from '../../db/database.ts';
import { pageOf } from '../../http/paging.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import type { ReferralDeps } from './context.ts';
import { amountText, programme } from './customer.ts';
import * as repo from './repo.ts';

/** The back office: the programme's settings (audited), income lines, flags (cleared with a reason), totals. */

/** What a 1-unit fee of USDT pays per level under these shares (the settings screen's preview). */
function preview(sharesBps: readonly number[], depth: number) {
  const one = 10n ** BigInt(scaleOf('USDT'));
  const inviters = sharesBps.map((_, i) => `level${i + 1}`);
  return referralIncome({ feeUnits: one, inviters, sharesBps, depth }).map((l) => ({
    level: l.level,
    amount: amountText(l.amountUnits, 'USDT'),
  }));
}

export async function settingsData(deps: ReferralDeps): Promise<AdminReferralSettingsData> {
  const p = await programme(deps);
  const s = p.settings;
  return {
    enabled: s.enabled,
    depth: s.depth,
    shares_bps: s.shares_bps,
    profile_max_depth: p.profileMax,
    effective_depth: p.depth,
    updated_at: s.updated_by ? s.updated_at.getTime() : null,
    updated_by: s.updated_by,
    preview: preview(s.shares_bps, p.depth),
  };
}

/** Parses "2000,500" into basis points (the schema has checked the shape). */
function sharesOf(text: string): number[] {
  return text === '' ? [] : text.split(',').map(Number);
}

export async function setSettings(
  deps: ReferralDeps,
  staff: StaffContext,
  body: AdminReferralSettingsBody,
): Promise<AdminReferralSettingsData> {
  const depth = Number(body.depth);
  const sharesBps = sharesOf(body.shares_bps ?? '');
  const profileMaxDepth = await deps.referralMaxDepth();
  const problem = referralSettingsProblem({ depth, sharesBps, profileMaxDepth });
  if (problem?.rule === 'depth_profile' || problem?.rule === 'depth_range')
    refuse('REFERRAL_DEPTH_PROFILE', { max: problem.max });
  if (problem) refuse('REFERRAL_SHARES_INVALID', { rule: problem.rule });
  await inTransaction(deps.db, async (tx) => {
    const before = await repo.settings(tx, { lock: true });
    const after = {
      enabled: body.enabled === '1',
      depth,
      shares_bps: sharesBps,
      updated_at: deps.clock.now(),
      updated_by: staff.staffId,
    };
    await repo.updateSettings(tx, after);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'referral.settings',
      targetType: 'referral_settings',
      targetId: 'referral',
      before: { enabled: before.enabled, depth: before.depth, shares_bps: before.shares_bps },
      after: { enabled: after.enabled, depth, shares_bps: sharesBps, profile_max_depth: profileMaxDepth },
      reason: body.reason,
    });
  });
  return settingsData(deps);
}

async function uidsOf(deps: ReferralDeps, ids: readonly string[]) {
  return deps.customerUids([...new Set(ids)]);
}

/** A uid filter that names nobody matches nothing (never everything). */
async function idOfUid(deps: ReferralDeps, uid: string | undefined): Promise<string | null | undefined> {
  if (!uid) return undefined;
  return (await deps.customerByUid(uid)) ?? null;
}

export async function incomeList(
  deps: ReferralDeps,
  q: AdminReferralIncomeQuery,
): Promise<Paged<AdminReferralIncomeData>> {
  const { page, pageSize } = pageOf(q, REFERRAL_LIMITS);
  const [inviterId, inviteeId] = await Promise.all([idOfUid(deps, q.inviter), idOfUid(deps, q.invitee)]);
  if (inviterId === null || inviteeId === null) return { total: 0, page, page_size: pageSize, items: [] };
  const r = await repo.incomePage(deps.db, {
    ...(inviterId ? { inviterId } : {}),
    ...(inviteeId ? { inviteeId } : {}),
    ...(q.status ? { status: q.status } : {}),
    offset: (page - 1) * pageSize,
    limit: pageSize,
  });
  const uids = await uidsOf(
    deps,
    r.rows.flatMap((row) => [row.inviter_id, row.invitee_id]),
  );
  return {
    total: r.total,
    page,
    page_size: pageSize,
    items: r.rows.map((row) => ({
      id: row.id,
      inviter_uid: uids.get(row.inviter_id) ?? row.inviter_id,
      invitee_uid: uids.get(row.invitee_id) ?? row.invitee_id,
      level: row.level,
      status: row.status,
      excluded_reason: row.excluded_reason,
      source: row.source,
      source_id: row.source_id,
      fee_entry_id: row.fee_entry_id,
      fee: amountText(row.fee_units, row.fee_currency),
      fee_currency: row.fee_currency,
      share_bps: row.share_bps,
      amount: amountText(row.amount_units, row.fee_currency),
      income_entry_id: row.income_entry_id,
      created_at: row.created_at.getTime(),
    })),
  };
}

export async function flags(
  deps: ReferralDeps,
  q: AdminReferralFlagsQuery,
): Promise<Paged<AdminReferralFlagData>> {
  const { page, pageSize } = pageOf(q, REFERRAL_LIMITS);
  const r = await repo.flagsPage(deps.db, {
    state: q.state ?? 'open',
    offset: (page - 1) * pageSize,
    limit: pageSize,
  });
  const uids = await uidsOf(
    deps,
    r.rows.flatMap((row) => [row.inviter_id, row.invitee_id]),
  );
  return {
    total: r.total,
    page,
    page_size: pageSize,
    items: r.rows.map((row) => flagData(row, uids)),
  };
}

function flagData(row: repo.FlagRow, uids: Map<string, string>): AdminReferralFlagData {
  return {
    id: row.id,
    inviter_uid: uids.get(row.inviter_id) ?? row.inviter_id,
    invitee_uid: uids.get(row.invitee_id) ?? row.invitee_id,
    reason: row.reason,
    detail: row.detail,
    flagged_at: row.flagged_at.getTime(),
    cleared_at: row.cleared_at?.getTime() ?? null,
    cleared_by: row.cleared_by,
    clear_reason: row.clear_reason,
  };
}

/** Clears a flag (audited): the pair's income is paid from the next fee on; excluded lines stay excluded. */
export async function clearFlag(
  deps: ReferralDeps,
  staff: StaffContext,
  id: string,
  body: AdminReferralClearBody,
): Promise<AdminReferralFlagData> {
  const row = await inTransaction(deps.db, async (tx) => {
    const before = await repo.flag(tx, id, { lock: true });
    if (!before) refuse('NOT_FOUND');
    if (before.cleared_at) refuse('REFERRAL_FLAG_CLEARED');
    const at = deps.clock.now();
    await repo.clearFlag(tx, id, { at, by: staff.staffId, reason: body.reason });
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'referral.flag.clear',
      targetType: 'referral_flag',
      targetId: id,
      before: { reason: before.reason, detail: before.detail, cleared_at: null },
      after: { cleared_at: at.toISOString() },
      reason: body.reason,
    });
    return { ...before, cleared_at: at, cleared_by: staff.staffId, clear_reason: body.reason };
  });
  return flagData(row, await uidsOf(deps, [row.inviter_id, row.invitee_id]));
}

export async function totals(deps: ReferralDeps): Promise<AdminReferralTotalsData> {
  const t = await repo.programmeTotals(deps.db);
  const of = (status: 'paid' | 'excluded') =>
    t.lines
      .filter((l) => l.status === status)
      .map((l) => ({
        currency: l.currency,
        amount: amountText(l.units, l.currency),
        lines: Number(l.lines),
      }));
  return { paid: of('paid'), excluded: of('excluded'), flags_open: t.flagsOpen, inviters: t.inviters };
}
