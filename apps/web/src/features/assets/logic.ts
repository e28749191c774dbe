import { isKnownAsset, parseDecimal, scaleOf, toDecimalString } from '@bourse/money';
import type { AssetAccountType, AssetData, AssetRow } from '@bourse/protocol';

/** Exact decimal sums (never floats): each string at the currency's scale, added as bigints. */
export function addDecimals(values: readonly string[], scale: number): string {
  let total = 0n;
  for (const v of values) {
    const parsed = parseDecimal(v, { scale, allowNegative: true });
    if (parsed.ok) total += parsed.units;
  }
  return toDecimalString(total, scale);
}

export function scaleFor(currency: string): number {
  return isKnownAsset(currency) ? scaleOf(currency) : 8;
}

export type CurrencyTotal = {
  currency: string;
  available: string;
  frozen: string;
  total: string;
  value_usdt: string | null;
  price_stale: boolean;
};

/** One row per currency over every account type (the overview). */
export function totalsByCurrency(data: AssetData): CurrencyTotal[] {
  const currencies: string[] = [];
  for (const a of data.accounts)
    for (const r of a.rows) if (!currencies.includes(r.currency)) currencies.push(r.currency);
  return currencies.map((currency) => {
    const rows: AssetRow[] = data.accounts.flatMap((a) => a.rows.filter((r) => r.currency === currency));
    const scale = scaleFor(currency);
    const values = rows.map((r) => r.value_usdt).filter((v): v is string => v !== null);
    return {
      currency,
      available: addDecimals(
        rows.map((r) => r.available),
        scale,
      ),
      frozen: addDecimals(
        rows.map((r) => r.frozen),
        scale,
      ),
      total: addDecimals(
        rows.map((r) => r.total),
        scale,
      ),
      value_usdt: values.length === rows.length ? addDecimals(values, 2) : null,
      price_stale: rows.some((r) => r.price_stale),
    };
  });
}

export function isZero(value: string): boolean {
  return !/[1-9]/.test(value);
}

export const ACCOUNT_TYPES: readonly AssetAccountType[] = ['spot', 'contract', 'options', 'earn', 'funding'];

/** The amount a transfer form may send, or the reason it may not (shown before submitting). */
export function checkTransferAmount(
  amount: string,
  currency: string,
  available: string,
): 'empty' | 'invalid' | 'precision' | 'zero' | 'over' | null {
  const text = amount.trim();
  if (text === '') return 'empty';
  const scale = scaleFor(currency);
  const parsed = parseDecimal(text, { scale, allowZero: false });
  if (!parsed.ok) {
    if (parsed.error === 'TOO_PRECISE') return 'precision';
    if (parsed.error === 'ZERO' || parsed.error === 'NEGATIVE') return 'zero';
    return 'invalid';
  }
  const max = parseDecimal(available, { scale });
  if (max.ok && parsed.units > max.units) return 'over';
  return null;
}
