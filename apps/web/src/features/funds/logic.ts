import { sumDecimals } from '@bourse/money';
import type { FundOrderData } from '@bourse/protocol';

/** Pure helpers of the ETF screens: percent texts without floats, the redemption estimate, input checks. */

/** A decimal rate as a percent text: "0.002" → "0.2", "0.0015" → "0.15" (string shift, no float). */
export function ratePercent(rate: string): string {
  const [i = '0', f = ''] = rate.split('.');
  const digits = `${i}${f.padEnd(2, '0')}`;
  const whole = digits.slice(0, i.length + 2).replace(/^0+(?=\d)/, '');
  const frac = digits.slice(i.length + 2).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

const AMOUNT = /^(0|[1-9][0-9]{0,11})(\.[0-9]{1,8})?$/;

/** Whether a typed amount is a plain decimal the server can read (the server still checks every rule). */
export function isAmountText(text: string): boolean {
  return AMOUNT.test(text.trim());
}

/** What a redemption would pay back at the prices now: every holding's value plus the cash. */
export function redeemEstimate(order: Pick<FundOrderData, 'holdings' | 'cash'>): string {
  return sumDecimals([...order.holdings.map((h) => h.value), order.cash]);
}

/** The holdings a redemption sells (those with a quantity). */
export function toSell(order: Pick<FundOrderData, 'holdings'>) {
  return order.holdings.filter((h) => /[1-9]/.test(h.quantity));
}

/** A decimal string cut (toward zero) to `places` decimals: NAV and units are read to 4 places. */
export function cut(value: string, places: number): string {
  const [i = '0', f = ''] = value.split('.');
  return places === 0 ? i : `${i}.${f.padEnd(places, '0').slice(0, places)}`;
}

/** The sign of a decimal string: -1, 0 or 1. */
export function signOfText(value: string): -1 | 0 | 1 {
  if (!/[1-9]/.test(value)) return 0;
  return value.trim().startsWith('-') ? -1 : 1;
}
