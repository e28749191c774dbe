/**
 * The credit score: a published formula, pure and explainable (README, "Credit score"). Each factor's
 * value falls in one band of the operator's table and earns that band's points; the score is the
 * table's base plus every factor's points, and the breakdown says, per factor, what it earned, the
 * best it could earn and the next step up. The loan limit comes from a second operator table. Tables
 * are data passed in — nothing here is a constant of the formula.
 */

/** Verification tiers in rank order (0…3); equal to REQUIRED_TIERS in packages/protocol (a test compares). */
export const CREDIT_TIERS = ['none', 'primary', 'advanced', 'address'] as const;
export type CreditTier = (typeof CREDIT_TIERS)[number];

/**
 * The factors and the unit of the value each is banded by: verification — the tier's rank (0…3);
 * account_age — days; deposits, trading_volume — USDT units (10^-8); loans_on_time, loans_late —
 * loans cleared on time / late; overdue_days — days past due today, on the worst open loan.
 */
export const CREDIT_FACTORS = [
  'verification',
  'account_age',
  'deposits',
  'trading_volume',
  'loans_on_time',
  'loans_late',
  'overdue_days',
] as const;
export type CreditFactor = (typeof CREDIT_FACTORS)[number];

/** `good`: a larger value never earns fewer points; `bad` (a penalty): a larger value never earns more. */
export const CREDIT_FACTOR_DIRECTIONS: Readonly<Record<CreditFactor, 'good' | 'bad'>> = Object.freeze({
  verification: 'good',
  account_age: 'good',
  deposits: 'good',
  trading_volume: 'good',
  loans_on_time: 'good',
  loans_late: 'bad',
  overdue_days: 'bad',
});

/** How to improve a factor: an i18n key suffix the screens translate (`credit_hint.<key>`). */
export const CREDIT_HINTS = Object.freeze({
  verification: 'complete_verification',
  account_age: 'keep_account',
  deposits: 'deposit_more',
  trading_volume: 'trade_more',
  loans_on_time: 'repay_on_time',
  loans_late: 'late_repayments_weigh',
  overdue_days: 'clear_overdue',
} as const);
export type CreditHint = (typeof CREDIT_HINTS)[CreditFactor];

export const CREDIT_BANDS_MAX = 20;
/** Band points and the base are whole numbers within ±this. */
export const CREDIT_POINTS_MAX = 10_000;
export const CREDIT_LIMIT_BANDS_MAX = 50;

export type CreditInput = Readonly<{
  verificationTier: CreditTier;
  accountAgeDays: number;
  depositTotalUnits: bigint;
  tradingVolumeUnits: bigint;
  loansClearedOnTime: number;
  loansClearedLate: number;
  overdueDays: number;
}>;

/** A value ≥ `from` (and below the next band's `from`) earns `points`. */
export type ScoreBand = Readonly<{ from: bigint; points: number }>;

/** The published table; `version` is the operator's, carried into the result. */
export type CreditScoreTable = Readonly<{
  version: number;
  basePoints: number;
  bands: Readonly<Record<CreditFactor, readonly ScoreBand[]>>;
}>;

export type CreditTableProblem = Readonly<{
  factor: CreditFactor | 'base';
  /** The band at fault, or null for the factor (or base) as a whole. */
  index: number | null;
  rule:
    | 'bands_empty'
    | 'bands_count'
    | 'first_from_not_zero'
    | 'from_not_ascending'
    | 'points_range'
    | 'points_not_monotone';
}>;

const pointsOk = (p: number): boolean => Number.isSafeInteger(p) && Math.abs(p) <= CREDIT_POINTS_MAX;

function factorProblems(factor: CreditFactor, bands: readonly ScoreBand[]): CreditTableProblem[] {
  if (bands.length === 0) return [{ factor, index: null, rule: 'bands_empty' }];
  if (bands.length > CREDIT_BANDS_MAX) return [{ factor, index: null, rule: 'bands_count' }];
  const out: CreditTableProblem[] = [];
  const good = CREDIT_FACTOR_DIRECTIONS[factor] === 'good';
  if (bands[0]?.from !== 0n) out.push({ factor, index: 0, rule: 'first_from_not_zero' });
  bands.forEach((band, index) => {
    if (!pointsOk(band.points)) out.push({ factor, index, rule: 'points_range' });
    const prev = bands[index - 1];
    if (prev === undefined) return;
    if (band.from <= prev.from) out.push({ factor, index, rule: 'from_not_ascending' });
    if (good ? band.points < prev.points : band.points > prev.points)
      out.push({ factor, index, rule: 'points_not_monotone' });
  });
  return out;
}

/**
 * Why the table cannot be published (empty when it can): every factor has 1…CREDIT_BANDS_MAX bands,
 * the first from 0, strictly ascending, whole points within ±CREDIT_POINTS_MAX, never falling along a
 * good factor nor rising along a penalty — which is what makes the score monotone in every factor.
 */
export function creditTableProblems(table: CreditScoreTable): CreditTableProblem[] {
  const out: CreditTableProblem[] = [];
  if (!pointsOk(table.basePoints)) out.push({ factor: 'base', index: null, rule: 'points_range' });
  for (const factor of CREDIT_FACTORS) out.push(...factorProblems(factor, table.bands[factor] ?? []));
  return out;
}

function whole(n: number, name: string): bigint {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError(`credit input: ${name} must be a whole number ≥ 0`);
  return BigInt(n);
}

/** Each factor's value in the unit its bands use. Throws on negative or fractional input (a bug). */
export function creditFactorValues(input: CreditInput): Record<CreditFactor, bigint> {
  const rank = CREDIT_TIERS.indexOf(input.verificationTier);
  if (rank < 0) throw new RangeError(`credit input: unknown tier ${String(input.verificationTier)}`);
  if (input.depositTotalUnits < 0n || input.tradingVolumeUnits < 0n)
    throw new RangeError('credit input: negative amount');
  return {
    verification: BigInt(rank),
    account_age: whole(input.accountAgeDays, 'accountAgeDays'),
    deposits: input.depositTotalUnits,
    trading_volume: input.tradingVolumeUnits,
    loans_on_time: whole(input.loansClearedOnTime, 'loansClearedOnTime'),
    loans_late: whole(input.loansClearedLate, 'loansClearedLate'),
    overdue_days: whole(input.overdueDays, 'overdueDays'),
  };
}

export type CreditFactorScore = Readonly<{
  factor: CreditFactor;
  value: bigint;
  points: number;
  /** The most this factor can earn. */
  bestPoints: number;
  /** The nearest value that earns more, and what it earns; null when none can be reached. */
  next: Readonly<{ value: bigint; points: number }> | null;
  /** How to improve it; null when it already earns its best. */
  hint: CreditHint | null;
}>;

export type CreditScore = Readonly<{
  version: number;
  basePoints: number;
  /** basePoints + the sum of the breakdown's points, exactly. */
  score: number;
  breakdown: readonly CreditFactorScore[];
}>;

function assertTable(table: CreditScoreTable): void {
  const problems = creditTableProblems(table);
  if (problems.length > 0) throw new RangeError(`credit table: ${problems.map((p) => p.rule).join(',')}`);
}

function scoreFactor(factor: CreditFactor, value: bigint, bands: readonly ScoreBand[]): CreditFactorScore {
  let at = 0;
  while (at + 1 < bands.length && (bands[at + 1] as ScoreBand).from <= value) at += 1;
  const points = (bands[at] as ScoreBand).points;
  const first = bands[0] as ScoreBand;
  const last = bands[bands.length - 1] as ScoreBand;
  const good = CREDIT_FACTOR_DIRECTIONS[factor] === 'good';
  const bestPoints = good ? last.points : first.points;
  let next: CreditFactorScore['next'] = null;
  if (good) {
    const up = bands.slice(at + 1).find((b) => b.points > points);
    if (up !== undefined) next = { value: up.from, points: up.points };
  } else if (factor === 'overdue_days' && first.points > points) {
    // The one penalty a customer can undo: repaying clears the days past due. Late history stays.
    next = { value: 0n, points: first.points };
  }
  return { factor, value, points, bestPoints, next, hint: points < bestPoints ? CREDIT_HINTS[factor] : null };
}

/** The score and its breakdown, in CREDIT_FACTORS order. Throws on a table with problems (a bug). */
export function creditScore(input: CreditInput, table: CreditScoreTable): CreditScore {
  assertTable(table);
  const values = creditFactorValues(input);
  const breakdown = CREDIT_FACTORS.map((f) => scoreFactor(f, values[f], table.bands[f]));
  const score = breakdown.reduce((sum, f) => sum + f.points, table.basePoints);
  return { version: table.version, basePoints: table.basePoints, score, breakdown };
}

/** A score ≥ `scoreMin` (and below the next band's) may borrow up to `limitUnits` USDT units. */
export type CreditLimitBand = Readonly<{ scoreMin: number; limitUnits: bigint }>;

export type CreditLimitProblem = Readonly<{
  index: number | null;
  rule:
    | 'bands_empty'
    | 'bands_count'
    | 'score_not_whole'
    | 'score_not_ascending'
    | 'limit_negative'
    | 'limit_not_monotone';
}>;

/** Why the limit table cannot be published: scores whole and strictly ascending, limits ≥ 0 and never falling. */
export function creditLimitTableProblems(table: readonly CreditLimitBand[]): CreditLimitProblem[] {
  if (table.length === 0) return [{ index: null, rule: 'bands_empty' }];
  if (table.length > CREDIT_LIMIT_BANDS_MAX) return [{ index: null, rule: 'bands_count' }];
  const out: CreditLimitProblem[] = [];
  table.forEach((band, index) => {
    if (!Number.isSafeInteger(band.scoreMin)) out.push({ index, rule: 'score_not_whole' });
    if (band.limitUnits < 0n) out.push({ index, rule: 'limit_negative' });
    const prev = table[index - 1];
    if (prev === undefined) return;
    if (band.scoreMin <= prev.scoreMin) out.push({ index, rule: 'score_not_ascending' });
    if (band.limitUnits < prev.limitUnits) out.push({ index, rule: 'limit_not_monotone' });
  });
  return out;
}

/** The loan limit for a score: the highest band whose scoreMin ≤ score; 0 below the first. Monotone. */
export function limitForScore(score: number, table: readonly CreditLimitBand[]): bigint {
  if (!Number.isSafeInteger(score)) throw new RangeError('limitForScore: score must be a whole number');
  const problems = creditLimitTableProblems(table);
  if (problems.length > 0) throw new RangeError(`limit table: ${problems.map((p) => p.rule).join(',')}`);
  let limit = 0n;
  for (const band of table) if (band.scoreMin <= score) limit = band.limitUnits;
  return limit;
}
