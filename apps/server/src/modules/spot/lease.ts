import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { ReasonCode, ReasonParams, SpotCancelReason } from '@bourse/protocol';
import {
  type ClaimFactory,
  ClaimLostError,
  type ClaimWire,
  type Db,
  detached,
  type EffectClaim,
  type Tx,
  withEffectClaim,
} from '../../db/database.ts';
import { Refusal } from '../../http/refusal.ts';
import { hmac, safeEqual } from '../../lib/crypto.ts';
import { openPubSub, outageLog, type PubSub } from '../../lib/redis.ts';
import type { BatchOutcome, Book, JournalCommand, OrderState, PlaceInput } from './order.ts';
import {
  holdsLease,
  journalAfter,
  leasesNow,
  releaseLease,
  renewLeases,
  settledCursors,
  takeLease,
} from './repo.ts';
import type { BookRunner, Forwarder } from './runner.ts';

/**
 * SPOT_LEASES=on: several server processes on one database, **one owner per book** (market symbol ×
 * real/demo), through a lease row in `spot_book_lease` (owner, epoch, expires_at).
 *
 * - **Expiry is judged by PostgreSQL's `now()`**, never by a process's clock: a lease is about
 *   whether its owner is still alive and renewing, and the database is the one clock every process
 *   and every fence check shares (two machines' clocks may disagree; the injected app clock may be a
 *   test's fixed instant).
 * - The owner renews every TTL/3. A process takes a book whose lease is free or expired with a new
 *   epoch, **recovers it first** (`BookRunner.recover()`: snapshot + journal, settling what the
 *   former owner journaled but did not settle) and only then accepts orders.
 * - **The fence**: every transaction writing a book's state (journal, settlement, config row,
 *   snapshot) first reads its lease row `for key share` (owner and epoch match, not expired). A former
 *   owner's transaction after a takeover finds another epoch and throws SPOT_BOOK_MOVED (nothing
 *   commits), and this process stops owning the book. A takeover (an update of that row) waits for
 *   a batch in flight holding the row and sees it committed when it recovers.
 * - **Followers** (every process for the books it does not own) serve depth, prints and private
 *   updates: the owner publishes each settled batch's outcome over Redis pub/sub; a follower applies
 *   that batch's journal rows to its engine (read from `spot_journal`), the outcome's orders and
 *   prints, and feeds the outcome to the same `spot.listen({onBatch})` listeners as the owner's own
 *   batches (so `channels.ts` publishes to its websocket clients). A batch it cannot place (a gap, a
 *   new owner, its own lost ownership) makes it rebuild the book as settled (`BookRunner.resync()`);
 *   each round it also compares the settled cursors with its books and rebuilds one that stays behind
 *   (a lost message).
 * - **Orders and cancels reaching a non-owner are forwarded to the owner** over Redis: each process
 *   hears its own inbox channel; the call carries the order (or the cancel) and the request's
 *   idempotency claim as data, the owner queues it on its book as if it had arrived there — the
 *   claim recorded in the batch's transaction by the owner's store — and answers with the order, or
 *   the refusal, the owner gave. One hop only: a call reaching a process that does not own the book
 *   (any more) is refused, never sent on.
 * - **SPOT_BOOK_MOVED** (HTTP 503, Retry-After) when no owner can take it: no live lease (a takeover
 *   under way), the owner's inbox unheard, no answer within `forwardTimeoutMs`, or the owner's lease
 *   gone while waiting. A 5xx, so the idempotency layer releases the rtoken and the retry runs; if
 *   the owner did journal the order, its claim committed with it, and the retry is told
 *   REQUEST_ALREADY_APPLIED — one effect either way.
 */

export type LeaseOptions = {
  /** This process in `spot_book_lease.owner` (default: host, pid and a random suffix). */
  processId?: string;
  ttlMs: number;
  redisUrl: string;
  redisPrefix: string;
  /**
   * The server secret every process shares: a forwarded call carries an HMAC of its content with it,
   * and the owner runs only calls whose HMAC matches (a client of Redis alone cannot place orders).
   */
  secret: string;
};

/** What `markets.ts` gives each runner (`RunnerDeps.fence` / `owner`). */
export type LeaseHooks = {
  fenceFor(symbol: string, book: Book): (tx: Tx) => Promise<void>;
  ownerFor(symbol: string, book: Book): () => Refusal | null;
  forwardFor(symbol: string, book: Book): Forwarder;
};

type Held = {
  symbol: string;
  book: Book;
  /** The epoch this process holds (0: none). */
  epoch: number;
  owned: boolean;
  /** Owned and recovered: orders are taken. */
  ready: boolean;
  /** A follower whose engine may hold what it journaled as owner and never settled: rebuild first. */
  stale: boolean;
  /** The last engine seq this owner published (null: followers must rebuild at its first batch). */
  publishedSeq: number | null;
  /** Rounds in a row the settled cursor was ahead of this follower's engine. */
  behind: number;
  /** Serialises takeover, follow and rebuild of this book. */
  chain: Promise<void>;
};

/**
 * On the wire: a settled batch's outcome (bigint, Map, Set, Date tagged) — or, with `kind:
 * 'controls'` and nothing else, word that the back office changed a market or the kill switch.
 */
type WireBatch = {
  v: 1;
  kind?: 'controls';
  owner: string;
  symbol: string;
  book: Book;
  epoch: number;
  prevSeq: number | null;
  outcome: string;
};

/** A place or cancel sent to a book's owner (on the owner's inbox), and its answer (on the sender's). */
type WireCall = {
  v: 1;
  kind: 'call';
  id: string;
  from: string;
  symbol: string;
  book: Book;
  op: 'place' | 'cancel';
  /** `encode`d: the place's input, or the cancel's [orderId, customerId, reason]. */
  args: string;
  claim: ClaimWire | null;
  /** HMAC-SHA256 (the server secret) of everything above: `callMac`. */
  mac: string;
};

type WireAnswer = {
  v: 1;
  kind: 'answer';
  id: string;
  /** `encode`d: the order as the owner answered it. */
  order?: string;
  refusal?: { reason: ReasonCode; params: ReasonParams };
  /** The request's claim was taken by a twin (answered 409 REQUEST_IN_PROGRESS). */
  claimLost?: true;
  /** Anything else: the owner logged it. */
  failed?: string;
};

export const LEASE_LIMITS = {
  connectTimeoutMs: 5_000,
  /**
   * A forwarded call unanswered this long is refused SPOT_BOOK_MOVED (retry). Real time on purpose:
   * how long to wait for another process, nothing decided by it (a late answer finds no caller; the
   * retry finds the effect by its claim).
   */
  forwardTimeoutMs: 10_000,
  /** Rounds a follower may stay behind the settled cursor before it rebuilds (a lost message). */
  behindRounds: 2,
} as const;

type LeaseState = {
  db: Db;
  log: import('pino').Logger;
  options: LeaseOptions;
  runner: (symbol: string, book: Book) => BookRunner;
  books: () => Array<{ symbol: string; book: Book }>;
  publish: (runner: BookRunner, outcome: BatchOutcome) => void;
  /** Reads the back office's controls again (markets, kill switch): each round and when told. */
  refresh?: () => Promise<void>;
  /** A book just taken and recovered, before it takes orders: journal the market's current config. */
  adopted?: (symbol: string, book: Book) => Promise<void>;
  /** Records a forwarded request's idempotency claim (absent: a call carrying a claim is refused). */
  claims?: ClaimFactory;
};

export function createBookLeases(s: LeaseState) {
  const { db, log } = s;
  const options = {
    ...s.options,
    processId: s.options.processId ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
  };
  const held = new Map<string, Held>();
  let bus: PubSub | null = null;
  let timer: NodeJS.Timeout | null = null;
  let round: Promise<void> | null = null;
  let closed = false;
  const channel = `${options.redisPrefix}spot:batch`;
  /** A process's inbox: calls forwarded to it, answers to its own calls. */
  const inboxOf = (processId: string) => `${options.redisPrefix}spot:call:${processId}`;
  const inbox = inboxOf(options.processId);
  /** Each book's lease as the last round read it (taken here: this process). */
  const owners = new Map<string, { owner: string; live: boolean }>();
  /** Calls sent to an owner, waiting for its answer. */
  const calls = new Map<
    string,
    {
      symbol: string;
      book: Book;
      owner: string;
      timer: NodeJS.Timeout;
      resolve(order: OrderState): void;
      reject(error: unknown): void;
    }
  >();
  let callSeq = 0;
  const seconds = Math.max(1, Math.ceil(options.ttlMs / 1000));

  const keyOf = (symbol: string, book: Book) => `${symbol}#${book}`;
  function heldOf(symbol: string, book: Book): Held {
    const key = keyOf(symbol, book);
    let h = held.get(key);
    if (!h) {
      h = {
        symbol,
        book,
        epoch: 0,
        owned: false,
        ready: false,
        stale: false,
        publishedSeq: null,
        behind: 0,
        chain: Promise.resolve(),
      };
      held.set(key, h);
    }
    return h;
  }
  const moved = (symbol: string) => new Refusal('SPOT_BOOK_MOVED', { symbol, seconds });
  function serial(h: Held, work: () => Promise<void>): Promise<void> {
    const next = h.chain.then(work, work);
    h.chain = next.catch(() => {});
    return next;
  }

  function lose(h: Held, why: string): void {
    if (!h.owned) return;
    h.owned = false;
    h.ready = false;
    h.stale = true;
    log.warn({ symbol: h.symbol, book: h.book, epoch: h.epoch, why }, 'spot book lease lost');
  }

  const hooks: LeaseHooks = {
    fenceFor(symbol, book) {
      const h = heldOf(symbol, book);
      return async (tx) => {
        if (h.owned && (await holdsLease(tx, symbol, book, options.processId, h.epoch))) return;
        lose(h, 'fence');
        throw moved(symbol);
      };
    },
    ownerFor(symbol, book) {
      const h = heldOf(symbol, book);
      return () => (h.ready ? null : moved(symbol));
    },
    forwardFor(symbol, book) {
      return {
        place: (input, claim) => call(symbol, book, 'place', encode(input), claim),
        cancel: (orderId, customerId, reason, claim) =>
          call(symbol, book, 'cancel', encode([orderId, customerId, reason]), claim),
      };
    },
  };

  /** Sends a place or cancel to the book's owner and waits for its answer. */
  function call(
    symbol: string,
    book: Book,
    op: WireCall['op'],
    args: string,
    claim: EffectClaim | null,
  ): Promise<OrderState> {
    const lease = owners.get(keyOf(symbol, book));
    const to = lease?.live && lease.owner !== options.processId ? lease.owner : null;
    // A claim that cannot travel as data would not be recorded with the effect: not sent.
    if (!bus || closed || to === null || (claim !== null && !claim.wire))
      return Promise.reject(moved(symbol));
    const pub = bus.pub;
    const id = `${options.processId}/${++callSeq}`;
    return new Promise<OrderState>((resolve, reject) => {
      const timer = setTimeout(() => fail(id, moved(symbol)), LEASE_LIMITS.forwardTimeoutMs);
      calls.set(id, { symbol, book, owner: to, timer, resolve, reject });
      const unsigned: Omit<WireCall, 'mac'> = {
        v: 1,
        kind: 'call',
        id,
        from: options.processId,
        symbol,
        book,
        op,
        args,
        claim: claim?.wire ?? null,
      };
      const w: WireCall = { ...unsigned, mac: callMac(options.secret, unsigned) };
      pub.publish(inboxOf(to), JSON.stringify(w)).then(
        // Nobody hears the owner's inbox: it is gone (its lease runs out soon).
        (heard) => (heard === 0 ? fail(id, moved(symbol)) : undefined),
        () => fail(id, moved(symbol)),
      );
    });
  }

  function fail(id: string, error: unknown): void {
    const c = calls.get(id);
    if (!c) return;
    calls.delete(id);
    clearTimeout(c.timer);
    c.reject(error);
  }

  function answered(w: WireAnswer): void {
    const c = calls.get(w.id);
    if (!c) return;
    calls.delete(w.id);
    clearTimeout(c.timer);
    if (w.order !== undefined) c.resolve(decode(w.order) as OrderState);
    else if (w.refusal) c.reject(new Refusal(w.refusal.reason, w.refusal.params));
    else if (w.claimLost) c.reject(new ClaimLostError());
    else
      c.reject(
        new Error(`spot: the book's owner failed the forwarded call: ${w.failed ?? 'no reason given'}`),
      );
  }

  /** A call forwarded here: run on the book as if it arrived here (one hop: never sent on), then answer. */
  async function runCall(w: WireCall): Promise<void> {
    let answer: Omit<WireAnswer, 'v' | 'kind' | 'id'>;
    try {
      if (!heldOf(w.symbol, w.book).ready) throw moved(w.symbol);
      const runner = s.runner(w.symbol, w.book);
      const claim = w.claim ? (s.claims?.(w.claim) ?? null) : null;
      if (w.claim && !claim) throw moved(w.symbol);
      const run = (): Promise<OrderState> => {
        if (w.op === 'place') return runner.place(decode(w.args) as PlaceInput, { forwarded: true });
        const [orderId, customerId, reason] = decode(w.args) as [string, string, SpotCancelReason];
        return runner.cancel(orderId, customerId, reason, { forwarded: true });
      };
      answer = { order: encode(await (claim ? withEffectClaim(claim, run) : detached(run))) };
    } catch (error) {
      if (error instanceof Refusal) answer = { refusal: { reason: error.reason, params: error.params } };
      else if (error instanceof ClaimLostError) answer = { claimLost: true };
      else {
        log.error({ err: error, symbol: w.symbol, book: w.book, op: w.op }, 'spot forwarded call failed');
        answer = { failed: error instanceof Error ? error.message : String(error) };
      }
    }
    const reply: WireAnswer = { v: 1, kind: 'answer', id: w.id, ...answer };
    await bus?.pub.publish(inboxOf(w.from), JSON.stringify(reply)).catch((error: unknown) => {
      // The caller times out and answers SPOT_BOOK_MOVED; its retry finds the effect by its claim.
      log.warn({ err: error, symbol: w.symbol, book: w.book }, 'spot forwarded call: answer not sent');
    });
  }

  /** Takes a free or expired book: recover, then take orders. */
  async function take(h: Held): Promise<void> {
    const epoch = await takeLease(db, h.symbol, h.book, options.processId, options.ttlMs);
    if (epoch === null) return;
    owners.set(keyOf(h.symbol, h.book), { owner: options.processId, live: true });
    const t0 = performance.now();
    h.epoch = epoch;
    h.owned = true;
    h.ready = false;
    try {
      const runner = s.runner(h.symbol, h.book);
      const r = await runner.recover();
      if (!h.owned) return;
      await s.adopted?.(h.symbol, h.book);
      if (!h.owned) return;
      h.publishedSeq = null;
      h.stale = false;
      h.behind = 0;
      h.ready = true;
      log.info(
        {
          symbol: h.symbol,
          book: h.book,
          epoch,
          replayed: r.replayed,
          settled: r.settled,
          recoverMs: Math.round(performance.now() - t0),
        },
        'spot book taken',
      );
    } catch (error) {
      const fenced = error instanceof Refusal && error.reason === 'SPOT_BOOK_MOVED';
      if (!fenced) log.error({ err: error, symbol: h.symbol, book: h.book }, 'spot book recovery failed');
      if (h.owned) {
        h.owned = false;
        h.ready = false;
        h.stale = true;
        await releaseLease(db, h.symbol, h.book, options.processId, epoch).catch(() => {});
      }
    }
  }

  /** One round: renew what is owned, take what is free or expired, rebuild followers left behind. */
  async function tick(): Promise<void> {
    const leases = new Map((await leasesNow(db)).map((l) => [keyOf(l.symbol, l.book), l]));
    for (const [key, l] of leases) owners.set(key, { owner: l.owner, live: l.live });
    // A call waiting on an owner whose lease ended or passed on: refused now (retry), not at its timeout.
    for (const [id, c] of calls) {
      const l = owners.get(keyOf(c.symbol, c.book));
      if (!l?.live || l.owner !== c.owner) fail(id, moved(c.symbol));
    }
    const cursors = new Map(
      (await settledCursors(db)).map((c) => [keyOf(c.symbol, c.book), Number(c.settled_seq)]),
    );
    // Renewals first, all in one statement: a slow take or rebuild below never delays them.
    const owned = [...held.values()].filter((h) => h.owned);
    const renewed = await renewLeases(db, options.processId, owned, options.ttlMs);
    for (const h of owned) if (!renewed.has(keyOf(h.symbol, h.book))) lose(h, 'renewal');
    for (const { symbol, book } of s.books()) {
      if (closed) return;
      const h = heldOf(symbol, book);
      if (h.owned) continue;
      const lease = leases.get(keyOf(symbol, book));
      if (!lease?.live) {
        await serial(h, () => take(h));
        if (h.owned) continue;
      }
      const runner = s.runner(symbol, book);
      const settled = cursors.get(keyOf(symbol, book)) ?? 0;
      h.behind = settled > runner.engineSeq || h.stale ? h.behind + 1 : 0;
      if (h.behind >= LEASE_LIMITS.behindRounds) {
        await serial(h, () => rebuild(h));
      }
    }
  }

  /** One refresh at a time; asked for again while one runs, one more follows it. */
  let refreshing: Promise<void> | null = null;
  let again = false;
  async function refresh(): Promise<void> {
    if (!s.refresh) return;
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        again = false;
        try {
          await s.refresh?.();
        } catch (error) {
          log.warn({ err: error }, 'spot controls not refreshed; the next round tries again');
        }
      } while (again && !closed);
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  async function rebuild(h: Held): Promise<void> {
    if (h.owned) return;
    const runner = s.runner(h.symbol, h.book);
    // A batch of its own still ending (its lease just lost) must not interleave with the rebuild.
    await runner.drained();
    await runner.resync();
    h.stale = false;
    h.behind = 0;
  }

  /** A batch settled by another process: follow it and tell the listeners. */
  async function follow(w: WireBatch): Promise<void> {
    const h = heldOf(w.symbol, w.book);
    if (h.owned) return;
    const outcome = decode(w.outcome) as BatchOutcome;
    const runner = s.runner(w.symbol, w.book);
    await runner.drained();
    // Past it already when a rebuild read it as settled: nothing to apply.
    if (outcome.engineSeq > runner.engineSeq) {
      if (h.stale || w.prevSeq === null || w.prevSeq !== runner.engineSeq) await rebuild(h);
      else {
        const rows = await journalAfter(db, w.symbol, w.book, runner.engineSeq);
        const commands = rows
          .map((r) => r.command as JournalCommand)
          .filter((c) => c.seq <= outcome.engineSeq);
        if (commands.at(-1)?.seq !== outcome.engineSeq) await rebuild(h);
        else runner.followBatch(commands, outcome);
      }
    }
    // Published in any case, in the owner's order: this process's sockets hear every settled batch.
    s.publish(runner, outcome);
  }

  // Redis away: one warning, not one per settled batch (followers rebuild from the journal meanwhile).
  const publishing = outageLog(
    log,
    'warn',
    'spot batches not published to the other processes (quiet until publishing works again)',
    'spot batches published to the other processes again',
  );
  /** The owner's listener: every settled batch goes to the other processes. */
  const listener: { onBatch(symbol: string, book: Book, outcome: BatchOutcome): void } = {
    onBatch(symbol, book, outcome) {
      const h = heldOf(symbol, book);
      if (!h.owned || !bus) return;
      const w: WireBatch = {
        v: 1,
        owner: options.processId,
        symbol,
        book,
        epoch: h.epoch,
        prevSeq: h.publishedSeq,
        outcome: encode(outcome),
      };
      h.publishedSeq = outcome.engineSeq;
      bus.pub.publish(channel, JSON.stringify(w)).then(
        () => publishing.ok(),
        (error: unknown) => {
          h.publishedSeq = null;
          publishing.failed(error);
        },
      );
    },
  };

  return {
    hooks,
    listener,
    processId: options.processId,
    /** SPOT_LEASES off: always true. On: this process owns the book and recovered it. */
    owns: (symbol: string, book: Book) => heldOf(symbol, book).ready,
    /** The back office changed a market or the kill switch here: the other processes read it again now. */
    controlsChanged(): void {
      const w = { v: 1, kind: 'controls', owner: options.processId };
      bus?.pub.publish(channel, JSON.stringify(w)).catch((error: unknown) => {
        log.warn({ err: error }, 'spot controls change not announced; the next lease round reads it');
      });
    },
    /** One round now (renew, take, rebuild, then the controls); tests started with `{ rounds: false }` drive them. */
    round: async () => {
      await tick();
      await refresh();
    },
    /** Connects to Redis, takes the free books (recovering each) and follows the others. */
    async start(opts: { rounds?: boolean } = {}): Promise<void> {
      bus = await openPubSub({
        url: options.redisUrl,
        channel,
        more: [inbox],
        log,
        connectTimeoutMs: LEASE_LIMITS.connectTimeoutMs,
        onMessage(text, heardOn) {
          if (heardOn === inbox) {
            let m: WireCall | WireAnswer;
            try {
              m = JSON.parse(text) as WireCall | WireAnswer;
            } catch (error) {
              log.warn({ err: error }, 'spot inbox: unreadable message');
              return;
            }
            if (m.v !== 1) return;
            if (m.kind === 'answer') answered(m);
            else if (m.kind === 'call') {
              const { mac, ...unsigned } = m;
              if (typeof mac === 'string' && safeEqual(mac, callMac(options.secret, unsigned)))
                void runCall(m);
              // Not from a process of this platform: not run, not answered.
              else
                log.warn(
                  { from: String(m.from) },
                  'spot inbox: a call without a valid signature was dropped',
                );
            }
            return;
          }
          let w: WireBatch;
          try {
            w = JSON.parse(text) as WireBatch;
          } catch (error) {
            log.warn({ err: error }, 'spot bus: unreadable batch');
            return;
          }
          if (w.v !== 1 || w.owner === options.processId) return;
          if (w.kind === 'controls') {
            void refresh();
            return;
          }
          const h = heldOf(w.symbol, w.book);
          void serial(h, () => follow(w)).catch((error: unknown) =>
            log.warn({ err: error, symbol: w.symbol, book: w.book }, 'spot follower could not apply a batch'),
          );
        },
      });
      // Every book starts as a follower of what is settled; the first round takes the free ones.
      for (const { symbol, book } of s.books()) {
        const h = heldOf(symbol, book);
        await serial(h, () => s.runner(symbol, book).resync());
      }
      await tick();
      if (opts.rounds === false) return;
      timer = setInterval(
        () => {
          if (round || closed) return;
          round = tick()
            .catch((error: unknown) => log.warn({ err: error }, 'spot lease round failed'))
            .finally(() => {
              round = null;
            });
          // Beside the round, never inside it: a band change waits for its book to be idle between
          // batches, and the renewals of the next rounds must not wait for that.
          void refresh();
        },
        Math.max(50, Math.floor(options.ttlMs / 3)),
      );
      timer.unref();
    },
    /** Stops renewing and gives every owned book up (after its batches drained), so another process takes it at once. */
    async close(): Promise<void> {
      closed = true;
      if (timer) clearInterval(timer);
      for (const [id, c] of calls) fail(id, moved(c.symbol));
      if (round) await round;
      if (refreshing) await refreshing;
      for (const h of held.values()) {
        await h.chain;
        if (!h.owned) continue;
        await s.runner(h.symbol, h.book).drained();
        h.owned = false;
        h.ready = false;
        await releaseLease(db, h.symbol, h.book, options.processId, h.epoch).catch(() => {});
      }
      await bus?.close();
    },
  };
}

export type BookLeases = ReturnType<typeof createBookLeases>;

/** A forwarded call's HMAC: over its fields in one fixed order. */
function callMac(secret: string, w: Omit<WireCall, 'mac'>): string {
  const claim = w.claim
    ? [w.claim.key.hash, w.claim.key.route, w.claim.key.requestHash, w.claim.claimId].join('\u0000')
    : '';
  return hmac(secret, ['spot-call', w.v, w.id, w.from, w.symbol, w.book, w.op, w.args, claim].join('\u0001'));
}

/** JSON with bigint, Map, Set and Date kept. */
export function encode(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
    const raw = key === '' ? v : this[key];
    if (typeof raw === 'bigint') return { $b: raw.toString() };
    if (raw instanceof Date) return { $d: raw.getTime() };
    if (raw instanceof Map) return { $m: [...raw.entries()] };
    if (raw instanceof Set) return { $s: [...raw.values()] };
    return v;
  });
}

export function decode(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      if ('$b' in o) return BigInt(o.$b as string);
      if ('$d' in o) return new Date(o.$d as number);
      if ('$m' in o) return new Map(o.$m as Array<[unknown, unknown]>);
      if ('$s' in o) return new Set(o.$s as unknown[]);
    }
    return v;
  });
}
