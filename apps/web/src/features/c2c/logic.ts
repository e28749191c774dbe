import {
  bpsPercentText,
  compareDecimal,
  DEFAULT_CRYPTO_SCALE,
  isKnownAsset,
  parseDecimal,
  scaleOf,
  toDecimalString,
} from '@bourse/money';
import type {
  C2cMessageData,
  C2cMethod,
  C2cOfferData,
  C2cOrderData,
  C2cPayToData,
  C2cState,
} from '@bourse/protocol';
import { quoteC2c } from '@bourse/risk';
import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';

/**
 * Pure logic of the C2C screens (modules/c2c): routes, the live quote (the server's own `quoteC2c`
 * from `@bourse/risk`, so the figure shown is the figure ordered), the amount checks an offer states,
 * countdowns, the receiver's payment details as lines, collection-account checks (IBAN and BIC with
 * `ibantools`, as the server) and merging live chat messages. Amounts are decimal strings or bigint
 * units, never a float; the server checks everything again.
 */

export const C2C_ROUTES = {
  offers: '/c2c_index',
  create: (offerId: string) => `/c2c_create?offer_id=${encodeURIComponent(offerId)}`,
  orders: '/c2c_order',
  order: (orderId: string) => `/c2c_submit?order_id=${encodeURIComponent(orderId)}`,
  accounts: '/c2c_account',
  rules: '/c2c_rule',
  verification: '/authentication',
} as const;

export const STATE_COLORS: Readonly<Record<C2cState, string>> = {
  pending_match: 'gray',
  matched: 'blue',
  paid: 'cyan',
  disputed: 'orange',
  completed: 'teal',
  expired: 'gray',
  cancelled: 'gray',
  rejected: 'red',
};

/** States with a clock running: `matched` (pay by), `paid` (confirm by), `disputed` (respond by). */
export const LIVE_STATES: readonly C2cState[] = ['pending_match', 'matched', 'paid', 'disputed'];

export function isLive(state: C2cState): boolean {
  return LIVE_STATES.includes(state);
}

/** The deadline an order is counting down to now, or null (finished, or no clock). */
export function deadlineOf(order: Pick<C2cOrderData, 'state' | 'pay_by' | 'confirm_by' | 'dispute'>) {
  if (order.state === 'matched') return { kind: 'pay_by' as const, at: order.pay_by };
  if (order.state === 'paid' && order.confirm_by !== null)
    return { kind: 'confirm_by' as const, at: order.confirm_by };
  if (order.state === 'disputed' && order.dispute && order.dispute.respond_by > 0)
    return { kind: 'respond_by' as const, at: order.dispute.respond_by };
  return null;
}

/** Whole hours, minutes and seconds left until `at` (zero once passed). */
export function remaining(at: number, now: number): { h: number; m: number; s: number; over: boolean } {
  const left = Math.max(0, at - now);
  const total = Math.floor(left / 1000);
  return { h: Math.floor(total / 3600), m: Math.floor((total % 3600) / 60), s: total % 60, over: left === 0 };
}

/** `02:59:58`: a countdown's text (hours may exceed 24). */
export function countdownText(at: number, now: number): string {
  const { h, m, s } = remaining(at, now);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(h)}:${two(m)}:${two(s)}`;
}

/** The scale of a coin's amounts (the asset's own; an unknown coin gets the default crypto scale). */
export function coinScale(coin: string): number {
  return isKnownAsset(coin) ? scaleOf(coin) : DEFAULT_CRYPTO_SCALE;
}

/** Units of a coin amount typed by the customer; null unless a positive decimal within the scale. */
export function coinUnits(text: string, coin: string): bigint | null {
  const parsed = parseDecimal(text.trim(), { scale: coinScale(coin), allowZero: false });
  return parsed.ok ? parsed.units : null;
}

const PRICE_SCALE = 8;
const FIAT_SCALE = 2;

/**
 * What an amount costs (buying) or brings (selling) in fiat at the offer's price now: the server's
 * quote (`quoteC2c`, rounding in the orderer's favour). Null for an amount that is not one, or an
 * offer without a price now (a spread offer whose feed is away).
 */
export function quoteFiat(offer: Pick<C2cOfferData, 'side' | 'price' | 'coin'>, amount: string) {
  const units = coinUnits(amount, offer.coin);
  if (units === null || offer.price === null) return null;
  const price = parseDecimal(offer.price, { scale: PRICE_SCALE, allowZero: false });
  if (!price.ok) return null;
  const quote = quoteC2c({
    side: offer.side,
    pricing: { kind: 'fixed', priceUnits: price.units },
    coinUnits: units,
    coinScale: coinScale(offer.coin),
  });
  // Always two decimals, as the server sends fiat amounts ("101.00").
  const [whole, cents = ''] = toDecimalString(quote.fiatCents, FIAT_SCALE).split('.');
  return `${whole}.${cents.padEnd(FIAT_SCALE, '0')}`;
}

export type AmountProblem =
  | { kind: 'invalid' }
  | { kind: 'belowMin'; min: string }
  | { kind: 'aboveMax'; max: string }
  | { kind: 'aboveRemaining'; left: string }
  | { kind: 'aboveMethod'; max: string };

/**
 * The first limit the offer states that an amount breaks, in the server's order (offer min, max,
 * remaining, the method's cap); the account-age band and balances are the server's to check. The
 * offer's last amount below its minimum may be taken whole, as the server allows.
 */
export function amountProblem(
  amount: string,
  offer: Pick<C2cOfferData, 'coin' | 'min_amount' | 'max_amount' | 'remaining' | 'methods'>,
  method: C2cMethod | null,
): AmountProblem | null {
  if (coinUnits(amount, offer.coin) === null) return { kind: 'invalid' };
  const value = amount.trim();
  const isRemaining = compareDecimal(value, offer.remaining) === 0;
  if (compareDecimal(value, offer.min_amount) < 0 && !isRemaining)
    return { kind: 'belowMin', min: offer.min_amount };
  if (compareDecimal(value, offer.max_amount) > 0) return { kind: 'aboveMax', max: offer.max_amount };
  if (compareDecimal(value, offer.remaining) > 0) return { kind: 'aboveRemaining', left: offer.remaining };
  const cap = offer.methods.find((m) => m.method === method)?.max_amount ?? null;
  if (cap !== null && compareDecimal(value, cap) > 0) return { kind: 'aboveMethod', max: cap };
  return null;
}

/** The most one order on the offer can take: the smaller of its max and what is left. */
export function orderMax(offer: Pick<C2cOfferData, 'max_amount' | 'remaining'>): string {
  return compareDecimal(offer.max_amount, offer.remaining) <= 0 ? offer.max_amount : offer.remaining;
}

/** The spread as a signed percent text: 150 → "+1.5", -25 → "-0.25". */
export function spreadPercent(bps: number): string {
  const sign = bps > 0 ? '+' : bps < 0 ? '-' : '';
  return `${sign}${bpsPercentText(BigInt(Math.abs(Math.trunc(bps))))}`;
}

export type PayToField =
  | 'name'
  | 'bank_name'
  | 'account_no'
  | 'iban'
  | 'swift'
  | 'bank_address'
  | 'wallet_id';

/** The receiver's payment details as labelled lines, in the order a transfer form asks for them. */
export function payToLines(payTo: C2cPayToData): Array<{ field: PayToField; value: string }> {
  const fields: PayToField[] =
    payTo.method === 'bank'
      ? ['name', 'bank_name', 'account_no', 'iban', 'swift', 'bank_address']
      : ['name', 'wallet_id'];
  const out: Array<{ field: PayToField; value: string }> = [];
  for (const field of fields) {
    const value = payTo[field];
    if (typeof value === 'string' && value.trim() !== '') out.push({ field, value });
  }
  return out;
}

/** Who I am in this order: the fiat payer (coin buyer) or the receiver (coin seller). */
export function myPart(order: Pick<C2cOrderData, 'i_pay'>): 'payer' | 'receiver' {
  return order.i_pay ? 'payer' : 'receiver';
}

/** The other party as this customer sees them: the merchant's name, or "the customer" for merchants. */
export function counterpartyOf(order: Pick<C2cOrderData, 'role' | 'merchant_name'>): string | null {
  return order.role === 'customer' ? order.merchant_name : null;
}

/** The chat with live messages merged in: one per `seq`, in order. */
export function mergeMessages(
  current: readonly C2cMessageData[],
  incoming: readonly C2cMessageData[],
): C2cMessageData[] {
  const bySeq = new Map<number, C2cMessageData>();
  for (const m of current) bySeq.set(m.seq, m);
  for (const m of incoming) bySeq.set(m.seq, m);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** The highest `seq` of the chat (0 when empty): `after` for the next fetch. */
export function lastSeq(messages: readonly C2cMessageData[]): number {
  return messages.reduce((top, m) => Math.max(m.seq, top), 0);
}

// ---------------------------------------------------------------- collection accounts

export type AccountForm = {
  method: C2cMethod;
  bank_name: string;
  /** The account number or the IBAN, as typed (an IBAN is recognised by its shape). */
  account: string;
  swift: string;
  bank_address: string;
  wallet_id: string;
};

export type AccountProblem = 'bank_name' | 'account' | 'iban' | 'swift' | 'wallet_id';

/** Looks like an IBAN: two letters, two digits, then letters and digits (spaces allowed). */
export function looksLikeIban(text: string): boolean {
  return /^[A-Za-z]{2}[0-9]{2}[A-Za-z0-9 ]{8,}$/.test(text.trim());
}

/** Every field problem of a collection account, as the server would refuse it. */
export function accountProblems(form: AccountForm): AccountProblem[] {
  const problems: AccountProblem[] = [];
  if (form.method !== 'bank') {
    if (form.wallet_id.trim() === '') problems.push('wallet_id');
    return problems;
  }
  if (form.bank_name.trim() === '') problems.push('bank_name');
  const account = form.account.trim();
  if (account === '') problems.push('account');
  else if (looksLikeIban(account)) {
    const iban = electronicFormatIBAN(account) ?? '';
    if (!isValidIBAN(iban)) problems.push('iban');
  } else if (!/^[0-9A-Za-z\s-]{4,40}$/.test(account)) problems.push('account');
  const swift = form.swift.trim().toUpperCase();
  if (swift !== '' && !isValidBIC(swift)) problems.push('swift');
  return problems;
}

/** The body `c2cAccountSave` takes for a form (the name is always the verified real name). */
export function accountBody(form: AccountForm, name: string): Record<string, string> {
  if (form.method !== 'bank') return { method: form.method, name, wallet_id: form.wallet_id.trim() };
  const account = form.account.trim();
  const body: Record<string, string> = { method: 'bank', name, bank_name: form.bank_name.trim() };
  if (looksLikeIban(account)) body.iban = electronicFormatIBAN(account) ?? account;
  else body.account_no = account.replace(/[\s-]/g, '');
  if (form.swift.trim() !== '') body.swift = form.swift.trim().toUpperCase();
  if (form.bank_address.trim() !== '') body.bank_address = form.bank_address.trim();
  return body;
}
