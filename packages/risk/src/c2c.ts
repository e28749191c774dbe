import { divRound } from '@bourse/money';

/**
 * C2C orders, pure (README, "C2C"): the order's state machine as a typed transition table, what each
 * transition does to the order's escrow, the quote (price, fiat amount) and the amount limits. No
 * clock, no I/O, bigints only: the server (modules/c2c) stores states and posts the escrow moves this
 * file names, and every refusal it returns names the rule found here.
 *
 * The coin seller's coins go into escrow at `match` (before the fiat payer sees where to pay); they
 * leave escrow exactly once, to the coin buyer (`confirm`, `decide_release`) or back to the seller
 * (`cancel`, `expire`, `decide_return`). Once the payer has marked the order paid it can never
 * expire: its confirm deadline turns it into a dispute.
 */

export const C2C_ORDER_STATES = [
  /** Created; the seller's coins are not in escrow yet (the server matches in the same transaction). */
  'pending_match',
  /** Escrow held; waiting for the fiat payer to pay and mark it paid before `pay_by`. */
  'matched',
  /** The payer marked it paid (payer name, bank, proof); waiting for the receiver to confirm. */
  'paid',
  /** Either side (or the confirm deadline) opened a dispute; escrow stays until a decision. */
  'disputed',
  /** Escrow released to the coin buyer (confirmed, or a dispute decided for the buyer). */
  'completed',
  /** Unpaid at its deadline: escrow back to the seller. Irreversible. */
  'expired',
  /** The payer cancelled before paying: escrow back to the seller. */
  'cancelled',
  /** A dispute decided for the coin seller: escrow back to the seller. */
  'rejected',
] as const;
export type C2cOrderState = (typeof C2C_ORDER_STATES)[number];

export const C2C_EVENTS = [
  'match',
  'mark_paid',
  'cancel',
  'expire',
  'confirm',
  'dispute',
  'confirm_deadline',
  'decide_release',
  'decide_return',
] as const;
export type C2cEvent = (typeof C2C_EVENTS)[number];

/** What a transition does to the order's escrow: coins in from the seller, out to the buyer, or back. */
export type C2cEscrowMove = 'escrow_in' | 'release_to_buyer' | 'return_to_seller' | null;

/** The whole table: a transition not listed here does not exist. */
export const C2C_TRANSITIONS: Readonly<
  Record<C2cOrderState, Readonly<Partial<Record<C2cEvent, { to: C2cOrderState; move: C2cEscrowMove }>>>>
> = {
  pending_match: { match: { to: 'matched', move: 'escrow_in' } },
  matched: {
    mark_paid: { to: 'paid', move: null },
    cancel: { to: 'cancelled', move: 'return_to_seller' },
    expire: { to: 'expired', move: 'return_to_seller' },
  },
  paid: {
    confirm: { to: 'completed', move: 'release_to_buyer' },
    dispute: { to: 'disputed', move: null },
    confirm_deadline: { to: 'disputed', move: null },
  },
  disputed: {
    decide_release: { to: 'completed', move: 'release_to_buyer' },
    decide_return: { to: 'rejected', move: 'return_to_seller' },
  },
  completed: {},
  expired: {},
  cancelled: {},
  rejected: {},
};

export const C2C_FINAL_STATES: readonly C2cOrderState[] = ['completed', 'expired', 'cancelled', 'rejected'];

/** The transition `event` makes from `state`, or null when the table has none. */
export function c2cStep(
  state: C2cOrderState,
  event: C2cEvent,
): { to: C2cOrderState; move: C2cEscrowMove } | null {
  return C2C_TRANSITIONS[state][event] ?? null;
}

export function isC2cFinal(state: C2cOrderState): boolean {
  return C2C_FINAL_STATES.includes(state);
}

// ---------------------------------------------------------------- quote

/** Fiat prices are per whole coin at this scale (8 decimals). */
export const C2C_PRICE_SCALE = 8;
/** Fiat amounts the payer transfers are in cents (2 decimals). */
export const C2C_FIAT_SCALE = 2;
/** A spread is at most ±20 % off the feed price. */
export const C2C_SPREAD_BPS_MAX = 2_000n;

/** `buy`: the customer buys coins (the merchant's offer sells); `sell`: the customer sells them. */
export type C2cSide = 'buy' | 'sell';

export type C2cPricing =
  | { kind: 'fixed'; priceUnits: bigint }
  | { kind: 'spread'; spreadBps: bigint; feedPriceUnits: bigint };

export type C2cQuote = Readonly<{
  priceUnits: bigint;
  /** What the fiat payer transfers, in cents. */
  fiatCents: bigint;
}>;

/**
 * The order's price and fiat amount. A spread price is the feed price × (10 000 + bps) / 10 000; every
 * rounding (the spread price to 8 decimals, the fiat amount to cents) is in the orderer's favour:
 * down when the customer buys, up when they sell — at most one unit of the last decimal.
 */
export function quoteC2c(input: {
  side: C2cSide;
  pricing: C2cPricing;
  coinUnits: bigint;
  coinScale: number;
}): C2cQuote {
  const rounding = input.side === 'buy' ? 'floor' : 'ceil';
  const p = input.pricing;
  if (input.coinUnits <= 0n) throw new RangeError('a C2C amount is positive');
  let priceUnits: bigint;
  if (p.kind === 'fixed') priceUnits = p.priceUnits;
  else {
    if (p.spreadBps > C2C_SPREAD_BPS_MAX || p.spreadBps < -C2C_SPREAD_BPS_MAX)
      throw new RangeError('spread out of range');
    priceUnits = divRound(p.feedPriceUnits * (10_000n + p.spreadBps), 10_000n, rounding);
  }
  if (priceUnits <= 0n) throw new RangeError('a C2C price is positive');
  const shift = 10n ** BigInt(input.coinScale + C2C_PRICE_SCALE - C2C_FIAT_SCALE);
  const fiatCents = divRound(input.coinUnits * priceUnits, shift, rounding);
  return { priceUnits, fiatCents };
}

// ---------------------------------------------------------------- limits

/**
 * The coin C2C offers trade: the published per-order limits (age bands, the four-eyes threshold) are
 * amounts of it, so an offer in another coin would apply them in the wrong unit.
 */
export const C2C_COIN = 'USDT';

/** Per-order caps by account age, in coin units of USDT (scale 8): new accounts trade less. */
export type C2cAgeBand = Readonly<{ ageDaysFrom: number; maxUnits: bigint | null }>;

const U = 100_000_000n;
/** The published bands: under 7 days 1,000 USDT an order, under 30 days 10,000, then no age cap. */
export const C2C_AGE_BANDS: readonly C2cAgeBand[] = [
  { ageDaysFrom: 0, maxUnits: 1_000n * U },
  { ageDaysFrom: 7, maxUnits: 10_000n * U },
  { ageDaysFrom: 30, maxUnits: null },
];

export function ageCapUnits(ageDays: number, bands: readonly C2cAgeBand[] = C2C_AGE_BANDS): bigint | null {
  let cap: bigint | null = null;
  for (const b of bands) if (ageDays >= b.ageDaysFrom) cap = b.maxUnits;
  return cap;
}

export type C2cLimitRule = 'offer_min' | 'offer_max' | 'offer_remaining' | 'method_max' | 'account_age';

export type C2cLimitInput = {
  coinUnits: bigint;
  offerMinUnits: bigint;
  offerMaxUnits: bigint;
  offerRemainingUnits: bigint;
  /** The payment method's cap per order (null: none). */
  methodMaxUnits: bigint | null;
  accountAgeDays: number;
  bands?: readonly C2cAgeBand[];
};

/**
 * The first limit an amount breaks, in this published order, with its limit; null when none. The
 * offer's last amount below its minimum may still be taken whole (else it could never be sold).
 */
export function c2cLimitProblem(i: C2cLimitInput): { rule: C2cLimitRule; limitUnits: bigint } | null {
  const remaining = i.offerRemainingUnits > 0n ? i.offerRemainingUnits : 0n;
  if (i.coinUnits < i.offerMinUnits && i.coinUnits !== remaining)
    return { rule: 'offer_min', limitUnits: i.offerMinUnits };
  if (i.coinUnits > i.offerMaxUnits) return { rule: 'offer_max', limitUnits: i.offerMaxUnits };
  if (i.coinUnits > remaining) return { rule: 'offer_remaining', limitUnits: remaining };
  if (i.methodMaxUnits !== null && i.coinUnits > i.methodMaxUnits)
    return { rule: 'method_max', limitUnits: i.methodMaxUnits };
  const cap = ageCapUnits(i.accountAgeDays, i.bands);
  if (cap !== null && i.coinUnits > cap) return { rule: 'account_age', limitUnits: cap };
  return null;
}

// ---------------------------------------------------------------- names

/**
 * The payer-name rule: the name on the paying bank account must be the customer's verified real
 * name. Compared after trimming, folding runs of spaces to one and ignoring case (banks print names
 * in capitals); nothing else is forgiven.
 */
export function sameName(a: string, b: string): boolean {
  const norm = (s: string) => s.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
  return norm(a) !== '' && norm(a) === norm(b);
}
