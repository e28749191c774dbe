/**
 * Rounding modes. Every division in this package names one of these, so that
 * "which way did the odd unit go?" always has an answer in the code.
 *
 * - 'up'       away from zero          ( 1.5 →  2, -1.5 → -2)
 * - 'down'     toward zero (truncate)  ( 1.5 →  1, -1.5 → -1)
 * - 'ceil'     toward +infinity        ( 1.5 →  2, -1.5 → -1)
 * - 'floor'    toward -infinity        ( 1.5 →  1, -1.5 → -2)
 * - 'halfUp'   nearest; ties away from zero  ( 2.5 →  3, -2.5 → -3)
 * - 'halfEven' nearest; ties to the even neighbour ( 2.5 → 2, 3.5 → 4)
 */
export type Rounding = 'up' | 'down' | 'ceil' | 'floor' | 'halfUp' | 'halfEven';

export const ROUNDINGS: readonly Rounding[] = Object.freeze([
  'up',
  'down',
  'ceil',
  'floor',
  'halfUp',
  'halfEven',
]);

/**
 * A charge (a fee, interest the customer owes) is rounded toward +infinity so
 * the customer is never billed less than the exact amount; the fraction of a
 * unit comes from the customer, never from the platform.
 * 'ceil' rather than 'up' so that a negative charge (a rebate the platform
 * pays) moves toward zero, i.e. the platform still never creates value.
 */
export const ROUND_CHARGE = 'ceil' satisfies Rounding;

/**
 * A payout (withdrawal net of fees, interest the platform pays, a sale's
 * proceeds) is rounded toward -infinity so the platform never pays more than
 * the exact amount.
 */
export const ROUND_PAYOUT = 'floor' satisfies Rounding;

export function isRounding(value: unknown): value is Rounding {
  return typeof value === 'string' && (ROUNDINGS as readonly string[]).includes(value);
}

/** Throws for an unknown mode: callers from plain JS could pass anything. */
export function assertRounding(value: unknown): asserts value is Rounding {
  if (!isRounding(value)) {
    throw new RangeError(`Unknown rounding mode: ${String(value)}`);
  }
}

/**
 * numerator / denominator, rounded to an integer with the named mode.
 * Exact for all sign combinations; bigint '/' truncates toward zero, so the
 * truncated quotient is adjusted by at most one unit away from zero.
 */
export function divRound(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  if (denominator === 0n) {
    throw new RangeError('Division by zero');
  }
  assertRounding(rounding);
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n) {
    return quotient;
  }
  const negative = numerator < 0n !== denominator < 0n;
  const awayFromZero = negative ? quotient - 1n : quotient + 1n;
  if (shouldRoundAway({ rounding, negative, quotient, remainder, denominator })) {
    return awayFromZero;
  }
  return quotient;
}

function shouldRoundAway(args: {
  rounding: Rounding;
  negative: boolean;
  quotient: bigint;
  remainder: bigint;
  denominator: bigint;
}): boolean {
  const { rounding, negative, quotient, remainder, denominator } = args;
  switch (rounding) {
    case 'up':
      return true;
    case 'down':
      return false;
    case 'ceil':
      return !negative;
    case 'floor':
      return negative;
    case 'halfUp':
    case 'halfEven': {
      // Compare the discarded fraction |r/d| with one half without dividing.
      const twiceRemainder = 2n * absBig(remainder);
      const divisor = absBig(denominator);
      if (twiceRemainder !== divisor) {
        return twiceRemainder > divisor;
      }
      return rounding === 'halfUp' || quotient % 2n !== 0n;
    }
  }
}

function absBig(value: bigint): bigint {
  return value < 0n ? -value : value;
}
