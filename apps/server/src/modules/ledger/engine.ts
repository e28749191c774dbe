import type { ReasonCode, ReasonParams } from '@bourse/protocol';
import { afterCommit, type Db, inTransaction, isUniqueViolation, type Tx } from '../../db/database.ts';
import { Refusal } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { newIds } from '../../lib/ids.ts';
import {
  type AccountRef,
  accountKey,
  applyEntry,
  type BalanceState,
  type Book,
  type CustomerAccountType,
  isPlatformCode,
  LedgerInvariantError,
  type NormalizedEntry,
  PLATFORM_ACCOUNT_TYPE,
  type PlatformCode,
  platformSpec,
} from './model.ts';
import * as repo from './repo.ts';

/**
 * The posting engine: turns checked entries into rows, in one transaction per call.
 *
 * 1. Resolve the accounts the entries name to row ids (cache, then database; reads only).
 * 2. Take the idempotency keys' advisory locks (one statement), then the existing accounts' row
 *    locks, each in one global order — so ledger transactions never wait on each other in a cycle.
 * 3. Look up the idempotency keys — in the statement that takes the row locks, after the advisory
 *    locks, so a concurrent twin has either committed (and we replay it) or waits behind us (and
 *    will replay ours); reversal targets, when there are any, in a statement after the row locks.
 * 4. Apply the entries in order to the locked balances in memory; refuse those that would overdraw
 *    or cross books. A refused entry writes nothing — not even an empty account.
 * 5. Open the accounts accepted entries pay into, then write the entries, their postings and the
 *    balance changes in one statement (group commit). A batch of existing accounts and no reversal
 *    is five round trips whatever its size: begin, advisory locks, row locks + keys, write, commit.
 */

export type PostedEntry = {
  id: string;
  book: Book;
  reason: string;
  reference: { type: string; id: string };
  idempotencyKey: string;
  reversesEntryId: string | null;
  createdAt: Date;
  /** True when the idempotency key had been posted before: this is that entry, nothing changed. */
  replayed: boolean;
};

export type Outcome = { ok: true; entry: PostedEntry } | { ok: false; refusal: Refusal };

/** Ids never change and accounts are never deleted, so a committed id can be cached for good. */
const CACHE_MAX = 100_000;
const UNIQUE_RETRIES = 3;
/**
 * Attempts after a deadlock, a serialization failure or a late account locked elsewhere (PostgreSQL
 * 40P01 / 40001 / 55P03), each resolving the accounts afresh.
 */
const CONFLICT_RETRIES = 12;

function isLockConflict(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '40P01' || code === '40001' || code === '55P03';
}

type Resolution = {
  /** Account key → id, for the accounts that exist. */
  ids: Map<string, string>;
  /** Customer → the book they are pinned to, for those pinned. */
  pins: Map<string, Book>;
  /** Account key → identity, for every account the entries name. */
  wanted: Map<string, repo.AccountIdentity>;
};

function customerOf(account: AccountRef): string | null {
  return 'customerId' in account ? account.customerId : null;
}

function identityOf(account: AccountRef, currency: string): repo.AccountIdentity {
  return 'platform' in account
    ? {
        book: account.book,
        customerId: null,
        platformCode: account.platform,
        accountType: PLATFORM_ACCOUNT_TYPE,
        currency,
      }
    : {
        book: account.book,
        customerId: account.customerId,
        platformCode: null,
        accountType: account.accountType,
        currency,
      };
}

function keyOfRow(row: repo.AccountIdentity): string {
  const account: AccountRef =
    row.platformCode !== null
      ? { book: row.book, platform: row.platformCode as PlatformCode }
      : {
          book: row.book,
          customerId: row.customerId ?? '',
          accountType: row.accountType as CustomerAccountType,
        };
  return accountKey(account, row.currency);
}

function mayGoNegative(identity: repo.AccountIdentity): boolean {
  const code = identity.platformCode;
  return code !== null && isPlatformCode(code) && platformSpec(code)?.allowNegative === true;
}

function toPosted(row: repo.EntryRow, replayed: boolean): PostedEntry {
  return {
    id: row.id,
    book: row.book,
    reason: row.reason,
    reference: { type: row.referenceType, id: row.referenceId },
    idempotencyKey: row.idempotencyKey,
    reversesEntryId: row.reversesEntryId,
    createdAt: row.createdAt,
    replayed,
  };
}

/**
 * How a posting call may skip work its caller makes redundant.
 * - `soleWriter`: the caller is the only one that ever posts these entries' idempotency keys, and
 *   never twice at once — a spot book's runner, one per book, fenced by its lease (a former owner's
 *   transaction cannot commit after a takeover). The transaction-scoped key locks that make a
 *   concurrent twin wait and replay are then skipped (one round trip); should a twin exist after
 *   all, the unique key refuses its insert (nothing is posted twice) instead of replaying.
 */
export type PostOptions = { soleWriter?: boolean };

export function createEngine(deps: { db: Db; clock: Clock }) {
  const { clock } = deps;
  const accountIds = new Map<string, string>();
  const owners = new Map<string, Book>();

  function remember<V>(cache: Map<string, V>, key: string, value: V): void {
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(key, value);
  }

  /** Keeps a committed posting's account ids and customers' books (they never change once written). */
  function keep(resolution: Resolution, opened: ReadonlyMap<string, string>): void {
    for (const [key, id] of [...resolution.ids, ...opened]) remember(accountIds, key, id);
    for (const [c, book] of resolution.pins) remember(owners, c, book);
    // An account opened for a customer pinned them to its book (`open` checked it).
    for (const key of opened.keys()) {
      const identity = resolution.wanted.get(key);
      if (identity?.customerId) remember(owners, identity.customerId, identity.book);
    }
  }

  /** Reads (never writes) the pins and account ids the entries name: from the cache, else the database. */
  async function resolve(q: Db | Tx, entries: readonly NormalizedEntry[]): Promise<Resolution> {
    const customers = new Set<string>();
    const wanted = new Map<string, repo.AccountIdentity>();
    for (const entry of entries) {
      for (const p of entry.postings) {
        const customer = customerOf(p.account);
        if (customer !== null) customers.add(customer);
        if (!wanted.has(p.key)) wanted.set(p.key, identityOf(p.account, p.currency));
      }
    }
    const pins = new Map<string, Book>();
    for (const c of customers) if (owners.has(c)) pins.set(c, owners.get(c)!);
    const unpinned = [...customers].filter((c) => !pins.has(c));
    for (const [c, book] of await repo.findOwners(q, unpinned)) pins.set(c, book);
    const ids = new Map<string, string>();
    for (const key of wanted.keys()) if (accountIds.has(key)) ids.set(key, accountIds.get(key)!);
    const unknown = [...wanted].filter(([key]) => !ids.has(key)).map(([, identity]) => identity);
    for (const row of await repo.findAccountIds(q, unknown)) ids.set(keyOfRow(row), row.id);
    return { ids, pins, wanted };
  }

  /**
   * Opens, inside the posting transaction, the accounts that accepted entries pay into: sorted, so
   * two transactions opening the same accounts wait on each other in one order. Returns their ids.
   */
  async function open(
    tx: Tx,
    resolution: Resolution,
    keys: ReadonlySet<string>,
    { lateNowait }: { lateNowait: boolean },
  ): Promise<Map<string, string>> {
    const opened = new Map<string, string>();
    if (keys.size === 0) return opened;
    const now = clock.now();
    const identities = [...keys].sort().map((key) => resolution.wanted.get(key)!);
    const newOwners = new Map<string, Book>();
    for (const i of identities) if (i.customerId !== null) newOwners.set(i.customerId, i.book);
    const ownerRows = [...newOwners]
      .filter(([c]) => !resolution.pins.has(c))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([customerId, book]) => ({ customerId, book }));
    await repo.insertOwners(tx, ownerRows, now);
    for (const [c, book] of await repo.findOwners(tx, [...newOwners.keys()])) {
      if (book !== newOwners.get(c)) {
        throw new LedgerInvariantError(`customer ${c} was opened in the ${book} book by a concurrent entry`);
      }
    }
    const ids = newIds('lac', identities.length, now.getTime());
    const rows = identities.map((i, n) => ({
      ...i,
      id: ids[n]!,
      allowNegative: mayGoNegative(i),
    }));
    await repo.insertAccounts(tx, rows, now);
    const ours = new Set(rows.map((r) => r.id));
    for (const row of await repo.findAccountIds(tx, rows)) opened.set(keyOfRow(row), row.id);
    // Opened meanwhile by a concurrent entry: lock those now or give way (a retry resolves afresh) —
    // only in a transaction of the ledger's own, which it can retry itself; in a caller's transaction
    // the late account is waited for (a deadlock there is the caller's inTransaction retry).
    if (lateNowait)
      await repo.lockLateAccounts(
        tx,
        [...opened.values()].filter((id) => !ours.has(id)),
      );
    for (const key of keys) {
      if (!opened.has(key)) throw new LedgerInvariantError(`account ${key} could not be opened`);
    }
    return opened;
  }

  /**
   * Locks the existing accounts (in id order) and, in the same statement, reads the entries already
   * posted under `keys`. Returns every named account's balance state and those entries.
   */
  async function lockStates(
    tx: Tx,
    resolution: Resolution,
    keys: readonly string[],
  ): Promise<{ states: Map<string, BalanceState>; existing: repo.EntryRow[] }> {
    const { ids } = resolution;
    const lockIds = [
      ...new Set([...resolution.wanted.keys()].flatMap((k) => (ids.has(k) ? [ids.get(k)!] : []))),
    ];
    const found = await repo.lockAccountsAndFindEntries(tx, lockIds.sort(), keys);
    const locked = new Map(found.accounts.map((a) => [a.id, a]));
    const states = new Map<string, BalanceState>();
    for (const [key, identity] of resolution.wanted) {
      const id = ids.get(key);
      const row = id === undefined ? undefined : locked.get(id);
      if (id !== undefined && row === undefined) throw new LedgerInvariantError(`account ${id} vanished`);
      const unopened = { availableUnits: 0n, frozenUnits: 0n, allowNegative: mayGoNegative(identity) };
      states.set(key, row ?? { currency: identity.currency, ...unopened });
    }
    return { states, existing: found.entries };
  }

  async function apply(
    tx: Tx,
    entries: readonly NormalizedEntry[],
    resolution: Resolution,
    options: PostOptions & { lateNowait?: boolean } = {},
  ): Promise<{ outcomes: Outcome[]; opened: Map<string, string> }> {
    const keys = [...new Set(entries.map((e) => e.idempotencyKey))];
    if (!options.soleWriter) await repo.lockIdempotencyKeys(tx, keys);
    const { states, existing } = await lockStates(tx, resolution, keys);
    // After the account locks, in a statement of its own (see lockAccountsAndFindEntries).
    const reversalTargets = entries.flatMap((e) => (e.reversesEntryId ? [e.reversesEntryId] : []));
    const reversals = reversalTargets.length > 0 ? await repo.findReversals(tx, reversalTargets) : [];
    const decided = decide(entries, {
      now: clock.now(),
      states,
      pins: new Map(resolution.pins),
      opened: new Set(resolution.ids.keys()),
      existing: new Map(existing.map((e) => [e.idempotencyKey, e])),
      reversed: new Set(reversals.map((e) => e.reversesEntryId)),
    });
    const opened = await open(tx, resolution, decided.toOpen, { lateNowait: options.lateNowait ?? false });
    const idOf = (key: string) => resolution.ids.get(key) ?? opened.get(key)!;
    await repo.writeEntries(
      tx,
      decided.accepted.map(({ entry, row }) => ({
        ...row,
        postings: entry.postings.map((p) => ({
          accountId: idOf(p.key),
          currency: p.currency,
          bucket: p.bucket,
          amountUnits: p.amountUnits,
        })),
      })),
      decided.now,
    );
    return { outcomes: decided.outcomes, opened };
  }

  /**
   * Posts checked entries in one transaction: the caller's when `q` is a transaction (its locks are
   * then held until the caller commits), else a new one, retried on deadlock or serialization failure.
   */
  async function postMany(
    q: Db | Tx,
    entries: readonly NormalizedEntry[],
    options: PostOptions = {},
  ): Promise<Outcome[]> {
    if (entries.length === 0) return [];
    if (q.isTransaction) {
      const tx = q as Tx;
      const resolution = await resolve(tx, entries);
      const { outcomes, opened } = await apply(tx, entries, resolution, options);
      // The caller's transaction may still roll back (an account it opened would then not exist):
      // these become facts worth keeping when it commits.
      afterCommit(tx, () => keep(resolution, opened));
      return outcomes;
    }
    const db = q as Db;
    for (let attempt = 1; ; attempt++) {
      const resolution = await resolve(db, entries);
      try {
        // One attempt per resolution: after a deadlock the retry must look the accounts up again —
        // one opened meanwhile by a concurrent entry is then locked in id order with the rest,
        // instead of being touched after them (which is what deadlocked).
        const { outcomes, opened } = await inTransaction(
          db,
          (tx) => apply(tx, entries, resolution, { ...options, lateNowait: true }),
          1,
        );
        // Committed now, so these ids and pins are facts worth keeping.
        keep(resolution, opened);
        return outcomes;
      } catch (error) {
        // A twin with the same key slipped in between our look-up and insert: the next try replays it.
        if (attempt < UNIQUE_RETRIES && isUniqueViolation(error, 'ledger_entry_idempotency_key_key'))
          continue;
        if (attempt < CONFLICT_RETRIES && isLockConflict(error)) {
          // A short, growing, random pause: twins that collided once should not collide again in step.
          await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
          continue;
        }
        throw error;
      }
    }
  }

  /**
   * Locks, in the caller's transaction and in one statement (id order), every existing account the
   * entries name. For a caller that posts one transaction's entries in several `postMany` calls: each
   * call locks its own accounts in id order, but one call's set after another's is not one global
   * order — two such transactions could wait on each other in a cycle. Locked first, every later call
   * finds its accounts already held. (An account none of them has opened yet is opened by the call
   * that pays into it, as always.)
   */
  async function lockAccounts(tx: Tx, entries: readonly NormalizedEntry[]): Promise<number> {
    if (entries.length === 0) return 0;
    const resolution = await resolve(tx, entries);
    const ids = [...new Set(resolution.ids.values())].sort();
    if (ids.length === 0) return 0;
    const found = await repo.lockAccountsAndFindEntries(tx, ids, []);
    return found.accounts.length;
  }

  return { postMany, lockAccounts };
}

type Decision = {
  now: Date;
  states: Map<string, BalanceState>;
  pins: Map<string, Book>;
  /** Keys of the accounts that exist. */
  opened: ReadonlySet<string>;
  existing: Map<string, repo.EntryRow>;
  reversed: Set<string | null>;
};

/**
 * Decides each entry in order against the locked balances (no I/O): replay, refuse, or accept —
 * updating the balances, pins, keys and reversals the later entries of the batch will see.
 */
function decide(entries: readonly NormalizedEntry[], d: Decision) {
  const accepted: Array<{ entry: NormalizedEntry; row: repo.EntryRow }> = [];
  const toOpen = new Set<string>();
  const outcomes: Outcome[] = [];
  // Ids for every entry that may be accepted, from one random draw.
  const ids = newIds('jnl', entries.length, d.now.getTime());
  const refuse = (reason: ReasonCode, params?: ReasonParams) =>
    outcomes.push({ ok: false, refusal: new Refusal(reason, params) });
  for (const entry of entries) {
    const prior = d.existing.get(entry.idempotencyKey);
    if (prior) {
      if (prior.fingerprint !== entry.fingerprint) {
        throw new LedgerInvariantError(
          `idempotency key ${entry.idempotencyKey} was used for a different entry (${prior.id})`,
        );
      }
      outcomes.push({ ok: true, entry: toPosted(prior, true) });
      continue;
    }
    const customers = entry.postings.flatMap((p) => customerOf(p.account) ?? []);
    if (customers.some((c) => d.pins.has(c) && d.pins.get(c) !== entry.book)) {
      refuse('DEMO_BOOK_MISMATCH');
      continue;
    }
    if (entry.reversesEntryId !== null && d.reversed.has(entry.reversesEntryId)) {
      refuse('ENTRY_ALREADY_REVERSED');
      continue;
    }
    const applied = applyEntry(d.states, entry);
    if (!applied.ok) {
      refuse(applied.refusal.reason, applied.refusal.params);
      continue;
    }
    for (const c of customers) d.pins.set(c, entry.book);
    for (const p of entry.postings) if (!d.opened.has(p.key)) toOpen.add(p.key);
    const row: repo.EntryRow = {
      id: ids[accepted.length]!,
      book: entry.book,
      reason: entry.reason,
      referenceType: entry.referenceType,
      referenceId: entry.referenceId,
      idempotencyKey: entry.idempotencyKey,
      fingerprint: entry.fingerprint,
      reversesEntryId: entry.reversesEntryId,
      actorId: entry.actorId,
      memo: entry.memo,
      createdAt: d.now,
    };
    accepted.push({ entry, row });
    d.existing.set(entry.idempotencyKey, row);
    if (entry.reversesEntryId !== null) d.reversed.add(entry.reversesEntryId);
    outcomes.push({ ok: true, entry: toPosted(row, false) });
  }
  return { now: d.now, outcomes, accepted, toOpen };
}
