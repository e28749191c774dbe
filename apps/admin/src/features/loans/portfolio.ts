import { sumDecimals } from '@bourse/money';
import { type AdminLoanData, LOAN_OPEN_STATES, LOAN_STATES, type LoanStatus } from '@bourse/protocol';

/**
 * The portfolio, summed from the loan list the server gives (it has no portfolio call): what open
 * loans owe (principal, interest, fees), the overdue buckets by days past due, and the income charged
 * and received. Exact decimal sums (@bourse/money), never floats.
 */

export const BUCKETS = ['current', 'd1_7', 'd8_30', 'd31_60', 'd61'] as const;
export type Bucket = (typeof BUCKETS)[number];

/** current: not past due; then 1–7, 8–30, 31–60 and more than 60 days past due. */
export function bucketOf(daysPastDue: number | null): Bucket {
  const d = daysPastDue ?? 0;
  if (d <= 0) return 'current';
  if (d <= 7) return 'd1_7';
  if (d <= 30) return 'd8_30';
  if (d <= 60) return 'd31_60';
  return 'd61';
}

export type Owed = { principal: string; interest: string; fees: string; total: string };
export type BucketRow = { bucket: Bucket; count: number; owed: Owed };

export type Portfolio = {
  /** Loans paid out and not cleared (disbursed, repaying, overdue). */
  open: number;
  owed: Owed;
  buckets: BucketRow[];
  /**
   * Interest, overdue interest and fees charged on every disbursed loan not written off; what of it is
   * still owed; the rest was received. A written-off loan's charges are left out (the list does not
   * split what was received of them from what was written off).
   */
  income: { charged: string; owed: string; received: string };
  /** Principal paid out over every disbursed loan, and everything repaid. */
  disbursed: string;
  repaid: string;
  counts: Record<LoanStatus, number>;
};

const OPEN: readonly LoanStatus[] = LOAN_OPEN_STATES.filter((s) => s !== 'unreviewed');

function owedOf(loans: readonly AdminLoanData[]): Owed {
  const part = (key: keyof Owed) => sumDecimals(loans.map((l) => l.outstanding?.[key] ?? '0'));
  return {
    principal: part('principal'),
    interest: part('interest'),
    fees: part('fees'),
    total: part('total'),
  };
}

function difference(a: string, b: string): string {
  return sumDecimals([a, b.startsWith('-') ? b.slice(1) : `-${b}`]);
}

export function portfolioOf(loans: readonly AdminLoanData[]): Portfolio {
  const open = loans.filter((l) => OPEN.includes(l.state));
  const paidOut = loans.filter((l) => l.disbursed_at !== null);
  const counts = Object.fromEntries(
    LOAN_STATES.map((s) => [s, loans.filter((l) => l.state === s).length]),
  ) as Record<LoanStatus, number>;
  const owed = owedOf(open);
  const charged = sumDecimals(paidOut.filter((l) => l.state !== 'written_off').map((l) => l.charged));
  const chargesOwed = sumDecimals([owed.interest, owed.fees]);
  return {
    open: open.length,
    owed,
    buckets: BUCKETS.map((bucket) => {
      const inBucket = open.filter((l) => bucketOf(l.days_past_due) === bucket);
      return { bucket, count: inBucket.length, owed: owedOf(inBucket) };
    }),
    income: { charged, owed: chargesOwed, received: difference(charged, chargesOwed) },
    disbursed: sumDecimals(paidOut.map((l) => l.amount)),
    repaid: sumDecimals(paidOut.map((l) => l.repaid)),
    counts,
  };
}
