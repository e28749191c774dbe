import { isKnownAsset, scaleOf } from './assets.ts';
import { divRound, type Rounding } from './rounding.ts';

/**
 * The one way a number is shown, on every screen of the web app and the back office. Values are
 * decimal strings (as the server sends them) or bigints, never floats; rounding is exact and matches
 * the server's:
 *
 * | Formatter        | Digits                    | Rounding   | Server counterpart                    |
 * | ---------------- | ------------------------- | ---------- | ------------------------------------- |
 * | `formatPrice`    | the instrument's tick     | `halfEven` | nearest tick (`nearestTicks`)         |
 * | `formatQuantity` | the lot step              | `down`     | sizes are never overstated            |
 * | `formatMoney`    | the currency's scale      | `floor`    | valuations and turnover (`floor`)     |
 * | `formatPercent`  | 2 (a basis point)         | `halfEven` | 24 h change in basis points           |
 * | `formatFiat`     | 2                         | `floor`    | USDT valuation at 2 places (`floor`)  |
 *
 * Grouping and separators follow the locale (`en-US`, `zh-CN`, `zh-TW`); a digit is never changed by
 * grouping, and removing the separators gives back the canonical decimal.
 */

export type Separators = { readonly group: string; readonly decimal: string };

/**
 * Separators of the app's locales (checked against `Intl` in the tests; this package keeps Intl out
 * of its sources). All three group by thousands with a comma and use a full stop.
 */
const SEPARATORS: Readonly<Record<string, Separators>> = {
  en: { group: ',', decimal: '.' },
  'en-US': { group: ',', decimal: '.' },
  zh: { group: ',', decimal: '.' },
  'zh-CN': { group: ',', decimal: '.' },
  'zh-TW': { group: ',', decimal: '.' },
  ft: { group: ',', decimal: '.' },
};

export const DEFAULT_LOCALE = 'en-US';

export function separatorsOf(locale: string): Separators {
  return (
    SEPARATORS[locale] ?? SEPARATORS[locale.split('-')[0] ?? ''] ?? (SEPARATORS[DEFAULT_LOCALE] as Separators)
  );
}

/** A decimal string (`-12.5`, `+3`, `.5`) or a whole bigint; anything else is shown as given. */
export type DisplayValue = string | bigint;

export type DisplayOptions = {
  /** BCP 47 locale or app language (`en`, `zh`, `ft`); `en-US` when absent. */
  locale?: string;
  /** Show `+` before a positive value (a change, a P&L). */
  signed?: boolean;
};

export type DecimalFormat = DisplayOptions & {
  /** Pad to at least this many fraction digits. */
  minFractionDigits: number;
  /** Round to at most this many fraction digits (with `rounding`). */
  maxFractionDigits: number;
  rounding: Rounding;
  /** Group the integer part by thousands (default true). */
  group?: boolean;
};

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;
/** Beyond this a value is not a display amount (and bigint work on it would be unbounded). */
const MAX_DIGITS = 80;

/** Parses a decimal string or bigint into units at the value's own scale; null when it is not a number. */
export function parseDisplayValue(value: DisplayValue): { units: bigint; scale: number } | null {
  if (typeof value === 'bigint') return { units: value, scale: 0 };
  if (typeof value !== 'string') return null;
  const match = DECIMAL.exec(value.trim());
  if (!match) return null;
  const [, sign = '', whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return null;
  if (whole.length + fraction.length > MAX_DIGITS) return null;
  const magnitude = BigInt(`${whole || '0'}${fraction}`);
  return { units: sign === '-' ? -magnitude : magnitude, scale: fraction.length };
}

function groupDigits(integer: string, separator: string): string {
  let out = '';
  for (let i = 0; i < integer.length; i++) {
    if (i > 0 && (integer.length - i) % 3 === 0) out += separator;
    out += integer[i];
  }
  return out;
}

/** The core: exact rounding, padding, locale grouping and sign. */
export function formatDecimal(value: DisplayValue, format: DecimalFormat): string {
  const parsed = parseDisplayValue(value);
  if (!parsed) return typeof value === 'string' ? value : String(value);
  const { minFractionDigits: min, maxFractionDigits: max, rounding, group = true, signed = false } = format;
  if (min < 0 || max < min) throw new RangeError('fraction digits must satisfy 0 <= min <= max');
  let { units, scale } = parsed;
  if (scale > max) {
    units = divRound(units, 10n ** BigInt(scale - max), rounding);
    scale = max;
  }
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const integer = digits.slice(0, digits.length - scale);
  let fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  if (fraction.length < min) fraction = fraction.padEnd(min, '0');
  const separators = separatorsOf(format.locale ?? DEFAULT_LOCALE);
  const shown = group ? groupDigits(integer, separators.group) : integer;
  const sign = negative ? '-' : signed && units > 0n ? '+' : '';
  return fraction === '' ? `${sign}${shown}` : `${sign}${shown}${separators.decimal}${fraction}`;
}

/** Every digit the value has (`"1.80"` stays `1.80`), grouped: for figures whose scale is their own. */
export function formatExact(
  value: DisplayValue,
  options: DisplayOptions & { minFractionDigits?: number } = {},
): string {
  const { minFractionDigits = 0, ...rest } = options;
  const parsed = parseDisplayValue(value);
  if (!parsed) return typeof value === 'string' ? value : String(value);
  const own = parsed.scale > minFractionDigits ? parsed.scale : minFractionDigits;
  return formatDecimal(value, { ...rest, minFractionDigits: own, maxFractionDigits: own, rounding: 'down' });
}

function assertScale(scale: number, name: string): void {
  if (!Number.isInteger(scale) || scale < 0 || scale > 30) throw new RangeError(`${name} must be 0..30`);
}

/** A price at the instrument's tick scale (`price_scale`): exactly that many digits, to the nearest tick. */
export function formatPrice(value: DisplayValue, tickScale: number, options: DisplayOptions = {}): string {
  assertScale(tickScale, 'tickScale');
  return formatDecimal(value, {
    ...options,
    minFractionDigits: tickScale,
    maxFractionDigits: tickScale,
    rounding: 'halfEven',
  });
}

/** A quantity at the lot step's scale: exactly that many digits, never more than the holding. */
export function formatQuantity(value: DisplayValue, lotScale: number, options: DisplayOptions = {}): string {
  assertScale(lotScale, 'lotScale');
  return formatDecimal(value, {
    ...options,
    minFractionDigits: lotScale,
    maxFractionDigits: lotScale,
    rounding: 'down',
  });
}

/** An amount of money at the currency's display scale (`moneyScaleOf`): never overstated. */
export function formatMoney(
  value: DisplayValue,
  currencyScale: number,
  options: DisplayOptions = {},
): string {
  assertScale(currencyScale, 'currencyScale');
  return formatDecimal(value, {
    ...options,
    minFractionDigits: currencyScale,
    maxFractionDigits: currencyScale,
    rounding: 'floor',
  });
}

/**
 * A percentage with its `%`. `value` is already in percent (`"1.25"` → `1.25%`) unless `fraction`
 * is set (`"0.0125"` → `1.25%`). Two digits (a basis point) by default; `digits: 'all'` keeps every
 * digit the value has and adds none (`"0.8"` → `80%`), for settings staff must see exactly.
 */
export function formatPercent(
  value: DisplayValue,
  options: DisplayOptions & { digits?: number | 'all'; fraction?: boolean } = {},
): string {
  const { digits = 2, fraction = false, ...rest } = options;
  const parsed = parseDisplayValue(value);
  if (!parsed) return typeof value === 'string' ? value : String(value);
  // A fraction is a percent with the point two places to the left: move it, exactly.
  const percent = fraction ? movePointRight(parsed.units, parsed.scale, 2) : value;
  const own = fraction ? (parsed.scale > 2 ? parsed.scale - 2 : 0) : parsed.scale;
  const shown = digits === 'all' ? own : digits;
  assertScale(shown, 'digits');
  return `${formatDecimal(percent, { ...rest, minFractionDigits: shown, maxFractionDigits: shown, rounding: 'halfEven' })}%`;
}

/** `units` at `scale`, times 10^places, as a plain decimal string. */
function movePointRight(units: bigint, scale: number, places: number): string {
  const newScale = scale > places ? scale - places : 0;
  const magnitude = units * 10n ** BigInt(places - (scale - newScale));
  const negative = magnitude < 0n;
  const digits = (negative ? -magnitude : magnitude).toString().padStart(newScale + 1, '0');
  const integer = digits.slice(0, digits.length - newScale);
  const fraction = digits.slice(digits.length - newScale);
  return `${negative ? '-' : ''}${integer}${fraction ? `.${fraction}` : ''}`;
}

/** A fiat (or fiat-like: USDT, USDC) amount: two digits, never overstated. */
export function formatFiat(value: DisplayValue, options: DisplayOptions = {}): string {
  return formatMoney(value, FIAT_SCALE, options);
}

export const FIAT_SCALE = 2;
/** Crypto balances show at most this many digits (satoshi precision); finer dust is not shown. */
export const CRYPTO_DISPLAY_SCALE_MAX = 8;
const FIAT_LIKE: ReadonlySet<string> = new Set(['USD', 'EUR', 'HKD', 'CNY', 'JPY', 'GBP', 'USDT', 'USDC']);

/** The display scale of a currency: 2 for fiat and stablecoins, the asset's own (at most 8) for crypto. */
export function moneyScaleOf(currency: string): number {
  if (FIAT_LIKE.has(currency)) return FIAT_SCALE;
  if (isKnownAsset(currency)) {
    const scale = scaleOf(currency);
    return scale < CRYPTO_DISPLAY_SCALE_MAX ? scale : CRYPTO_DISPLAY_SCALE_MAX;
  }
  return CRYPTO_DISPLAY_SCALE_MAX;
}

/** Decimal places of a step such as a tick or lot (`"0.01"` → 2, `"1"` → 0, `"0.50"` → 1). */
export function scaleOfStep(step: string): number {
  const fraction = step.trim().split('.')[1] ?? '';
  return fraction.replace(/0+$/, '').length;
}
