import { divRound, type Rounding } from './rounding.ts';
import { assertDigitCount, assertScale, pow10 } from './scale.ts';

export type ParseError = 'EMPTY' | 'INVALID' | 'TOO_PRECISE' | 'TOO_LARGE' | 'NEGATIVE' | 'ZERO';

export type ParseResult = { ok: true; units: bigint } | { ok: false; error: ParseError };

export type ParseOptions = {
  /** Decimal places of the minor unit (0..MAX_SCALE). */
  scale: number;
  /** Default false: most inputs (order sizes, transfers) are never negative. */
  allowNegative?: boolean;
  /** Default true. */
  allowZero?: boolean;
  /** Significant integer digits allowed (leading zeros don't count). Default 20. */
  maxIntegerDigits?: number;
};

export const DEFAULT_MAX_INTEGER_DIGITS = 20;

/**
 * The whole accepted grammar. [0-9] rather than \d to make it obvious that
 * only ASCII digits pass (no Arabic-Indic or full-width digits). A trailing
 * '.' ('1.') is rejected: it is usually a half-typed number, and keeping one
 * spelling per value keeps the wire format boring.
 *   decimal := '-'? ( digits ( '.' digits )? | '.' digits )
 */
const DECIMAL = /^(-?)(?:([0-9]+)(?:\.([0-9]+))?|\.([0-9]+))$/;

/**
 * Parses a plain decimal string into minor units of the given scale, exactly.
 * Checks run in a fixed order, so each input has exactly one error:
 * EMPTY, INVALID, NEGATIVE, TOO_LARGE, TOO_PRECISE, ZERO.
 * The '-' is judged syntactically: '-0' is NEGATIVE when negatives are not
 * allowed, even though its value is zero.
 */
export function parseDecimal(input: string, options: ParseOptions): ParseResult {
  const { scale, allowNegative = false, allowZero = true } = options;
  const maxIntegerDigits = options.maxIntegerDigits ?? DEFAULT_MAX_INTEGER_DIGITS;
  assertScale(scale);
  assertDigitCount(maxIntegerDigits, 'maxIntegerDigits');

  if (typeof input !== 'string') {
    return { ok: false, error: 'INVALID' };
  }
  if (input === '') {
    return { ok: false, error: 'EMPTY' };
  }
  const match = DECIMAL.exec(input);
  if (match === null) {
    return { ok: false, error: 'INVALID' };
  }
  const negative = match[1] === '-';
  const integerDigits = stripLeadingZeros(match[2] ?? '');
  const fractionDigits = stripTrailingZeros(match[3] ?? match[4] ?? '');

  if (negative && !allowNegative) {
    return { ok: false, error: 'NEGATIVE' };
  }
  if (integerDigits.length > maxIntegerDigits) {
    return { ok: false, error: 'TOO_LARGE' };
  }
  if (fractionDigits.length > scale) {
    return { ok: false, error: 'TOO_PRECISE' };
  }
  // Both parts are now bounded by the limits above, so this BigInt() is cheap.
  const magnitude = BigInt(`0${integerDigits}${fractionDigits.padEnd(scale, '0')}`);
  if (magnitude === 0n && !allowZero) {
    return { ok: false, error: 'ZERO' };
  }
  return { ok: true, units: negative ? -magnitude : magnitude };
}

export class MoneyParseError extends Error {
  readonly code: ParseError;

  constructor(code: ParseError, input: string) {
    const shown = typeof input === 'string' ? JSON.stringify(input.slice(0, 64)) : String(input);
    super(`Cannot parse decimal ${shown}: ${code}`);
    this.name = 'MoneyParseError';
    this.code = code;
  }
}

/** parseDecimal for trusted inputs (config, database rows) where failure is a bug. */
export function parseUnitsOrThrow(input: string, options: ParseOptions): bigint {
  const result = parseDecimal(input, options);
  if (!result.ok) {
    throw new MoneyParseError(result.error, input);
  }
  return result.units;
}

export type FormatOptions = {
  /** Decimal places of the minor unit `units` is expressed in (0..MAX_SCALE). */
  scale: number;
  /** Pad the fraction with zeros to at least this many digits. Default 0. */
  minFractionDigits?: number;
  /** Round to at most this many fraction digits. Default: `scale` (no rounding). */
  maxFractionDigits?: number;
  /** Used only when maxFractionDigits < scale. Default 'down' (never overstate). */
  rounding?: Rounding;
  /** Insert ',' between groups of three integer digits. Default false. */
  group?: boolean;
};

/**
 * Minor units → decimal string. By default the output is canonical: no
 * trailing fraction zeros, no grouping, '-' only for non-zero negatives
 * ("1.5", "0", "-0.00000001"); parseDecimal reads it back exactly.
 */
export function formatUnits(units: bigint, options: FormatOptions): string {
  const { scale, minFractionDigits = 0, rounding = 'down', group = false } = options;
  const maxFractionDigits = options.maxFractionDigits ?? Math.max(scale, minFractionDigits);
  assertScale(scale);
  assertDigitCount(minFractionDigits, 'minFractionDigits');
  assertDigitCount(maxFractionDigits, 'maxFractionDigits');
  if (minFractionDigits > maxFractionDigits) {
    throw new RangeError('minFractionDigits must not exceed maxFractionDigits');
  }
  assertUnits(units);

  let value = units;
  let digits = scale;
  if (maxFractionDigits < scale) {
    value = divRound(units, pow10(scale - maxFractionDigits), rounding);
    digits = maxFractionDigits;
  }
  const negative = value < 0n;
  const magnitude = (negative ? -value : value).toString().padStart(digits + 1, '0');
  const integerPart = magnitude.slice(0, magnitude.length - digits);
  const fractionPart = stripTrailingZeros(magnitude.slice(magnitude.length - digits)).padEnd(
    minFractionDigits,
    '0',
  );
  const shownInteger = group ? groupThousands(integerPart) : integerPart;
  const sign = negative ? '-' : '';
  return fractionPart === '' ? `${sign}${shownInteger}` : `${sign}${shownInteger}.${fractionPart}`;
}

/**
 * Canonical full-precision decimal string for NUMERIC columns and the wire:
 * never rounds, drops only trailing fraction zeros, never groups. Two equal
 * amounts always produce the same string whatever their scale.
 */
export function toDecimalString(units: bigint, scale: number): string {
  return formatUnits(units, { scale });
}

function assertUnits(units: unknown): asserts units is bigint {
  // A number here would mean a float already touched the amount upstream.
  if (typeof units !== 'bigint') {
    throw new TypeError(`Amount must be a bigint of minor units, got ${typeof units}`);
  }
}

function groupThousands(digits: string): string {
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) {
    out += `,${digits.slice(i, i + 3)}`;
  }
  return out;
}

function stripLeadingZeros(digits: string): string {
  let i = 0;
  while (i < digits.length && digits[i] === '0') i++;
  return digits.slice(i);
}

function stripTrailingZeros(digits: string): string {
  let end = digits.length;
  while (end > 0 && digits[end - 1] === '0') end--;
  return digits.slice(0, end);
}
