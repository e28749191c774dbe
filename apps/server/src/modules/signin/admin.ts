import { isKnownAsset, parseDecimal, scaleOf } from '@bourse/money';
import {
  type AdminSigninBudgetData,
  type AdminSigninFundingBody,
  type AdminSigninFundingData,
  type AdminSigninFundingQuery,
  type AdminSigninPayoutData,
  type AdminSigninPayoutsQuery,
  type AdminSigninSettingsBody,
  type AdminSigninSettingsData,
  type Paged,
  SIGNIN_BUDGET_ACCOUNT,
  SIGNIN_LIMITS,
  type SigninTexts,
} from '@bourse/protocol';
import { isSigninTimeZone } from '@bourse/risk';
import { inTransaction } from '../../db/database.ts';
import { pageOf } from '../../http/paging.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { newId } from '../../lib/ids.ts';
import { parseAmount } from '../assets/index.ts';
import { amountText, budgetAccount, budgetUnits, programme, type SigninDeps, settingsOf } from './context.ts';
import * as repo from './repo.ts';

/**
 * The back office's side (README.md, "Back office"): the settings (audited with a reason), the
 * budget and its four-eyes funding (one staff member asks, another approves: the approval posts
 * `marketing_capital → marketing_budget_signin` with its audit record in one transaction), payouts.
 */

const PAGE = { pageSizeDefault: 50, pageSizeMax: SIGNIN_LIMITS.pageSizeMax };

export async function settings(deps: SigninDeps): Promise<AdminSigninSettingsData> {
  const p = await programme(deps);
  const s = p.settings;
  return {
    enabled: s.enabled,
    time_zone: s.timeZone,
    currency: s.currency,
    amounts: s.amountUnits.map((u) => amountText(u, s.currency)),
    verification: s.verification,
    condition: s.condition,
    updated_at: s.updatedAt?.getTime() ?? null,
    updated_by: s.updatedBy,
    state: p.state,
    promo_incentives: p.promoIncentives,
    budget_remaining: amountText(p.budgetUnits, s.currency),
  };
}

function amountsOf(amounts: readonly string[], currency: string): bigint[] {
  const scale = scaleOf(currency);
  const max = BigInt(SIGNIN_LIMITS.amountMax) * 10n ** BigInt(scale);
  return amounts.map((text, i) => {
    const parsed = parseDecimal(text.trim(), { scale, allowZero: false });
    if (!parsed.ok || parsed.units > max) refuse('SIGNIN_SETTINGS_INVALID', { field: `amounts[${i}]` });
    return parsed.units;
  });
}

/** Either every language states the condition or none does (no condition): never one language only. */
function conditionOf(body: SigninTexts): SigninTexts {
  const c = { en: body.en.trim(), zh: body.zh.trim(), ft: body.ft.trim() };
  const filled = [c.en, c.zh, c.ft].filter((t) => t.length > 0).length;
  if (filled !== 0 && filled !== 3) refuse('SIGNIN_SETTINGS_INVALID', { field: 'condition' });
  return c;
}

export async function updateSettings(
  deps: SigninDeps,
  staff: StaffContext,
  body: AdminSigninSettingsBody,
): Promise<AdminSigninSettingsData> {
  if (!isSigninTimeZone(body.time_zone)) refuse('SIGNIN_SETTINGS_INVALID', { field: 'time_zone' });
  if (body.amounts.length !== SIGNIN_LIMITS.cycleDays)
    refuse('SIGNIN_SETTINGS_INVALID', { field: 'amounts' });
  const before = settingsOf(await repo.settings(deps.db));
  const units = amountsOf(body.amounts, before.currency);
  const condition = conditionOf(body.condition);
  const view = (s: {
    enabled: boolean;
    timeZone: string;
    amountUnits: bigint[];
    verification: string;
    condition: SigninTexts;
  }) => ({
    enabled: s.enabled,
    time_zone: s.timeZone,
    amounts: s.amountUnits.map((u) => amountText(u, before.currency)),
    verification: s.verification,
    condition: s.condition,
  });
  await inTransaction(deps.db, async (tx) => {
    const locked = settingsOf(await repo.settings(tx, { lock: true }));
    const now = deps.clock.now();
    await repo.saveSettings(tx, {
      id: 'signin',
      enabled: body.enabled,
      time_zone: body.time_zone,
      currency: locked.currency,
      amount_units: units.map(String),
      verification: body.verification,
      condition_en: condition.en,
      condition_zh: condition.zh,
      condition_ft: condition.ft,
      updated_at: now,
      updated_by: staff.staffId,
    });
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'signin.settings.update',
      targetType: 'signin_settings',
      targetId: 'signin',
      before: view(locked),
      after: view({ ...body, timeZone: body.time_zone, amountUnits: units, condition }),
      reason: body.reason.trim(),
    });
  });
  return settings(deps);
}

// ---- the budget and its funding

export async function budget(deps: SigninDeps): Promise<AdminSigninBudgetData> {
  const s = settingsOf(await repo.settings(deps.db));
  const [balance, funded, paid] = await Promise.all([
    budgetUnits(deps, deps.db, 'real', s.currency),
    repo.fundingTotals(deps.db),
    repo.paidTotals(deps.db),
  ]);
  return {
    account: SIGNIN_BUDGET_ACCOUNT,
    currency: s.currency,
    balance: amountText(balance, s.currency),
    funded_total: amountText(funded.approvedUnits, s.currency),
    paid_total: amountText(paid.units, s.currency),
    paid_count: paid.count,
    pending: funded.pending,
  };
}

function fundingData(r: repo.FundingRow): AdminSigninFundingData {
  return {
    request_id: r.id,
    amount: amountText(BigInt(r.amount_units), r.currency),
    currency: r.currency,
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
  deps: SigninDeps,
  staff: StaffContext,
  body: AdminSigninFundingBody,
): Promise<AdminSigninFundingData> {
  const { currency } = settingsOf(await repo.settings(deps.db));
  if (!isKnownAsset(currency)) refuse('CURRENCY_UNKNOWN', { currency });
  const units = parseAmount('amount', body.amount, currency);
  const now = deps.clock.now();
  const row: repo.FundingRow = {
    id: newId('sgf', now.getTime()),
    amount_units: units.toString(),
    currency,
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
    await repo.insertFunding(tx, row);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'signin.funding.request',
      targetType: 'signin_funding_request',
      targetId: row.id,
      after: { account: SIGNIN_BUDGET_ACCOUNT, amount: amountText(units, currency), currency },
      reason: row.reason,
    });
  });
  return fundingData(row);
}

/** Approve (posts the money) or reject; never by the staff member who asked; once. */
export async function decideFunding(
  deps: SigninDeps,
  staff: StaffContext,
  input: { requestId: string; decision: 'approve' | 'reject'; reason: string },
): Promise<AdminSigninFundingData> {
  return inTransaction(deps.db, async (tx) => {
    const r = await repo.findFunding(tx, input.requestId, { lock: true });
    if (!r) refuse('NOT_FOUND');
    if (r.state !== 'pending') refuse('SIGNIN_FUNDING_DECIDED', { state: r.state });
    if (r.requested_by === staff.staffId) refuse('SIGNIN_FUNDING_SELF_APPROVAL');
    let entryId: string | null = null;
    if (input.decision === 'approve') {
      const units = BigInt(r.amount_units);
      const entry = await deps.ledger.post(tx, {
        reason: 'signin.fund',
        reference: { type: 'signin_funding', id: r.id },
        idempotencyKey: `signin:fund:${r.id}`,
        actorId: staff.staffId,
        memo: r.reason.slice(0, 500),
        postings: [
          {
            account: { book: 'real', platform: 'marketing_capital' },
            currency: r.currency,
            amountUnits: -units,
          },
          { account: budgetAccount('real'), currency: r.currency, amountUnits: units },
        ],
      });
      entryId = entry.id;
    }
    const patch = {
      state: input.decision === 'approve' ? ('approved' as const) : ('rejected' as const),
      decided_by: staff.staffId,
      decided_at: deps.clock.now(),
      decision_reason: input.reason.trim(),
      entry_id: entryId,
    };
    await repo.decideFunding(tx, r.id, patch);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: `signin.funding.${input.decision}`,
      targetType: 'signin_funding_request',
      targetId: r.id,
      before: { state: r.state, requested_by: r.requested_by },
      after: {
        state: patch.state,
        amount: amountText(BigInt(r.amount_units), r.currency),
        entry_id: entryId,
      },
      reason: patch.decision_reason,
    });
    return fundingData({ ...r, ...patch });
  });
}

export async function fundingRequests(
  deps: SigninDeps,
  q: AdminSigninFundingQuery,
): Promise<Paged<AdminSigninFundingData>> {
  const page = await repo.fundingPage(deps.db, { state: q.state }, pageOf(q, PAGE));
  return { ...page, items: page.items.map(fundingData) };
}

export async function payouts(
  deps: SigninDeps,
  q: AdminSigninPayoutsQuery,
): Promise<Paged<AdminSigninPayoutData>> {
  const page = await repo.claimsPage(deps.db, pageOf(q, PAGE));
  const uids = await deps.customerUids([...new Set(page.items.map((c) => c.customer_id))]);
  return {
    ...page,
    items: page.items.map((c) => ({
      uid: uids.get(c.customer_id) ?? '',
      day: c.day,
      streak: c.streak,
      amount: amountText(BigInt(c.amount_units), c.currency),
      currency: c.currency,
      book: c.book,
      at: c.at.getTime(),
      entry_id: c.entry_id,
    })),
  };
}
