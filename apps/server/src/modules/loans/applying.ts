import {
  type ApplyLoanBody,
  type GetLoanQuoteQuery,
  type JurisdictionProfileId,
  LOAN_LIMITS,
  type LoanQuoteData,
  type WithdrawLoanBody,
} from '@bourse/protocol';
import {
  checkProductAgainstCaps,
  type LoanCaps,
  type LoanProduct,
  type LoanProductViolation,
  type LoanQuote,
  loanRequestProblem,
  quoteLoan,
} from '@bourse/risk';
import { inTransaction, isUniqueViolation } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import { parseAmount } from '../assets/index.ts';
import {
  aprText,
  CURRENCY,
  capsData,
  capsOf,
  DAY_MS,
  type LoansDeps,
  productOf,
  rateText,
  storedCaps,
  storedQuote,
  usdt,
} from './context.ts';
import type { LoanRow, ProductRow } from './repo.ts';
import * as repo from './repo.ts';
import { scoreOf } from './score.ts';

/**
 * Applying (README.md, "Applying"): the quote first (`quoteLoan`, exactly what the customer will be
 * held to), then the checks in their published order, each refusal naming its rule, then ONE
 * transaction with the request's idempotency record: the application row (a unique index keeps one
 * open application or loan per customer, so of two racing applications one wins), the proofs
 * claimed through the uploads `attach` port, and a re-applied rejection linked both ways.
 */

const PROOF_ID = /^[A-Za-z0-9_]{1,40}$/;

async function activeProduct(deps: LoansDeps, productId: string): Promise<ProductRow> {
  const p = await repo.findProduct(deps.db, productId);
  if (!p) refuse('NOT_FOUND');
  if (p.state !== 'active') refuse('LOAN_PRODUCT_PAUSED');
  return p;
}

function termOf(text: string): number {
  const term = Number(text);
  if (!Number.isSafeInteger(term) || term < 1) refuse('BAD_INPUT', { field: 'term_days' });
  return term;
}

/** The amount and term against the product (and the credit limit when given), refused by name. */
export function checkRequest(
  product: LoanProduct,
  amountUnits: bigint,
  termDays: number,
  creditLimitUnits?: bigint,
): void {
  const problem = loanRequestProblem({ product, amountUnits, termDays, creditLimitUnits });
  if (problem === null) return;
  const limit = problem.limit ?? 0n;
  if (problem.rule === 'below_min') refuse('LOAN_AMOUNT_BELOW_MIN', { min: usdt(limit) });
  if (problem.rule === 'above_max') refuse('LOAN_AMOUNT_ABOVE_MAX', { max: usdt(limit) });
  if (problem.rule === 'above_credit_limit') refuse('LOAN_LIMIT_EXCEEDED', { limit: usdt(limit) });
  refuse('LOAN_TERM_NOT_OFFERED', { terms: product.termDays.join(', ') });
}

/** A broken rule's limit in the field's own unit: USDT, percent a day, days. */
function limitText(v: LoanProductViolation): string {
  if (v.limit === null) return '—';
  if (v.field === 'daily_rate' || v.field === 'overdue_rate') return `${rateText(v.limit)}%`;
  if (v.field === 'term_days' || v.field === 'interest_free_days') return v.limit.toString();
  return `${usdt(v.limit)} USDT`;
}

/**
 * A product must fit the caps of the profile in force: checked when it is saved, and again at every
 * quote, application and approval (a product saved under looser caps may no longer lend).
 */
export function checkWithinCaps(product: LoanProduct, caps: LoanCaps): void {
  const v = checkProductAgainstCaps(product, caps)[0];
  if (v) refuse('LOAN_PRODUCT_CAPS', { field: v.field, rule: v.rule, limit: limitText(v) });
}

export function quoteData(
  q: LoanQuote,
  o: { productId: string; profile: JurisdictionProfileId; caps: LoanCaps; now: Date },
): LoanQuoteData {
  return {
    product_id: o.productId,
    amount: usdt(q.principalUnits),
    term_days: q.termDays,
    daily_rate: rateText(q.dailyRatePpm),
    interest_free_days: q.interestFreeDays,
    chargeable_days: q.chargeableDays,
    interest: usdt(q.interestUnits),
    total_repayable: usdt(q.totalRepayableUnits),
    apr: aprText(q.aprBps),
    simple_annual_rate: aprText(q.simpleAnnualRateBps),
    overdue_rate: rateText(q.overdueRatePpm),
    overdue_interest_per_day: usdt(q.overdueInterestPerDayUnits),
    late_fee: usdt(q.lateFeeUnits),
    cost_cap: usdt(q.costCapUnits),
    overdue_charges_max: usdt(q.overdueChargesMaxUnits),
    cap_reached_on_day: q.capReachedOnDay,
    worst_case_total: usdt(q.worstCaseTotalUnits),
    repayment_at: o.now.getTime() + q.dueInDays * DAY_MS,
    caps: capsData(o.profile, o.caps),
  };
}

/** `GET web/getLoanQuote`: the schedule before anything is submitted (no limit check: `applyLoan` does it). */
export async function quote(deps: LoansDeps, q: GetLoanQuoteQuery): Promise<LoanQuoteData> {
  const p = await activeProduct(deps, q.product_id);
  const amountUnits = parseAmount('amount', q.amount, CURRENCY);
  const termDays = termOf(q.term_days);
  const product = productOf(p);
  checkRequest(product, amountUnits, termDays);
  const profile = await deps.activeProfile();
  const caps = capsOf(profile);
  checkWithinCaps(product, caps);
  const quoted = quoteLoan({ product, caps, amountUnits, termDays });
  return quoteData(quoted, { productId: p.id, profile, caps, now: deps.clock.now() });
}

function proofIdsOf(text: string | undefined): string[] {
  const ids = [
    ...new Set(
      (text ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
  if (ids.length > LOAN_LIMITS.proofsMax) refuse('LOAN_PROOFS_TOO_MANY', { max: LOAN_LIMITS.proofsMax });
  for (const id of ids) if (!PROOF_ID.test(id)) refuse('LOAN_PROOF_UNKNOWN', { file_id: id.slice(0, 40) });
  return ids;
}

async function reapplied(deps: LoansDeps, customerId: string, id: string | undefined) {
  if (id === undefined || id.trim() === '') return null;
  const prev = await repo.findLoan(deps.db, id.trim(), { customerId });
  if (!prev) refuse('NOT_FOUND');
  if (prev.state !== 'rejected') refuse('LOAN_REAPPLY_NOT_REJECTED', { state: prev.state });
  return prev;
}

/** The checks of an application in their published order (docs/api.md), then its row. */
async function checkedApplication(deps: LoansDeps, auth: AuthContext, body: ApplyLoanBody) {
  if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
  const customerId = auth.customerId;
  const p = await activeProduct(deps, body.product_id);
  const amountUnits = parseAmount('amount', body.amount, CURRENCY);
  const termDays = termOf(body.term_days);
  const setting = await repo.setting(deps.db);
  if (body.accept_agreement !== '1' || body.agreement_version.trim() !== setting.agreement_version)
    refuse('LOAN_AGREEMENT_REQUIRED', { version: setting.agreement_version });
  await deps.requireFeature(customerId, 'loans');
  const product = productOf(p);
  checkRequest(product, amountUnits, termDays);
  const profile = await deps.activeProfile();
  const caps = capsOf(profile);
  checkWithinCaps(product, caps);
  const open = await repo.openLoanOf(deps.db, customerId);
  if (open) refuse('LOAN_OPEN_EXISTS', { state: open.state });
  const scored = await scoreOf(deps, customerId);
  checkRequest(product, amountUnits, termDays, scored.limitUnits);
  await deps.checkCap(customerId, amountUnits);
  const proofIds = proofIdsOf(body.proof_ids);
  const previous = await reapplied(deps, customerId, body.reapply_of);
  const quoted = quoteLoan({ product, caps, amountUnits, termDays });
  const lender = await repo.findLender(deps.db, p.lender_id);
  if (!lender) throw new Error(`loan product ${p.id} names an unknown lender ${p.lender_id}`);
  const now = deps.clock.now();
  const row: LoanRow = {
    id: newId('lon', now.getTime()),
    customer_id: customerId,
    product_id: p.id,
    lender_id: lender.id,
    lender_code: lender.code,
    state: 'unreviewed',
    amount_units: amountUnits.toString(),
    term_days: termDays,
    quote: storedQuote(quoted),
    caps: storedCaps(profile, caps),
    agreement_version: setting.agreement_version,
    agreement_accepted_at: now,
    proof_ids: proofIds,
    previous_id: previous?.id ?? null,
    next_id: null,
    score_at_apply: scored.score.score,
    score_version: scored.score.version,
    limit_at_apply_units: scored.limitUnits.toString(),
    created_at: now,
    withdrawn_at: null,
    first_approved_by: null,
    first_approved_at: null,
    decided_by: null,
    decided_at: null,
    reject_reason: null,
    decision_note: null,
    disbursed_at: null,
    disburse_entry_id: null,
    due_at: null,
    loan_state: null,
    days_done: 0,
    next_day_at: null,
    repaid_units: '0',
    reminded_at: null,
    cleared_at: null,
    cleared_late: null,
    write_off_code: null,
    write_off_reason: null,
    write_off_requested_by: null,
    write_off_requested_at: null,
    written_off_by: null,
    written_off_at: null,
    write_off_units: null,
    write_off_entry_id: null,
  };
  return row;
}

/** `POST web/applyLoan`: one transaction for the row, its proofs and the link to a re-applied rejection. */
export async function apply(deps: LoansDeps, auth: AuthContext, body: ApplyLoanBody): Promise<LoanRow> {
  const row = await checkedApplication(deps, auth, body);
  const retainUntil = await deps.documentRetainUntil(row.created_at);
  try {
    await inTransaction(deps.db, async (tx) => {
      await repo.insertLoan(tx, row);
      for (const fileId of row.proof_ids) {
        const claimed = await deps.uploads.attach(tx, {
          fileId,
          customerId: row.customer_id,
          purpose: 'loan_proof',
          ref: `loan:${row.id}`,
          retainUntil,
        });
        if (!claimed) refuse('LOAN_PROOF_UNKNOWN', { file_id: fileId });
      }
      if (row.previous_id !== null) {
        const prev = await repo.findLoan(tx, row.previous_id, { lock: true });
        if (prev?.state !== 'rejected') refuse('LOAN_REAPPLY_NOT_REJECTED', { state: prev?.state ?? '' });
        await repo.updateLoan(tx, prev.id, { state: 're_applied', next_id: row.id });
      }
    });
  } catch (error) {
    // The loser of two racing applications meets the winner's row here.
    if (isUniqueViolation(error, 'loans_loan_one_open')) {
      const open = await repo.openLoanOf(deps.db, row.customer_id);
      refuse('LOAN_OPEN_EXISTS', { state: open?.state ?? 'unreviewed' });
    }
    throw error;
  }
  return row;
}

/** `POST web/withdrawLoan`: the customer's right to withdraw an application before it is decided. */
export async function withdraw(deps: LoansDeps, auth: AuthContext, body: WithdrawLoanBody): Promise<LoanRow> {
  return inTransaction(deps.db, async (tx) => {
    const row = await repo.findLoan(tx, body.loan_id, { lock: true, customerId: auth.customerId });
    if (!row) refuse('NOT_FOUND');
    if (row.state !== 'unreviewed') refuse('LOAN_NOT_WITHDRAWABLE', { state: row.state });
    const now = deps.clock.now();
    await repo.updateLoan(tx, row.id, { state: 'withdrawn', withdrawn_at: now });
    return { ...row, state: 'withdrawn' as const, withdrawn_at: now };
  });
}
