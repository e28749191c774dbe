import { divRound } from '@bourse/money';
import {
  chargeableDays,
  checkProductAgainstCaps,
  costCapUnits,
  DAYS_PER_YEAR,
  interestUnits,
  type LoanCaps,
  type LoanProduct,
  loanRequestProblem,
  PPM,
} from './loans.ts';

/**
 * The schedule of a single-repayment loan, shown whole before anyone applies (README, "Loans"): the
 * loan is repaid in one payment at the end of the term; everything here is exact bigint USDT units.
 */
export type LoanQuote = Readonly<{
  principalUnits: bigint;
  termDays: number;
  /** The repayment date is the disbursement day plus this many days (= termDays). */
  dueInDays: number;
  dailyRatePpm: bigint;
  interestFreeDays: number;
  /** max(0, term − interest-free days). */
  chargeableDays: number;
  /** ⌊A × daily rate × chargeable days⌋ (`interestUnits`). */
  interestUnits: bigint;
  /** principal + interest: the one repayment due. */
  totalRepayableUnits: bigint;
  /** Annual percentage rate, all costs included, in 0.01 % (`aprBps`), half-up. */
  aprBps: bigint;
  /** interest ÷ principal × 365 ÷ term, in 0.01 %, half-up (not compounded; secondary to the APR). */
  simpleAnnualRateBps: bigint;
  overdueRatePpm: bigint;
  /** Overdue interest for one day past due while nothing is repaid: ⌊A × overdue rate⌋. */
  overdueInterestPerDayUnits: bigint;
  /** Charged once, on the first day past due. */
  lateFeeUnits: bigint;
  /** The most the loan may cost on top of the principal, everything included (`costCapUnits`). */
  costCapUnits: bigint;
  /** What overdue interest and the late fee may add at most: cost cap − interest. */
  overdueChargesMaxUnits: bigint;
  /** The first day past due from which the total no longer grows (the cap binds); null if never. */
  capReachedOnDay: number | null;
  /** The most this loan can ever ask for, however late it is repaid. */
  worstCaseTotalUnits: bigint;
}>;

function gcdNumber(a: number, b: number): number {
  let x = a;
  let y = b;
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}

function gcdBig(a: bigint, b: bigint): bigint {
  let x = a;
  let y = b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/**
 * The annual percentage rate of a single repayment, in basis points (0.01 %), rounded half-up (EU CCD
 * Annex I and FCA CONC App 1 round half-up; they ask for at least one decimal): the rate i with
 * A = total ÷ (1 + i)^(T/365), i.e. i = (total/A)^(365/T) − 1. Found with integers only: x is the
 * answer exactly when it is the largest whole number with (1 + (x − ½)/10^4)^T ≤ (total/A)^365, i.e.
 *
 *   (20000 + 2x − 1)^t · a^y ≤ b^y · 20000^t,   g = gcd(T, 365), t = T/g, y = 365/g, a/b = A/total reduced.
 *
 * The left side grows with x, so doubling then bisection finds it; deterministic, no float. The cost
 * of one step is a power of about 365·log2(total/A) + T·15 bits.
 */
export function aprBps(o: { principalUnits: bigint; totalUnits: bigint; termDays: number }): bigint {
  const { principalUnits: p, totalUnits: total, termDays } = o;
  if (p <= 0n || total < p) throw new RangeError('aprBps: principal must be > 0 and total ≥ principal');
  if (!Number.isSafeInteger(termDays) || termDays < 1) throw new RangeError('aprBps: term must be ≥ 1 day');
  const g = gcdNumber(termDays, DAYS_PER_YEAR);
  const t = BigInt(termDays / g);
  const y = BigInt(DAYS_PER_YEAR / g);
  const h = gcdBig(p, total);
  const aPow = (p / h) ** y;
  const right = (total / h) ** y * 20_000n ** t;
  const holds = (x: bigint): boolean => (19_999n + 2n * x) ** t * aPow <= right;
  let lo = 0n; // holds(0): 19999^t·a^y ≤ 20000^t·b^y since a ≤ b
  let hi = 1n;
  while (holds(hi)) {
    lo = hi;
    hi *= 2n;
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (holds(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** interest ÷ principal × 365 ÷ term in 0.01 %, half-up. */
export function simpleAnnualRateBps(o: {
  principalUnits: bigint;
  interestUnits: bigint;
  termDays: number;
}): bigint {
  if (o.principalUnits <= 0n || !Number.isSafeInteger(o.termDays) || o.termDays < 1)
    throw new RangeError('simpleAnnualRateBps: principal must be > 0 and term ≥ 1 day');
  return divRound(
    o.interestUnits * BigInt(DAYS_PER_YEAR) * 10_000n,
    o.principalUnits * BigInt(o.termDays),
    'halfUp',
  );
}

function capReachedOnDay(roomUnits: bigint, lateFeeUnits: bigint, perDayUnits: bigint): number | null {
  if (lateFeeUnits >= roomUnits) return 1;
  if (perDayUnits === 0n) return null;
  const days = divRound(roomUnits - lateFeeUnits, perDayUnits, 'ceil');
  return Number(days < 1n ? 1n : days);
}

/**
 * The quote for an amount and a term of a product under a profile's caps. The caller refuses first
 * (`checkProductAgainstCaps` when the product is saved, `loanRequestProblem` for the request): a
 * product outside its caps or a request outside the product here is a bug, and throws.
 */
export function quoteLoan(o: {
  product: LoanProduct;
  caps: LoanCaps;
  amountUnits: bigint;
  termDays: number;
}): LoanQuote {
  const { product, caps, amountUnits: principalUnits, termDays } = o;
  const violations = checkProductAgainstCaps(product, caps);
  if (violations.length > 0)
    throw new RangeError(
      `quoteLoan: product breaks ${violations.map((v) => `${v.field}:${v.rule}`).join(',')}`,
    );
  const problem = loanRequestProblem({ product, amountUnits: principalUnits, termDays });
  if (problem !== null) throw new RangeError(`quoteLoan: request ${problem.field}:${problem.rule}`);
  const days = chargeableDays(termDays, product.interestFreeDays);
  const interest = interestUnits({ principalUnits, dailyRatePpm: product.dailyRatePpm, days });
  const total = principalUnits + interest;
  const cap = costCapUnits(principalUnits, caps);
  const room = cap - interest; // ≥ 0: the product passed total_cost_cap
  const perDay = divRound(principalUnits * product.overdueRatePpm, PPM, 'floor');
  const capDay = capReachedOnDay(room, product.lateFeeUnits, perDay);
  return {
    principalUnits,
    termDays,
    dueInDays: termDays,
    dailyRatePpm: product.dailyRatePpm,
    interestFreeDays: product.interestFreeDays,
    chargeableDays: days,
    interestUnits: interest,
    totalRepayableUnits: total,
    aprBps: aprBps({ principalUnits, totalUnits: total, termDays }),
    simpleAnnualRateBps: simpleAnnualRateBps({ principalUnits, interestUnits: interest, termDays }),
    overdueRatePpm: product.overdueRatePpm,
    overdueInterestPerDayUnits: perDay,
    lateFeeUnits: product.lateFeeUnits,
    costCapUnits: cap,
    overdueChargesMaxUnits: room,
    capReachedOnDay: capDay,
    worstCaseTotalUnits: capDay === null ? total + product.lateFeeUnits : principalUnits + cap,
  };
}

/**
 * What the quoted loan asks for if nothing is repaid until `daysLate` days past due: principal +
 * interest + min(cost cap − interest, late fee + daysLate × overdue interest a day); equal to the sum
 * of `overdueChargeForDay` over those days (property-tested).
 */
export function lateTotalUnits(quote: LoanQuote, daysLate: number): bigint {
  if (!Number.isSafeInteger(daysLate) || daysLate < 0) throw new RangeError('lateTotalUnits: days ≥ 0');
  const base = quote.totalRepayableUnits;
  if (daysLate === 0) return base;
  const charges = quote.lateFeeUnits + BigInt(daysLate) * quote.overdueInterestPerDayUnits;
  return base + (charges < quote.overdueChargesMaxUnits ? charges : quote.overdueChargesMaxUnits);
}
