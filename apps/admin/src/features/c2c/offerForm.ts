import { compareDecimal, isDecimal, isWholeInRange } from '@bourse/money';
import {
  type AdminC2cOfferBody,
  C2C_LIMITS,
  C2C_METHODS,
  type C2cMethod,
  type C2cOfferData,
  type C2cOrderSide,
} from '@bourse/protocol';

/**
 * The offer form as text fields (amounts stay decimal strings, never floats) and its checks, which
 * mirror the server's (`C2C_OFFER_INVALID {field}` names the same fields): min ≤ max ≤ total, a
 * positive fixed price or a whole spread in basis points, each chosen method a payment window of
 * 15 minutes to 24 hours and an optional cap, terms and a reason.
 */
export type MethodForm = { on: boolean; window: string; cap: string };

export type OfferForm = {
  merchantId: string;
  side: C2cOrderSide;
  coin: string;
  fiat: string;
  priceKind: 'fixed' | 'spread';
  price: string;
  spreadBps: string;
  min: string;
  max: string;
  total: string;
  methods: Record<C2cMethod, MethodForm>;
  terms: string;
  reason: string;
};

/** Spreads the risk package allows: ±20 % (2,000 bps); the server checks again. */
export const SPREAD_BPS_MAX = 2_000;
export const DEFAULT_WINDOW_MINUTES = '180';

export function emptyOfferForm(): OfferForm {
  const methods = Object.fromEntries(
    C2C_METHODS.map((m) => [m, { on: m === 'bank', window: DEFAULT_WINDOW_MINUTES, cap: '' }]),
  ) as Record<C2cMethod, MethodForm>;
  return {
    merchantId: '',
    side: 'buy',
    coin: 'USDT',
    fiat: 'CNY',
    priceKind: 'fixed',
    price: '',
    spreadBps: '',
    min: '',
    max: '',
    total: '',
    methods,
    terms: '',
    reason: '',
  };
}

/** The form filled from an existing offer (to edit it). */
export function offerFormOf(o: C2cOfferData): OfferForm {
  const base = emptyOfferForm();
  const methods = { ...base.methods };
  for (const m of C2C_METHODS) methods[m] = { on: false, window: DEFAULT_WINDOW_MINUTES, cap: '' };
  for (const m of o.methods)
    methods[m.method] = { on: true, window: String(m.window_minutes), cap: m.max_amount ?? '' };
  return {
    ...base,
    merchantId: o.merchant_id,
    side: o.side,
    coin: o.coin,
    fiat: o.fiat,
    priceKind: o.price_kind,
    price: o.price_kind === 'fixed' ? (o.price ?? '') : '',
    spreadBps: o.spread_bps === null ? '' : String(o.spread_bps),
    min: o.min_amount,
    max: o.max_amount,
    total: o.total_amount,
    methods,
    terms: o.terms,
  };
}

const positive = (v: string) => isDecimal(v) && compareDecimal(v.trim(), '0') > 0;
const spreadOk = (v: string) => {
  const text = v.trim();
  if (!/^-?\d{1,5}$/.test(text)) return false;
  const n = Number.parseInt(text, 10);
  return Math.abs(n) <= SPREAD_BPS_MAX;
};

type Body = Omit<AdminC2cOfferBody, 'token' | 'lang' | 'rtoken'>;

/** The body to post, or the fields that are wrong. `editing`: merchant, side, coin and fiat are fixed. */
export function offerBody(form: OfferForm, editing: boolean): { body: Body | null; bad: Set<string> } {
  const bad = new Set<string>();
  if (!editing) {
    if (form.merchantId === '') bad.add('merchant_id');
    if (!/^[A-Z0-9]{2,10}$/.test(form.coin.trim())) bad.add('coin');
    if (!/^[A-Z]{3}$/.test(form.fiat.trim())) bad.add('fiat');
  }
  if (form.priceKind === 'fixed' && !positive(form.price)) bad.add('price');
  if (form.priceKind === 'spread' && !spreadOk(form.spreadBps)) bad.add('spread_bps');
  for (const [key, value] of [
    ['min_amount', form.min],
    ['max_amount', form.max],
    ['total_amount', form.total],
  ] as const)
    if (!positive(value)) bad.add(key);
  if (
    !bad.has('min_amount') &&
    !bad.has('max_amount') &&
    compareDecimal(form.max.trim(), form.min.trim()) < 0
  )
    bad.add('max_amount');
  if (
    !bad.has('max_amount') &&
    !bad.has('total_amount') &&
    compareDecimal(form.total.trim(), form.max.trim()) < 0
  )
    bad.add('total_amount');
  const chosen = C2C_METHODS.filter((m) => form.methods[m].on);
  if (chosen.length === 0 || chosen.length > C2C_LIMITS.methodsPerOfferMax) bad.add('methods');
  for (const m of chosen) {
    const f = form.methods[m];
    if (!isWholeInRange(f.window, C2C_LIMITS.paymentWindowMinutesMin, C2C_LIMITS.paymentWindowMinutesMax))
      bad.add(`window.${m}`);
    if (f.cap.trim() !== '' && !positive(f.cap)) bad.add(`cap.${m}`);
  }
  if (form.terms.length > C2C_LIMITS.termsMax) bad.add('terms');
  if (form.reason.trim().length < 3) bad.add('reason');
  if (bad.size > 0) return { body: null, bad };
  const body: Body = {
    ...(editing
      ? {}
      : {
          merchant_id: form.merchantId,
          side: form.side,
          coin: form.coin.trim(),
          fiat: form.fiat.trim(),
        }),
    price_kind: form.priceKind,
    ...(form.priceKind === 'fixed'
      ? { price: form.price.trim() }
      : { spread_bps: Number.parseInt(form.spreadBps.trim(), 10) }),
    min_amount: form.min.trim(),
    max_amount: form.max.trim(),
    total_amount: form.total.trim(),
    methods: chosen.map((m) => ({
      method: m,
      window_minutes: Number.parseInt(form.methods[m].window.trim(), 10),
      max_amount: form.methods[m].cap.trim() === '' ? null : form.methods[m].cap.trim(),
    })),
    terms: form.terms,
    reason: form.reason.trim(),
  };
  return { body, bad };
}

/** The form fields a refusal (`C2C_OFFER_INVALID {field}`) names. */
export function fieldsOfRefusal(field: unknown): string[] {
  if (typeof field !== 'string' || field === '') return [];
  if (field === 'window_minutes') return C2C_METHODS.map((m) => `window.${m}`);
  if (field === 'methods.max_amount') return C2C_METHODS.map((m) => `cap.${m}`);
  return [field];
}
