import {
  divRound,
  isKnownAsset,
  isWholeInRange,
  MAX_SCALE,
  multiply,
  parseDecimal,
  scaleOf,
  toDecimalString,
} from '@bourse/money';
import {
  type AdminLaunchpadActionBody,
  type AdminLaunchpadProjectBody,
  type AdminLaunchpadProjectData,
  type JurisdictionProfileId,
  LANGS,
  LAUNCHPAD_LIMITS,
  type Lang,
  type LaunchpadMode,
  type LaunchpadProjectState,
  type RiskRating,
  type VerificationTier,
} from '@bourse/protocol';

/**
 * The back office's launchpad project form as text (what the inputs hold) and back: a value out of
 * its rule is named by its field before anything is sent; the server checks the same rules again
 * (`LAUNCHPAD_PROJECT_INVALID {field}`). The derived figures (cost of a subscription, release date)
 * are the ones the customer will read.
 */

export type ProjectForm = {
  coin: string;
  coin_scale: string;
  names: Record<Lang, string>;
  descriptions: Record<Lang, string>;
  risk_warnings: Record<Lang, string>;
  issuer: string;
  whitepaper_url: string;
  mode: LaunchpadMode;
  /** USDT per coin. */
  price: string;
  /** Coins. */
  lot_size: string;
  circulation: string;
  supply: string;
  soft_cap: string;
  per_customer_cap: string;
  min_subscription: string;
  /** Percent of the cost. */
  fee_rate: string;
  /** `datetime-local` values (the staff member's own time zone). */
  opens_at: string;
  closes_at: string;
  listing_at: string;
  lockup_days: string;
  refund_hours: string;
  min_tier: VerificationTier | '';
  min_rating: RiskRating;
  jurisdictions: JurisdictionProfileId[];
  reason: string;
};

export type TextField = 'names' | 'descriptions' | 'risk_warnings';
export const TEXT_FIELDS: readonly TextField[] = ['names', 'descriptions', 'risk_warnings'];

export function emptyProjectForm(): ProjectForm {
  const blank = () => ({ en: '', zh: '', ft: '' });
  return {
    coin: '',
    coin_scale: '8',
    names: blank(),
    descriptions: blank(),
    risk_warnings: blank(),
    issuer: '',
    whitepaper_url: 'https://',
    mode: 'pro_rata',
    price: '',
    lot_size: '1',
    circulation: '',
    supply: '',
    soft_cap: '',
    per_customer_cap: '',
    min_subscription: '',
    fee_rate: '0',
    opens_at: '',
    closes_at: '',
    listing_at: '',
    lockup_days: '0',
    refund_hours: '48',
    min_tier: 'primary',
    min_rating: 'conservative',
    jurisdictions: ['permissive'],
    reason: '',
  };
}

/** Every cost is paid in USDT, at its ledger scale: what a subscription freezes is exact there. */
export const PAY_CURRENCY = 'USDT';
const PAY_SCALE = scaleOf(PAY_CURRENCY);
/** Decimals a fee rate or the margin ratio (percent) may carry: 0.01 %, a basis point, as the server stores it. */
export const PERCENT_SCALE = 2;
const DAY_MS = 86_400_000;
const PERCENT = 100n;
const TEXT_MAX: Record<TextField, number> = {
  names: LAUNCHPAD_LIMITS.nameMax,
  descriptions: LAUNCHPAD_LIMITS.textMax,
  risk_warnings: LAUNCHPAD_LIMITS.textMax,
};

/** The coin's scale the quantities are read at; the largest allowed while the scale itself is bad. */
export function coinScaleOf(text: string): number {
  return isWholeInRange(text, 0, LAUNCHPAD_LIMITS.coinScaleMax)
    ? Number.parseInt(text, 10)
    : LAUNCHPAD_LIMITS.coinScaleMax;
}

function units(text: string, scale: number, options: { allowZero?: boolean } = {}): bigint | null {
  const parsed = parseDecimal(text.trim(), { scale, allowZero: options.allowZero ?? false });
  return parsed.ok ? parsed.units : null;
}

function feeRateUnits(text: string): bigint | null {
  const rate = units(text, PERCENT_SCALE, { allowZero: true });
  const max = units(LAUNCHPAD_LIMITS.feeRateMax, PERCENT_SCALE) ?? 0n;
  return rate !== null && rate <= max ? rate : null;
}

/** `datetime-local` text → epoch ms in the browser's zone; null for empty or bad input. */
export function localTimeMs(text: string): number | null {
  if (text.trim() === '') return null;
  const ms = new Date(text).getTime();
  return Number.isNaN(ms) ? null : ms;
}

/** listing + lock-up days: when the locked tokens are released (`release_at`). */
export function releaseAtMs(listingMs: number, lockupDays: number): number {
  return listingMs + lockupDays * DAY_MS;
}

/** A https address with a host (what the server's pattern and a browser both accept). */
export function validWhitepaper(text: string): boolean {
  const url = text.trim();
  if (url.length < 8 || url.length > LAUNCHPAD_LIMITS.urlMax || !url.startsWith('https://')) return false;
  try {
    return new URL(url).hostname.includes('.');
  } catch {
    return false;
  }
}

function checkTexts(form: ProjectForm, bad: Set<string>): void {
  for (const field of TEXT_FIELDS) {
    for (const lang of LANGS) {
      const text = form[field][lang].trim();
      if (text === '' || text.length > TEXT_MAX[field]) bad.add(`${field}.${lang}`);
    }
  }
  const issuer = form.issuer.trim();
  if (issuer === '' || issuer.length > LAUNCHPAD_LIMITS.nameMax) bad.add('issuer');
  if (!validWhitepaper(form.whitepaper_url)) bad.add('whitepaper_url');
}

function checkCoin(form: ProjectForm, bad: Set<string>): void {
  const coin = form.coin.trim().toUpperCase();
  if (!new RegExp(LAUNCHPAD_LIMITS.coinPattern).test(coin) || isKnownAsset(coin)) bad.add('coin');
  if (!isWholeInRange(form.coin_scale, 0, LAUNCHPAD_LIMITS.coinScaleMax)) bad.add('coin_scale');
}

/**
 * Quantities in coins at the coin's scale, each a whole number of lots: min ≤ cap ≤ supply ≤
 * circulation, soft cap ≤ supply (zero: the project cannot miss it), supply at most `lotsMax` lots.
 */
function checkQuantities(form: ProjectForm, bad: Set<string>): void {
  const scale = coinScaleOf(form.coin_scale);
  const lot = units(form.lot_size, scale);
  const read = (key: keyof ProjectForm & string, allowZero = false) => {
    const value = units(form[key] as string, scale, { allowZero });
    const inLots = value !== null && (lot === null || value % lot === 0n);
    if (!inLots) bad.add(key);
    return inLots ? value : null;
  };
  if (lot === null) bad.add('lot_size');
  const circulation = units(form.circulation, scale);
  if (circulation === null) bad.add('circulation');
  const supply = read('supply');
  const softCap = read('soft_cap', true);
  const cap = read('per_customer_cap');
  const least = read('min_subscription');
  const lotsMax = BigInt(LAUNCHPAD_LIMITS.lotsMax);
  if (supply !== null && ((circulation !== null && supply > circulation) || (lot && supply / lot > lotsMax)))
    bad.add('supply');
  if (softCap !== null && supply !== null && softCap > supply) bad.add('soft_cap');
  if (cap !== null && supply !== null && cap > supply) bad.add('per_customer_cap');
  if (least !== null && cap !== null && least > cap) bad.add('min_subscription');
}

/** Opens in the future, closes after it opens, lists at or after the close. */
function checkTimes(form: ProjectForm, nowMs: number, bad: Set<string>): void {
  const opens = localTimeMs(form.opens_at);
  const closes = localTimeMs(form.closes_at);
  const listing = localTimeMs(form.listing_at);
  if (opens === null || opens <= nowMs) bad.add('opens_at');
  if (closes === null || (opens !== null && closes <= opens)) bad.add('closes_at');
  if (listing === null || (closes !== null && listing < closes)) bad.add('listing_at');
  if (!isWholeInRange(form.lockup_days, 0, LAUNCHPAD_LIMITS.lockupDaysMax)) bad.add('lockup_days');
  const { refundHoursMin, refundHoursMax } = LAUNCHPAD_LIMITS;
  if (!isWholeInRange(form.refund_hours, refundHoursMin, refundHoursMax)) bad.add('refund_hours');
}

function checkRules(form: ProjectForm, bad: Set<string>): void {
  if (units(form.price, PAY_SCALE) === null) bad.add('price');
  if (feeRateUnits(form.fee_rate) === null) bad.add('fee_rate');
  if (form.jurisdictions.length === 0) bad.add('jurisdictions');
  const reason = form.reason.trim();
  if (reason.length < LAUNCHPAD_LIMITS.reasonMin || reason.length > LAUNCHPAD_LIMITS.reasonMax)
    bad.add('reason');
}

/** The body a form stands for (`AdminLaunchpadProjectBody`), or the names of its bad fields. */
export function projectBody(
  form: ProjectForm,
  options: { nowMs: number },
): { body: AdminLaunchpadProjectBody | null; bad: Set<string> } {
  const bad = new Set<string>();
  checkCoin(form, bad);
  checkTexts(form, bad);
  checkQuantities(form, bad);
  checkTimes(form, options.nowMs, bad);
  checkRules(form, bad);
  if (bad.size > 0) return { body: null, bad };
  const trimmed = (r: Record<Lang, string>) => ({ en: r.en.trim(), zh: r.zh.trim(), ft: r.ft.trim() });
  const int = (text: string) => Number.parseInt(text, 10);
  return {
    body: {
      coin: form.coin.trim().toUpperCase(),
      coin_scale: int(form.coin_scale),
      names: trimmed(form.names),
      issuer: form.issuer.trim(),
      descriptions: trimmed(form.descriptions),
      risk_warnings: trimmed(form.risk_warnings),
      whitepaper_url: form.whitepaper_url.trim(),
      mode: form.mode,
      price: form.price.trim(),
      lot_size: form.lot_size.trim(),
      circulation: form.circulation.trim(),
      supply: form.supply.trim(),
      soft_cap: form.soft_cap.trim(),
      per_customer_cap: form.per_customer_cap.trim(),
      min_subscription: form.min_subscription.trim(),
      margin_ratio: LAUNCHPAD_LIMITS.marginRatio,
      fee_rate: form.fee_rate.trim(),
      opens_at: localTimeMs(form.opens_at) ?? 0,
      closes_at: localTimeMs(form.closes_at) ?? 0,
      listing_at: localTimeMs(form.listing_at) ?? 0,
      lockup_days: int(form.lockup_days),
      refund_hours: int(form.refund_hours),
      min_tier: form.min_tier === '' ? null : form.min_tier,
      min_rating: form.min_rating,
      jurisdictions: form.jurisdictions,
      reason: form.reason.trim(),
    },
    bad,
  };
}

/**
 * The form fields a server refusal `LAUNCHPAD_PROJECT_INVALID {field}` points at: the field itself,
 * or all three languages of a text; nothing for a field the form does not hold.
 */
export function fieldsOfRefusal(field: string | number | undefined): string[] {
  if (typeof field !== 'string') return [];
  const [head, lang] = field.split('.');
  if (TEXT_FIELDS.includes(head as TextField))
    return lang ? [`${head}.${lang}`] : LANGS.map((l) => `${head}.${l}`);
  return Object.hasOwn(emptyProjectForm(), field) ? [field] : [];
}

/** What subscribing `quantity` coins freezes, as the quote shows it (USDT, charges rounded up). */
export type SubscriptionCost = { cost: string; margin: string; fee: string; frozen: string };

/**
 * quantity × price (exact: the server refuses a lot whose price is not a whole number of USDT units),
 * the margin (`margin_ratio` % of it), the fee (`fee_rate` % of the cost, rounded down, as the server
 * charges it: modules/launchpad rules.ts `feeOf`) and margin + fee. Null when a figure is missing.
 */
export function subscriptionCost(input: {
  quantity: string;
  coinScale: number;
  price: string;
  feeRate: string;
  marginRatio: string;
}): SubscriptionCost | null {
  const quantity = units(input.quantity, input.coinScale);
  const price = units(input.price, PAY_SCALE);
  const feeRate = feeRateUnits(input.feeRate);
  const ratio = units(input.marginRatio, PERCENT_SCALE);
  if (quantity === null || price === null || feeRate === null || ratio === null) return null;
  const cost = multiply({
    a: quantity,
    aScale: input.coinScale,
    b: price,
    bScale: PAY_SCALE,
    resultScale: PAY_SCALE,
    rounding: 'ceil',
  });
  const percentUnits = PERCENT * 10n ** BigInt(PERCENT_SCALE);
  const margin = divRound(cost * ratio, percentUnits, 'ceil');
  const fee = divRound(cost * feeRate, percentUnits, 'floor');
  const text = (v: bigint) => toDecimalString(v, PAY_SCALE);
  return { cost: text(cost), margin: text(margin), fee: text(fee), frozen: text(margin + fee) };
}

/** How many lots a quantity is (null unless it is a whole, positive number of lots). */
export function lotsOf(quantity: string, lotSize: string, coinScale: number): string | null {
  const value = units(quantity, coinScale);
  const lot = units(lotSize, coinScale);
  if (value === null || lot === null || value % lot !== 0n) return null;
  return (value / lot).toString();
}

export type ProjectAction = AdminLaunchpadActionBody['action'];

const WITHDRAWABLE: ReadonlySet<LaunchpadProjectState> = new Set(['announced', 'open', 'closed']);

/**
 * The actions a project allows now: announce a draft; withdraw (the issuer withdrew) before the
 * allocation; pay the issuer once distributed, the listing date reached and something is in escrow.
 * Everything else runs on the clock by the job.
 */
export function actionsOf(
  project: Pick<AdminLaunchpadProjectData, 'state' | 'listing_at' | 'escrow'>,
  nowMs: number,
): ProjectAction[] {
  if (project.state === 'draft') return ['announce'];
  if (WITHDRAWABLE.has(project.state)) return ['withdraw'];
  const inEscrow = parseDecimal(project.escrow, { scale: MAX_SCALE, allowZero: false }).ok;
  if (project.state === 'distributed' && project.listing_at <= nowMs && inEscrow) return ['pay_issuer'];
  return [];
}
