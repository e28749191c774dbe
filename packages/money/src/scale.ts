import { MAX_SCALE } from './assets.ts';

/** Throws unless `scale` is an integer in 0..MAX_SCALE; a bad scale is a programming error. */
export function assertScale(scale: number, name = 'scale'): void {
  if (!Number.isInteger(scale) || scale < 0 || scale > MAX_SCALE) {
    throw new RangeError(`${name} must be an integer in 0..${MAX_SCALE}, got ${String(scale)}`);
  }
}

/** Throws unless `value` is a non-negative safe integer (digit counts, not money). */
export function assertDigitCount(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${String(value)}`);
  }
}

const POWERS: bigint[] = [];

/** 10^exponent as a bigint; exponent is a validated digit count, never an amount. */
export function pow10(exponent: number): bigint {
  assertDigitCount(exponent, 'exponent');
  let power = POWERS[exponent];
  if (power === undefined) {
    power = 10n ** BigInt(exponent);
    if (exponent <= 2 * MAX_SCALE) {
      POWERS[exponent] = power;
    }
  }
  return power;
}
