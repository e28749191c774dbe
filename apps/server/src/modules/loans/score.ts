import { parseDecimal } from '@bourse/money';
import {
  type AdminScoreTableBody,
  CREDIT_SCORE_FACTORS,
  type CreditFactorData,
  type CreditScoreData,
  type CreditScoreFactor,
  type CreditTableData,
  type RequestScoreReviewBody,
  type ScoreReviewData,
} from '@bourse/protocol';
import {
  CREDIT_FACTORS,
  type CreditLimitBand,
  type CreditScore,
  type CreditScoreTable,
  creditLimitTableProblems,
  creditScore,
  creditTableProblems,
  daysPastDue,
  LOAN_SCALE,
  limitForScore,
} from '@bourse/risk';
import { inTransaction, isUniqueViolation } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { newId } from '../../lib/ids.ts';
import { daysElapsed, type LoansDeps, type Q, ruleTiers, usdt } from './context.ts';
import type { ReviewRow, ScoreTableRow } from './repo.ts';
import * as repo from './repo.ts';
import type { StoredBands, StoredLimits } from './tables.ts';

/**
 * The credit score (README.md, "Credit score"): `@bourse/risk` `creditScore` over the published table
 * in force (`loans_score_table`, the newest version) with inputs from other modules' ports
 * (verification tier, account age, deposits, trading volume) and this module's own repayment
 * history; the limit is `limitForScore` over the published limit table. Staff publish new versions
 * (each checked by `creditTableProblems` / `creditLimitTableProblems`, audited); nothing edits one.
 */

const UNIT: Record<CreditScoreFactor, CreditFactorData['unit']> = {
  verification: 'tier',
  account_age: 'days',
  deposits: 'usdt',
  trading_volume: 'usdt',
  loans_on_time: 'loans',
  loans_late: 'loans',
  overdue_days: 'days',
};

const valueText = (factor: CreditScoreFactor, value: bigint) =>
  UNIT[factor] === 'usdt' ? usdt(value) : value.toString();

export function tableOf(row: ScoreTableRow): { table: CreditScoreTable; limits: CreditLimitBand[] } {
  const bands = Object.fromEntries(
    CREDIT_FACTORS.map((f) => [
      f,
      (row.bands[f] ?? []).map((b) => ({ from: BigInt(b.from), points: b.points })),
    ]),
  ) as unknown as CreditScoreTable['bands'];
  return {
    table: { version: row.version, basePoints: row.base_points, bands },
    limits: row.limits.map((l) => ({ scoreMin: l.score_min, limitUnits: BigInt(l.limit_units) })),
  };
}

export function tableData(row: ScoreTableRow): CreditTableData {
  return {
    version: row.version,
    base_points: row.base_points,
    bands: Object.fromEntries(
      CREDIT_SCORE_FACTORS.map((f) => [
        f,
        (row.bands[f] ?? []).map((b) => ({ from: valueText(f, BigInt(b.from)), points: b.points })),
      ]),
    ) as CreditTableData['bands'],
    limits: row.limits.map((l) => ({ score_min: l.score_min, limit: usdt(l.limit_units) })),
    published_at: row.created_at.getTime(),
  };
}

/** The repayment history this module keeps: loans cleared on time and late, days past due now (worst open loan). */
export async function repaymentHistory(q: Q, customerId: string, now: Date) {
  const rows = await repo.loansOf(q, customerId);
  let onTime = 0;
  let late = 0;
  let overdue = 0;
  for (const r of rows) {
    if (r.state === 'cleared') {
      if (r.cleared_late) late += 1;
      else onTime += 1;
    } else if (r.disbursed_at !== null && r.next_day_at !== null) {
      overdue = Math.max(overdue, daysPastDue(r.term_days, daysElapsed(r.disbursed_at, now)));
    }
  }
  return { loansClearedOnTime: onTime, loansClearedLate: late, overdueDays: overdue };
}

export type Scored = { score: CreditScore; limitUnits: bigint; row: ScoreTableRow };

/** The customer's score and limit now, under the table in force. */
export async function scoreOf(deps: LoansDeps, customerId: string, q: Q = deps.db): Promise<Scored> {
  const [row, inputs, history] = await Promise.all([
    repo.scoreTable(q),
    deps.creditInputs(customerId),
    repaymentHistory(q, customerId, deps.clock.now()),
  ]);
  const { table, limits } = tableOf(row);
  const score = creditScore({ ...inputs, ...history }, table);
  return { score, limitUnits: limitForScore(score.score, limits), row };
}

export function breakdownData(score: CreditScore): CreditFactorData[] {
  return score.breakdown.map((b) => ({
    factor: b.factor,
    unit: UNIT[b.factor],
    value: valueText(b.factor, b.value),
    points: b.points,
    best_points: b.bestPoints,
    next: b.next === null ? null : { value: valueText(b.factor, b.next.value), points: b.next.points },
    hint: b.hint,
  }));
}

function reviewData(r: ReviewRow): ScoreReviewData {
  return {
    review_id: r.id,
    state: r.state,
    score: r.score,
    version: r.version,
    note: r.note,
    created_at: r.created_at.getTime(),
  };
}

export function scoreData(
  s: Scored,
  review: ReviewRow | undefined,
  tiers: Pick<CreditScoreData, 'loans_tier' | 'score_tier'>,
): CreditScoreData {
  return {
    ...tiers,
    score: s.score.score,
    version: s.score.version,
    base_points: s.score.basePoints,
    breakdown: breakdownData(s.score),
    limit: usdt(s.limitUnits),
    table: tableData(s.row),
    review: review
      ? { review_id: review.id, state: review.state, created_at: review.created_at.getTime() }
      : null,
  };
}

/**
 * `GET web/getCreditScore`: the verification the profile's `credit_score` rule asks first; the answer
 * carries that rule and the `loans` one (`score_tier`, `loans_tier`).
 */
export async function customerScore(deps: LoansDeps, auth: AuthContext): Promise<CreditScoreData> {
  if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
  await deps.requireFeature(auth.customerId, 'credit_score');
  const [scored, review, tiers] = await Promise.all([
    scoreOf(deps, auth.customerId),
    repo.openReviewOf(deps.db, auth.customerId),
    ruleTiers(deps),
  ]);
  return scoreData(scored, review, tiers);
}

/** `POST web/requestScoreReview`: one open request at a time, with the score the customer saw. */
export async function requestReview(
  deps: LoansDeps,
  auth: AuthContext,
  body: RequestScoreReviewBody,
): Promise<ScoreReviewData> {
  if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
  await deps.requireFeature(auth.customerId, 'credit_score');
  if (await repo.openReviewOf(deps.db, auth.customerId)) refuse('LOAN_REVIEW_OPEN');
  const scored = await scoreOf(deps, auth.customerId);
  const now = deps.clock.now();
  const row: ReviewRow = {
    id: newId('lsr', now.getTime()),
    customer_id: auth.customerId,
    state: 'open',
    score: scored.score.score,
    version: scored.score.version,
    breakdown: breakdownData(scored.score),
    note: (body.note ?? '').trim(),
    created_at: now,
    closed_by: null,
    closed_at: null,
    closing_note: null,
  };
  try {
    await inTransaction(deps.db, (tx) => repo.insertReview(tx, row));
  } catch (error) {
    if (isUniqueViolation(error, 'loans_score_review_one_open')) refuse('LOAN_REVIEW_OPEN');
    throw error;
  }
  return reviewData(row);
}

/** Back office: close a review request with what the person found (audited). */
export async function closeReview(deps: LoansDeps, staff: StaffContext, id: string, note: string) {
  return inTransaction(deps.db, async (tx) => {
    const r = await repo.findReview(tx, id, { lock: true });
    if (!r) refuse('NOT_FOUND');
    if (r.state !== 'open') refuse('LOAN_NOT_UNDER_REVIEW', { state: r.state });
    const patch = { closed_by: staff.staffId, closed_at: deps.clock.now(), closing_note: note.trim() };
    await repo.closeReview(tx, id, patch);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'loans.score_review.close',
      targetType: 'loans_score_review',
      targetId: id,
      before: { state: 'open', score: r.score },
      after: { state: 'closed' },
      reason: patch.closing_note,
    });
    return { ...r, ...patch, state: 'closed' as const };
  });
}

export { reviewData };

function unitsOf(text: string, field: string, scale: number): bigint {
  const p = parseDecimal(text.trim(), { scale, allowZero: true });
  if (!p.ok || p.units < 0n) refuse('LOAN_SCORE_TABLE_INVALID', { field, rule: 'not_a_number' });
  return p.units;
}

/** The body in table form: USDT factors and limits in USDT (decimal text), the rest whole numbers. */
function tableFromBody(body: AdminScoreTableBody, version: number) {
  const bands = {} as StoredBands;
  for (const f of CREDIT_SCORE_FACTORS) {
    bands[f] = body.bands[f].map((b, i) => ({
      from: unitsOf(b.from, `bands.${f}[${i}].from`, UNIT[f] === 'usdt' ? LOAN_SCALE : 0).toString(),
      points: b.points,
    }));
  }
  const limits: StoredLimits = body.limits.map((l, i) => ({
    score_min: l.score_min,
    limit_units: unitsOf(l.limit, `limits[${i}].limit`, LOAN_SCALE).toString(),
  }));
  return { version, base_points: body.base_points, bands, limits };
}

/** Publishes a new version of the score and limit tables (refused by name when `@bourse/risk` would refuse it). */
export async function publishTable(
  deps: LoansDeps,
  staff: StaffContext,
  body: AdminScoreTableBody,
): Promise<CreditTableData> {
  return inTransaction(deps.db, async (tx) => {
    const current = await repo.scoreTable(tx, { lock: true });
    const next = tableFromBody(body, current.version + 1);
    const row: ScoreTableRow = {
      ...next,
      created_at: deps.clock.now(),
      created_by: staff.staffId,
      reason: body.reason.trim(),
    };
    const { table, limits } = tableOf(row);
    const problem = creditTableProblems(table)[0];
    if (problem)
      refuse('LOAN_SCORE_TABLE_INVALID', {
        field: problem.index === null ? problem.factor : `bands.${problem.factor}[${problem.index}]`,
        rule: problem.rule,
      });
    const limitProblem = creditLimitTableProblems(limits)[0];
    if (limitProblem)
      refuse('LOAN_SCORE_TABLE_INVALID', {
        field: limitProblem.index === null ? 'limits' : `limits[${limitProblem.index}]`,
        rule: limitProblem.rule,
      });
    await repo.insertScoreTable(tx, row);
    await deps.audit.record(tx, {
      actorId: staff.staffId,
      action: 'loans.score_table.publish',
      targetType: 'loans_score_table',
      targetId: String(row.version),
      before: { version: current.version, base_points: current.base_points },
      after: { version: row.version, base_points: row.base_points, bands: row.bands, limits: row.limits },
      reason: row.reason,
    });
    return tableData(row);
  });
}
