import { parseDecimal, toDecimalString } from '@bourse/money';
import type {
  LaunchpadAllocationData,
  LaunchpadEligibilityData,
  LaunchpadProjectData,
  LaunchpadProjectState,
  LaunchpadSubscriptionData,
  LaunchpadSubscriptionState,
} from '@bourse/protocol';

/**
 * Pure logic of the new-coin subscription screens (modules/launchpad): the quantity field's checks
 * against the lot size, the progress bar (which may pass 100 % in pro rata), the countdown to the
 * window, the badges, the published fill ratio and where a refusal sends the customer. Amounts are
 * bigint units at the coin's scale (`@bourse/money`), never a float; the time is always passed in.
 */

const SECOND_MS = 1_000;
const DAY_S = 86_400;

/** Units of a coin amount at the coin's scale; null when not a plain non-negative decimal that fits. */
export function coinUnits(text: string, coinScale: number): bigint | null {
  const parsed = parseDecimal(text.trim(), { scale: coinScale });
  return parsed.ok ? parsed.units : null;
}

/** Why a quantity cannot be subscribed, in the order the field names it. */
export type QuantityProblem = 'empty' | 'invalid' | 'lotStep' | 'belowMin' | 'aboveCap' | 'aboveMay';

export type QuantityRules = Pick<
  LaunchpadProjectData,
  'coin_scale' | 'lot_size' | 'min_subscription' | 'per_customer_cap' | 'mode' | 'supply'
>;

/**
 * The most one customer may ask for in one subscription (the server's `maxLots`): the cap in first
 * come; the supply in pro rata, where the cap bounds the allocation, not the ask (a commitment above
 * the cap is what water-filling holds at the cap and shares out again).
 */
export function maxAsk(rules: Pick<LaunchpadProjectData, 'mode' | 'per_customer_cap' | 'supply'>): string {
  return rules.mode === 'pro_rata' ? rules.supply : rules.per_customer_cap;
}

/**
 * Checks a typed quantity of coins: a positive decimal at the coin's scale, a whole number of lots,
 * at least the minimum, at most what one customer may ask for (`maxAsk`) and at most what this
 * customer may still ask for (`may_subscribe`, null when not signed in). The server checks again;
 * this only says it early.
 */
export function quantityProblem(
  quantity: string,
  rules: QuantityRules,
  maySubscribe: string | null,
): QuantityProblem | null {
  const text = quantity.trim();
  if (text === '') return 'empty';
  const scale = rules.coin_scale;
  const units = coinUnits(text, scale);
  if (units === null || units === 0n) return 'invalid';
  const lot = coinUnits(rules.lot_size, scale);
  if (lot !== null && lot > 0n && units % lot !== 0n) return 'lotStep';
  const min = coinUnits(rules.min_subscription, scale);
  if (min !== null && units < min) return 'belowMin';
  const cap = coinUnits(maxAsk(rules), scale);
  if (cap !== null && units > cap) return 'aboveCap';
  const may = maySubscribe === null ? null : coinUnits(maySubscribe, scale);
  if (may !== null && units > may) return 'aboveMay';
  return null;
}

/** The number of lots in `quantity`; null unless it is a whole, positive number of lots. */
export function lotsOf(quantity: string, lotSize: string, coinScale: number): bigint | null {
  const units = coinUnits(quantity, coinScale);
  const lot = coinUnits(lotSize, coinScale);
  if (units === null || lot === null || lot === 0n || units === 0n || units % lot !== 0n) return null;
  return units / lot;
}

/** Lots as coins (lots × lot size), exactly. */
export function lotsToCoins(lots: bigint | string, lotSize: string, coinScale: number): string {
  const count = typeof lots === 'bigint' ? lots : BigInt(lots);
  const lot = coinUnits(lotSize, coinScale) ?? 0n;
  return toDecimalString(count * lot, coinScale);
}

/**
 * What the Max button puts in the field: the least of what the customer may still ask for and what
 * one customer may ask for (`maxAsk`), rounded down to a whole lot. Null when that is below one lot
 * (nothing may be subscribed).
 */
export function maxQuantity(rules: QuantityRules, maySubscribe: string | null): string | null {
  const scale = rules.coin_scale;
  const cap = coinUnits(maxAsk(rules), scale);
  const may = maySubscribe === null ? null : coinUnits(maySubscribe, scale);
  const lot = coinUnits(rules.lot_size, scale);
  const limit = cap === null ? may : may === null || cap < may ? cap : may;
  if (limit === null || lot === null || lot === 0n) return null;
  const whole = (limit / lot) * lot;
  return whole === 0n ? null : toDecimalString(whole, scale);
}

export type ProgressView = {
  /** The bar's fill, 0–100 (a display position, not money). */
  bar: number;
  /** The server's percent, as sent (may be over 100 in pro rata). */
  percent: string;
  oversubscribed: boolean;
  /** subscribed / supply rounded down to two places ("2.47"), when oversubscribed. */
  times: string | null;
};

const PERCENT_SCALE = 2;

/** The progress bar of a project: subscribed against supply; pro rata may be oversubscribed ×N. */
export function progressView(
  project: Pick<LaunchpadProjectData, 'progress' | 'subscribed' | 'supply' | 'coin_scale'>,
): ProgressView {
  const percent = parseDecimal(project.progress.trim(), { scale: PERCENT_SCALE, maxIntegerDigits: 30 });
  const hundredths = percent.ok ? percent.units : 0n;
  const clamped = hundredths > 10_000n ? 10_000n : hundredths;
  const bar = Number(clamped) / 100;
  const subscribed = coinUnits(project.subscribed, project.coin_scale);
  const supply = coinUnits(project.supply, project.coin_scale);
  const over = subscribed !== null && supply !== null && supply > 0n && subscribed > supply;
  const times = over ? toDecimalString((subscribed * 100n) / supply, PERCENT_SCALE) : null;
  return { bar, percent: project.progress, oversubscribed: over, times };
}

export type CountdownKind = 'opens' | 'closes' | 'opening' | 'closing';
export type Countdown = { kind: CountdownKind; msLeft: number };

/**
 * The window's countdown at `now` (epoch ms): to the opening of an announced project, to the close of
 * an open one; `opening` / `closing` once the time has come but the server has not said so yet.
 * Null for a project past its window.
 */
export function countdownOf(
  project: Pick<LaunchpadProjectData, 'state' | 'opens_at' | 'closes_at'>,
  now: number,
): Countdown | null {
  if (project.state === 'announced') {
    const left = project.opens_at - now;
    return left > 0 ? { kind: 'opens', msLeft: left } : { kind: 'opening', msLeft: 0 };
  }
  if (project.state === 'open') {
    const left = project.closes_at - now;
    return left > 0 ? { kind: 'closes', msLeft: left } : { kind: 'closing', msLeft: 0 };
  }
  return null;
}

/** A duration as whole days and "hh:mm:ss", the seconds rounded up (never shows 0 before the time). */
export function splitDuration(ms: number): { days: number; hms: string } {
  const total = Math.max(0, Math.ceil(ms / SECOND_MS));
  const days = Math.floor(total / DAY_S);
  const rest = total - days * DAY_S;
  const pad = (n: number) => String(n).padStart(2, '0');
  const hms = `${pad(Math.floor(rest / 3600))}:${pad(Math.floor((rest % 3600) / 60))}:${pad(rest % 60)}`;
  return { days, hms };
}

export const PROJECT_STATE_COLORS: Record<LaunchpadProjectState, string> = {
  draft: 'gray',
  announced: 'blue',
  open: 'teal',
  closed: 'orange',
  allocating: 'orange',
  distributed: 'indigo',
  failed: 'red',
  refunded: 'gray',
};

export const SUBSCRIPTION_STATE_COLORS: Record<LaunchpadSubscriptionState, string> = {
  under_review: 'blue',
  passed: 'teal',
  not_passed: 'red',
  allocated: 'indigo',
  issuance_failed: 'red',
  refunded: 'gray',
};

/** The badges a project shows: its state, and "sold out" once a first-come project has nothing left. */
export function projectBadges(project: Pick<LaunchpadProjectData, 'state' | 'sold_out'>): {
  state: LaunchpadProjectState;
  color: string;
  soldOut: boolean;
} {
  return { state: project.state, color: PROJECT_STATE_COLORS[project.state], soldOut: project.sold_out };
}

/** Why the subscribe button is off, first reason first; null when the customer may subscribe. */
export type SubscribeBlocker = 'login' | 'notStarted' | 'ended' | 'notOpen' | 'soldOut' | 'refused';

export function subscribeBlocker(input: {
  project: Pick<LaunchpadProjectData, 'state' | 'opens_at' | 'closes_at' | 'sold_out'>;
  eligibility: LaunchpadEligibilityData | null;
  signedIn: boolean;
  now: number;
}): SubscribeBlocker | null {
  const { project, eligibility, now } = input;
  if (project.state === 'announced') return 'notStarted';
  if (project.state !== 'open') return 'notOpen';
  if (now < project.opens_at) return 'notStarted';
  if (now >= project.closes_at) return 'ended';
  if (project.sold_out) return 'soldOut';
  if (!input.signedIn || eligibility === null) return 'login';
  if (!eligibility.eligible) return 'refused';
  return null;
}

/**
 * The uncapped customers' share S′ / C′ in percent, rounded down to two places; "100" when every
 * uncapped commitment was filled (S′ ≥ C′) or there was none.
 */
export function fillPercent(
  allocation: Pick<LaunchpadAllocationData, 'fill_numerator' | 'fill_denominator'>,
): string {
  const s = BigInt(allocation.fill_numerator);
  const c = BigInt(allocation.fill_denominator);
  if (c === 0n || s >= c) return '100';
  return toDecimalString((s * 10_000n) / c, PERCENT_SCALE);
}

/** The reason a record shows beside its state: the review's rule, or why the project failed. */
export function recordReason(
  record: Pick<LaunchpadSubscriptionData, 'state' | 'review_reason' | 'failure_reason'>,
): { kind: 'review'; code: string } | { kind: 'failure'; code: string } | null {
  if (record.review_reason !== null) return { kind: 'review', code: record.review_reason };
  if (record.failure_reason !== null) return { kind: 'failure', code: record.failure_reason };
  return null;
}

/** A record whose allocation was published: its proof can be checked. */
export function hasProof(record: Pick<LaunchpadSubscriptionData, 'state' | 'allocated_at'>): boolean {
  return record.state === 'allocated' && record.allocated_at !== null;
}

/** Where a refusal can be fixed: verification, the questionnaire, the assets, or my records. */
export type RefusalFix = 'verification' | 'questionnaire' | 'funds' | 'records' | null;

export function refusalFix(code: string): RefusalFix {
  switch (code) {
    case 'LAUNCHPAD_TIER_REQUIRED':
      return 'verification';
    case 'LAUNCHPAD_RATING_REQUIRED':
      return 'questionnaire';
    case 'LAUNCHPAD_INSUFFICIENT_USDT':
      return 'funds';
    case 'LAUNCHPAD_ALREADY_SUBSCRIBED':
      return 'records';
    default:
      return null;
  }
}

export const REFUSAL_LINKS: Record<Exclude<RefusalFix, null>, string> = {
  verification: '/sfyz',
  questionnaire: '/questionnaire',
  funds: '/table1',
  records: '/subscriptionRecord',
};

export type ParamKind = 'tier' | 'rating' | 'jurisdiction' | 'projectState' | 'amount' | 'date';

/** Per refusal, which params are codes or figures (`required` is a rating in one, an amount in another). */
const PARAM_KINDS: Readonly<Record<string, Readonly<Record<string, ParamKind>>>> = {
  LAUNCHPAD_NOT_OPEN: { state: 'projectState' },
  LAUNCHPAD_NOT_STARTED: { date: 'date' },
  LAUNCHPAD_ENDED: { date: 'date' },
  LAUNCHPAD_TIER_REQUIRED: { tier: 'tier' },
  LAUNCHPAD_RATING_REQUIRED: { rating: 'rating', required: 'rating' },
  LAUNCHPAD_JURISDICTION: { profile: 'jurisdiction' },
  LAUNCHPAD_REMAINING: { left: 'amount' },
  LAUNCHPAD_BELOW_MIN: { min: 'amount' },
  LAUNCHPAD_ABOVE_MAX: { max: 'amount' },
  LAUNCHPAD_LOT_STEP: { step: 'amount' },
  LAUNCHPAD_INSUFFICIENT_USDT: { required: 'amount', available: 'amount' },
};

/**
 * How a refusal's param is shown: a code becomes a word of the launchpad catalog (a tier, a rating,
 * a jurisdiction profile, a project state), an amount is grouped, an epoch is a date; anything else
 * is shown as sent.
 */
export function paramKind(code: string, key: string): ParamKind | null {
  return PARAM_KINDS[code]?.[key] ?? null;
}

/** A page count for `total` items at `pageSize` a page (at least one page). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
}

/** Routes of the launchpad screens, with the project in the query string (spec: no route parameters). */
export const LAUNCHPAD_ROUTES = {
  list: '/subscription',
  records: '/subscriptionRecord',
  project: (projectId: string) => `/subscriptionBuy?project_id=${encodeURIComponent(projectId)}`,
  proof: (projectId: string) => `/subscriptionProof?project_id=${encodeURIComponent(projectId)}`,
  recordsOf: (projectId: string) => `/subscriptionRecord?project_id=${encodeURIComponent(projectId)}`,
} as const;

/**
 * A whole count sent as a decimal string (lots, a root's sum) as the number i18next picks a plural
 * form with. Only the form depends on it; the figure itself is shown from the string.
 */
export function countOf(whole: string): number {
  if (!/^[0-9]{1,78}$/.test(whole)) return 0;
  const value = BigInt(whole);
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
}
