import { bpsPercentText, toDecimalString } from '@bourse/money';
import type {
  AdminLoanApplicantData,
  JurisdictionProfileId,
  Lang,
  LoanCapsData,
  LoanData,
  Localized,
  RequiredTier,
} from '@bourse/protocol';
import {
  type CreditTier,
  daysPastDue,
  LOAN_CAPS,
  LOAN_SCALE,
  type LoanCaps,
  type LoanProduct,
  type LoanQuote,
  type LoanState,
  outstandingUnits,
  ppmPercentText,
} from '@bourse/risk';
import type { Logger } from 'pino';
import type { Db, Tx } from '../../db/database.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Contact } from '../accounts/index.ts';
import { type AccountRef, familyCode, type Ledger, type PlatformCode } from '../ledger/index.ts';
import type { Notifier } from '../notify/index.ts';
import type { Uploads } from '../uploads/index.ts';
import type { LoanRow, ProductRow } from './repo.ts';
import type { StoredCaps, StoredLoanState, StoredQuote } from './tables.ts';

/**
 * What the parts of the loans module share: their dependencies (ports injected by wiring.ts), the
 * ledger accounts, the conversions between `@bourse/risk` values and their stored form, and the
 * wire form of a loan. Every figure comes from `@bourse/risk`; nothing here computes money.
 */

/** Loans are paid into and repaid from this customer account (the one deposits credit). */
export const MAIN_ACCOUNT_TYPE = 'spot' as const;
export const CURRENCY = 'USDT' as const;
/** A loan-day is 24 hours from the disbursement instant (no time zone: day d ends d × 24 h after it). */
export const DAY_MS = 86_400_000;
/** Loans one job step takes per batch (each loan-day in its own transaction). */
export const JOB_BATCH = 200;
/** How often the loans job looks for due loan-days and reminders (on the injected clock). */
export const LOANS_JOB_INTERVAL_MS = 60_000;

/** The customer's figures the credit score needs from other modules (verification, accounts, the ledger). */
export type CreditInputs = {
  verificationTier: CreditTier;
  accountAgeDays: number;
  depositTotalUnits: bigint;
  tradingVolumeUnits: bigint;
};

export type LoansDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  audit: AuditLog;
  /** The active jurisdiction profile (modules/jurisdiction): it picks the loan caps. */
  activeProfile: () => Promise<JurisdictionProfileId>;
  /** Refuses unless the customer has the verification the profile asks for (modules/verification). */
  requireFeature: (customerId: string, feature: 'loans' | 'credit_score') => Promise<void>;
  /**
   * The tier the active profile requires for the feature (modules/verification `featureTier`):
   * `lendList`, `getCreditScore` and the queue's scores carry it, so the rule is shown before
   * `requireFeature` refuses.
   */
  featureTier: (feature: 'loans' | 'credit_score') => Promise<RequiredTier>;
  /** Refuses an amount (USDT minor units) above the rating's loans cap (modules/suitability `checkCap`). */
  checkCap: (customerId: string, amountUnits: bigint) => Promise<void>;
  /** The score's inputs from other modules (wiring.ts: verification tier, account age, ledger figures). */
  creditInputs: (customerId: string) => Promise<CreditInputs>;
  /** Proofs and vouchers are uploads claimed with `attach`; staff see them through audited links. */
  uploads: Pick<Uploads, 'attach' | 'staffLinks'>;
  /** Until when a claimed document is kept (modules/verification's rule). */
  documentRetainUntil: (at: Date) => Promise<Date>;
  /** Messages to customers (after the commit; a failure is logged). */
  notifier?: Pick<Notifier, 'send'>;
  contacts?: { contactOf(customerId: string): Promise<Contact | null> };
  /** Who applied: uid, name, country, verification level, account age (back office). */
  applicants?: (customerIds: readonly string[]) => Promise<Map<string, AdminLoanApplicantData>>;
  customerByUid?: (uid: string) => Promise<string | null>;
  /** Test hook: runs inside a loan-day's transaction after its ledger entry (a crash there rolls it back). */
  afterDayPost?: (loanId: string, day: number) => void | Promise<void>;
};

export type Q = Db | Tx;

/**
 * The active profile's `loans` and `credit_score` verification rules (`none`: no verification step),
 * as `lendList`, `getCreditScore` and the queue's scores carry them: shown before they refuse.
 */
export async function ruleTiers(
  deps: Pick<LoansDeps, 'featureTier'>,
): Promise<{ loans_tier: RequiredTier; score_tier: RequiredTier }> {
  const [loans_tier, score_tier] = await Promise.all([
    deps.featureTier('loans'),
    deps.featureTier('credit_score'),
  ]);
  return { loans_tier, score_tier };
}

// ---- ledger accounts

export const lenderPlatform = (code: string): PlatformCode => familyCode('loan_lender_', code);
export const lenderAccount = (code: string): AccountRef => ({ book: 'real', platform: lenderPlatform(code) });
export const LOAN_BOOK: AccountRef = { book: 'real', platform: 'loan_book' };
export const customerSpot = (customerId: string): AccountRef => ({
  book: 'real',
  customerId,
  accountType: MAIN_ACCOUNT_TYPE,
});

// ---- caps and products

/**
 * The loan caps of a jurisdiction profile: `eu_retail` the strict one (`LOAN_CAPS.eu_retail`, the UK's
 * high-cost short-term credit cap); `permissive` and `custom` the looser finite ones (custom has no
 * loan caps of its own yet: it follows permissive, as its verification rules do by default).
 */
export function capsOf(profile: JurisdictionProfileId): LoanCaps {
  return profile === 'eu_retail' ? LOAN_CAPS.eu_retail : LOAN_CAPS.permissive;
}

export function storedCaps(profile: JurisdictionProfileId, caps: LoanCaps): StoredCaps {
  return {
    profile,
    dailyRateMaxPpm: caps.dailyRateMaxPpm.toString(),
    totalCostMaxPpm: caps.totalCostMaxPpm.toString(),
    lateFeeMaxUnits: caps.lateFeeMaxUnits.toString(),
  };
}

export function capsFrom(s: StoredCaps): LoanCaps {
  return {
    dailyRateMaxPpm: BigInt(s.dailyRateMaxPpm),
    totalCostMaxPpm: BigInt(s.totalCostMaxPpm),
    lateFeeMaxUnits: BigInt(s.lateFeeMaxUnits),
  };
}

export function capsData(profile: JurisdictionProfileId, caps: LoanCaps): LoanCapsData {
  return {
    profile,
    daily_rate_max: ppmPercentText(caps.dailyRateMaxPpm),
    total_cost_max: ppmPercentText(caps.totalCostMaxPpm),
    late_fee_max: usdt(caps.lateFeeMaxUnits),
  };
}

export function productOf(p: ProductRow): LoanProduct {
  return {
    amountMinUnits: BigInt(p.amount_min_units),
    amountMaxUnits: BigInt(p.amount_max_units),
    termDays: p.term_days,
    dailyRatePpm: BigInt(p.daily_rate_ppm),
    interestFreeDays: p.interest_free_days,
    overdueRatePpm: BigInt(p.overdue_rate_ppm),
    lateFeeUnits: BigInt(p.late_fee_units),
  };
}

// ---- stored forms of the quote and the state

export function storedQuote(q: LoanQuote): StoredQuote {
  return Object.fromEntries(
    Object.entries(q).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]),
  ) as StoredQuote;
}

const big = (v: string | number | null | undefined): bigint => BigInt(v ?? 0);

/** The accepted quote's figures, as bigints again (the stored quote is `quoteLoan`'s result). */
export function quoteFrom(s: StoredQuote) {
  return {
    interestUnits: big(s.interestUnits),
    totalRepayableUnits: big(s.totalRepayableUnits),
    aprBps: big(s.aprBps),
    costCapUnits: big(s.costCapUnits),
    worstCaseTotalUnits: big(s.worstCaseTotalUnits),
    overdueRatePpm: big(s.overdueRatePpm),
    lateFeeUnits: big(s.lateFeeUnits),
    dailyRatePpm: big(s.dailyRatePpm),
    interestFreeDays: Number(s.interestFreeDays),
  };
}

export function storedState(s: LoanState): StoredLoanState {
  const t = s.terms;
  return {
    terms: {
      principalUnits: t.principalUnits.toString(),
      termDays: t.termDays,
      dailyRatePpm: t.dailyRatePpm.toString(),
      interestFreeDays: t.interestFreeDays,
      overdueRatePpm: t.overdueRatePpm.toString(),
      lateFeeUnits: t.lateFeeUnits.toString(),
      costCapUnits: t.costCapUnits.toString(),
    },
    outstanding: {
      feesUnits: s.outstanding.feesUnits.toString(),
      interestUnits: s.outstanding.interestUnits.toString(),
      principalUnits: s.outstanding.principalUnits.toString(),
    },
    accruedDays: s.accruedDays,
    accrualRemainder: s.accrualRemainder.toString(),
    overdueDaysCharged: s.overdueDaysCharged,
    costChargedUnits: s.costChargedUnits.toString(),
  };
}

export function stateFrom(s: StoredLoanState): LoanState {
  const t = s.terms;
  return {
    terms: {
      principalUnits: BigInt(t.principalUnits),
      termDays: t.termDays,
      dailyRatePpm: BigInt(t.dailyRatePpm),
      interestFreeDays: t.interestFreeDays,
      overdueRatePpm: BigInt(t.overdueRatePpm),
      lateFeeUnits: BigInt(t.lateFeeUnits),
      costCapUnits: BigInt(t.costCapUnits),
    },
    outstanding: {
      feesUnits: BigInt(s.outstanding.feesUnits),
      interestUnits: BigInt(s.outstanding.interestUnits),
      principalUnits: BigInt(s.outstanding.principalUnits),
    },
    accruedDays: s.accruedDays,
    accrualRemainder: BigInt(s.accrualRemainder),
    overdueDaysCharged: s.overdueDaysCharged,
    costChargedUnits: BigInt(s.costChargedUnits),
  };
}

// ---- formatting and days

export const usdt = (units: bigint | string): string => toDecimalString(BigInt(units), LOAN_SCALE);
export const rateText = (ppm: bigint | string): string => ppmPercentText(BigInt(ppm));
export const aprText = (bps: bigint): string => bpsPercentText(bps);

export function localized(map: Localized, lang: Lang): string {
  return map[lang] ?? map.en;
}

const ms = (d: Date | null) => (d === null ? null : d.getTime());

/** Whole loan-days since disbursement at `now` (0 on the disbursement day). */
export function daysElapsed(disbursedAt: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - disbursedAt.getTime()) / DAY_MS));
}

/** When loan-day `day` ends (and is charged). */
export function dayEndsAt(disbursedAt: Date, day: number): Date {
  return new Date(disbursedAt.getTime() + day * DAY_MS);
}

/** The wire form of an application or loan at `now`. */
export function loanData(row: LoanRow, names: { product: string; lender: string }, now: Date): LoanData {
  const q = quoteFrom(row.quote);
  const state = row.loan_state === null ? null : stateFrom(row.loan_state);
  const elapsed = row.disbursed_at === null ? null : daysElapsed(row.disbursed_at, now);
  const running = state !== null && row.state !== 'cleared' && row.state !== 'written_off';
  const o = state?.outstanding;
  return {
    loan_id: row.id,
    product_id: row.product_id,
    product_name: names.product,
    state: row.state,
    previous_id: row.previous_id,
    next_id: row.next_id,
    amount: usdt(row.amount_units),
    term_days: row.term_days,
    daily_rate: rateText(q.dailyRatePpm),
    interest_free_days: q.interestFreeDays,
    overdue_rate: rateText(q.overdueRatePpm),
    late_fee: usdt(q.lateFeeUnits),
    interest: usdt(q.interestUnits),
    total_repayable: usdt(q.totalRepayableUnits),
    apr: aprText(q.aprBps),
    cost_cap: usdt(q.costCapUnits),
    worst_case_total: usdt(q.worstCaseTotalUnits),
    lender: names.lender,
    agreement_version: row.agreement_version,
    agreement_accepted_at: row.agreement_accepted_at.getTime(),
    proof_ids: row.proof_ids,
    created_at: row.created_at.getTime(),
    withdrawn_at: ms(row.withdrawn_at),
    decided_at: ms(row.decided_at),
    reject_reason: row.reject_reason,
    awaiting_second: row.state === 'unreviewed' && row.first_approved_by !== null,
    disbursed_at: ms(row.disbursed_at),
    due_at: ms(row.due_at),
    days_elapsed: elapsed,
    days_past_due: elapsed === null || !running ? null : daysPastDue(row.term_days, elapsed),
    outstanding:
      o === undefined || row.state === 'written_off'
        ? null
        : {
            principal: usdt(o.principalUnits),
            interest: usdt(o.interestUnits),
            fees: usdt(o.feesUnits),
            total: usdt(outstandingUnits(state as LoanState)),
          },
    charged: usdt(state?.costChargedUnits ?? 0n),
    repaid: usdt(row.repaid_units),
    cleared_at: ms(row.cleared_at),
    cleared_late: row.cleared_late,
  };
}
