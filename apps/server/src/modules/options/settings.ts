import { parseDecimal, scaleOf, toDecimalString } from '@bourse/money';
import { DERIVATIVES_LIMITS, type OptionDurationData } from '@bourse/protocol';
import { refuse } from '../../http/refusal.ts';
import type { StoredDuration } from './tables.ts';

/** Stakes are USDT from the customer's `options` account. */
export const OPTION_CURRENCY = 'USDT' as const;
export const USDT_SCALE = scaleOf(OPTION_CURRENCY);

/** A payout rate is a decimal in (0, OPTION_PAYOUT_RATE_MAX] with at most this many decimals. */
export const OPTION_PAYOUT_RATE_MAX = '1';
export const OPTION_PAYOUT_RATE_DECIMALS = 4;
/** The most a stake may be configured to (USDT). */
export const OPTION_STAKE_CONFIG_MAX = '1000000';

/** What a fresh install offers (every value can be changed in the back office). */
export const OPTION_DEFAULTS = {
  /** The top ten crypto spot pairs, gold, two major forex pairs and WTI — each only if the catalogue has it. */
  symbols: [
    'BTC/USDT',
    'ETH/USDT',
    'SOL/USDT',
    'XRP/USDT',
    'BNB/USDT',
    'DOGE/USDT',
    'ADA/USDT',
    'TRX/USDT',
    'AVAX/USDT',
    'LINK/USDT',
    'XAU/USD',
    'EUR/USD',
    'GBP/USD',
    'WTI',
  ],
  durations: [
    { seconds: 30, payout_rate: '0.8' },
    { seconds: 60, payout_rate: '0.85' },
    { seconds: 300, payout_rate: '0.9' },
    { seconds: 900, payout_rate: '0.92' },
  ] satisfies StoredDuration[],
  minStake: '10',
  maxStake: '10000',
} as const;

export function usdtText(units: bigint): string {
  return toDecimalString(units, USDT_SCALE);
}

/** A configured stake bound; a bad one is refused naming its field. */
export function parseStakeSetting(field: string, text: string): bigint {
  const p = parseDecimal(text.trim(), { scale: USDT_SCALE, allowZero: false, maxIntegerDigits: 12 });
  if (!p.ok) refuse('CONTRACT_SETTING_INVALID', { field });
  const max = parseDecimal(OPTION_STAKE_CONFIG_MAX, { scale: USDT_SCALE });
  if (max.ok && p.units > max.units) refuse('CONTRACT_SETTING_INVALID', { field });
  return p.units;
}

function normalizeRate(text: string): string | null {
  const p = parseDecimal(text, { scale: OPTION_PAYOUT_RATE_DECIMALS, allowZero: false, maxIntegerDigits: 2 });
  const max = parseDecimal(OPTION_PAYOUT_RATE_MAX, { scale: OPTION_PAYOUT_RATE_DECIMALS });
  if (!p.ok || !max.ok || p.units > max.units) return null;
  return toDecimalString(p.units, OPTION_PAYOUT_RATE_DECIMALS);
}

/**
 * "60:0.85,300:0.9" → durations sorted by seconds. Refused (CONTRACT_SETTING_INVALID {field:
 * durations}) when empty, malformed, more than `optionDurationsMax`, a duration outside
 * 30 s…86,400 s or repeated, or a rate outside (0, 1] or finer than 4 decimals.
 */
export function parseDurations(text: string): StoredDuration[] {
  const bad = (): never => refuse('CONTRACT_SETTING_INVALID', { field: 'durations' });
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.length > DERIVATIVES_LIMITS.optionDurationsMax) bad();
  const out: StoredDuration[] = [];
  const seen = new Set<number>();
  for (const part of parts) {
    const m = /^([0-9]{1,6}):([0-9.]{1,12})$/.exec(part);
    if (!m) return bad();
    const seconds = Number(m[1]);
    if (
      seconds < DERIVATIVES_LIMITS.optionDurationMinSeconds ||
      seconds > DERIVATIVES_LIMITS.optionDurationMaxSeconds ||
      seen.has(seconds)
    )
      bad();
    const rate = normalizeRate(m[2] ?? '');
    if (rate === null) return bad();
    seen.add(seconds);
    out.push({ seconds, payout_rate: rate });
  }
  return out.sort((a, b) => a.seconds - b.seconds);
}

export function durationsText(durations: readonly StoredDuration[]): string {
  return durations.map((d) => `${d.seconds}:${d.payout_rate}`).join(',');
}

export function durationData(durations: readonly StoredDuration[]): OptionDurationData[] {
  return durations.map((d) => ({ seconds: d.seconds, payout_rate: d.payout_rate }));
}
