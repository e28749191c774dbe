import { bpsPercentText, parseDecimal, scaleOf } from '@bourse/money';
import { Refusal } from '../../http/refusal.ts';

/**
 * The withdrawal policy: rules are operator data (table `withdrawals_rule`), seeded with the
 * spec's defaults (section 9), listed on the withdrawal screen before the customer submits, and
 * each refusal names its rule with the rule's parameters. Pure functions: the service feeds them
 * the clock, the day's count and the turnover figures.
 */
export const RULE_CODES = [
  'currency_chain',
  'window',
  'min_amount',
  'max_amount',
  'fee',
  'daily_count',
  'turnover',
] as const;
export type RuleCode = (typeof RULE_CODES)[number];

export type RuleParams = {
  /** "USDT on ERC20 only": `CURRENCY/CHAIN` pairs; a bank withdrawal needs its currency listed. */
  currency_chain: { allowed: string[] };
  /** "12:00–24:00 Hong Kong time": [start, end) local time; 24:00 is the end of the day. */
  window: { start: string; end: string; timezone: string };
  /** "minimum 100 USDT" (spec 8: "withdrawal below minimum not possible"). */
  min_amount: { amount: string; currency: string };
  /** "maximum 200,000 USDT". */
  max_amount: { amount: string; currency: string };
  /** Basis points of the amount, charged up; spec 9 gives 5% for bank withdrawals only. */
  fee: { address_bps: number; bank_bps: number };
  /** "at most 2 per day": requests of one local calendar day, not counting cancelled or rejected ones. */
  daily_count: { max: number; timezone: string };
  /**
   * Off by default. When on, it holds back PROMOTIONAL credit only (sign-in rewards, bonuses:
   * `PROMOTIONAL_REASONS`; never referral income, a share of fees paid) until the customer's consumption reaches percent × that
   * credit; deposits and trading profit are never held.
   */
  turnover: { percent: number };
};

export type Rule<C extends RuleCode = RuleCode> = { code: C; enabled: boolean; params: RuleParams[C] };
export type Rules = { [C in RuleCode]: Rule<C> };

/** Rules a new install starts with switched off (migration 0610 turns them off on existing installs). */
export const RULES_OFF_BY_DEFAULT: ReadonlySet<RuleCode> = new Set<RuleCode>(['turnover']);

/**
 * The ledger entry reasons that are promotional credit (the only funds the turnover rule may hold):
 * the one place this set is defined. Demo grants are not here — the demo book is never withdrawn.
 * Referral income (`reward.referral`, modules/referral) is NOT promotional: it is a share of fees
 * invitees actually paid, moved out of `fee_income` — earned money, not operator credit, so the
 * turnover rule never holds it (decision in modules/referral/README.md).
 */
export const PROMOTIONAL_REASONS: readonly string[] = ['reward.signin', 'reward.bonus'];

export const DEFAULT_RULES: ReadonlyArray<{ code: RuleCode; params: RuleParams[RuleCode] }> = [
  { code: 'currency_chain', params: { allowed: ['USDT/ERC20'] } },
  { code: 'window', params: { start: '12:00', end: '24:00', timezone: 'Asia/Hong_Kong' } },
  { code: 'min_amount', params: { amount: '100', currency: 'USDT' } },
  { code: 'max_amount', params: { amount: '200000', currency: 'USDT' } },
  { code: 'fee', params: { address_bps: 0, bank_bps: 500 } },
  { code: 'daily_count', params: { max: 2, timezone: 'Asia/Hong_Kong' } },
  { code: 'turnover', params: { percent: 90 } },
];

const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const PAIR = /^[A-Z0-9]{2,10}\/[A-Z0-9]{2,10}$/;

function isTimezone(tz: unknown): tz is string {
  if (typeof tz !== 'string' || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function isAmount(value: unknown, currency: unknown): boolean {
  if (typeof value !== 'string' || typeof currency !== 'string') return false;
  try {
    const parsed = parseDecimal(value, { scale: scaleOf(currency), allowZero: false });
    return parsed.ok;
  } catch {
    return false;
  }
}

const int = (v: unknown, min: number, max: number) =>
  Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;

/**
 * The whole-number parameters' bounds (`rule.field`): a value outside is refused
 * `WITHDRAW_RULE_RANGE` naming the field and the bounds. The back-office form checks the same.
 */
export const INT_BOUNDS: Readonly<Record<string, readonly [number, number]>> = {
  'fee.address_bps': [0, 5_000],
  'fee.bank_bps': [0, 5_000],
  'daily_count.max': [1, 1_000],
  'turnover.percent': [0, 1_000],
};
const bounded = (code: RuleCode, field: string, v: unknown) => {
  const [min, max] = INT_BOUNDS[`${code}.${field}`] ?? [0, 0];
  return int(v, min, max);
};

/** Checks operator input for one rule's parameters; returns the first bad field name or null. */
export function invalidParam(code: RuleCode, params: Record<string, unknown>): string | null {
  const keys: Record<RuleCode, string[]> = {
    currency_chain: ['allowed'],
    window: ['start', 'end', 'timezone'],
    min_amount: ['amount', 'currency'],
    max_amount: ['amount', 'currency'],
    fee: ['address_bps', 'bank_bps'],
    daily_count: ['max', 'timezone'],
    turnover: ['percent'],
  };
  for (const key of Object.keys(params)) if (!keys[code].includes(key)) return key;
  for (const key of keys[code]) if (!(key in params)) return key;
  const p = params;
  switch (code) {
    case 'currency_chain':
      return Array.isArray(p.allowed) &&
        p.allowed.length <= 20 &&
        p.allowed.every((x) => typeof x === 'string' && PAIR.test(x))
        ? null
        : 'allowed';
    case 'window':
      if (typeof p.start !== 'string' || !TIME.test(p.start) || p.start === '24:00') return 'start';
      if (typeof p.end !== 'string' || !TIME.test(p.end) || p.end === p.start) return 'end';
      return isTimezone(p.timezone) ? null : 'timezone';
    case 'min_amount':
    case 'max_amount':
      return isAmount(p.amount, p.currency) ? null : 'amount';
    case 'fee':
      if (!bounded(code, 'address_bps', p.address_bps)) return 'address_bps';
      return bounded(code, 'bank_bps', p.bank_bps) ? null : 'bank_bps';
    case 'daily_count':
      if (!bounded(code, 'max', p.max)) return 'max';
      return isTimezone(p.timezone) ? null : 'timezone';
    case 'turnover':
      return bounded(code, 'percent', p.percent) ? null : 'percent';
  }
}

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':');
  return Number.parseInt(h ?? '0', 10) * 60 + Number.parseInt(m ?? '0', 10);
}

/** Local calendar day (YYYY-MM-DD) and minutes since local midnight in a time zone. */
export function localTime(now: Date, timezone: string): { day: string; minutes: number } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return {
    day: `${get('year')}-${get('month')}-${get('day')}`,
    minutes: Number.parseInt(get('hour'), 10) * 60 + Number.parseInt(get('minute'), 10),
  };
}

export function isWithinWindow(params: RuleParams['window'], now: Date): boolean {
  const { minutes } = localTime(now, params.timezone);
  const start = minutesOf(params.start);
  const end = minutesOf(params.end);
  return start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}

export function units(amount: string, currency: string): bigint {
  const parsed = parseDecimal(amount, { scale: scaleOf(currency) });
  if (!parsed.ok) throw new Error(`rule amount ${amount} ${currency} is malformed`);
  return parsed.units;
}

export type Request = {
  method: 'address' | 'bank';
  currency: string;
  chain: string;
  amountUnits: bigint;
  now: Date;
};

/** The fee of a request under the fee rule (charged: rounded up), in the currency's minor units. */
export function feeOf(rules: Rules, request: Pick<Request, 'method' | 'amountUnits'>): bigint {
  const rule = rules.fee;
  if (!rule.enabled) return 0n;
  const bps = BigInt(request.method === 'bank' ? rule.params.bank_bps : rule.params.address_bps);
  return (request.amountUnits * bps + 9_999n) / 10_000n;
}

/** The rules that need no database: currency and chain, window, minimum, maximum, fee. */
export function checkRequest(rules: Rules, request: Request): void {
  const cc = rules.currency_chain;
  if (cc.enabled) {
    const allowed = cc.params.allowed;
    const ok =
      request.method === 'bank'
        ? allowed.some((pair) => pair.startsWith(`${request.currency}/`))
        : allowed.includes(`${request.currency}/${request.chain}`);
    if (!ok) {
      throw new Refusal('WITHDRAW_CURRENCY_NOT_ALLOWED', {
        currency: request.currency,
        chain: request.method === 'bank' ? 'BANK' : request.chain,
        allowed: allowed.join(', '),
      });
    }
  }
  const w = rules.window;
  if (w.enabled && !isWithinWindow(w.params, request.now)) {
    throw new Refusal('WITHDRAW_WINDOW_CLOSED', {
      start: w.params.start,
      end: w.params.end,
      timezone: w.params.timezone,
    });
  }
  const min = rules.min_amount;
  if (min.enabled && min.params.currency === request.currency) {
    if (request.amountUnits < units(min.params.amount, min.params.currency)) {
      throw new Refusal('WITHDRAW_BELOW_MINIMUM', { min: min.params.amount, currency: min.params.currency });
    }
  }
  const max = rules.max_amount;
  if (max.enabled && max.params.currency === request.currency) {
    if (request.amountUnits > units(max.params.amount, max.params.currency)) {
      throw new Refusal('WITHDRAW_ABOVE_MAXIMUM', { max: max.params.amount, currency: max.params.currency });
    }
  }
  const fee = feeOf(rules, request);
  if (fee >= request.amountUnits) {
    const bps = request.method === 'bank' ? rules.fee.params.bank_bps : rules.fee.params.address_bps;
    throw new Refusal('WITHDRAW_FEE_EXCEEDS_AMOUNT', { percent: bpsPercentText(bps) });
  }
}

export function checkDailyCount(rules: Rules, countToday: number): void {
  const rule = rules.daily_count;
  if (rule.enabled && countToday >= rule.params.max) {
    throw new Refusal('WITHDRAW_DAILY_LIMIT', { max: rule.params.max });
  }
}

export type TurnoverFigures = {
  /** Available balance of the withdrawal account. */
  availableUnits: bigint;
  /** Cumulative promotional credit (entries with a `PROMOTIONAL_REASONS` reason). */
  promotionalUnits: bigint;
  /** Cumulative consumption (value that left the customer to the platform: trading, fees). */
  consumedUnits: bigint;
};

export type TurnoverHold = {
  /** What may be withdrawn now: available − held, never below what is not promotional. */
  withdrawableUnits: bigint;
  /** Promotional credit still held back (≤ available). 0 when the rule is off or met. */
  heldUnits: bigint;
  /** Consumption still needed to release all of it (0 when nothing is held). */
  releaseMoreUnits: bigint;
};

/**
 * The turnover rule applied to promotional credit only: every unit consumed releases 100/percent
 * units of promotional credit (percent 90: trading 9 releases 10), up to the credit received;
 * what is not yet released is held, capped by the available balance. Deposits and trading profit
 * are never held: withdrawable ≥ available − (promotional credit not yet released).
 */
export function turnoverHold(rules: Rules, f: TurnoverFigures): TurnoverHold {
  const available = f.availableUnits > 0n ? f.availableUnits : 0n;
  const rule = rules.turnover;
  if (!rule.enabled || f.promotionalUnits <= 0n || rule.params.percent <= 0) {
    return { withdrawableUnits: available, heldUnits: 0n, releaseMoreUnits: 0n };
  }
  const percent = BigInt(rule.params.percent);
  const releasedRaw = (f.consumedUnits * 100n) / percent;
  const released = releasedRaw < f.promotionalUnits ? releasedRaw : f.promotionalUnits;
  const locked = f.promotionalUnits - released;
  const held = locked < available ? locked : available;
  if (held <= 0n) return { withdrawableUnits: available, heldUnits: 0n, releaseMoreUnits: 0n };
  // Smallest consumption C with floor(C × 100 / percent) ≥ promotional.
  const needed = (f.promotionalUnits * percent + 99n) / 100n;
  const more = needed > f.consumedUnits ? needed - f.consumedUnits : 1n;
  return { withdrawableUnits: available - held, heldUnits: held, releaseMoreUnits: more };
}

/** A request above the withdrawable amount because promotional credit is held: refused, naming the rule. */
export function checkTurnover(
  rules: Rules,
  input: TurnoverFigures & { amountUnits: bigint; currency: string; format: (u: bigint) => string },
): void {
  const hold = turnoverHold(rules, input);
  if (hold.heldUnits > 0n && input.amountUnits > hold.withdrawableUnits) {
    throw new Refusal('WITHDRAW_TURNOVER_REQUIRED', {
      percent: rules.turnover.params.percent,
      held: input.format(hold.heldUnits),
      withdrawable: input.format(hold.withdrawableUnits),
      more: input.format(hold.releaseMoreUnits),
      currency: input.currency,
    });
  }
}

/** Rows from the table to typed rules; a missing row is a disabled rule with the default params. */
export function rulesFrom(rows: ReadonlyArray<{ code: string; enabled: boolean; params: unknown }>): Rules {
  const out: Partial<Record<RuleCode, Rule>> = {};
  for (const d of DEFAULT_RULES) out[d.code] = { code: d.code, enabled: false, params: d.params } as Rule;
  for (const row of rows) {
    if (!(RULE_CODES as readonly string[]).includes(row.code)) continue;
    const code = row.code as RuleCode;
    out[code] = { code, enabled: row.enabled, params: row.params } as Rule;
  }
  return out as Rules;
}
