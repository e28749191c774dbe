import { isWholeInRange, parseDecimal, toDecimalString } from '@bourse/money';
import {
  type AdminEarnProductBody,
  type AdminEarnProductStateBody,
  type AdminEarnSettingsBody,
  EARN_LIMITS,
  type EarnKind,
  type EarnProductState,
  type EarnRedeemRule,
  type JurisdictionProfileId,
  LANGS,
  type Lang,
  type RiskRating,
  type VerificationTier,
  type VipLevelData,
} from '@bourse/protocol';

/**
 * The back office's earn forms as text (what the inputs hold) and back: a value out of its rule is
 * named by its field before anything is sent; the server checks the same rules again.
 */

export type ProductForm = {
  kind: EarnKind;
  names: Record<Lang, string>;
  descriptions: Record<Lang, string>;
  funding_id: string;
  term_days: string;
  annual_rate: string;
  min_amount: string;
  max_amount: string;
  capacity: string;
  /** `datetime-local` values (the staff member's own time zone); empty for none. */
  sale_starts_at: string;
  sale_ends_at: string;
  redeem_rule: EarnRedeemRule;
  penalty_rate: string;
  redeem_delay_days: string;
  min_tier: VerificationTier | '';
  min_rating: RiskRating;
  vip_level: string;
  jurisdictions: JurisdictionProfileId[];
  reason: string;
};

export function emptyProductForm(): ProductForm {
  const blank = { en: '', zh: '', ft: '' };
  return {
    kind: 'custody',
    names: { ...blank },
    descriptions: { ...blank },
    funding_id: '',
    term_days: '30',
    annual_rate: '',
    min_amount: '',
    max_amount: '',
    capacity: '',
    sale_starts_at: '',
    sale_ends_at: '',
    redeem_rule: 'forfeit_rewards',
    penalty_rate: '',
    redeem_delay_days: '0',
    min_tier: 'primary',
    min_rating: 'conservative',
    vip_level: '',
    jurisdictions: ['permissive'],
    reason: '',
  };
}

const RATE_SCALE = EARN_LIMITS.rateScale;
const AMOUNT_SCALE = 18;

function rateUnits(text: string): bigint | null {
  const parsed = parseDecimal(text.trim(), { scale: RATE_SCALE, maxIntegerDigits: 4 });
  return parsed.ok ? parsed.units : null;
}

function amountUnits(text: string): bigint | null {
  const parsed = parseDecimal(text.trim(), { scale: AMOUNT_SCALE, allowZero: false });
  return parsed.ok ? parsed.units : null;
}

/** annual / 365, half-even at the rate scale — the daily figure shown beside the annual rate. */
export function dailyRate(annual: string): string | null {
  const units = rateUnits(annual);
  if (units === null) return null;
  const q = units / 365n;
  const r = units % 365n;
  const twice = r * 2n;
  const up = twice > 365n || (twice === 365n && q % 2n === 1n);
  return toDecimalString(up ? q + 1n : q, RATE_SCALE);
}

/** `datetime-local` text → epoch ms in the browser's zone; null for empty, NaN marks bad input. */
export function localTimeMs(text: string): number | null {
  if (text.trim() === '') return null;
  return new Date(text).getTime();
}

const maxRate = (max: string) => rateUnits(max) ?? 0n;

/**
 * The create body (`AdminEarnProductBody`): `penalty_rate` only under a principal rule, absent
 * otherwise; kind and rule typed from their value lists.
 */
export type ProductBody = Omit<AdminEarnProductBody, 'kind' | 'redeem_rule' | 'penalty_rate'> & {
  kind: EarnKind;
  redeem_rule: EarnRedeemRule;
  penalty_rate?: string;
};

/** The body a form stands for, or the names of its bad fields. */
export function productBody(form: ProductForm): { body: ProductBody | null; bad: Set<string> } {
  const bad = new Set<string>();
  for (const lang of LANGS) {
    const name = form.names[lang].trim();
    if (name === '' || name.length > EARN_LIMITS.nameMax) bad.add(`names.${lang}`);
    const text = form.descriptions[lang].trim();
    if (text === '' || text.length > EARN_LIMITS.textMax) bad.add(`descriptions.${lang}`);
  }
  if (form.funding_id === '') bad.add('funding_id');
  if (!isWholeInRange(form.term_days, EARN_LIMITS.termDaysMin, EARN_LIMITS.termDaysMax)) bad.add('term_days');
  const rate = rateUnits(form.annual_rate);
  if (rate === null || rate === 0n || rate > maxRate(EARN_LIMITS.annualRateMax)) bad.add('annual_rate');
  const min = amountUnits(form.min_amount);
  const max = amountUnits(form.max_amount);
  const capacity = amountUnits(form.capacity);
  if (min === null) bad.add('min_amount');
  if (max === null || (min !== null && max < min)) bad.add('max_amount');
  if (capacity === null || (max !== null && capacity < max)) bad.add('capacity');
  const starts = localTimeMs(form.sale_starts_at);
  const ends = localTimeMs(form.sale_ends_at);
  if (starts !== null && Number.isNaN(starts)) bad.add('sale_starts_at');
  if (ends !== null && (Number.isNaN(ends) || (starts !== null && ends <= starts))) bad.add('sale_ends_at');
  const principalRule = form.redeem_rule === 'principal_percent' || form.redeem_rule === 'principal_daily';
  const penalty = rateUnits(form.penalty_rate);
  if (principalRule && (penalty === null || penalty === 0n || penalty > maxRate(EARN_LIMITS.penaltyRateMax)))
    bad.add('penalty_rate');
  if (!isWholeInRange(form.redeem_delay_days, 0, EARN_LIMITS.redeemDelayDaysMax))
    bad.add('redeem_delay_days');
  if (form.kind === 'vip' && !isWholeInRange(form.vip_level, 1, EARN_LIMITS.vipLevelMax))
    bad.add('vip_level');
  if (form.jurisdictions.length === 0) bad.add('jurisdictions');
  const reason = form.reason.trim();
  if (reason.length < EARN_LIMITS.reasonMin || reason.length > EARN_LIMITS.reasonMax) bad.add('reason');
  if (bad.size > 0) return { body: null, bad };
  const trimmed = (r: Record<Lang, string>) => ({ en: r.en.trim(), zh: r.zh.trim(), ft: r.ft.trim() });
  return {
    body: {
      kind: form.kind,
      names: trimmed(form.names),
      descriptions: trimmed(form.descriptions),
      funding_id: form.funding_id,
      term_days: Number.parseInt(form.term_days, 10),
      annual_rate: form.annual_rate.trim(),
      min_amount: form.min_amount.trim(),
      max_amount: form.max_amount.trim(),
      capacity: form.capacity.trim(),
      sale_starts_at: starts,
      sale_ends_at: ends,
      redeem_rule: form.redeem_rule,
      ...(principalRule ? { penalty_rate: form.penalty_rate.trim() } : {}),
      redeem_delay_days: Number.parseInt(form.redeem_delay_days, 10),
      min_tier: form.min_tier === '' ? null : form.min_tier,
      min_rating: form.min_rating,
      vip_level: form.kind === 'vip' ? Number.parseInt(form.vip_level, 10) : null,
      jurisdictions: form.jurisdictions,
      reason,
    },
    bad,
  };
}

/**
 * The term's reward on an amount, as the server computes it: floor(amount × rate / 100 / 365) at the
 * currency's ledger `scale`, times the days. Null when a figure is missing.
 */
export function termReward(amount: string, annual: string, days: string, scale: number): string | null {
  const parsed = parseDecimal(amount.trim(), { scale });
  const rate = rateUnits(annual);
  if (!parsed.ok || rate === null || !isWholeInRange(days, 0, EARN_LIMITS.termDaysMax)) return null;
  const daily = (parsed.units * rate) / (100n * 365n * 10n ** BigInt(RATE_SCALE));
  return toDecimalString(daily * BigInt(days), scale);
}

export type SettingsForm = { cutoff_hour: string; time_zone: string; levels: VipLevelForm[]; reason: string };
export type VipLevelForm = {
  level: string;
  min_tier: VerificationTier | '';
  min_volume_30d: string;
  min_balance: string;
};

export function settingsForm(data: {
  cutoff_hour: number;
  time_zone: string;
  vip_levels: VipLevelData[];
}): SettingsForm {
  return {
    cutoff_hour: String(data.cutoff_hour),
    time_zone: data.time_zone,
    levels: data.vip_levels.map((l) => ({
      level: String(l.level),
      min_tier: l.min_tier ?? '',
      min_volume_30d: l.min_volume_30d,
      min_balance: l.min_balance,
    })),
    reason: '',
  };
}

/** The settings a form stands for, or its bad fields (`levels.<i>.<field>`); levels must be distinct. */
export function settingsBody(form: SettingsForm): { body: AdminEarnSettingsBody | null; bad: Set<string> } {
  const bad = new Set<string>();
  if (!isWholeInRange(form.cutoff_hour, 0, 23)) bad.add('cutoff_hour');
  if (form.time_zone.trim() === '' || !validTimeZone(form.time_zone.trim())) bad.add('time_zone');
  const seen = new Set<string>();
  form.levels.forEach((l, i) => {
    if (!isWholeInRange(l.level, 1, EARN_LIMITS.vipLevelMax) || seen.has(l.level))
      bad.add(`levels.${i}.level`);
    seen.add(l.level);
    if (!parseDecimal(l.min_volume_30d.trim(), { scale: AMOUNT_SCALE }).ok)
      bad.add(`levels.${i}.min_volume_30d`);
    if (!parseDecimal(l.min_balance.trim(), { scale: AMOUNT_SCALE }).ok) bad.add(`levels.${i}.min_balance`);
  });
  const reason = form.reason.trim();
  if (reason.length < EARN_LIMITS.reasonMin || reason.length > EARN_LIMITS.reasonMax) bad.add('reason');
  if (bad.size > 0) return { body: null, bad };
  return {
    body: {
      cutoff_hour: Number.parseInt(form.cutoff_hour, 10),
      time_zone: form.time_zone.trim(),
      vip_levels: form.levels.map((l) => ({
        level: Number.parseInt(l.level, 10),
        min_tier: l.min_tier === '' ? null : l.min_tier,
        min_volume_30d: l.min_volume_30d.trim(),
        min_balance: l.min_balance.trim(),
      })),
      reason,
    },
    bad,
  };
}

/** Whether Intl knows the zone (what the server accepts too). */
export function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Which state changes a product allows: open from draft or paused, pause when on sale, close unless closed. */
export function actionsOf(state: EarnProductState): AdminEarnProductStateBody['action'][] {
  if (state === 'draft') return ['open', 'close'];
  if (state === 'active') return ['pause', 'close'];
  if (state === 'paused') return ['open', 'close'];
  return [];
}
