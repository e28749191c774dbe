import { divRound, parseDecimal, scaleOf, toDecimalString } from '@bourse/money';

/**
 * Loan products, jurisdiction caps and the quote shown before anyone applies (README, "Loans"). One
 * source: the server charges with these functions and the web previews with them. Money is bigint
 * USDT minor units (10^-8); rates are integer parts per million (ppm) — per day for daily rates, of
 * the principal for the total-cost cap; days are whole numbers. No float anywhere.
 */

/** Loans are lent and repaid in USDT minor units (the ledger's scale). */
export const LOAN_SCALE = scaleOf('USDT');
/** 100 % = 1,000,000 ppm; 1 % = 10,000; 0.1 % a day = 1,000 ppm a day; the UK's 0.8 % a day = 8,000. */
export const PPM = 1_000_000n;
/** The spec's first three days bear no interest unless a product says otherwise. */
export const DEFAULT_INTEREST_FREE_DAYS = 3;
/** Longest term a product may offer (3 years); also the bound on interest-free days. */
export const LOAN_TERM_DAYS_MAX = 1095;
/** Most terms one product may offer. */
export const LOAN_TERM_CHOICES_MAX = 24;
/** Largest amount any product may lend: 1,000,000,000 USDT. */
export const LOAN_AMOUNT_UNITS_MAX = 10n ** 17n;
/** A platform bound no profile or product may exceed: 10 % a day. */
export const LOAN_DAILY_RATE_PPM_MAX = 100_000n;
/** The APR's year (EU CCD Annex I / FCA CONC App 1: 365 days). */
export const DAYS_PER_YEAR = 365;

export type LoanProduct = Readonly<{
  amountMinUnits: bigint;
  amountMaxUnits: bigint;
  /** The terms offered, in days: each 1…LOAN_TERM_DAYS_MAX, no repeats. */
  termDays: readonly number[];
  /** Contractual interest, ppm of the principal a day. */
  dailyRatePpm: bigint;
  /** The first days of the loan bear no interest (DEFAULT_INTEREST_FREE_DAYS). */
  interestFreeDays: number;
  /** Overdue interest, ppm a day of the principal still outstanding, from the first day past due. */
  overdueRatePpm: bigint;
  /** A fixed fee, charged once, on the first day past due. */
  lateFeeUnits: bigint;
}>;

/**
 * What a jurisdiction profile lets a loan cost. The cost cap counts everything charged on top of the
 * principal — contractual interest, overdue interest and late fees — against the principal lent.
 */
export type LoanCaps = Readonly<{
  /** Most a daily rate (contractual or overdue) may be, ppm a day. */
  dailyRateMaxPpm: bigint;
  /** Most the loan may ever cost on top of the principal, ppm of the principal. */
  totalCostMaxPpm: bigint;
  /** Most a late fee may be, USDT units. */
  lateFeeMaxUnits: bigint;
}>;

const USDT = 10n ** BigInt(LOAN_SCALE);

/**
 * The profiles' caps. `eu_retail` is the strict profile and carries the UK's high-cost short-term
 * credit cap (FCA CONC 5A: 0.8 % a day, total cost ≤ 100 % of the amount, default fee ≤ £15, read
 * here as 15 USDT) — the EU has no single figure. `permissive` is looser but still finite: an
 * uncapped loan would let a daily job charge forever.
 */
export const LOAN_CAPS: Readonly<{ permissive: LoanCaps; eu_retail: LoanCaps }> = Object.freeze({
  permissive: Object.freeze({
    dailyRateMaxPpm: 10_000n,
    totalCostMaxPpm: 2_000_000n,
    lateFeeMaxUnits: 50n * USDT,
  }),
  eu_retail: Object.freeze({
    dailyRateMaxPpm: 8_000n,
    totalCostMaxPpm: 1_000_000n,
    lateFeeMaxUnits: 15n * USDT,
  }),
});

export type LoanProductField =
  | 'amount_min'
  | 'amount_max'
  | 'term_days'
  | 'interest_free_days'
  | 'daily_rate'
  | 'overdue_rate'
  | 'late_fee';

/**
 * - `amount_range`: an amount ≤ 0 or above LOAN_AMOUNT_UNITS_MAX; `amount_min_above_max`
 * - `term_days_empty`, `term_days_count` (more than LOAN_TERM_CHOICES_MAX), `term_days_range` (a term
 *   not a whole number in 1…LOAN_TERM_DAYS_MAX), `term_days_repeated`
 * - `interest_free_days_range`: not a whole number in 0…LOAN_TERM_DAYS_MAX
 * - `rate_range`: a rate < 0 or above LOAN_DAILY_RATE_PPM_MAX; `daily_rate_cap`: above the profile's
 *   daily cap (field `daily_rate` or `overdue_rate`)
 * - `late_fee_range`: < 0; `late_fee_cap`: above the profile's
 * - `total_cost_cap` (field `term_days`): the contractual interest of the longest term alone would
 *   exceed the cost cap; `limit` is the longest term that fits
 */
export type LoanProductRule =
  | 'amount_range'
  | 'amount_min_above_max'
  | 'term_days_empty'
  | 'term_days_count'
  | 'term_days_range'
  | 'term_days_repeated'
  | 'interest_free_days_range'
  | 'rate_range'
  | 'daily_rate_cap'
  | 'late_fee_range'
  | 'late_fee_cap'
  | 'total_cost_cap';

/** `limit` is the bound broken, in the field's unit (USDT units, ppm, days), or null. */
export type LoanProductViolation = Readonly<{
  field: LoanProductField;
  rule: LoanProductRule;
  limit: bigint | null;
}>;

const isWhole = (n: number, min: number, max: number): boolean =>
  Number.isSafeInteger(n) && n >= min && n <= max;

function assertCaps(caps: LoanCaps): void {
  for (const [name, value] of Object.entries(caps)) {
    if (typeof value !== 'bigint' || value < 0n) throw new RangeError(`loan caps: ${name} must be ≥ 0`);
  }
}

function amountViolations(p: LoanProduct): LoanProductViolation[] {
  const out: LoanProductViolation[] = [];
  for (const [field, value] of [
    ['amount_min', p.amountMinUnits],
    ['amount_max', p.amountMaxUnits],
  ] as const) {
    if (value <= 0n) out.push({ field, rule: 'amount_range', limit: 1n });
    else if (value > LOAN_AMOUNT_UNITS_MAX)
      out.push({ field, rule: 'amount_range', limit: LOAN_AMOUNT_UNITS_MAX });
  }
  if (p.amountMinUnits > p.amountMaxUnits)
    out.push({ field: 'amount_min', rule: 'amount_min_above_max', limit: p.amountMaxUnits });
  return out;
}

function termViolations(p: LoanProduct): LoanProductViolation[] {
  const out: LoanProductViolation[] = [];
  const max = BigInt(LOAN_TERM_DAYS_MAX);
  if (p.termDays.length === 0) out.push({ field: 'term_days', rule: 'term_days_empty', limit: null });
  if (p.termDays.length > LOAN_TERM_CHOICES_MAX)
    out.push({ field: 'term_days', rule: 'term_days_count', limit: BigInt(LOAN_TERM_CHOICES_MAX) });
  if (p.termDays.some((d) => !isWhole(d, 1, LOAN_TERM_DAYS_MAX)))
    out.push({ field: 'term_days', rule: 'term_days_range', limit: max });
  if (new Set(p.termDays).size !== p.termDays.length)
    out.push({ field: 'term_days', rule: 'term_days_repeated', limit: null });
  if (!isWhole(p.interestFreeDays, 0, LOAN_TERM_DAYS_MAX))
    out.push({ field: 'interest_free_days', rule: 'interest_free_days_range', limit: max });
  return out;
}

function rateViolations(p: LoanProduct, caps: LoanCaps): LoanProductViolation[] {
  const out: LoanProductViolation[] = [];
  for (const [field, rate] of [
    ['daily_rate', p.dailyRatePpm],
    ['overdue_rate', p.overdueRatePpm],
  ] as const) {
    if (rate < 0n) out.push({ field, rule: 'rate_range', limit: 0n });
    else if (rate > LOAN_DAILY_RATE_PPM_MAX)
      out.push({ field, rule: 'rate_range', limit: LOAN_DAILY_RATE_PPM_MAX });
    else if (rate > caps.dailyRateMaxPpm)
      out.push({ field, rule: 'daily_rate_cap', limit: caps.dailyRateMaxPpm });
  }
  if (p.lateFeeUnits < 0n) out.push({ field: 'late_fee', rule: 'late_fee_range', limit: 0n });
  else if (p.lateFeeUnits > caps.lateFeeMaxUnits)
    out.push({ field: 'late_fee', rule: 'late_fee_cap', limit: caps.lateFeeMaxUnits });
  return out;
}

/** Judged in ppm, so it holds for every amount: rate × days ≤ cap ⇔ ⌊A·rate·days⌋ ≤ ⌊A·cap⌋ for all A. */
function totalCostViolations(p: LoanProduct, caps: LoanCaps): LoanProductViolation[] {
  const longest = Math.max(...p.termDays);
  const rate = p.dailyRatePpm;
  if (rate <= 0n || rate > LOAN_DAILY_RATE_PPM_MAX) return [];
  if (rate * BigInt(chargeableDays(longest, p.interestFreeDays)) <= caps.totalCostMaxPpm) return [];
  const fits = BigInt(p.interestFreeDays) + caps.totalCostMaxPpm / rate;
  return [{ field: 'term_days', rule: 'total_cost_cap', limit: fits }];
}

/**
 * Every way the product breaks its profile's caps or the platform's bounds, in field order; empty when
 * it may be saved. Throws on negative caps (configuration gone wrong).
 */
export function checkProductAgainstCaps(product: LoanProduct, caps: LoanCaps): LoanProductViolation[] {
  assertCaps(caps);
  const terms = termViolations(product);
  const rates = rateViolations(product, caps);
  const costs = terms.length === 0 && rates.length === 0 ? totalCostViolations(product, caps) : [];
  return [...amountViolations(product), ...terms, ...rates, ...costs];
}

/** Days of a term that bear interest: max(0, term − interest-free days). */
export function chargeableDays(termDays: number, interestFreeDays: number): number {
  return Math.max(0, termDays - interestFreeDays);
}

/**
 * Interest on a principal for whole days at a daily rate: ⌊A × rate × days ÷ 10^6⌋ — rounded down
 * (floor), in the customer's favour: the posted rate is a maximum, never exceeded by a fraction.
 */
export function interestUnits(o: { principalUnits: bigint; dailyRatePpm: bigint; days: number }): bigint {
  if (o.principalUnits < 0n || o.dailyRatePpm < 0n || !isWhole(o.days, 0, Number.MAX_SAFE_INTEGER))
    throw new RangeError('interestUnits: negative principal, rate or days');
  return divRound(o.principalUnits * o.dailyRatePpm * BigInt(o.days), PPM, 'floor');
}

/** The most a loan of this principal may cost on top of it: ⌊A × cap ÷ 10^6⌋ (floor: the cap is a ceiling). */
export function costCapUnits(principalUnits: bigint, caps: LoanCaps): bigint {
  return divRound(principalUnits * caps.totalCostMaxPpm, PPM, 'floor');
}

export type LoanRequestProblem = Readonly<{
  field: 'amount' | 'term_days';
  rule: 'below_min' | 'above_max' | 'above_credit_limit' | 'not_offered';
  limit: bigint | null;
}>;

/** Why this amount and term cannot be asked for (amount first), or null. The credit limit is optional. */
export function loanRequestProblem(o: {
  product: LoanProduct;
  amountUnits: bigint;
  termDays: number;
  creditLimitUnits?: bigint;
}): LoanRequestProblem | null {
  const { product: p, amountUnits } = o;
  if (amountUnits < p.amountMinUnits) return { field: 'amount', rule: 'below_min', limit: p.amountMinUnits };
  if (amountUnits > p.amountMaxUnits) return { field: 'amount', rule: 'above_max', limit: p.amountMaxUnits };
  if (o.creditLimitUnits !== undefined && amountUnits > o.creditLimitUnits)
    return { field: 'amount', rule: 'above_credit_limit', limit: o.creditLimitUnits };
  if (!p.termDays.includes(o.termDays)) return { field: 'term_days', rule: 'not_offered', limit: null };
  return null;
}

/**
 * A percent as typed by staff ("0.1" for 0.1 % a day, "100" for 100 %) → ppm, exactly (4 decimals of
 * percent = 1 ppm); null when it is not a non-negative decimal with at most 4 decimals.
 */
export function ppmFromPercent(text: string): bigint | null {
  const parsed = parseDecimal(text, { scale: 4, maxIntegerDigits: 8 });
  return parsed.ok ? parsed.units : null;
}

/** ppm → percent text without trailing zeros: 1000n → "0.1", 8000n → "0.8", 1_000_000n → "100". */
export function ppmPercentText(ppm: bigint): string {
  return toDecimalString(ppm, 4);
}
