/**
 * The withdrawal policy as form fields: typed values in, the rule's parameters out, with the
 * same checks the server makes (it stays the authority and refuses by name: `WITHDRAW_RULE_RANGE`,
 * `WITHDRAW_RULE_MIN_ABOVE_MAX`, `BAD_INPUT`). Money never goes through a float: amounts are
 * decimal strings compared and scaled as bigint; the fee is typed in percent (two decimals) and
 * sent in basis points.
 */
import {
  applyBps,
  scaleOf as assetScaleOf,
  DEFAULT_CRYPTO_SCALE,
  parseUnitsOrThrow,
  ROUND_CHARGE,
  toDecimalString,
} from '@bourse/money';

export type RuleCode =
  | 'currency_chain'
  | 'window'
  | 'min_amount'
  | 'max_amount'
  | 'fee'
  | 'daily_count'
  | 'turnover';
export type Rule = { code: RuleCode; enabled: boolean; params: Record<string, unknown> };

/** Form fields of each rule (all strings, as typed). */
export type Fields = Record<string, string>;
/** A field's problem: an i18n key under `admin.policy.errors` and its values. */
export type ProblemKey =
  | 'required'
  | 'pairs'
  | 'time'
  | 'sameTime'
  | 'timezone'
  | 'amount'
  | 'scale'
  | 'positive'
  | 'currency'
  | 'minAboveMax'
  | 'percent'
  | 'whole';
export type Problem = { key: ProblemKey; values?: Record<string, string | number> };
/** The form's field names (i18n `admin.policy.fields`). */
export type FieldName =
  | 'enabled'
  | 'allowed'
  | 'start'
  | 'end'
  | 'timezone'
  | 'amount'
  | 'currency'
  | 'address_bps'
  | 'bank_bps'
  | 'max'
  | 'percent';

/** What a withdrawal can be in; their scales are @bourse/money's `ASSET_SCALES`. */
export const CURRENCIES: readonly string[] = ['USDT', 'USDC', 'BTC', 'ETH', 'TRX'];
/** The server's bounds (`INT_BOUNDS` in policy.ts). Fees: 0–5,000 bps = 0–50 %. */
export const BOUNDS = {
  fee: [0, 5_000],
  daily: [1, 1_000],
  turnover: [0, 1_000],
} as const;
export const TIMEZONES = ['Asia/Hong_Kong', 'Asia/Shanghai', 'Asia/Taipei', 'Asia/Singapore', 'UTC'];
const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const PAIR = /^[A-Z0-9]{2,10}\/[A-Z0-9]{2,10}$/;
const DECIMAL = /^\d{1,13}(?:\.\d+)?$/;

/** Decimal string → minor units at a scale (the caller checked the format and scale), exactly. */
export function toUnits(value: string, scale: number): bigint {
  return parseUnitsOrThrow(value, { scale });
}

/** Minor units → decimal string without trailing zeros. */
export function fromUnits(units: bigint, scale: number): string {
  return toDecimalString(units, scale);
}

export const scaleOf = (currency: string) =>
  CURRENCIES.includes(currency) ? assetScaleOf(currency) : DEFAULT_CRYPTO_SCALE;

/** Basis points as a percent text (500 → "5"), and back ("5.25" → 525; null when not two decimals). */
export const bpsToPercent = (bps: number) => fromUnits(BigInt(bps), 2);
export function percentToBps(text: string): number | null {
  if (!/^\d{1,2}(?:\.\d{1,2})?$/.test(text.trim())) return null;
  return Number(toUnits(text.trim(), 2));
}

/** The fields a rule's form starts with. */
export function fieldsOf(rule: Rule): Fields {
  const p = rule.params;
  switch (rule.code) {
    case 'currency_chain':
      return { allowed: ((p.allowed as string[]) ?? []).join(', ') };
    case 'window':
      return { start: String(p.start ?? ''), end: String(p.end ?? ''), timezone: String(p.timezone ?? '') };
    case 'min_amount':
    case 'max_amount':
      return { amount: String(p.amount ?? ''), currency: String(p.currency ?? '') };
    case 'fee':
      return {
        address_bps: bpsToPercent(Number(p.address_bps ?? 0)),
        bank_bps: bpsToPercent(Number(p.bank_bps ?? 0)),
      };
    case 'daily_count':
      return { max: String(p.max ?? ''), timezone: String(p.timezone ?? '') };
    case 'turnover':
      return { percent: String(p.percent ?? '') };
  }
}

function whole(text: string, [min, max]: readonly [number, number]): number | Problem {
  if (!/^\d{1,6}$/.test(text.trim())) return { key: 'whole', values: { min, max } };
  const n = Number.parseInt(text, 10);
  return n < min || n > max ? { key: 'whole', values: { min, max } } : n;
}

function isTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return tz.length > 0;
  } catch {
    return false;
  }
}

/**
 * The rule's parameters from its fields, or each bad field's problem. `others` are the other rules
 * as saved (the minimum is checked against the maximum and back).
 */
export function paramsOf(
  code: RuleCode,
  f: Fields,
  others: Partial<Record<RuleCode, Rule>>,
): { params: Record<string, unknown> } | { problems: Record<string, Problem> } {
  const problems: Record<string, Problem> = {};
  const need = (name: string) => {
    const v = (f[name] ?? '').trim();
    if (v === '') problems[name] = { key: 'required' };
    return v;
  };
  let params: Record<string, unknown> = {};
  switch (code) {
    case 'currency_chain': {
      const allowed = need('allowed')
        .split(',')
        .map((x) => x.trim().toUpperCase())
        .filter((x) => x !== '');
      if (!problems.allowed && (allowed.length > 20 || !allowed.every((x) => PAIR.test(x))))
        problems.allowed = { key: 'pairs' };
      params = { allowed };
      break;
    }
    case 'window': {
      const start = need('start');
      const end = need('end');
      const timezone = need('timezone');
      if (start && (!TIME.test(start) || start === '24:00')) problems.start = { key: 'time' };
      if (end && !TIME.test(end)) problems.end = { key: 'time' };
      else if (end && end === start) problems.end = { key: 'sameTime' };
      if (timezone && !isTimezone(timezone)) problems.timezone = { key: 'timezone' };
      params = { start, end, timezone };
      break;
    }
    case 'min_amount':
    case 'max_amount': {
      const amount = need('amount');
      const currency = need('currency');
      const scale = scaleOf(currency);
      if (amount && !DECIMAL.test(amount)) problems.amount = { key: 'amount' };
      else if (amount && (amount.split('.')[1]?.length ?? 0) > scale)
        problems.amount = { key: 'scale', values: { decimals: scale } };
      else if (amount && toUnits(amount, scale) === 0n) problems.amount = { key: 'positive' };
      if (currency && !CURRENCIES.includes(currency)) problems.currency = { key: 'currency' };
      if (!problems.amount && amount) {
        const other = others[code === 'min_amount' ? 'max_amount' : 'min_amount'];
        const theirs = other?.params as { amount?: string; currency?: string } | undefined;
        if (theirs?.amount && theirs.currency === currency) {
          const [min, max] = code === 'min_amount' ? [amount, theirs.amount] : [theirs.amount, amount];
          if (toUnits(min, scale) > toUnits(max, scale))
            problems.amount = { key: 'minAboveMax', values: { min, max, currency } };
        }
      }
      params = { amount, currency };
      break;
    }
    case 'fee': {
      const out: Record<string, number> = {};
      for (const name of ['address_bps', 'bank_bps']) {
        const text = need(name);
        if (!text) continue;
        const bps = percentToBps(text);
        if (bps === null || bps < BOUNDS.fee[0] || bps > BOUNDS.fee[1])
          problems[name] = { key: 'percent', values: { min: 0, max: bpsToPercent(BOUNDS.fee[1]) } };
        else out[name] = bps;
      }
      params = out;
      break;
    }
    case 'daily_count': {
      const max = whole(need('max'), BOUNDS.daily);
      const timezone = need('timezone');
      if (typeof max !== 'number' && !problems.max) problems.max = max;
      if (timezone && !isTimezone(timezone)) problems.timezone = { key: 'timezone' };
      params = { max, timezone };
      break;
    }
    case 'turnover': {
      const percent = whole(need('percent'), BOUNDS.turnover);
      if (typeof percent !== 'number' && !problems.percent) problems.percent = percent;
      params = { percent };
      break;
    }
  }
  return Object.keys(problems).length > 0 ? { problems } : { params };
}

/** What a change does, field by field: old → new, as the staff member typed it. */
export function diffOf(
  before: { enabled: boolean; fields: Fields },
  after: { enabled: boolean; fields: Fields },
): Array<{ field: string; from: string; to: string }> {
  const rows: Array<{ field: string; from: string; to: string }> = [];
  if (before.enabled !== after.enabled)
    rows.push({ field: 'enabled', from: String(before.enabled), to: String(after.enabled) });
  for (const field of Object.keys(after.fields)) {
    const from = (before.fields[field] ?? '').trim();
    const to = (after.fields[field] ?? '').trim();
    if (from !== to) rows.push({ field, from, to });
  }
  return rows;
}

/** The fee on an amount (charged: rounded up), as the server's `feeOf`. */
export function feeOn(amountUnits: bigint, bps: number): bigint {
  return applyBps(amountUnits, bps, ROUND_CHARGE);
}
