import { compareDecimal, parseDecimal, toDecimalString } from '@bourse/money';
import {
  type AdminLoanProductBody,
  type JurisdictionProfileId,
  LANGS,
  type Lang,
  LOAN_LIMITS,
} from '@bourse/protocol';
import {
  checkProductAgainstCaps,
  LOAN_CAPS,
  LOAN_SCALE,
  type LoanCaps,
  type LoanProduct,
  type LoanProductField,
  type LoanProductViolation,
  type LoanQuote,
  type LoanRequestProblem,
  loanRequestProblem,
  ppmFromPercent,
  ppmPercentText,
  quoteLoan,
} from '@bourse/risk';

/**
 * The back office's loan-product form as text (what the inputs hold) and back, and its preview: the
 * quote a customer would see for a sample amount and term (`quoteLoan`, the server's own maths) or
 * every cap the product breaks (`checkProductAgainstCaps`), so staff see the refusal before saving.
 * The server checks the same rules again and refuses by field (`LOAN_PRODUCT_CAPS`).
 */

export type ProductForm = {
  names: Record<Lang, string>;
  descriptions: Record<Lang, string>;
  lender_id: string;
  amount_min: string;
  amount_max: string;
  /** Terms in days, separated by commas or spaces ("7, 14, 30"). */
  term_days: string;
  /** Percent a day ("0.1"). */
  daily_rate: string;
  interest_free_days: string;
  overdue_rate: string;
  late_fee: string;
  reason: string;
  /** The preview's sample request (not sent). */
  sample_amount: string;
  sample_term: string;
};

export function emptyProductForm(): ProductForm {
  const blank = { en: '', zh: '', ft: '' };
  return {
    names: { ...blank },
    descriptions: { ...blank },
    lender_id: '',
    amount_min: '100',
    amount_max: '1000',
    term_days: '7, 14, 30',
    daily_rate: '0.1',
    interest_free_days: '3',
    overdue_rate: '0.2',
    late_fee: '10',
    reason: '',
    sample_amount: '500',
    sample_term: '30',
  };
}

/** The caps the server holds products to under a profile (`custom` has no loan caps of its own yet). */
export function capsOfProfile(profile: JurisdictionProfileId): LoanCaps {
  return profile === 'eu_retail' ? LOAN_CAPS.eu_retail : LOAN_CAPS.permissive;
}

/** Caps as staff read them: percent a day, percent of the principal, USDT. */
export function capsText(caps: LoanCaps) {
  return {
    daily_rate_max: ppmPercentText(caps.dailyRateMaxPpm),
    total_cost_max: ppmPercentText(caps.totalCostMaxPpm),
    late_fee_max: usdtText(caps.lateFeeMaxUnits),
  };
}

export const usdtText = (units: bigint): string => toDecimalString(units, LOAN_SCALE);

function usdtUnits(text: string): bigint | null {
  const parsed = parseDecimal(text.trim(), { scale: LOAN_SCALE, maxIntegerDigits: 12 });
  return parsed.ok ? parsed.units : null;
}

function wholeOf(text: string): number | null {
  return /^[0-9]{1,6}$/.test(text.trim()) ? Number(text.trim()) : null;
}

/** "7, 14 30" → [7, 14, 30]; null when any piece is not a whole number. */
export function termsOf(text: string): number[] | null {
  const pieces = text.split(/[\s,，]+/).filter((p) => p !== '');
  const terms = pieces.map(wholeOf);
  return terms.some((d) => d === null) ? null : (terms as number[]);
}

/** Fields typed as something that is not a number of their kind. */
export type UnreadableField = LoanProductField;

/** The product the inputs describe, or the fields that cannot be read as numbers. */
export function productOf(form: ProductForm): { product: LoanProduct | null; unreadable: UnreadableField[] } {
  const values = {
    amount_min: usdtUnits(form.amount_min),
    amount_max: usdtUnits(form.amount_max),
    term_days: termsOf(form.term_days),
    daily_rate: ppmFromPercent(form.daily_rate.trim()),
    interest_free_days: wholeOf(form.interest_free_days),
    overdue_rate: ppmFromPercent(form.overdue_rate.trim()),
    late_fee: usdtUnits(form.late_fee),
  };
  const unreadable = (Object.keys(values) as UnreadableField[]).filter((k) => values[k] === null);
  if (unreadable.length > 0) return { product: null, unreadable };
  return {
    unreadable,
    product: {
      amountMinUnits: values.amount_min as bigint,
      amountMaxUnits: values.amount_max as bigint,
      termDays: values.term_days as number[],
      dailyRatePpm: values.daily_rate as bigint,
      interestFreeDays: values.interest_free_days as number,
      overdueRatePpm: values.overdue_rate as bigint,
      lateFeeUnits: values.late_fee as bigint,
    },
  };
}

export type ProductPreview =
  | { kind: 'unreadable'; fields: UnreadableField[] }
  | { kind: 'breaks'; violations: LoanProductViolation[] }
  | { kind: 'sample'; problem: LoanRequestProblem | 'unreadable' }
  | { kind: 'quote'; quote: LoanQuote };

/**
 * What the form would give: unreadable fields, the caps it breaks (it cannot be saved), a sample
 * request the product does not allow, or the customer's quote for the sample.
 */
export function productPreview(form: ProductForm, caps: LoanCaps): ProductPreview {
  const { product, unreadable } = productOf(form);
  if (!product) return { kind: 'unreadable', fields: unreadable };
  const violations = checkProductAgainstCaps(product, caps);
  if (violations.length > 0) return { kind: 'breaks', violations };
  const amountUnits = usdtUnits(form.sample_amount);
  const termDays = wholeOf(form.sample_term);
  if (amountUnits === null || termDays === null) return { kind: 'sample', problem: 'unreadable' };
  const problem = loanRequestProblem({ product, amountUnits, termDays });
  if (problem) return { kind: 'sample', problem };
  return { kind: 'quote', quote: quoteLoan({ product, caps, amountUnits, termDays }) };
}

/** A violation's bound in the field's unit: USDT for amounts and fees, percent for rates, days. */
export function limitText(v: Pick<LoanProductViolation, 'field' | 'rule' | 'limit'>): string {
  if (v.limit === null) return '';
  if (v.field === 'daily_rate' || v.field === 'overdue_rate') return ppmPercentText(v.limit);
  if (v.field === 'amount_min' || v.field === 'amount_max' || v.field === 'late_fee')
    return usdtText(v.limit);
  return v.limit.toString();
}

export type FormField = `names.${Lang}` | `descriptions.${Lang}` | 'lender_id' | UnreadableField | 'reason';

/** Every field the server would refuse before the caps: missing texts, no lender, unreadable numbers, a short reason. */
export function formProblems(form: ProductForm): FormField[] {
  const out: FormField[] = [];
  for (const lang of LANGS) {
    const name = form.names[lang].trim();
    if (name === '' || name.length > LOAN_LIMITS.nameMax) out.push(`names.${lang}`);
  }
  for (const lang of LANGS) {
    const text = form.descriptions[lang].trim();
    if (text === '' || text.length > LOAN_LIMITS.textMax) out.push(`descriptions.${lang}`);
  }
  if (form.lender_id === '') out.push('lender_id');
  out.push(...productOf(form).unreadable);
  const reason = form.reason.trim().length;
  if (reason < LOAN_LIMITS.reasonMin || reason > LOAN_LIMITS.reasonMax) out.push('reason');
  return out;
}

const trimmed = (texts: Record<Lang, string>) =>
  Object.fromEntries(LANGS.map((l) => [l, texts[l].trim()])) as Record<Lang, string>;

/** The body of `POST admin/loans/products` (call only when `formProblems` is empty). */
export function bodyOf(form: ProductForm): Omit<AdminLoanProductBody, 'lang' | 'rtoken' | 'token'> {
  return {
    names: trimmed(form.names),
    descriptions: trimmed(form.descriptions),
    lender_id: form.lender_id,
    amount_min: form.amount_min.trim(),
    amount_max: form.amount_max.trim(),
    term_days: termsOf(form.term_days) ?? [],
    daily_rate: form.daily_rate.trim(),
    interest_free_days: wholeOf(form.interest_free_days) ?? 0,
    overdue_rate: form.overdue_rate.trim(),
    late_fee: form.late_fee.trim(),
    reason: form.reason.trim(),
  };
}

/** Whether an approval of `amount` stays within a customer's `limit` (both USDT decimal strings). */
export function withinLimit(amount: string, limit: string): boolean {
  return compareDecimal(amount, limit) <= 0;
}
