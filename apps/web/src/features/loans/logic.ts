import { parseDecimal, scaleOf, toDecimalString } from '@bourse/money';
import type {
  LoanData,
  LoanDetailData,
  LoanOutstandingData,
  LoanProductData,
  LoanRepaymentMethod,
  LoanStatus,
  RequiredTier,
  VerificationTier,
} from '@bourse/protocol';

/**
 * Pure logic of the loan screens (modules/loans): the amount fields' checks, whether a customer may
 * apply before trying (by the active profile's rules, which the server's data carries), how a repayment is applied (fees, then interest, then principal — the
 * server's `applyRepayment` order), the schedule's lines and where a refusal sends the customer.
 * Amounts are bigint units of USDT (`@bourse/money`), never a float. Every figure of a loan itself
 * (interest, APR, caps, payoff) is the server's; nothing here prices a loan.
 */

export const USDT_SCALE = scaleOf('USDT');

/** Routes of the loan screens (spec: no route parameters, ids in the query string). */
export const LOAN_ROUTES = {
  score: '/xinyongfen',
  apply: '/credit',
  list: '/repayment2',
  loan: (loanId: string) => `/repaymentNew?loan_id=${encodeURIComponent(loanId)}`,
  reapply: (loanId: string) => `/credit?reapply_of=${encodeURIComponent(loanId)}`,
} as const;

export const STATE_COLORS: Readonly<Record<LoanStatus, string>> = {
  unreviewed: 'blue',
  disbursed: 'teal',
  repaying: 'cyan',
  cleared: 'gray',
  overdue: 'red',
  rejected: 'orange',
  withdrawn: 'gray',
  re_applied: 'grape',
  written_off: 'pink',
};

/** States a loan can be repaid in (the server's `LOAN_NOT_REPAYABLE` otherwise). */
export function isRepayable(state: LoanStatus): boolean {
  return state === 'disbursed' || state === 'repaying' || state === 'overdue';
}

/** Units of a USDT amount; null unless a plain positive decimal with at most the scale's digits. */
export function usdtUnits(text: string): bigint | null {
  const parsed = parseDecimal(text.trim(), { scale: USDT_SCALE, allowZero: false });
  return parsed.ok ? parsed.units : null;
}

const units = (text: string): bigint => usdtUnits(text) ?? 0n;
const decimal = (value: bigint): string => toDecimalString(value, USDT_SCALE);

export type AmountProblem =
  | { kind: 'invalid' }
  | { kind: 'belowMin'; min: string }
  | { kind: 'aboveMax'; max: string }
  | { kind: 'aboveLimit'; limit: string };

/**
 * Checks a typed loan amount against the product's bounds and my limit (null when not known): the
 * server checks again, this only says it before the customer tries.
 */
export function amountProblem(
  text: string,
  product: Pick<LoanProductData, 'amount_min' | 'amount_max'>,
  limit: string | null,
): AmountProblem | null {
  if (text.trim() === '') return null;
  const value = usdtUnits(text);
  if (value === null) return { kind: 'invalid' };
  if (value < units(product.amount_min)) return { kind: 'belowMin', min: product.amount_min };
  if (value > units(product.amount_max)) return { kind: 'aboveMax', max: product.amount_max };
  if (limit !== null && value > (usdtUnits(limit) ?? 0n)) return { kind: 'aboveLimit', limit };
  return null;
}

/** What stops an application before it is tried, in the order the server checks them. */
export type ApplyBlocker =
  | { kind: 'login' }
  | { kind: 'demo' }
  | { kind: 'verification'; tier: VerificationTier }
  | { kind: 'open'; loan: LoanData }
  | { kind: 'noLimit' };

/**
 * Before trying: logged in, a real account, the verification the active profile's `loans` rule asks
 * (`loansTier` from `lendList`; `none`: no verification step; `loansVerified` from `lendMy`, null
 * while not known), nothing in progress, a limit above zero. `scoreRefusal` is the reason
 * `getCreditScore` was refused with, if any (a demo account is refused there first).
 */
export function applyBlocker(o: {
  signedIn: boolean;
  scoreRefusal: string | null;
  loansTier: RequiredTier | null;
  loansVerified: boolean | null;
  open: LoanData | null;
  limit: string | null;
}): ApplyBlocker | null {
  if (!o.signedIn) return { kind: 'login' };
  if (o.scoreRefusal === 'REAL_ACCOUNT_REQUIRED') return { kind: 'demo' };
  if (o.loansTier !== null && o.loansTier !== 'none' && o.loansVerified === false)
    return { kind: 'verification', tier: o.loansTier };
  if (o.open !== null) return { kind: 'open', loan: o.open };
  if (o.limit !== null && usdtUnits(o.limit) === null) return { kind: 'noLimit' };
  return null;
}

/** Where each verification tier is completed. */
export const VERIFICATION_LINKS: Readonly<Record<VerificationTier, string>> = {
  primary: '/authentication',
  advanced: '/authenticationhigh',
  address: '/dzrz',
};

const TIER_OF_REFUSAL: Readonly<Record<string, VerificationTier>> = {
  VERIFICATION_PRIMARY_REQUIRED: 'primary',
  VERIFICATION_ADVANCED_REQUIRED: 'advanced',
  VERIFICATION_ADDRESS_REQUIRED: 'address',
};

/** The tier a VERIFICATION_<TIER>_REQUIRED refusal names (its `tier` param, else its code); null for others. */
export function refusedTier(
  reason: string | undefined,
  params?: Record<string, unknown>,
): VerificationTier | null {
  const named = TIER_OF_REFUSAL[reason ?? ''];
  if (named === undefined) return null;
  const tier = params?.tier;
  return tier === 'primary' || tier === 'advanced' || tier === 'address' ? tier : named;
}

export type Parts = { fees: string; interest: string; principal: string };

export type RepaymentPreview = {
  paid: Parts;
  after: Parts & { total: string };
  /** Beyond everything owed: not taken (the server refuses the amount instead). */
  unapplied: string;
};

/**
 * How `amount` is applied to what is outstanding: fees first, then interest, then the principal (the
 * server's `applyRepayment`). The server first charges interest to today, so the figures are those of
 * the outstanding parts it sent; null for an amount that is not a positive USDT amount.
 */
export function repaymentPreview(outstanding: LoanOutstandingData, amount: string): RepaymentPreview | null {
  let left = usdtUnits(amount);
  if (left === null) return null;
  const take = (owed: bigint): bigint => {
    const part = owed < (left as bigint) ? owed : (left as bigint);
    left = (left as bigint) - part;
    return part;
  };
  const owed = {
    fees: units(outstanding.fees),
    interest: units(outstanding.interest),
    principal: units(outstanding.principal),
  };
  const fees = take(owed.fees);
  const interest = take(owed.interest);
  const principal = take(owed.principal);
  const after = {
    fees: owed.fees - fees,
    interest: owed.interest - interest,
    principal: owed.principal - principal,
  };
  return {
    paid: { fees: decimal(fees), interest: decimal(interest), principal: decimal(principal) },
    after: {
      fees: decimal(after.fees),
      interest: decimal(after.interest),
      principal: decimal(after.principal),
      total: decimal(after.fees + after.interest + after.principal),
    },
    unapplied: decimal(left),
  };
}

/** What repaying everything now takes: the server's payoff (interest to date), else what is outstanding. */
export function fullAmount(detail: Pick<LoanDetailData, 'payoff' | 'loan'>): string | null {
  return detail.payoff?.total ?? detail.loan.outstanding?.total ?? null;
}

export type RepayProblem =
  | { kind: 'invalid' }
  | { kind: 'aboveOwed'; owed: string }
  | { kind: 'voucherMissing' };

/** Checks a repayment before it is sent: a positive amount, not above what everything takes, a voucher when by transfer. */
export function repayProblem(o: {
  amount: string;
  owed: string | null;
  method: LoanRepaymentMethod;
  voucherId: string | null;
}): RepayProblem | null {
  if (o.amount.trim() === '') return null;
  const value = usdtUnits(o.amount);
  if (value === null) return { kind: 'invalid' };
  if (o.owed !== null && value > units(o.owed)) return { kind: 'aboveOwed', owed: o.owed };
  if (o.method === 'voucher' && !o.voucherId) return { kind: 'voucherMissing' };
  return null;
}

/** The contractual schedule in lines: free days, the days that bear interest, the due day. */
export function planOf(loan: Pick<LoanData, 'term_days' | 'interest_free_days'>): {
  freeDays: number;
  interestFrom: number | null;
  interestTo: number;
  term: number;
} {
  const freeDays = Math.min(loan.interest_free_days, loan.term_days);
  return {
    freeDays,
    interestFrom: freeDays < loan.term_days ? freeDays + 1 : null,
    interestTo: loan.term_days,
    term: loan.term_days,
  };
}

/** Where a refusal can be fixed. */
export type RefusalFix = 'verification' | 'advanced' | 'myLoans' | 'funds' | 'score' | null;

export function refusalFix(code: string): RefusalFix {
  switch (code) {
    case 'VERIFICATION_PRIMARY_REQUIRED':
    case 'VERIFICATION_ADDRESS_REQUIRED':
      return 'verification';
    case 'VERIFICATION_ADVANCED_REQUIRED':
      return 'advanced';
    case 'LOAN_OPEN_EXISTS':
    case 'LOAN_NOT_WITHDRAWABLE':
    case 'LOAN_NOT_REPAYABLE':
      return 'myLoans';
    case 'INSUFFICIENT_BALANCE':
      return 'funds';
    case 'LOAN_LIMIT_EXCEEDED':
      return 'score';
    default:
      return null;
  }
}

export const REFUSAL_LINKS: Record<Exclude<RefusalFix, null>, string> = {
  verification: '/authentication',
  advanced: '/authenticationhigh',
  myLoans: LOAN_ROUTES.list,
  funds: '/table1',
  score: LOAN_ROUTES.score,
};

/** A page count for `total` items at `pageSize` a page (at least one page). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}
