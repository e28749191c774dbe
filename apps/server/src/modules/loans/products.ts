import { parseDecimal } from '@bourse/money';
import type {
  AdminLenderBody,
  AdminLenderData,
  AdminLenderFundingBody,
  AdminLenderFundingData,
  AdminLoanProductBody,
  AdminLoanProductData,
  AdminLoanProductStateBody,
  AdminLoanSettingsBody,
  AdminLoanSettingsData,
  Lang,
  LendListData,
  LoanProductData,
  Paged,
} from '@bourse/protocol';
import { DEFAULT_INTEREST_FREE_DAYS, LOAN_SCALE, ppmFromPercent } from '@bourse/risk';
import { inTransaction } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { newId } from '../../lib/ids.ts';
import { parseAmount } from '../assets/index.ts';
import { checkWithinCaps } from './applying.ts';
import {
  CURRENCY,
  capsData,
  capsOf,
  type LoansDeps,
  lenderAccount,
  lenderPlatform,
  localized,
  productOf,
  rateText,
  ruleTiers,
  usdt,
} from './context.ts';
import type { FundingRequestRow, LenderRow, ProductRow } from './repo.ts';
import * as repo from './repo.ts';

/**
 * Loan products as data, the lender accounts that fund them and the settings (README.md). A product
 * is checked against the active jurisdiction profile's caps by `@bourse/risk`
 * `checkProductAgainstCaps` and refused naming the field, the rule and the limit; it is never
 * edited (paused or opened again only). A lender account's money comes in only from `loan_capital`
 * by a four-eyes request (one staff member asks, another approves), as earn funds its accounts.
 */

function unitsOf(field: string, text: string): bigint {
  const p = parseDecimal(text.trim(), { scale: LOAN_SCALE, allowZero: true, maxIntegerDigits: 12 });
  if (!p.ok) refuse('LOAN_PRODUCT_INVALID', { field });
  return p.units;
}

function ppmOf(field: string, text: string): bigint {
  const ppm = ppmFromPercent(text.trim());
  if (ppm === null) refuse('LOAN_PRODUCT_INVALID', { field });
  return ppm;
}

export function productData(p: ProductRow, lender: LenderRow | undefined, lang: Lang): LoanProductData {
  return {
    product_id: p.id,
    name: localized(p.names, lang),
    description: localized(p.descriptions, lang),
    state: p.state,
    amount_min: usdt(p.amount_min_units),
    amount_max: usdt(p.amount_max_units),
    term_days: p.term_days,
    daily_rate: rateText(p.daily_rate_ppm),
    interest_free_days: p.interest_free_days,
    overdue_rate: rateText(p.overdue_rate_ppm),
    late_fee: usdt(p.late_fee_units),
    lender: {
      lender_id: p.lender_id,
      name: lender?.name ?? '',
      source: lender ? localized(lender.source, lang) : '',
    },
  };
}

/** `GET web/lendList`: active products, the caps they obey and the agreement version in force. */
export async function lendList(deps: LoansDeps, lang: Lang): Promise<LendListData> {
  const [rows, lenders, setting, profile, tiers] = await Promise.all([
    repo.products(deps.db, ['active']),
    repo.lenders(deps.db),
    repo.setting(deps.db),
    deps.activeProfile(),
    ruleTiers(deps),
  ]);
  const byId = new Map(lenders.map((l) => [l.id, l]));
  return {
    items: rows.map((p) => productData(p, byId.get(p.lender_id), lang)),
    caps: capsData(profile, capsOf(profile)),
    agreement_version: setting.agreement_version,
    ...tiers,
  };
}

export async function adminProducts(deps: LoansDeps): Promise<{ items: AdminLoanProductData[] }> {
  const [rows, lenders] = await Promise.all([repo.products(deps.db), repo.lenders(deps.db)]);
  const byId = new Map(lenders.map((l) => [l.id, l]));
  return {
    items: rows.map((p) => {
      const { name: _n, description: _d, ...rest } = productData(p, byId.get(p.lender_id), 'en');
      return {
        ...rest,
        names: p.names,
        descriptions: p.descriptions,
        created_at: p.created_at.getTime(),
        created_by: p.created_by,
      };
    }),
  };
}

/** A new product, open at once; refused by name when outside the active profile's caps. */
export async function createProduct(
  deps: LoansDeps,
  staff: StaffContext,
  body: AdminLoanProductBody,
): Promise<ProductRow> {
  const lender = await repo.findLender(deps.db, body.lender_id);
  if (!lender) refuse('LOAN_PRODUCT_INVALID', { field: 'lender_id' });
  const now = deps.clock.now();
  const row: ProductRow = {
    id: newId('lnp', now.getTime()),
    state: 'active',
    names: body.names,
    descriptions: body.descriptions,
    lender_id: lender.id,
    amount_min_units: unitsOf('amount_min', body.amount_min).toString(),
    amount_max_units: unitsOf('amount_max', body.amount_max).toString(),
    term_days: body.term_days,
    daily_rate_ppm: ppmOf('daily_rate', body.daily_rate).toString(),
    interest_free_days: body.interest_free_days ?? DEFAULT_INTEREST_FREE_DAYS,
    overdue_rate_ppm: ppmOf('overdue_rate', body.overdue_rate).toString(),
    late_fee_units: unitsOf('late_fee', body.late_fee).toString(),
    created_at: now,
    created_by: staff.staffId,
    updated_at: now,
  };
  const profile = await deps.activeProfile();
  checkWithinCaps(productOf(row), capsOf(profile));
  await inTransaction(deps.db, async (tx) => {
    await repo.insertProduct(tx, row);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'loans.product.create',
      targetType: 'loans_product',
      targetId: row.id,
      after: { ...row, created_at: undefined, updated_at: undefined, profile },
      reason: body.reason,
    });
  });
  return row;
}

/** Pause (no new applications) or open a product again; running loans keep their terms. */
export async function changeProductState(
  deps: LoansDeps,
  staff: StaffContext,
  id: string,
  body: AdminLoanProductStateBody,
): Promise<void> {
  await inTransaction(deps.db, async (tx) => {
    const p = await repo.findProduct(tx, id, { lock: true });
    if (!p) refuse('NOT_FOUND');
    const state = body.action === 'open' ? 'active' : 'paused';
    await repo.setProductState(tx, id, state, deps.clock.now());
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: `loans.product.${body.action}`,
      targetType: 'loans_product',
      targetId: id,
      before: { state: p.state },
      after: { state },
      reason: body.reason,
    });
  });
}

// ---- lender accounts and their four-eyes funding

async function lenderBalances(deps: LoansDeps, code: string) {
  const rows = await deps.ledger.platformBalances(deps.db, {
    book: 'real',
    platform: lenderPlatform(code),
  });
  const row = rows.find((r) => r.currency === CURRENCY);
  return { available: row?.availableUnits ?? 0n, outstanding: row?.frozenUnits ?? 0n };
}

export async function lendersData(deps: LoansDeps): Promise<{ items: AdminLenderData[] }> {
  const [rows, funded] = await Promise.all([repo.lenders(deps.db), repo.fundedTotals(deps.db)]);
  const items = await Promise.all(
    rows.map(async (l) => {
      const b = await lenderBalances(deps, l.code);
      return {
        lender_id: l.id,
        name: l.name,
        source: l.source,
        available: usdt(b.available),
        outstanding: usdt(b.outstanding),
        funded_total: usdt(funded.get(l.id) ?? 0n),
        created_at: l.created_at.getTime(),
      };
    }),
  );
  return { items };
}

/** The lender's money available to lend now (what a disbursement may take). */
export async function lenderAvailable(deps: LoansDeps, code: string): Promise<bigint> {
  return (await lenderBalances(deps, code)).available;
}

export async function createLender(deps: LoansDeps, staff: StaffContext, body: AdminLenderBody) {
  const now = deps.clock.now();
  const id = newId('lnl', now.getTime());
  const row: LenderRow = {
    id,
    code: id.slice(4).toLowerCase(),
    name: body.name.trim(),
    source: { en: body.source.en.trim(), zh: body.source.zh.trim(), ft: body.source.ft.trim() },
    created_at: now,
    created_by: staff.staffId,
  };
  await inTransaction(deps.db, async (tx) => {
    await repo.insertLender(tx, row);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'loans.lender.create',
      targetType: 'loans_lender',
      targetId: id,
      after: { name: row.name, source: row.source },
      reason: body.reason,
    });
  });
  return row;
}

function requestData(r: FundingRequestRow): AdminLenderFundingData {
  return {
    request_id: r.id,
    lender_id: r.lender_id,
    amount: usdt(r.amount_units),
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
  deps: LoansDeps,
  staff: StaffContext,
  lenderId: string,
  body: AdminLenderFundingBody,
): Promise<AdminLenderFundingData> {
  const lender = await repo.findLender(deps.db, lenderId);
  if (!lender) refuse('NOT_FOUND');
  const amount = parseAmount('amount', body.amount, CURRENCY);
  const now = deps.clock.now();
  const row: FundingRequestRow = {
    id: newId('lnf', now.getTime()),
    lender_id: lender.id,
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
      action: 'loans.funding.request',
      targetType: 'loans_funding_request',
      targetId: row.id,
      after: { lender_id: lender.id, amount: usdt(amount) },
      reason: row.reason,
    });
  });
  return requestData(row);
}

/** Approve (posts `loan_capital → loan_lender_<code>`) or reject; never by the staff member who asked. */
export async function decideFunding(
  deps: LoansDeps,
  staff: StaffContext,
  requestId: string,
  decision: 'approve' | 'reject',
  reason: string,
): Promise<AdminLenderFundingData> {
  return inTransaction(deps.db, async (tx) => {
    const r = await repo.findFundingRequest(tx, requestId, { lock: true });
    if (!r) refuse('NOT_FOUND');
    if (r.state !== 'pending') refuse('LOAN_FUNDING_DECIDED', { state: r.state });
    if (r.requested_by === staff.staffId) refuse('LOAN_FUNDING_SELF_APPROVAL');
    const lender = (await repo.findLender(tx, r.lender_id)) as LenderRow;
    let entryId: string | null = null;
    if (decision === 'approve') {
      const amount = BigInt(r.amount_units);
      const entry = await deps.ledger.post(tx, {
        reason: 'loan.fund',
        reference: { type: 'loans_funding_request', id: r.id },
        idempotencyKey: `loan:fund:${r.id}`,
        actorId: staff.staffId,
        memo: r.reason.slice(0, 500),
        postings: [
          { account: { book: 'real', platform: 'loan_capital' }, currency: CURRENCY, amountUnits: -amount },
          { account: lenderAccount(lender.code), currency: CURRENCY, amountUnits: amount },
        ],
      });
      entryId = entry.id;
    }
    const patch = {
      state: decision === 'approve' ? ('approved' as const) : ('rejected' as const),
      decided_by: staff.staffId,
      decided_at: deps.clock.now(),
      decision_reason: reason.trim(),
      entry_id: entryId,
    };
    await repo.decideFundingRequest(tx, r.id, patch);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: `loans.funding.${decision}`,
      targetType: 'loans_funding_request',
      targetId: r.id,
      before: { state: r.state, requested_by: r.requested_by },
      after: { state: patch.state, amount: usdt(r.amount_units), entry_id: entryId },
      reason: patch.decision_reason,
    });
    return requestData({ ...r, ...patch });
  });
}

export async function fundingRequests(
  deps: LoansDeps,
  filter: { lenderId?: string; state?: FundingRequestRow['state'] },
  paging: { page: number; pageSize: number },
): Promise<Paged<AdminLenderFundingData>> {
  const page = await repo.fundingRequestsPage(deps.db, filter, paging);
  return { ...page, items: page.items.map(requestData) };
}

// ---- settings

export async function settings(deps: LoansDeps): Promise<AdminLoanSettingsData> {
  const s = await repo.setting(deps.db);
  return {
    approval_threshold: usdt(s.approval_threshold_units),
    agreement_version: s.agreement_version,
    updated_at: s.updated_at.getTime(),
    updated_by: s.updated_by,
  };
}

export async function updateSettings(
  deps: LoansDeps,
  staff: StaffContext,
  body: AdminLoanSettingsBody,
): Promise<AdminLoanSettingsData> {
  const p = parseDecimal(body.approval_threshold.trim(), { scale: LOAN_SCALE, allowZero: true });
  if (!p.ok) refuse('LOAN_SETTINGS_INVALID', { field: 'approval_threshold' });
  const version = body.agreement_version.trim();
  if (!/^[A-Za-z0-9._-]{1,40}$/.test(version))
    refuse('LOAN_SETTINGS_INVALID', { field: 'agreement_version' });
  await inTransaction(deps.db, async (tx) => {
    const before = await repo.setting(tx, { lock: true });
    await repo.updateSetting(tx, {
      approval_threshold_units: p.units.toString(),
      agreement_version: version,
      updated_at: deps.clock.now(),
      updated_by: staff.staffId,
    });
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'loans.settings.update',
      targetType: 'loans_setting',
      targetId: '1',
      before: {
        approval_threshold: usdt(before.approval_threshold_units),
        agreement_version: before.agreement_version,
      },
      after: { approval_threshold: usdt(p.units), agreement_version: version },
      reason: body.reason,
    });
  });
  return settings(deps);
}
