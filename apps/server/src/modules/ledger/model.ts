import { createHash } from 'node:crypto';
import { isKnownAsset, scaleOf, toDecimalString } from '@bourse/money';
import type { ReasonCode, ReasonParams } from '@bourse/protocol';

/**
 * The ledger's vocabulary and its pure rules: what an entry may look like, and how an entry
 * changes a set of balances. No I/O here, so the rules are tested without a database.
 */

export const BOOKS = ['real', 'demo'] as const;
export type Book = (typeof BOOKS)[number];

export const CUSTOMER_ACCOUNT_TYPES = ['spot', 'contract', 'options', 'earn', 'funding'] as const;
export type CustomerAccountType = (typeof CUSTOMER_ACCOUNT_TYPES)[number];

export const BUCKETS = ['available', 'frozen'] as const;
export type Bucket = (typeof BUCKETS)[number];

/** The account type every platform account has; customers never have it. */
export const PLATFORM_ACCOUNT_TYPE = 'platform';

type PlatformSpec = Readonly<{ books: readonly Book[]; allowNegative: boolean }>;

/**
 * Platform accounts, created on demand per book and currency. Customer balances are liabilities and
 * positive; a contra account (`allowNegative`) stands for value outside the ledger — its negative
 * balance is what came in from there (deposits, the demo faucet's virtual money, loans paid out).
 * Every other account, customer or platform, can never go below zero.
 */
export const PLATFORM_ACCOUNTS = {
  /** Contra for deposits credited to customers: negative by the net value brought in. */
  deposits_clearing: { books: ['real'], allowNegative: true },
  /** Contra for withdrawals: holds what left customers until the custody provider confirms it. */
  withdrawals_clearing: { books: ['real'], allowNegative: true },
  /** The custody provider's holdings, mirrored: moves against the clearing accounts. */
  custody_pool: { books: ['real'], allowNegative: true },
  /** Fees earned. Never negative: a refund cannot pay out more than was earned. */
  fee_income: { books: ['real', 'demo'], allowNegative: false },
  /** Rewards, bonuses and interest paid: an expense, so negative by what was paid. */
  rewards_expense: { books: ['real', 'demo'], allowNegative: true },
  /** The built-in market maker: an ordinary account with real balances. */
  market_maker: { books: ['real', 'demo'], allowNegative: false },
  /** Contra for the market maker's capital (modules/spot): what the operator commits to quoting, brought in by an ordinary entry. */
  market_maker_capital: { books: ['real', 'demo'], allowNegative: true },
  /** The insurance fund: funded, never overdrawn. Covers a liquidated position's loss beyond its margin (modules/contracts). */
  insurance: { books: ['real', 'demo'], allowNegative: false },
  /** Contra for capital the operator pays into the insurance fund (an ordinary, audited entry). */
  insurance_capital: { books: ['real', 'demo'], allowNegative: true },
  /** The platform as counterparty of contracts (modules/contracts): customers' realised losses, fees aside, in; their profits and funding out. */
  contract_house: { books: ['real', 'demo'], allowNegative: true },
  /** The platform as counterparty of up/down options (modules/options): lost stakes in, winnings out. */
  options_house: { books: ['real', 'demo'], allowNegative: true },
  /**
   * Contra for what borrowers owe (modules/loans): negative by the principal, interest and fees
   * outstanding — value outside the ledger that repayments bring in.
   */
  loan_book: { books: ['real', 'demo'], allowNegative: true },
  /** Contra for staff balance adjustments (each an ordinary, audited entry). */
  adjustments: { books: ['real'], allowNegative: true },
  /** Source of demo customers' virtual funds: exists only in the demo book. */
  demo_faucet: { books: ['demo'], allowNegative: true },
  /** Contra for operator money paid into earn funding accounts (modules/earn, a four-eyes entry): negative by what was paid in. */
  earn_capital: { books: ['real', 'demo'], allowNegative: true },
  /** Contra for the coins a launchpad project's issuer brings (modules/launchpad): negative by the coins issued and not returned. */
  launchpad_issuance: { books: ['real'], allowNegative: true },
  /** Contra for escrowed subscription money paid out to issuers (modules/launchpad, audited): negative by what was paid. */
  launchpad_payouts: { books: ['real'], allowNegative: true },
  /** Contra for operator money paid into lender accounts (modules/loans, a four-eyes entry): negative by what was paid in. */
  loan_capital: { books: ['real'], allowNegative: true },
  /** Contra for loan repayments received by bank transfer (modules/loans, a voucher staff confirm): negative by what came in. */
  loan_bank_repayments: { books: ['real'], allowNegative: true },
  /** Contra for operator money paid into marketing budgets (modules/signin, a four-eyes entry): negative by what was paid in. */
  marketing_capital: { books: ['real', 'demo'], allowNegative: true },
} as const satisfies Record<string, PlatformSpec>;
export type FixedPlatformCode = keyof typeof PLATFORM_ACCOUNTS;

/**
 * Families of platform accounts: one account per named object, the code being the family's prefix
 * and a short suffix (`earn_fund_f1a2b3c4`). Each is an ordinary funded account: never negative.
 */
export const PLATFORM_ACCOUNT_FAMILIES = {
  /** An earn funding account (modules/earn): operator money set aside to pay one or more products' rewards. */
  earn_fund_: { books: ['real', 'demo'], allowNegative: false },
  /** An earn product's reward reserve: the whole reward of its running orders, moved in at purchase. */
  earn_reserve_: { books: ['real', 'demo'], allowNegative: false },
  /** A launchpad project's coins not yet allocated (modules/launchpad): the supply the issuer brought. */
  launchpad_supply_: { books: ['real'], allowNegative: false },
  /** A launchpad project's escrow: what subscribers paid for their allocations, held for the issuer. */
  launchpad_escrow_: { books: ['real'], allowNegative: false },
  /**
   * A named lender account (modules/loans): available = money it may lend (paid in from
   * `loan_capital`, repayments back); frozen = what its borrowers owe it (principal and charges).
   */
  loan_lender_: { books: ['real'], allowNegative: false },
  /**
   * A C2C order's escrow (modules/c2c), one per order: the coin seller's coins from match until they
   * go to the buyer or back to the seller; zero again once the order ends.
   */
  c2c_escrow_: { books: ['real', 'demo'], allowNegative: false },
  /**
   * A spot market's fee income (modules/spot), one per market (`spot_fees_btc_usdt`, `spotFeeAccount`):
   * both fees of every trade on that market's books. One account per market, not one `fee_income`
   * for all, because a trade's settlement holds its fee account's row lock until the book's batch
   * commits: with one shared row every market's batches would wait for each other.
   */
  spot_fees_: { books: ['real', 'demo'], allowNegative: false },
  /**
   * A named marketing budget (`marketing_budget_signin`, modules/signin): operator money paid in from
   * `marketing_capital` that promotional rewards are paid from; when it is empty the programme says so.
   */
  marketing_budget_: { books: ['real', 'demo'], allowNegative: false },
} as const satisfies Record<string, PlatformSpec>;
export type PlatformFamily = keyof typeof PLATFORM_ACCOUNT_FAMILIES;
export type PlatformCode = FixedPlatformCode | `${PlatformFamily}${string}`;

/** A family member's suffix: short enough for the ledger's 48-character code (migrations.ts). */
const FAMILY_SUFFIX_RE = /^[a-z0-9][a-z0-9_]{0,31}$/;

/** The rules of a platform code: a fixed account's or its family's; null for an unknown code. */
export function platformSpec(value: string): PlatformSpec | null {
  if (Object.hasOwn(PLATFORM_ACCOUNTS, value)) return PLATFORM_ACCOUNTS[value as FixedPlatformCode];
  for (const prefix of Object.keys(PLATFORM_ACCOUNT_FAMILIES) as PlatformFamily[]) {
    if (value.startsWith(prefix) && FAMILY_SUFFIX_RE.test(value.slice(prefix.length)))
      return PLATFORM_ACCOUNT_FAMILIES[prefix];
  }
  return null;
}

export function isPlatformCode(value: string): value is PlatformCode {
  return platformSpec(value) !== null;
}

/** The code of a family member: `familyCode('earn_fund_', 'f1a2')` → `earn_fund_f1a2` (throws on a bad suffix). */
export function familyCode(family: PlatformFamily, suffix: string): PlatformCode {
  const code = `${family}${suffix}` as const;
  assert(platformSpec(code) !== null, `bad platform account suffix ${suffix}`);
  return code;
}

/** A spot market's fee income account: `BTC/USDT` → `spot_fees_btc_usdt` (throws on a symbol it cannot name). */
export function spotFeeAccount(symbol: string): PlatformCode {
  return familyCode('spot_fees_', symbol.toLowerCase().replace('/', '_'));
}

/** Limits; each is listed in the README. */
export const LEDGER_LIMITS = {
  /** Postings in one entry. */
  postingsPerEntryMax: 256,
  /** Entries in one postBatch call (one transaction). */
  batchEntriesMax: 1000,
  /** |amount| of one posting, in minor units: fits NUMERIC(38,0) with room for sums. */
  amountUnitsMax: 10n ** 36n,
  idempotencyKeyLengthMax: 200,
  referenceIdLengthMax: 128,
  memoLengthMax: 500,
  /** Rows one platformMovements read returns at most. */
  platformMovementsMax: 500,
  customerIdLengthMax: 64,
  /** Mismatches a verification report lists (it counts all of them). */
  reportMismatchesMax: 100,
} as const;

export type AccountRef =
  | { book: Book; customerId: string; accountType: CustomerAccountType }
  | { book: Book; platform: PlatformCode };

export type PostingInput = {
  account: AccountRef;
  currency: string;
  /** Default `available`. */
  bucket?: Bucket;
  /** Signed minor units: positive adds to the bucket, negative takes from it. */
  amountUnits: bigint;
};

export type EntryInput = {
  /** What happened, lower-case dotted: `deposit`, `transfer`, `withdrawal.freeze`, `demo.grant`. */
  reason: string;
  /** The business object this entry belongs to: `{ type: 'withdrawal', id: 'wdr_…' }`. */
  reference: { type: string; id: string };
  /** Posting twice with one key posts once; the second call gets the first entry back. */
  idempotencyKey: string;
  postings: readonly PostingInput[];
  /** The staff member (or other actor) who caused it, for the audit trail. */
  actorId?: string | null;
  memo?: string | null;
};

/** What the ledger itself posts: an entry that may reverse another. */
export type EntryDraft = EntryInput & { reversesEntryId?: string | null };

export type NormalizedPosting = {
  key: string;
  account: AccountRef;
  currency: string;
  bucket: Bucket;
  amountUnits: bigint;
};

export type NormalizedEntry = {
  book: Book;
  reason: string;
  referenceType: string;
  referenceId: string;
  idempotencyKey: string;
  actorId: string | null;
  memo: string | null;
  reversesEntryId: string | null;
  postings: NormalizedPosting[];
  fingerprint: string;
};

/** A broken ledger invariant: a bug in the caller, never a customer's mistake. */
export class LedgerInvariantError extends Error {
  override name = 'LedgerInvariantError';
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new LedgerInvariantError(message);
}

/** One string per (book, owner, account type, currency): the account's identity. */
export function accountKey(account: AccountRef, currency: string): string {
  return 'platform' in account
    ? `p|${account.book}|${account.platform}|${currency}`
    : `c|${account.book}|${account.customerId}|${account.accountType}|${currency}`;
}

const REASON_RE = /^[a-z][a-z0-9_.]{1,63}$/;
const REFERENCE_TYPE_RE = /^[a-z][a-z0-9_]{1,31}$/;

function checkAccount(account: AccountRef): void {
  assert((BOOKS as readonly string[]).includes(account.book), `unknown book ${String(account.book)}`);
  if ('platform' in account) {
    assert(isPlatformCode(account.platform), `unknown platform account ${String(account.platform)}`);
    const books: readonly Book[] = platformSpec(account.platform)?.books ?? [];
    assert(books.includes(account.book), `platform account ${account.platform} has no ${account.book} book`);
    return;
  }
  assert(
    typeof account.customerId === 'string' &&
      account.customerId.length > 0 &&
      account.customerId.length <= LEDGER_LIMITS.customerIdLengthMax &&
      !account.customerId.includes('|'),
    `bad customer id ${String(account.customerId)}`,
  );
  assert(
    (CUSTOMER_ACCOUNT_TYPES as readonly string[]).includes(account.accountType),
    `unknown account type ${String(account.accountType)}`,
  );
}

function checkPosting(posting: PostingInput): NormalizedPosting {
  checkAccount(posting.account);
  assert(isKnownAsset(posting.currency), `unknown currency ${String(posting.currency)}`);
  const bucket = posting.bucket ?? 'available';
  assert((BUCKETS as readonly string[]).includes(bucket), `unknown bucket ${String(bucket)}`);
  const units = posting.amountUnits;
  assert(typeof units === 'bigint', 'amountUnits must be a bigint');
  assert(units !== 0n, 'a posting of zero');
  const max = LEDGER_LIMITS.amountUnitsMax;
  assert(units <= max && units >= -max, `posting amount out of range: ${units}`);
  return {
    key: accountKey(posting.account, posting.currency),
    account: posting.account,
    currency: posting.currency,
    bucket,
    amountUnits: units,
  };
}

/**
 * Checks an entry's shape and balance and returns it normalized. Everything it rejects is a bug in
 * the caller (an amount of zero, postings that do not sum to zero, two books), so it throws.
 */
export function normalizeEntry(draft: EntryDraft): NormalizedEntry {
  assert(REASON_RE.test(draft.reason ?? ''), `bad entry reason ${String(draft.reason)}`);
  assert(REFERENCE_TYPE_RE.test(draft.reference?.type ?? ''), `bad reference type`);
  const referenceId = draft.reference.id;
  assert(
    typeof referenceId === 'string' &&
      referenceId.length > 0 &&
      referenceId.length <= LEDGER_LIMITS.referenceIdLengthMax,
    'bad reference id',
  );
  const key = draft.idempotencyKey;
  assert(
    typeof key === 'string' && key.length > 0 && key.length <= LEDGER_LIMITS.idempotencyKeyLengthMax,
    'bad idempotency key',
  );
  assert(draft.memo == null || draft.memo.length <= LEDGER_LIMITS.memoLengthMax, 'memo too long');
  assert(Array.isArray(draft.postings), 'postings must be an array');
  assert(draft.postings.length >= 2, 'an entry needs at least two postings');
  assert(draft.postings.length <= LEDGER_LIMITS.postingsPerEntryMax, 'too many postings in one entry');
  const postings = draft.postings.map(checkPosting);
  const book = postings[0]!.account.book;
  const sums = new Map<string, bigint>();
  for (const p of postings) {
    assert(p.account.book === book, `an entry mixes the ${book} and ${p.account.book} books`);
    sums.set(p.currency, (sums.get(p.currency) ?? 0n) + p.amountUnits);
  }
  for (const [currency, total] of sums) {
    assert(total === 0n, `postings in ${currency} sum to ${total}, not zero`);
  }
  const normalized = {
    book,
    reason: draft.reason,
    referenceType: draft.reference.type,
    referenceId,
    idempotencyKey: key,
    actorId: draft.actorId ?? null,
    memo: draft.memo ?? null,
    reversesEntryId: draft.reversesEntryId ?? null,
    postings,
  };
  return { ...normalized, fingerprint: fingerprintOf(normalized) };
}

/** The economic content of an entry; the actor and memo may differ between replays. */
function fingerprintOf(entry: Omit<NormalizedEntry, 'fingerprint'>): string {
  const content = JSON.stringify([
    entry.reason,
    entry.referenceType,
    entry.referenceId,
    entry.reversesEntryId,
    entry.postings.map((p) => [p.key, p.bucket, p.amountUnits.toString()]),
  ]);
  return createHash('sha256').update(content).digest('hex');
}

/** A balance as the simulation sees it: the locked row, or zero for an account not yet opened. */
export type BalanceState = {
  currency: string;
  availableUnits: bigint;
  frozenUnits: bigint;
  allowNegative: boolean;
};

export type RefusalSpec = { reason: ReasonCode; params: ReasonParams };

/** Per account key, the change an entry makes to each bucket. */
export function deltasOf(entry: NormalizedEntry): Map<string, { available: bigint; frozen: bigint }> {
  const deltas = new Map<string, { available: bigint; frozen: bigint }>();
  for (const p of entry.postings) {
    const d = deltas.get(p.key) ?? { available: 0n, frozen: 0n };
    d[p.bucket] += p.amountUnits;
    deltas.set(p.key, d);
  }
  return deltas;
}

/**
 * Applies an entry to `states` (keyed by account key) when no balance it touches would go below
 * what the account allows; returns the refusal otherwise, leaving `states` untouched.
 */
export function applyEntry(
  states: Map<string, BalanceState>,
  entry: NormalizedEntry,
): { ok: true } | { ok: false; refusal: RefusalSpec } {
  const deltas = deltasOf(entry);
  const next = new Map<string, BalanceState>();
  for (const key of [...deltas.keys()].sort()) {
    const state = states.get(key);
    assert(state !== undefined, `no balance state for ${key}`);
    const delta = deltas.get(key)!;
    const available = state.availableUnits + delta.available;
    const frozen = state.frozenUnits + delta.frozen;
    const scale = scaleOf(state.currency);
    if (available < 0n && !state.allowNegative) {
      return {
        ok: false,
        refusal: {
          reason: 'INSUFFICIENT_BALANCE',
          params: { currency: state.currency, available: toDecimalString(state.availableUnits, scale) },
        },
      };
    }
    if (frozen < 0n) {
      return {
        ok: false,
        refusal: {
          reason: 'INSUFFICIENT_FROZEN',
          params: { currency: state.currency, frozen: toDecimalString(state.frozenUnits, scale) },
        },
      };
    }
    next.set(key, { ...state, availableUnits: available, frozenUnits: frozen });
  }
  for (const [key, state] of next) states.set(key, state);
  return { ok: true };
}

/** The opposite of an entry's postings, for a reversal. */
export function negated(postings: readonly PostingInput[]): PostingInput[] {
  return postings.map((p) => ({ ...p, amountUnits: -p.amountUnits }));
}
