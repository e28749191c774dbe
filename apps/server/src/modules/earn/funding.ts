import { isKnownAsset, parseDecimal, scaleOf } from '@bourse/money';
import {
  type AdminEarnSettingsBody,
  type AdminEarnSettingsData,
  type AdminFundingAccountData,
  type AdminFundingCreateBody,
  type AdminFundingRequestBody,
  type AdminFundingRequestData,
  EARN_LIMITS,
  type Paged,
} from '@bourse/protocol';
import { inTransaction } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { newId } from '../../lib/ids.ts';
import { parseAmount } from '../assets/index.ts';
import { familyCode } from '../ledger/index.ts';
import { isTimeZone } from './calendar.ts';
import { type EarnDeps, fundAccount, platformAvailable } from './context.ts';
import type { FundingRequestRow, FundingRow } from './repo.ts';
import * as repo from './repo.ts';
import { amountText } from './rules.ts';

/**
 * Funding accounts (README.md, "Funding"): each a named ledger account `earn_fund_<code>` with a
 * plain-language source. Money comes in only by a funding request that another staff member
 * approves (four eyes): the approval posts `earn_capital → earn_fund_<code>` in the transaction that
 * records the decision and its audit record. Also the earn settings (cut-off, VIP thresholds).
 */

export async function createFunding(
  deps: EarnDeps,
  staff: StaffContext,
  body: AdminFundingCreateBody,
  action = 'earn.funding.create',
): Promise<FundingRow> {
  const currency = body.currency.trim();
  if (!isKnownAsset(currency)) refuse('CURRENCY_UNKNOWN', { currency });
  const name = body.name.trim();
  if (name.length === 0) refuse('EARN_PRODUCT_INVALID', { field: 'name' });
  const source = { en: body.source.en.trim(), zh: body.source.zh.trim(), ft: body.source.ft.trim() };
  for (const lang of ['en', 'zh', 'ft'] as const)
    if (source[lang].length === 0) refuse('EARN_PRODUCT_INVALID', { field: `source.${lang}` });
  const now = deps.clock.now();
  const id = newId('efd', now.getTime());
  const row: FundingRow = {
    id,
    code: id.slice(4).toLowerCase(),
    name,
    source,
    currency,
    created_at: now,
    created_by: staff.staffId,
  };
  await inTransaction(deps.db, async (tx) => {
    await repo.insertFunding(tx, row);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action,
      targetType: 'earn_funding',
      targetId: id,
      after: { name, source, currency },
      reason: body.reason,
    });
  });
  return row;
}

export async function fundingAccounts(deps: EarnDeps): Promise<{ items: AdminFundingAccountData[] }> {
  const [rows, funded, returned, products] = await Promise.all([
    repo.fundings(deps.db),
    repo.fundedTotals(deps.db),
    repo.returnedTotals(deps.db),
    repo.products(deps.db, {}),
  ]);
  const stats = await repo.productStats(
    deps.db,
    products.map((p) => p.id),
  );
  const items = await Promise.all(
    rows.map(async (f) => {
      const mine = products.filter((p) => p.funding_id === f.id);
      let reserved = 0n;
      let paid = 0n;
      for (const p of mine) {
        reserved += await platformAvailable(
          deps,
          deps.db,
          'real',
          familyCode('earn_reserve_', p.code),
          f.currency,
        );
        paid += stats.get(p.id)?.paid ?? 0n;
      }
      const balance = await platformAvailable(
        deps,
        deps.db,
        'real',
        familyCode('earn_fund_', f.code),
        f.currency,
      );
      return {
        funding_id: f.id,
        name: f.name,
        source: f.source,
        currency: f.currency,
        balance: amountText(balance, f.currency),
        reserved: amountText(reserved, f.currency),
        funded_total: amountText(funded.get(f.id) ?? 0n, f.currency),
        rewards_paid: amountText(paid, f.currency),
        returned: amountText(returned.get(f.id) ?? 0n, f.currency),
        created_at: f.created_at.getTime(),
      };
    }),
  );
  return { items };
}

function requestData(r: FundingRequestRow, currency: string): AdminFundingRequestData {
  return {
    request_id: r.id,
    funding_id: r.funding_id,
    amount: amountText(BigInt(r.amount_units), currency),
    currency,
    reason: r.reason,
    state: r.state,
    requested_by: r.requested_by,
    requested_at: r.requested_at.getTime(),
    decided_by: r.decided_by,
    decided_at: r.decided_at?.getTime() ?? null,
    decision_reason: r.decision_reason,
  };
}

export async function requestFunding(
  deps: EarnDeps,
  staff: StaffContext,
  fundingId: string,
  body: AdminFundingRequestBody,
): Promise<AdminFundingRequestData> {
  const f = await repo.findFunding(deps.db, fundingId);
  if (!f) refuse('NOT_FOUND');
  const amount = parseAmount('amount', body.amount, f.currency);
  const now = deps.clock.now();
  const row: FundingRequestRow = {
    id: newId('efr', now.getTime()),
    funding_id: f.id,
    amount_units: amount.toString(),
    reason: body.reason.trim(),
    state: 'pending',
    requested_by: staff.staffId,
    requested_at: now,
    decided_by: null,
    decided_at: null,
    decision_reason: null,
    entry_id: null,
  };
  await inTransaction(deps.db, async (tx) => {
    await repo.insertFundingRequest(tx, row);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'earn.funding.request',
      targetType: 'earn_funding_request',
      targetId: row.id,
      after: { funding_id: f.id, amount: amountText(amount, f.currency), currency: f.currency },
      reason: row.reason,
    });
  });
  return requestData(row, f.currency);
}

/** Approve (posts the money) or reject; never by the staff member who asked. */
export async function decideFunding(
  deps: EarnDeps,
  staff: StaffContext,
  requestId: string,
  decision: 'approve' | 'reject',
  reason: string,
): Promise<AdminFundingRequestData> {
  return inTransaction(deps.db, async (tx) => {
    const r = await repo.findFundingRequest(tx, requestId, { lock: true });
    if (!r) refuse('NOT_FOUND');
    if (r.state !== 'pending') refuse('EARN_FUNDING_DECIDED', { state: r.state });
    if (r.requested_by === staff.staffId) refuse('EARN_FUNDING_SELF_APPROVAL');
    const f = (await tx
      .selectFrom('earn_funding')
      .selectAll()
      .where('id', '=', r.funding_id)
      .forUpdate()
      .executeTakeFirstOrThrow()) as FundingRow;
    const now = deps.clock.now();
    let entryId: string | null = null;
    if (decision === 'approve') {
      const amount = BigInt(r.amount_units);
      const entry = await deps.ledger.post(tx, {
        reason: 'earn.fund',
        reference: { type: 'earn_funding', id: r.id },
        idempotencyKey: `earn:fund:${r.id}`,
        actorId: staff.staffId,
        memo: r.reason.slice(0, 500),
        postings: [
          { account: { book: 'real', platform: 'earn_capital' }, currency: f.currency, amountUnits: -amount },
          { account: fundAccount('real', f.code), currency: f.currency, amountUnits: amount },
        ],
      });
      entryId = entry.id;
    }
    const patch = {
      state: decision === 'approve' ? ('approved' as const) : ('rejected' as const),
      decided_by: staff.staffId,
      decided_at: now,
      decision_reason: reason.trim(),
      entry_id: entryId,
    };
    await repo.decideFundingRequest(tx, r.id, patch);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: `earn.funding.${decision}`,
      targetType: 'earn_funding_request',
      targetId: r.id,
      before: { state: r.state, requested_by: r.requested_by },
      after: {
        state: patch.state,
        amount: amountText(BigInt(r.amount_units), f.currency),
        entry_id: entryId,
      },
      reason: patch.decision_reason,
    });
    return requestData({ ...r, ...patch }, f.currency);
  });
}

export async function fundingRequestsPage(
  deps: EarnDeps,
  filter: { fundingId?: string; state?: FundingRequestRow['state'] },
  paging: { page: number; pageSize: number },
): Promise<Paged<AdminFundingRequestData>> {
  const page = await repo.fundingRequests(deps.db, filter, paging);
  const funds = new Map(
    (await repo.fundings(deps.db, [...new Set(page.items.map((r) => r.funding_id))])).map((f) => [f.id, f]),
  );
  return {
    ...page,
    items: page.items.map((r) => requestData(r, funds.get(r.funding_id)?.currency ?? 'USDT')),
  };
}

// ---- settings

export async function settings(deps: EarnDeps): Promise<AdminEarnSettingsData> {
  const s = await repo.setting(deps.db);
  return { cutoff_hour: s.cutoff_hour, time_zone: s.time_zone, vip_levels: s.vip_levels };
}

function usdtOk(text: string): boolean {
  const p = parseDecimal(text.trim(), { scale: scaleOf('USDT') });
  return p.ok && p.units >= 0n;
}

/** The cut-off applies to orders bought from now on (each order keeps the schedule it was sold with). */
export async function updateSettings(
  deps: EarnDeps,
  staff: StaffContext,
  body: AdminEarnSettingsBody,
): Promise<AdminEarnSettingsData> {
  if (!isTimeZone(body.time_zone)) refuse('EARN_SETTINGS_INVALID', { field: 'time_zone' });
  const levels = [...body.vip_levels].sort((a, b) => a.level - b.level);
  for (const [i, l] of levels.entries()) {
    if (l.level !== i + 1) refuse('EARN_SETTINGS_INVALID', { field: `vip_levels[${i}].level` });
    if (!usdtOk(l.min_volume_30d))
      refuse('EARN_SETTINGS_INVALID', { field: `vip_levels[${i}].min_volume_30d` });
    if (!usdtOk(l.min_balance)) refuse('EARN_SETTINGS_INVALID', { field: `vip_levels[${i}].min_balance` });
  }
  if (levels.length > EARN_LIMITS.vipLevelMax) refuse('EARN_SETTINGS_INVALID', { field: 'vip_levels' });
  const clean = levels.map((l) => ({
    level: l.level,
    min_tier: l.min_tier,
    min_volume_30d: l.min_volume_30d.trim(),
    min_balance: l.min_balance.trim(),
  }));
  await inTransaction(deps.db, async (tx) => {
    const before = await repo.setting(tx, { lock: true });
    await repo.updateSetting(tx, {
      cutoff_hour: body.cutoff_hour,
      time_zone: body.time_zone,
      vip_levels: clean,
      updated_at: deps.clock.now(),
      updated_by: staff.staffId,
    });
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'earn.settings.update',
      targetType: 'earn_setting',
      targetId: '1',
      before: { cutoff_hour: before.cutoff_hour, time_zone: before.time_zone, vip_levels: before.vip_levels },
      after: { cutoff_hour: body.cutoff_hour, time_zone: body.time_zone, vip_levels: clean },
      reason: body.reason,
    });
  });
  return settings(deps);
}
