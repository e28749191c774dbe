/**
 * Decimal strings for display and form hints, never through a float (the server is the authority:
 * these only format what it sent and flag input it would refuse anyway).
 */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
const UNSIGNED = /^\d+(?:\.\d+)?$/;

export function isDecimal(value: string): boolean {
  return UNSIGNED.test(value.trim());
}

/** A whole number within [min, max]. */
export function isWhole(value: string, min: number, max: number): boolean {
  if (!/^\d{1,6}$/.test(value.trim())) return false;
  const n = Number.parseInt(value, 10);
  return n >= min && n <= max;
}

function scaled(value: string, scale: number): bigint {
  const negative = value.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? value.slice(1) : value).split('.');
  const units = BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
  return negative ? -units : units;
}

function scaleOf(...values: string[]): number {
  return Math.max(0, ...values.map((v) => v.split('.')[1]?.length ?? 0));
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
  const scale = scaleOf(a, b);
  const x = scaled(a, scale);
  const y = scaled(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Exact sum of decimal strings (non-decimals are skipped). */
export function sumDecimals(values: readonly (string | null | undefined)[]): string {
  const list = values.filter((v): v is string => typeof v === 'string' && DECIMAL.test(v));
  const scale = scaleOf(...list);
  return unscaled(
    list.reduce((total, v) => total + scaled(v, scale), 0n),
    scale,
  );
}

/** The negative of a decimal string ("12.5" → "-12.5", "-3" → "3", "0" → "0"). */
export function negate(value: string): string {
  if (!DECIMAL.test(value)) return value;
  if (/^-?0+(?:\.0+)?$/.test(value)) return '0';
  return value.startsWith('-') ? value.slice(1) : `-${value}`;
}

/** The sign of a decimal string: −1, 0 or 1 (0 for anything else). */
export function signOf(value: string | null | undefined): number {
  if (!value || !DECIMAL.test(value) || /^-?0+(?:\.0+)?$/.test(value)) return 0;
  return value.startsWith('-') ? -1 : 1;
}

/** A decimal fraction as a percent by moving the point two places ("0.85" → "85%", "0.0001" → "0.01%"). */
export function percent(rate: string | null | undefined): string {
  if (rate === null || rate === undefined) return '—';
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(rate);
  if (!match) return rate;
  const fraction = (match[3] ?? '').padEnd(2, '0');
  const whole = `${match[2]}${fraction.slice(0, 2)}`.replace(/^0+(?=\d)/, '');
  const rest = fraction.slice(2).replace(/0+$/, '');
  return `${match[1]}${whole}${rest ? `.${rest}` : ''}%`;
}
