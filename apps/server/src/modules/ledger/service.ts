import type { Logger } from 'pino';
import { type Db, inTransaction, type Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { createEngine, type Outcome, type PostedEntry, type PostOptions } from './engine.ts';
import {
  type AccountRef,
  type Book,
  type Bucket,
  type CustomerAccountType,
  type EntryDraft,
  type EntryInput,
  LEDGER_LIMITS,
  LedgerInvariantError,
  negated,
  normalizeEntry,
  type PlatformCode,
  type PostingInput,
} from './model.ts';
import * as repo from './repo.ts';
import { type VerifyReport, verifyLedger } from './verify.ts';

export type { Outcome, PostedEntry, PostOptions } from './engine.ts';

/** What a demo customer starts with, and gets back on reset. */
export const DEFAULT_DEMO_GRANT: ReadonlyArray<{ currency: string; amountUnits: bigint }> = [
  { currency: 'USDT', amountUnits: 100_000n * 10n ** 8n },
];

/** The fields every helper's entry carries. `reason` defaults to the helper's name. */
export type EntryMeta = {
  reason?: string;
  reference: { type: string; id: string };
  idempotencyKey: string;
  actorId?: string | null;
  memo?: string | null;
};

export type CustomerAccount = {
  book: Book;
  customerId: string;
  accountType: CustomerAccountType;
  currency: string;
};

export type Balance = {
  book: Book;
  accountType: string;
  currency: string;
  availableUnits: bigint;
  frozenUnits: bigint;
};

export type EntryDetail = PostedEntry & {
  actorId: string | null;
  memo: string | null;
  postings: Array<{
    account: AccountRef | { book: Book; accountId: string };
    accountId: string;
    currency: string;
    bucket: Bucket;
    amountUnits: bigint;
  }>;
};

export type LedgerDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  demoGrant?: ReadonlyArray<{ currency: string; amountUnits: bigint }>;
};

function positive(amountUnits: bigint, what: string): void {
  if (typeof amountUnits !== 'bigint' || amountUnits <= 0n) {
    throw new LedgerInvariantError(
      `${what}: amountUnits must be a positive bigint, got ${String(amountUnits)}`,
    );
  }
}

function customerRef(input: CustomerAccount, accountType = input.accountType): AccountRef {
  return { book: input.book, customerId: input.customerId, accountType };
}

function meta(input: EntryMeta, fallbackReason: string) {
  return {
    reason: input.reason ?? fallbackReason,
    reference: input.reference,
    idempotencyKey: input.idempotencyKey,
    actorId: input.actorId ?? null,
    memo: input.memo ?? null,
  };
}

export function createLedger(deps: LedgerDeps) {
  const { db } = deps;
  const engine = createEngine({ db, clock: deps.clock });
  const demoGrant = deps.demoGrant ?? DEFAULT_DEMO_GRANT;
  if (demoGrant.length === 0) throw new LedgerInvariantError('the demo grant names no currency');
  for (const g of demoGrant) positive(g.amountUnits, 'demo grant');

  function runOne(outcome: Outcome | undefined): PostedEntry {
    if (!outcome) throw new LedgerInvariantError('the engine returned no outcome');
    if (!outcome.ok) throw outcome.refusal;
    return outcome.entry;
  }

  async function postDraft(q: Db | Tx, draft: EntryDraft): Promise<PostedEntry> {
    const [outcome] = await engine.postMany(q, [normalizeEntry(draft)]);
    return runOne(outcome);
  }

  const ledger = {
    /**
     * Posts one entry (≥ 2 postings summing to zero per currency, all in one book). Throws a Refusal
     * (INSUFFICIENT_BALANCE, INSUFFICIENT_FROZEN, DEMO_BOOK_MISMATCH) with nothing written; throws
     * LedgerInvariantError for a malformed entry. With a transaction, the accounts stay locked
     * until the caller commits. A replayed idempotency key returns the first entry (`replayed`).
     */
    post(q: Db | Tx, entry: EntryInput): Promise<PostedEntry> {
      return postDraft(q, { ...entry, reversesEntryId: null });
    },

    /**
     * Posts many entries in one transaction (group commit), applied in order. Each entry gets its own
     * outcome: a refused entry writes nothing and does not stop the others.
     */
    async postBatch(
      q: Db | Tx,
      entries: readonly EntryInput[],
      options: PostOptions = {},
    ): Promise<Outcome[]> {
      if (entries.length > LEDGER_LIMITS.batchEntriesMax) {
        throw new LedgerInvariantError(`a batch holds at most ${LEDGER_LIMITS.batchEntriesMax} entries`);
      }
      return engine.postMany(
        q,
        entries.map((e) => normalizeEntry({ ...e, reversesEntryId: null })),
        options,
      );
    },

    /**
     * Posts any number of entries in the caller's transaction, in order: `postBatch` by chunks of
     * `batchEntriesMax`. More than one chunk: every account is locked first (`lockAccounts`), so the
     * transaction takes its locks in one round, not chunk after chunk (each chunk's round is in id
     * order, but one after another is no global order: two such transactions could wait in a cycle).
     */
    async postAll(tx: Tx, entries: readonly EntryInput[], options: PostOptions = {}): Promise<Outcome[]> {
      const max = LEDGER_LIMITS.batchEntriesMax;
      if (entries.length > max) await ledger.lockAccounts(tx, entries);
      const outcomes: Outcome[] = [];
      for (let i = 0; i < entries.length; i += max)
        outcomes.push(...(await ledger.postBatch(tx, entries.slice(i, i + max), options)));
      return outcomes;
    },

    /**
     * Locks every existing account the entries name, in one statement and id order, in the caller's
     * transaction (what `postAll` does before several chunks). Returns how many accounts it locked.
     */
    lockAccounts(tx: Tx, entries: readonly EntryInput[]): Promise<number> {
      return engine.lockAccounts(
        tx,
        entries.map((e) => normalizeEntry({ ...e, reversesEntryId: null })),
      );
    },

    /** Pays into a customer's account from a platform account (a deposit, a reward, a refund). */
    async credit(
      q: Db | Tx,
      input: CustomerAccount & EntryMeta & { amountUnits: bigint; from: PlatformCode },
    ) {
      positive(input.amountUnits, 'credit');
      return postDraft(q, {
        ...meta(input, 'credit'),
        postings: [
          { account: customerRef(input), currency: input.currency, amountUnits: input.amountUnits },
          {
            account: { book: input.book, platform: input.from },
            currency: input.currency,
            amountUnits: -input.amountUnits,
          },
        ],
      });
    },

    /** Takes from a customer's account (available, or frozen funds) into a platform account. */
    async debit(
      q: Db | Tx,
      input: CustomerAccount & EntryMeta & { amountUnits: bigint; to: PlatformCode; bucket?: Bucket },
    ) {
      positive(input.amountUnits, 'debit');
      return postDraft(q, {
        ...meta(input, 'debit'),
        postings: [
          {
            account: customerRef(input),
            currency: input.currency,
            bucket: input.bucket ?? 'available',
            amountUnits: -input.amountUnits,
          },
          {
            account: { book: input.book, platform: input.to },
            currency: input.currency,
            amountUnits: input.amountUnits,
          },
        ],
      });
    },

    /** Moves funds from available to frozen within one account. */
    async freeze(q: Db | Tx, input: CustomerAccount & EntryMeta & { amountUnits: bigint }) {
      positive(input.amountUnits, 'freeze');
      return postDraft(q, { ...meta(input, 'freeze'), postings: bucketMove(input, 'available', 'frozen') });
    },

    /** Moves funds from frozen back to available within one account. */
    async unfreeze(q: Db | Tx, input: CustomerAccount & EntryMeta & { amountUnits: bigint }) {
      positive(input.amountUnits, 'unfreeze');
      return postDraft(q, { ...meta(input, 'unfreeze'), postings: bucketMove(input, 'frozen', 'available') });
    },

    /** Between two of one customer's account types (spot → contract, …), atomically. */
    async transfer(
      q: Db | Tx,
      input: Omit<CustomerAccount, 'accountType'> &
        EntryMeta & { fromType: CustomerAccountType; toType: CustomerAccountType; amountUnits: bigint },
    ) {
      positive(input.amountUnits, 'transfer');
      if (input.fromType === input.toType)
        throw new LedgerInvariantError('a transfer needs two account types');
      const from: AccountRef = {
        book: input.book,
        customerId: input.customerId,
        accountType: input.fromType,
      };
      const to: AccountRef = { book: input.book, customerId: input.customerId, accountType: input.toType };
      return postDraft(q, {
        ...meta(input, 'transfer'),
        postings: [
          { account: from, currency: input.currency, amountUnits: -input.amountUnits },
          { account: to, currency: input.currency, amountUnits: input.amountUnits },
        ],
      });
    },

    /** Posts the exact opposite of an entry, once (ENTRY_ALREADY_REVERSED the second time). */
    async reverse(
      q: Db | Tx,
      input: {
        entryId: string;
        idempotencyKey: string;
        reason?: string;
        actorId?: string | null;
        memo?: string | null;
      },
    ) {
      const original = await ledger.entry(q, input.entryId);
      if (!original) refuse('NOT_FOUND');
      const postings: PostingInput[] = original.postings.map((p) => {
        if (!('customerId' in p.account) && !('platform' in p.account)) {
          throw new LedgerInvariantError(`posting on unknown account ${p.accountId}`);
        }
        return { account: p.account, currency: p.currency, bucket: p.bucket, amountUnits: p.amountUnits };
      });
      return postDraft(q, {
        reason: input.reason ?? 'reversal',
        reference: { type: 'ledger_entry', id: original.id },
        idempotencyKey: input.idempotencyKey,
        actorId: input.actorId ?? null,
        memo: input.memo ?? null,
        reversesEntryId: original.id,
        postings: negated(postings),
      });
    },

    /** Virtual funds for a demo customer's spot account, from the demo book's faucet. */
    async grantDemoFunds(
      q: Db | Tx,
      input: {
        customerId: string;
        idempotencyKey: string;
        grants?: ReadonlyArray<{ currency: string; amountUnits: bigint }>;
      },
    ) {
      const grants = input.grants ?? demoGrant;
      return postDraft(q, {
        reason: 'demo.grant',
        reference: { type: 'customer', id: input.customerId },
        idempotencyKey: input.idempotencyKey,
        postings: grantPostings(input.customerId, grants),
      });
    },

    /**
     * Zeroes every demo account of the customer (available and frozen) back into the faucet and
     * grants the starting funds again, in one entry. Modules holding frozen demo funds (open orders)
     * must release their side first; the ledger only moves the money.
     */
    async resetDemo(q: Db | Tx, input: { customerId: string; idempotencyKey: string }): Promise<PostedEntry> {
      if (!q.isTransaction) return inTransaction(q as Db, (tx) => ledger.resetDemo(tx, input));
      const tx = q as Tx;
      const owner = (await repo.findOwners(tx, [input.customerId])).get(input.customerId);
      if (owner === 'real') refuse('DEMO_BOOK_MISMATCH');
      const held = await repo.customerBalances(tx, { customerId: input.customerId, lock: true });
      // After the lock: a concurrent reset with this key has committed, or waits behind us.
      const [prior] = await repo.findEntriesByKeys(tx, [input.idempotencyKey]);
      if (prior) {
        return {
          id: prior.id,
          book: prior.book,
          reason: prior.reason,
          reference: { type: prior.referenceType, id: prior.referenceId },
          idempotencyKey: prior.idempotencyKey,
          reversesEntryId: prior.reversesEntryId,
          createdAt: prior.createdAt,
          replayed: true,
        };
      }
      return postDraft(tx, {
        reason: 'demo.reset',
        reference: { type: 'customer', id: input.customerId },
        idempotencyKey: input.idempotencyKey,
        postings: resetPostings(input.customerId, held, demoGrant),
      });
    },

    /** A customer's balances (all books they hold, all account types unless one is named). */
    async balances(
      q: Db | Tx,
      input: { customerId: string; accountType?: CustomerAccountType; lock?: boolean },
    ): Promise<Balance[]> {
      if (input.lock && !q.isTransaction)
        throw new LedgerInvariantError('locking balances needs a transaction');
      const rows = await repo.customerBalances(q, input);
      return rows
        .map((r) => ({
          book: r.book,
          accountType: r.accountType,
          currency: r.currency,
          availableUnits: r.availableUnits,
          frozenUnits: r.frozenUnits,
        }))
        .sort((a, b) => a.accountType.localeCompare(b.accountType) || a.currency.localeCompare(b.currency));
    },

    /** One balance; zero when the account was never opened. With `lock`, held until the caller commits. */
    async balance(q: Db | Tx, input: CustomerAccount & { lock?: boolean }): Promise<Balance> {
      if (input.lock && !q.isTransaction)
        throw new LedgerInvariantError('locking balances needs a transaction');
      const [row] = await repo.customerBalances(q, input);
      if (row && row.book !== input.book) refuse('DEMO_BOOK_MISMATCH');
      return {
        book: input.book,
        accountType: input.accountType,
        currency: input.currency,
        availableUnits: row?.availableUnits ?? 0n,
        frozenUnits: row?.frozenUnits ?? 0n,
      };
    },

    async platformBalances(q: Db | Tx, input: { book: Book; platform?: PlatformCode }) {
      const rows = await repo.platformBalances(q, { book: input.book, platformCode: input.platform });
      return rows.map((r) => ({
        book: r.book,
        platform: r.platformCode as PlatformCode,
        currency: r.currency,
        availableUnits: r.availableUnits,
        frozenUnits: r.frozenUnits,
      }));
    },

    /** An entry with its postings, or null. */
    async entry(q: Db | Tx, entryId: string): Promise<EntryDetail | null> {
      const row = await repo.findEntry(q, entryId);
      if (!row) return null;
      const postings = await repo.findPostings(q, entryId);
      return {
        id: row.id,
        book: row.book,
        reason: row.reason,
        reference: { type: row.referenceType, id: row.referenceId },
        idempotencyKey: row.idempotencyKey,
        reversesEntryId: row.reversesEntryId,
        createdAt: row.createdAt,
        replayed: false,
        actorId: row.actorId,
        memo: row.memo,
        postings: postings.map((p) => ({
          account: accountRefOf(p),
          accountId: p.accountId,
          currency: p.currency,
          bucket: p.bucket,
          amountUnits: p.amountUnits,
        })),
      };
    },

    /** A customer's most recent entries (their own postings only), newest first: the back office's view. */
    customerJournal(q: Db | Tx, input: { customerId: string; limit: number }) {
      return repo.customerJournal(q, input);
    },

    /**
     * One page of a customer's journal in one book, a row per (entry, account type, currency) with
     * the net and frozen change, newest entry first, and the count of all rows that match (records).
     */
    customerJournalPage(q: Db | Tx, input: repo.JournalPageQuery) {
      return repo.customerJournalPage(q, input);
    },
    /** Σ |net| of the rows such a page lists, over the whole scope (e.g. 30-day traded volume). */
    customerJournalVolume(q: Db | Tx, input: Omit<repo.JournalPageQuery, 'offset' | 'limit'>) {
      return repo.customerJournalVolume(q, input);
    },

    /** The distinct reasons of a customer's entries in the scope, sorted (record type filters). */
    customerJournalReasons(q: Db | Tx, input: repo.JournalScope) {
      return repo.customerJournalReasons(q, input);
    },

    /** Every customer's available + frozen per currency in one book (proof of reserves; use one snapshot). */
    customerTotals(q: Db | Tx, input: { book: Book }) {
      return repo.customerTotals(q, input);
    },

    /** A real-book customer's deposited and consumed units in one currency (withdrawal turnover rule). */
    customerTurnover(
      q: Db | Tx,
      input: { customerId: string; currency: string; promotionalReasons?: readonly string[] },
    ) {
      return repo.customerTurnover(q, input);
    },

    /** The id of the entry posted under an idempotency key, or null. */
    platformMovements(
      q: Db | Tx,
      input: { book: Book; platform: PlatformCode; currency: string; limit: number; idempotencyKey?: string },
    ) {
      return repo.platformMovements(q, input);
    },

    entryIdByKey(q: Db | Tx, idempotencyKey: string) {
      return repo.entryIdByKey(q, idempotencyKey);
    },

    /** See verify.ts: every book and currency balances, and every balance equals its postings. */
    verify(q: Db = db): Promise<VerifyReport> {
      return verifyLedger(q, deps.clock);
    },
  };
  return ledger;
}

export type Ledger = ReturnType<typeof createLedger>;

function bucketMove(
  input: CustomerAccount & { amountUnits: bigint },
  from: Bucket,
  to: Bucket,
): PostingInput[] {
  const account = customerRef(input);
  return [
    { account, currency: input.currency, bucket: from, amountUnits: -input.amountUnits },
    { account, currency: input.currency, bucket: to, amountUnits: input.amountUnits },
  ];
}

function grantPostings(
  customerId: string,
  grants: ReadonlyArray<{ currency: string; amountUnits: bigint }>,
): PostingInput[] {
  return grants.flatMap((g) => {
    positive(g.amountUnits, 'demo grant');
    return [
      {
        account: { book: 'demo', customerId, accountType: 'spot' },
        currency: g.currency,
        amountUnits: g.amountUnits,
      },
      {
        account: { book: 'demo', platform: 'demo_faucet' },
        currency: g.currency,
        amountUnits: -g.amountUnits,
      },
    ] satisfies PostingInput[];
  });
}

function accountRefOf(p: repo.PostingRow): AccountRef | { book: Book; accountId: string } {
  if (p.platformCode !== null) return { book: p.book, platform: p.platformCode as PlatformCode };
  if (p.customerId !== null) {
    return { book: p.book, customerId: p.customerId, accountType: p.accountType as CustomerAccountType };
  }
  return { book: p.book, accountId: p.accountId };
}

/**
 * Every non-zero demo bucket back to the faucet, then the starting grant: the customer's postings
 * one per bucket, the faucet's netted to one per currency (so the entry stays within its limit).
 */
function resetPostings(
  customerId: string,
  held: readonly repo.BalanceRow[],
  grants: ReadonlyArray<{ currency: string; amountUnits: bigint }>,
): PostingInput[] {
  const postings: PostingInput[] = [];
  const faucet = new Map<string, bigint>();
  const take = (currency: string, units: bigint) =>
    faucet.set(currency, (faucet.get(currency) ?? 0n) + units);
  for (const row of held) {
    const account: AccountRef = {
      book: 'demo',
      customerId,
      accountType: row.accountType as CustomerAccountType,
    };
    for (const [bucket, units] of [
      ['available', row.availableUnits],
      ['frozen', row.frozenUnits],
    ] as const) {
      if (units === 0n) continue;
      postings.push({ account, currency: row.currency, bucket, amountUnits: -units });
      take(row.currency, units);
    }
  }
  for (const g of grants) {
    postings.push({
      account: { book: 'demo', customerId, accountType: 'spot' },
      currency: g.currency,
      amountUnits: g.amountUnits,
    });
    take(g.currency, -g.amountUnits);
  }
  for (const [currency, units] of faucet) {
    if (units !== 0n)
      postings.push({ account: { book: 'demo', platform: 'demo_faucet' }, currency, amountUnits: units });
  }
  return postings;
}
