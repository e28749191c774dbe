import { applyRate, formatUnits, parseDecimal, ROUND_PAYOUT, scaleOf } from '@bourse/money';
import type { OptionDirection, OptionDurationData, OptionInstrumentData } from '@bourse/protocol';

/**
 * The options screen's arithmetic, exact: stakes and payouts are bigints in USDT minor units (the
 * ledger's scale), rates stay decimal strings applied by @bourse/money, prices are compared as
 * decimal strings. Nothing here passes through a float. The server computes the real payout; this
 * is the preview the customer reads before buying, rounded the same way (a payout rounds down).
 */
export const STAKE_CURRENCY = 'USDT';
export const STAKE_SCALE = scaleOf(STAKE_CURRENCY);

/** A non-negative USDT amount as minor units; null when empty, not a decimal, or too precise. */
export function stakeUnits(text: string | null | undefined): bigint | null {
  if (text === null || text === undefined) return null;
  const parsed = parseDecimal(text.trim(), { scale: STAKE_SCALE });
  return parsed.ok ? parsed.units : null;
}

/** Why a typed stake cannot be parsed: empty, not a number, or more decimals than USDT has. */
export function stakeTextError(text: string): 'empty' | 'invalid' | 'precision' | null {
  const parsed = parseDecimal(text.trim(), { scale: STAKE_SCALE });
  if (parsed.ok) return null;
  if (parsed.error === 'EMPTY') return 'empty';
  if (parsed.error === 'TOO_PRECISE') return 'precision';
  return 'invalid';
}

/** Minor units as a canonical decimal string ("18.5", "0.00000001"). */
export function showStake(units: bigint): string {
  return formatUnits(units, { scale: STAKE_SCALE });
}

/**
 * What a win pays back: stake × (1 + rate) = stake + stake × rate, the second term rounded down to
 * the USDT minor unit (a payout never rounds up).
 */
export function payoutOnWin(stake: bigint, rate: string): bigint {
  return stake + applyRate({ units: stake, rate, rounding: ROUND_PAYOUT });
}

/** A rate as an exact percentage string: "0.85" → "85", "0.925" → "92.5". */
export function ratePercent(rate: string): string {
  const parsed = parseDecimal(rate.trim(), { scale: 18, allowNegative: true });
  if (!parsed.ok) return rate;
  return formatUnits(parsed.units * 100n, { scale: 18 });
}

export type StakeRule = 'min' | 'max' | 'balance';

/** Every rule a stake breaks, in the order the server checks them (minimum, maximum, balance). */
export function stakeBreaks(options: {
  stake: bigint;
  min: bigint;
  max: bigint;
  available: bigint | null;
}): StakeRule[] {
  const { stake, min, max, available } = options;
  const out: StakeRule[] = [];
  if (stake < min) out.push('min');
  if (stake > max) out.push('max');
  if (available !== null && stake > available) out.push('balance');
  return out;
}

/** Quick stakes between the minimum and the maximum: round numbers from the minimum up, at most four. */
const PRESET_CANDIDATES = ['1', '5', '10', '20', '50', '100', '200', '500', '1000', '2000', '5000', '10000'];
export function stakePresets(min: string, max: string, count = 4): string[] {
  const lo = stakeUnits(min);
  const hi = stakeUnits(max);
  if (lo === null || hi === null || hi < lo) return [];
  const picks = [showStake(lo)];
  for (const candidate of PRESET_CANDIDATES) {
    const units = stakeUnits(candidate) ?? 0n;
    if (units > lo && units <= hi && picks.length < count) picks.push(candidate);
  }
  return picks;
}

/** Compares decimal strings exactly: -1, 0 or 1 (both must parse). */
function compare(a: string, b: string): -1 | 0 | 1 | null {
  const pa = parseDecimal(a.trim(), { scale: 18, allowNegative: true, maxIntegerDigits: 30 });
  const pb = parseDecimal(b.trim(), { scale: 18, allowNegative: true, maxIntegerDigits: 30 });
  if (!pa.ok || !pb.ok) return null;
  return pa.units === pb.units ? 0 : pa.units < pb.units ? -1 : 1;
}

export type Standing = 'winning' | 'losing' | 'level';

/**
 * Where an open option stands at a price: Up wins above the opening price, Down below it; equal is
 * a tie (the stake comes back). null when either price is missing or not a decimal.
 */
export function standingAt(options: {
  direction: OptionDirection;
  openPrice: string;
  price: string | null | undefined;
}): Standing | null {
  const { direction, openPrice, price } = options;
  if (!price) return null;
  const order = compare(price, openPrice);
  if (order === null) return null;
  if (order === 0) return 'level';
  return order > 0 === (direction === 'up') ? 'winning' : 'losing';
}

/** Seconds left until `expiresAtMs` at `nowMs`, never negative, counting a started second as whole. */
export function secondsLeft(expiresAtMs: number, nowMs: number): number {
  const ms = expiresAtMs - nowMs;
  return ms <= 0 ? 0 : Math.ceil(ms / 1000);
}

/** A countdown as "m:ss" or "h:mm:ss". */
export function countdownText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

export type DurationParts = { unit: 's' | 'min' | 'h' | 'd'; count: number };

/** A duration in its largest whole unit: 30 → 30 s, 300 → 5 min, 3600 → 1 h, 86400 → 1 d, 90 → 90 s. */
export function durationParts(seconds: number): DurationParts {
  if (seconds >= 86_400 && seconds % 86_400 === 0) return { unit: 'd', count: seconds / 86_400 };
  if (seconds >= 3600 && seconds % 3600 === 0) return { unit: 'h', count: seconds / 3600 };
  if (seconds >= 60 && seconds % 60 === 0) return { unit: 'min', count: seconds / 60 };
  return { unit: 's', count: seconds };
}

/** The instrument `?symbol=` names, else the first one open now, else the first one offered. */
export function pickInstrument(
  list: readonly OptionInstrumentData[],
  wanted: string | null,
): OptionInstrumentData | undefined {
  if (wanted) return list.find((i) => i.symbol === wanted);
  return list.find((i) => i.enabled && i.open) ?? list.find((i) => i.enabled) ?? list[0];
}

/** The shortest configured duration (the default choice). */
export function shortestDuration(durations: readonly OptionDurationData[]): OptionDurationData | undefined {
  let best: OptionDurationData | undefined;
  for (const d of durations) if (!best || d.seconds < best.seconds) best = d;
  return best;
}

/** Whether a settled amount is a gain, a loss or neither (for its colour). */
export function signOf(value: string | null): 'up' | 'down' | 'flat' {
  if (!value) return 'flat';
  const order = compare(value, '0');
  return order === null || order === 0 ? 'flat' : order > 0 ? 'up' : 'down';
}

/**
 * The order panel's figures for a typed stake: its units, the rules it breaks, the payout and profit a
 * win would bring on the chosen duration, whether it can be bought, and the most the "max" button may
 * fill in (the instrument's maximum, or the balance when lower).
 */
export function stakeFigures(options: {
  stake: string;
  availableText: string | null;
  instrument: Pick<OptionInstrumentData, 'min_stake' | 'max_stake' | 'enabled' | 'open'>;
  chosen: OptionDurationData | null;
}) {
  const { stake, instrument, chosen } = options;
  const stakeValue = stakeUnits(stake);
  const textError = stake.trim() === '' ? null : stakeTextError(stake);
  const available = stakeUnits(options.availableText);
  const min = stakeUnits(instrument.min_stake) ?? 0n;
  const max = stakeUnits(instrument.max_stake) ?? 0n;
  const breaks =
    stakeValue === null || stakeValue === 0n ? [] : stakeBreaks({ stake: stakeValue, min, max, available });
  const payout = stakeValue !== null && chosen ? payoutOnWin(stakeValue, chosen.payout_rate) : null;
  const profit = payout !== null && stakeValue !== null ? payout - stakeValue : null;
  const tradable = instrument.enabled && instrument.open;
  const ready = tradable && chosen !== null && stakeValue !== null && stakeValue > 0n;
  const maxStake = available !== null && available < max ? available : max;
  return { stakeValue, textError, available, breaks, payout, profit, ready, maxStake };
}
