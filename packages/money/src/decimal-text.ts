/**
 * Small exact helpers on decimal strings for screens (the back office's sums and form hints). The
 * server stays the authority: these only order, add and sign what it sent, or flag input it would
 * refuse anyway. Never through a float.
 */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
const UNSIGNED = /^\d+(?:\.\d+)?$/;
const ZERO = /^-?0+(?:\.0+)?$/;

/** An unsigned decimal (`12`, `0.5`); surrounding spaces are allowed. */
export function isDecimal(value: string): boolean {
  return UNSIGNED.test(value.trim());
}

/** A whole number of at most 6 digits within [min, max]. */
export function isWholeInRange(value: string, min: number, max: number): boolean {
  const text = value.trim();
  if (!/^\d{1,6}$/.test(text)) return false;
  const n = BigInt(text);
  return n >= BigInt(min) && n <= BigInt(max);
}

function fractionLength(value: string): number {
  return value.split('.')[1]?.length ?? 0;
}

/**
 * A signed decimal string (`-12.5`) as units at `scale`; digits beyond the scale are cut (toward
 * zero). Throws on anything that is not a plain decimal.
 */
export function signedUnits(value: string, scale: number): bigint {
  if (!DECIMAL.test(value)) throw new RangeError(`not a decimal: ${JSON.stringify(value)}`);
  return scaled(value, scale);
}

function scaled(value: string, scale: number): bigint {
  const negative = value.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? value.slice(1) : value).split('.');
  const units = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
  return negative ? -units : units;
}

function unscaled(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = scale > 0 ? digits.slice(digits.length - scale).replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** −1, 0 or 1; both must be decimals. */
export function compareDecimal(a: string, b: string): number {
  const scale = fractionLength(a) > fractionLength(b) ? fractionLength(a) : fractionLength(b);
  const x = scaled(a, scale);
  const y = scaled(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Exact sum of decimal strings (non-decimals are skipped). */
export function sumDecimals(values: readonly (string | null | undefined)[]): string {
  const list = values.filter((v): v is string => typeof v === 'string' && DECIMAL.test(v));
  const scale = list.reduce((s, v) => (fractionLength(v) > s ? fractionLength(v) : s), 0);
  return unscaled(
    list.reduce((total, v) => total + scaled(v, scale), 0n),
    scale,
  );
}

/** The negative of a decimal string (`12.5` → `-12.5`, `-3` → `3`, `0` → `0`). */
export function negate(value: string): string {
  if (!DECIMAL.test(value)) return value;
  if (ZERO.test(value)) return '0';
  return value.startsWith('-') ? value.slice(1) : `-${value}`;
}

/** The sign of a decimal string: −1, 0 or 1 (0 for anything else). */
export function signOf(value: string | null | undefined): number {
  if (!value || !DECIMAL.test(value) || ZERO.test(value)) return 0;
  return value.startsWith('-') ? -1 : 1;
}
