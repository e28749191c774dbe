import { isKnownAsset, parseDecimal, scaleOf } from '@bourse/money';
import { ASSET_LIMITS } from '@bourse/protocol';
import { refuse } from '../../http/refusal.ts';

/**
 * Customer amounts, checked before any work: each bad input gets its own reason naming the field
 * (and the rule's figure), so nothing malformed ever reaches the ledger. Shared by deposits and,
 * through `index.ts`, by any module that takes an amount.
 */
export function knownCurrency(currency: string): string {
  if (!isKnownAsset(currency)) refuse('CURRENCY_UNKNOWN', { currency });
  return currency;
}

const WHOLE_DIGITS_MAX = ASSET_LIMITS.amountWholeMax.length - 1;

export function parseAmount(field: string, input: string, currency: string): bigint {
  const scale = scaleOf(knownCurrency(currency));
  const trimmed = input.trim();
  if (trimmed === '') refuse('FIELD_REQUIRED', { field });
  // 10^12 whole units is the most any call takes; more integer digits than that is too large
  // whatever they are, and is refused before any bigint is built from hostile input.
  const parsed = parseDecimal(trimmed, { scale, allowZero: false, maxIntegerDigits: WHOLE_DIGITS_MAX + 1 });
  if (!parsed.ok) {
    if (parsed.error === 'NEGATIVE' || parsed.error === 'ZERO') refuse('AMOUNT_NOT_POSITIVE', { field });
    if (parsed.error === 'TOO_PRECISE') refuse('AMOUNT_TOO_PRECISE', { field, decimals: scale });
    if (parsed.error === 'TOO_LARGE') refuse('AMOUNT_TOO_LARGE', { field, max: ASSET_LIMITS.amountWholeMax });
    refuse('AMOUNT_INVALID', { field });
  }
  if (parsed.units > BigInt(ASSET_LIMITS.amountWholeMax) * 10n ** BigInt(scale)) {
    refuse('AMOUNT_TOO_LARGE', { field, max: ASSET_LIMITS.amountWholeMax });
  }
  return parsed.units;
}
