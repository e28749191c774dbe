import { type BookSnapshot, type Command, type EngineEvent, MatchingBook } from '@bourse/matching';
import type { SpotCancelReason } from '@bourse/protocol';
import type { Logger } from 'pino';
import {
  currentEffectClaim,
  type Db,
  detached,
  type EffectClaim,
  inTransaction,
  type Tx,
} from '../../db/database.ts';
import { Refusal } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Ledger } from '../ledger/index.ts';
import {
  answerJournalRefusals,
  type CancelJob,
  isJournalRace,
  type Job,
  type JournalBatch,
  type JournalResult,
  journalAttempt,
  newJournalResult,
  type PlaceJob,
} from './journal.ts';
import {
  type BatchOutcome,
  type Book,
  bookConfig,
  type JournalCommand,
  type MarketRef,
  type OrderState,
  type PlaceInput,
  type Print,
  type SettledTrade,
} from './order.ts';
import {
  appendJournal,
  journalAfter,
  latestSnapshot,
  latestTradeRows,
  orderFromRow,
  orderRowsToRecover,
  replaceSnapshot,
  setSettledSeq,
  settledSeqOf,
} from './repo.ts';
import { type Settlement, settlementOf, writeSettlementIn } from './settle.ts';

/**
 * One book (a market's real or demo side): a serial queue in front of one `MatchingBook`.
 *
 * A batch of queued commands (group commit: whatever arrived while the previous transaction ran, up
 * to `batchMax`) goes through three steps, and a book commits ONE transaction per batch — pipelined:
 * the transaction of batch N carries the settlement of batch N−1 and the journal of batch N.
 *  1. **journal** (`journal.ts`): new orders' rows, their freezes, the requests' idempotency claims,
 *     and every accepted command into `spot_journal` with the next seq;
 *  2. **match**, after that transaction commits: the commands go through the engine in seq order, the
 *     settlement is computed (`settle.ts`: trades, order states, ledger entries for trades, fees and
 *     releases) and memory follows it; the batch is now `pending`;
 *  3. **settle**, in the next transaction, before that one's journal part: the pending batch's ledger
 *     entries (in the same ledger call as the new batch's freezes), its trades and order rows and the
 *     cursor `spot_cursor.settled_seq`. With nothing new queued, the transaction settles alone.
 * Each transaction locks its ledger accounts in one round (`commitBatch` says why). A batch is
 * acknowledged when its settlement commits. If a transaction fails, memory is rebuilt from what
 * committed (`recover()`: snapshot + journal, settling what is past the cursor — the path a restart
 * takes too).
 */

export type RunnerDeps = {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  log: Logger;
  hooks: RunnerHooks;
  snapshotEvery?: number;
  queueMax?: number;
  /**
   * SPOT_LEASES (`lease.ts`): called first in every transaction writing this book's state (journal,
   * settlement, config row, snapshot); throws SPOT_BOOK_MOVED when this process no longer holds the lease.
   */
  fence?: (tx: Tx) => Promise<void>;
  /** SPOT_LEASES: SPOT_BOOK_MOVED while this process does not own the book (orders and cancels refused), else null. */
  owner?: () => Refusal | null;
  /**
   * SPOT_LEASES: a place or cancel reaching this process while another owns the book goes to that
   * owner (`lease.ts`), with the request's idempotency claim, and answers as the owner answered.
   */
  forward?: Forwarder;
};

/** Sends a book's place or cancel to the process that owns the book; SPOT_BOOK_MOVED when none can take it. */
export type Forwarder = {
  place(input: PlaceInput, claim: EffectClaim | null): Promise<OrderState>;
  cancel(
    orderId: string,
    customerId: string,
    reason: SpotCancelReason,
    claim: EffectClaim | null,
  ): Promise<OrderState>;
};

/** How a place or cancel arrived: `forwarded` — from another process, to run here or be refused (one hop only). */
export type Arrival = { forwarded?: boolean };

/** A batch's journal part that hit a deadlock or serialization failure runs this many more times. */
const BATCH_RETRIES = 3;

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '40001' || code === '40P01';
}

export type RunnerHooks = {
  /** Checked for each place command right before it is journaled: a refusal, or null. */
  gate(symbol: string): Refusal | null;
  published(book: BookRunner, outcome: BatchOutcome): void;
};

export const RUNNER_LIMITS = {
  batchMax: 500,
  /**
   * Commands a book queues before it refuses new orders `SPOT_BUSY` (nothing written: retry);
   * cancels, which lower risk, are taken up to twice this. A queue that grows without bound only
   * turns overload into timeouts and memory.
   */
  queueMax: 10_000,
  snapshotEvery: 5000,
} as const;

/** Public prints a book keeps in memory, and how many recovery reloads from `spot_trade`. */
const PRINTS_KEPT = 500;
const PRINTS_RELOADED = 50;

/**
 * A batch journaled and matched in memory whose settlement commits in the book's next transaction,
 * with its outcome (computed when it matched) and when its own transaction began.
 */
type Pending = {
  jobs: Job[];
  journaled: JournalResult;
  settlement: Settlement;
  outcome: BatchOutcome;
  t0: number;
};

export class BookRunner {
  readonly market: MarketRef;
  readonly book: Book;
  engine: MatchingBook;
  /** Open orders of this book (the engine holds ids; this holds the money side). */
  readonly open = new Map<string, OrderState>();
  /** Latest public prints, newest first. */
  readonly prints: Print[] = [];
  private seq = 0;
  private lastSnapshotSeq = 0;
  private queue: Job[] = [];
  private running = false;
  /** Journaled and matched, not settled yet: its settlement goes with the next transaction. Never set while broken. */
  private pending: Pending | null = null;
  private broken = false;
  private readonly deps: RunnerDeps;
  private events: EngineEvent[] = [];
  private idle: Promise<void> = Promise.resolve();
  private idleResolve: (() => void) | null = null;
  /** Work for the loop to run between two batches (a config change); each settles its own caller. */
  private between: Array<() => Promise<void>> = [];
  /** Amend groups numbered so far. */
  private groups = 0;
  /** Batches committed, the commands in them and the time they took (the bench reads it). */
  private readonly counters = { batches: 0, commands: 0, ms: 0 };

  constructor(market: MarketRef, book: Book, deps: RunnerDeps) {
    this.market = market;
    this.book = book;
    this.deps = deps;
    this.engine = new MatchingBook(bookConfig(market, book), this.sink);
  }

  /** Where the engine's events go (copied: the engine reuses its event objects). */
  private readonly sink = (e: Readonly<EngineEvent>) => {
    this.events.push({ ...e } as EngineEvent);
  };

  /** Batches committed, the commands in them and the milliseconds they took, since start. */
  get stats(): Readonly<{ batches: number; commands: number; ms: number }> {
    return { ...this.counters };
  }

  get engineSeq(): number {
    return this.seq;
  }

  hash(): string {
    return this.engine.hash();
  }

  place(input: PlaceInput, arrival: Arrival = {}): Promise<OrderState> {
    return new Promise((resolve, reject) => {
      const moved = this.deps.owner?.();
      if (moved) {
        const forward = arrival.forwarded ? undefined : this.deps.forward;
        return forward ? forward.place(input, currentEffectClaim()).then(resolve, reject) : reject(moved);
      }
      if (this.queue.length >= this.queueMax) return reject(this.busy());
      this.queue.push({ kind: 'place', input, claim: currentEffectClaim(), resolve, reject });
      this.kick();
    });
  }

  cancel(
    orderId: string,
    customerId: string,
    reason: SpotCancelReason,
    arrival: Arrival = {},
  ): Promise<OrderState> {
    return new Promise((resolve, reject) => {
      const moved = this.deps.owner?.();
      if (moved) {
        const forward = arrival.forwarded ? undefined : this.deps.forward;
        return forward
          ? forward.cancel(orderId, customerId, reason, currentEffectClaim()).then(resolve, reject)
          : reject(moved);
      }
      if (this.queue.length >= this.queueMax * 2) return reject(this.busy());
      this.queue.push({
        kind: 'cancel',
        orderId,
        customerId,
        reason,
        claim: currentEffectClaim(),
        resolve,
        reject,
      });
      this.kick();
    });
  }

  /** Commands waiting for a batch (the health view and the bounded queue read it). */
  get queued(): number {
    return this.queue.length;
  }

  private get queueMax(): number {
    return this.deps.queueMax ?? RUNNER_LIMITS.queueMax;
  }

  private busy(): Refusal {
    return new Refusal('SPOT_BUSY', { symbol: this.market.symbol, seconds: 1 });
  }

  /** Resolves when the queue is empty and no batch is running. */
  drained(): Promise<void> {
    return this.running ? this.idle : Promise.resolve();
  }

  private kick(): void {
    if (this.running) return;
    this.running = true;
    this.idle = new Promise((r) => {
      this.idleResolve = r;
    });
    // The loop outlives the request that kicked it: it must not run in that request's effect scope.
    void detached(() => this.loop());
  }

  private async loop(): Promise<void> {
    try {
      while (this.queue.length > 0 || this.between.length > 0 || this.pending) {
        // Work waiting between two batches goes first (the pending batch settled before it): a busy
        // queue never starves it.
        if (this.between.length > 0) {
          // Settles it alone; settled or failed, nothing is pending after.
          if (this.pending) await this.runBatch([]);
          for (let task = this.between.shift(); task; task = this.between.shift()) await task();
          continue;
        }
        const jobs = this.queue.splice(0, this.nextBatchSize());
        const moved = this.deps.owner?.();
        if (moved) {
          for (const job of jobs) job.reject(moved);
          this.dropPending(moved);
          continue;
        }
        try {
          await this.rebuildIfBroken();
        } catch (error) {
          for (const job of jobs) job.reject(error);
          continue;
        }
        await this.runBatch(jobs);
      }
    } finally {
      this.running = false;
      this.idleResolve?.();
    }
  }

  /** What the loop does before anything that writes the journal: a broken book is rebuilt from the database first. */
  private async rebuildIfBroken(): Promise<void> {
    if (this.broken) await this.recover();
  }

  /**
   * Up to `batchMax` queued jobs, and the rest of a group the last one belongs to (an amend goes in
   * one batch). A post-only order is screened against the book as the batch found it, and the engine
   * rejects it if the batch's earlier orders made it take: it need not go alone.
   */
  private nextBatchSize(): number {
    let n = Math.min(this.queue.length, RUNNER_LIMITS.batchMax);
    const group = this.queue[n - 1]?.group;
    while (group !== undefined && n < this.queue.length && this.queue[n]!.group === group) n += 1;
    return n;
  }

  /**
   * Amend: cancels `orderIds` (this customer's, resting) and places `inputs` in ONE batch — the
   * cancels first, their funds released before the new orders freeze theirs — so the book never
   * stands without the customer's quotes. Each answer as `cancel` / `place` would give it.
   */
  amend(
    customerId: string,
    orderIds: string[],
    inputs: PlaceInput[],
    reason: SpotCancelReason = 'user',
  ): { cancelled: Promise<OrderState>[]; placed: Promise<OrderState>[] } {
    const group = ++this.groups;
    const moved = this.deps.owner?.() ?? null;
    const full = moved !== null || this.queue.length + orderIds.length + inputs.length > this.queueMax * 2;
    type Command =
      | { kind: 'cancel'; orderId: string; customerId: string; reason: SpotCancelReason }
      | { kind: 'place'; input: PlaceInput };
    const enqueue = (command: Command) =>
      new Promise<OrderState>((resolve, reject) => {
        if (full) reject(moved ?? this.busy());
        else this.queue.push({ ...command, claim: null, group, resolve, reject });
      });
    const cancelled = orderIds.map((orderId) => enqueue({ kind: 'cancel', orderId, customerId, reason }));
    const placed = inputs.map((input) => enqueue({ kind: 'place', input }));
    if (!full) this.kick();
    return { cancelled, placed };
  }

  /**
   * Records a config change (band, minimum) in the journal and applies it to the engine — between two
   * batches: right after the one running now, however many orders keep arriving behind it. A broken
   * book (a failed batch it could not rebuild after) is rebuilt first, as the next batch would be: its
   * sequence may stand past the journal, and the change must take the journal's next number.
   */
  reconfigure(bandBps: number, minQtyLots: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.between.push(() =>
        this.rebuildIfBroken()
          .then(() => this.writeConfig(bandBps, minQtyLots))
          .then(resolve, reject),
      );
      this.kick();
    });
  }

  private async writeConfig(bandBps: number, minQtyLots: number): Promise<void> {
    const { db, clock, fence } = this.deps;
    const seq = this.seq + 1;
    const command: JournalCommand = {
      type: 'config',
      seq,
      timestampMs: clock.now().getTime(),
      bandBps,
      minQtyLots,
    };
    await inTransaction(db, async (tx) => {
      await fence?.(tx);
      await appendJournal(tx, [
        {
          symbol: this.market.symbol,
          book: this.book,
          seq: String(seq),
          command: JSON.stringify(command),
          created_at: clock.now(),
        },
      ]);
      await setSettledSeq(tx, this.market.symbol, this.book, seq);
    });
    this.seq = seq;
    this.applyConfig(bandBps, minQtyLots);
  }

  private applyConfig(bandBps: number, minQtyLots: number): void {
    (this.market as { bandBps: number }).bandBps = bandBps;
    (this.market as { minQtyLots: number }).minQtyLots = minQtyLots;
    const snap = this.engine.snapshot();
    this.engine = MatchingBook.restore({ ...snap, config: bookConfig(this.market, this.book) }, this.sink);
  }

  /**
   * One transaction (the class comment has the steps): settles the pending batch and journals `jobs`;
   * then answers the settled batch and matches the new one, which is pending until the next.
   */
  private async runBatch(jobs: Job[]): Promise<void> {
    const now = this.deps.clock.now();
    const { places, cancels } = this.screen(jobs);
    const prior = this.pending;
    if (places.length === 0 && cancels.length === 0 && !prior) return;
    const t0 = performance.now();
    this.pending = null;
    const journaled = await this.commitBatch({ jobs, places, cancels, firstSeq: this.seq, now }, prior);
    if (!journaled) return;
    if (prior) this.settled(prior);
    answerJournalRefusals(jobs, places, journaled);
    if (journaled.accepted.length === 0) return;
    // Everything before this batch is settled now: the engine's state can be a snapshot.
    if (this.seq - this.lastSnapshotSeq >= (this.deps.snapshotEvery ?? RUNNER_LIMITS.snapshotEvery)) {
      await this.snapshotNow().catch((error) =>
        this.deps.log.warn({ err: error }, 'spot snapshot not written'),
      );
    }
    // Journaled: these commands are the book's now, whatever happens to their settlement.
    const settlement = this.match(journaled, now);
    this.seq = settlement.lastSeq;
    // Open orders follow at once (the next batch is screened against them); its answers and public
    // prints wait for its commit.
    this.pending = { jobs, journaled, settlement, outcome: this.follow(settlement, { prints: false }), t0 };
  }

  /** A pending batch's settlement committed: its requests are answered and its outcome published. */
  private settled(p: Pending): void {
    this.counters.batches += 1;
    this.counters.commands += p.journaled.accepted.length;
    this.counters.ms += performance.now() - p.t0;
    this.addPrints(p.outcome.trades);
    answerSettled(p.journaled, p.outcome);
    this.deps.hooks.published(this, p.outcome);
  }

  /**
   * This process lost the book (SPOT_LEASES) with a batch journaled and not settled: the new owner
   * settles it (its recovery); its requests are told the book moved, and memory is rebuilt when this
   * process owns the book again.
   */
  private dropPending(moved: Refusal): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    this.broken = true;
    for (const job of p.jobs) job.reject(moved);
  }

  /**
   * The book's transaction: the prior batch's settlement and this batch's journal part
   * (`journal.ts`), taking the ledger's account locks in ONE round (one statement, in id order: the
   * settlement's entries and the freezes go in one ledger call), so that transactions of different
   * books can never wait on each other in a cycle — they share customers, and the market maker is on
   * every book. Both lists of accounts are known before it begins: the prior batch matched after its
   * own journal committed. (Session 15's journal, match and settlement of ONE batch in one transaction
   * deadlocked: its second lock round, the makers', known only after matching, waited for accounts
   * another book's first round held while that book waited for this one's; bench/README.md,
   * "Session 18".) A journal race (a twin's claim or client_oid) or a deadlock runs it again, the
   * settlement as computed (nothing in memory changed for this batch yet). A crash after it leaves this
   * batch journaled and not settled, which `recover()` settles exactly once (the path of a restart).
   * If it cannot commit and a prior batch was in it, the book is rebuilt that way (settling the prior
   * batch) and the prior batch's jobs are answered with the error (their rtokens then say
   * REQUEST_ALREADY_APPLIED); this batch's jobs are answered with the error (nothing of them was
   * written). Null when nothing committed (every job has been answered).
   */
  private async commitBatch(batch: JournalBatch, prior: Pending | null): Promise<JournalResult | null> {
    const { db, ledger } = this.deps;
    const deps = { db, ledger, market: this.market, book: this.book, open: this.open };
    const journaled = newJournalResult();
    for (let attempt = 0; ; attempt++) {
      try {
        await inTransaction(
          db,
          async (tx) => {
            await this.deps.fence?.(tx);
            await journalAttempt(
              tx,
              deps,
              { ...batch, firstSeq: this.seq },
              journaled,
              prior?.settlement ?? null,
            );
          },
          1,
        );
        return journaled;
      } catch (error) {
        const again = isJournalRace(error)
          ? attempt < batch.jobs.length + 5
          : isRetryable(error) && attempt < BATCH_RETRIES;
        if (again) continue;
        for (const job of batch.jobs) job.reject(error);
        if (prior) await this.settlementFailed(error, prior.jobs);
        return null;
      }
    }
  }

  /**
   * A settlement that did not commit: the book is rebuilt (settling what was journaled) and the
   * settled batch's requests get the error.
   */
  private async settlementFailed(error: unknown, jobs: Job[]): Promise<void> {
    if (!(await this.rebuildAfter(error, jobs))) return;
    // A lost lease is no failure: the new owner settles what this batch journaled.
    const moved = error instanceof Refusal && error.reason === 'SPOT_BOOK_MOVED';
    if (!moved)
      this.deps.log.error(
        { err: error, symbol: this.market.symbol, book: this.book },
        'spot settlement failed; the book was rebuilt and settled what the batch journaled',
      );
    for (const job of jobs) job.reject(error);
  }

  /** Matches a batch's accepted commands in memory and computes their settlement (nothing written). */
  private match({ accepted, released }: JournalResult, now: Date): Settlement {
    // What the journal part released of cancelled orders is no longer theirs to release.
    for (const id of released) {
      const o = this.open.get(id);
      if (o) this.open.set(id, { ...o, frozen: 0n });
    }
    for (const a of accepted) if (a.order) this.open.set(a.order.id, a.order);
    const commands = accepted.map((a) => a.command);
    const events = this.applyCommands(commands);
    const lastSeq = commands.at(-1)!.seq;
    return settlementOf(
      { market: this.market, book: this.book, open: this.open, seq: lastSeq },
      commands,
      events,
      now,
    );
  }

  /**
   * After a batch that matched in memory did not commit: the engine and the open orders are rebuilt
   * from the database. False (every job answered) when even that fails: the book stays broken and the
   * next batch tries again.
   */
  private async rebuildAfter(error: unknown, jobs: Job[]): Promise<boolean> {
    try {
      await this.recover();
      return true;
    } catch (again) {
      this.broken = true;
      // A lost lease (SPOT_LEASES) is no failure: the new owner has the book.
      const moved = again instanceof Refusal && again.reason === 'SPOT_BOOK_MOVED';
      this.deps.log[moved ? 'warn' : 'error'](
        { err: again, cause: error, symbol: this.market.symbol, book: this.book },
        moved
          ? 'spot book fenced while rebuilding: another process owns it now'
          : 'spot book could not be rebuilt after a failed batch; it will try again',
      );
      for (const job of jobs) job.reject(error);
      return false;
    }
  }

  /**
   * Refuses, before anything is written, what cannot go in: a place the gate refuses (kill switch,
   * halt) or a post-only order that would take; a cancel of an order not open in this book for its customer.
   */
  private screen(jobs: Job[]): { places: PlaceJob[]; cancels: CancelJob[] } {
    const places: PlaceJob[] = [];
    const cancels: CancelJob[] = [];
    const cancelling = new Set<string>();
    for (const job of jobs) {
      if (job.kind === 'place') {
        const refusal = this.deps.hooks.gate(this.market.symbol);
        if (refusal) {
          job.reject(refusal);
          continue;
        }
        const o = job.input.order;
        if (o.postOnly && o.priceTicks !== null && job.group === undefined) {
          const best = o.side === 'buy' ? this.engine.bestAsk() : this.engine.bestBid();
          const p = Number(o.priceTicks);
          if (best !== undefined && (o.side === 'buy' ? p >= best : p <= best)) {
            job.reject(new Refusal('ORDER_WOULD_TAKE'));
            continue;
          }
        }
        places.push(job);
      } else {
        const resting = this.engine.order(job.orderId);
        const state = this.open.get(job.orderId);
        if (!resting || !state || state.customerId !== job.customerId) {
          job.reject(new Refusal('ORDER_NOT_OPEN', { status: state?.status ?? 'filled' }));
          continue;
        }
        if (cancelling.has(job.orderId)) {
          // A second cancel of the same order in this batch: the first one cancels it.
          job.reject(new Refusal('ORDER_NOT_OPEN', { status: 'cancelled' }));
          continue;
        }
        cancelling.add(job.orderId);
        cancels.push(job);
      }
    }
    return { places, cancels };
  }

  /**
   * Writes the engine's state at the current (settled) seq and drops older snapshots: recovery
   * restores it and replays only the journal after it. Called between batches only, with no batch
   * pending.
   */
  async snapshotNow(): Promise<number> {
    const seq = this.seq;
    const snapshot = this.engine.snapshot();
    await inTransaction(this.deps.db, async (tx) => {
      await this.deps.fence?.(tx);
      await replaceSnapshot(tx, {
        symbol: this.market.symbol,
        book: this.book,
        seq,
        snapshot,
        now: this.deps.clock.now(),
      });
    });
    this.lastSnapshotSeq = seq;
    return seq;
  }

  private applyCommands(commands: JournalCommand[]): EngineEvent[] {
    this.events = [];
    for (const c of commands) {
      if (c.type === 'config') this.applyConfig(c.bandBps, c.minQtyLots);
      else {
        const { cancelReason: _r, ...command } = c as Command & { cancelReason?: string };
        this.engine.apply(command as Command);
      }
    }
    const out = this.events;
    this.events = [];
    return out;
  }

  /** Recovery: settles `commands` (their `events`) in one transaction (`settle.ts`), then memory follows. */
  private async settle(commands: JournalCommand[], events: EngineEvent[], now: Date): Promise<BatchOutcome> {
    const b = { market: this.market, book: this.book, open: this.open, seq: this.seq };
    const settlement = settlementOf(b, commands, events, now);
    await inTransaction(this.deps.db, async (tx) => {
      await this.deps.fence?.(tx);
      await writeSettlementIn(tx, this.deps.ledger, b, settlement);
    });
    return this.follow(settlement);
  }

  /**
   * Open orders, prints and the changed depth levels follow a settlement: after it committed
   * (recovery), or at once when a batch matched (`prints: false`: its prints wait for its commit).
   */
  private follow(s: Settlement, { prints = true } = {}): BatchOutcome {
    const orders = [...s.touched.values()];
    this.applySettled(orders, prints ? s.trades : []);
    const customers = new Set(orders.map((o) => o.customerId));
    // Only the levels the batch touched are read back from the engine (not the whole book).
    const { depth } = s;
    for (const p of depth.bids.keys()) depth.bids.set(p, this.engine.levelLots('buy', p));
    for (const p of depth.asks.keys()) depth.asks.set(p, this.engine.levelLots('sell', p));
    return { orders, trades: s.trades, depth, customers, engineSeq: s.lastSeq };
  }

  /** Open orders and public prints follow a settled batch's orders and trades. */
  private applySettled(orders: readonly OrderState[], trades: BatchOutcome['trades']): void {
    for (const o of orders) {
      if (o.status === 'filled' || o.status === 'cancelled') this.open.delete(o.id);
      else this.open.set(o.id, o);
    }
    this.addPrints(trades);
  }

  /** The public prints, newest first, of trades whose settlement committed. */
  private addPrints(trades: BatchOutcome['trades']): void {
    for (const t of trades) {
      this.prints.unshift({
        id: t.id,
        priceTicks: t.priceTicks,
        qtyLots: t.qtyLots,
        side: t.takerSide,
        time: t.time,
      });
    }
    if (this.prints.length > PRINTS_KEPT) this.prints.length = PRINTS_KEPT;
  }

  /**
   * Rebuilds the book from the journal and settles, exactly once, what was journaled but not
   * settled (a crash between journal and settlement). Also the start-up path.
   */
  async recover(): Promise<{ replayed: number; settled: number }> {
    const current = { bandBps: this.market.bandBps, minQtyLots: this.market.minQtyLots };
    const { commands, after, fromSeq } = await this.loadSettled(this.deps.db);
    if (after.length > 0) {
      const events = this.applyCommands(after);
      this.seq = after.at(-1)!.seq;
      await this.settle(after, events, this.deps.clock.now());
    }
    for (const [id, o] of this.open)
      if (o.status === 'filled' || o.status === 'cancelled') this.open.delete(id);
    this.seq = commands.length > 0 ? commands.at(-1)!.seq : fromSeq;
    await this.reloadPrints();
    this.broken = false;
    // A new book starts its journal with its configuration, so a replay never depends on today's settings.
    if (this.seq === 0) await this.writeConfig(current.bandBps, current.minQtyLots);
    else if (current.bandBps !== this.market.bandBps || current.minQtyLots !== this.market.minQtyLots) {
      await this.writeConfig(current.bandBps, current.minQtyLots);
    }
    return { replayed: commands.length, settled: after.length };
  }

  /**
   * The book as settled (snapshot + journal up to the settled cursor, its open orders) — writing
   * nothing; returns the journal read and the commands past the cursor (not applied).
   */
  private async loadSettled(q: Db | Tx) {
    const { symbol } = this.market;
    const settledSeq = await settledSeqOf(q, symbol, this.book);
    const snap = await latestSnapshot(q, symbol, this.book, settledSeq);
    const fromSeq = snap ? Number(snap.seq) : 0;
    const rows = await journalAfter(q, symbol, this.book, fromSeq);
    this.restoreEngine(snap ? (snap.snapshot as BookSnapshot) : null);
    this.lastSnapshotSeq = fromSeq;
    this.open.clear();
    const commands = rows.map((r) => r.command as JournalCommand);
    const after = commands.filter((c) => c.seq > settledSeq);
    this.applyCommands(commands.filter((c) => c.seq <= settledSeq));
    this.seq = settledSeq;
    for (const row of await orderRowsToRecover(q, symbol, this.book, settledSeq))
      this.open.set(row.id, orderFromRow(row));
    return { commands, after, fromSeq, settledSeq };
  }

  /**
   * SPOT_LEASES, a process that does not own the book: rebuilds it as settled (one consistent read),
   * writing nothing — what the owner journaled but has not settled stays out.
   */
  async resync(): Promise<void> {
    const { settledSeq } = await this.deps.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute((tx) => this.loadSettled(tx));
    for (const [id, o] of this.open)
      if (o.status === 'filled' || o.status === 'cancelled' || o.seq > BigInt(settledSeq))
        this.open.delete(id);
    await this.reloadPrints();
    this.broken = false;
  }

  /**
   * SPOT_LEASES, a process that does not own the book: applies a batch the owner settled — its
   * journal commands to the engine (the owner settled their events) and the outcome's orders and prints.
   */
  followBatch(commands: JournalCommand[], outcome: BatchOutcome): void {
    this.applyCommands(commands);
    if (commands.length > 0) this.seq = commands.at(-1)!.seq;
    this.applySettled(outcome.orders, outcome.trades);
  }

  /** The engine from a snapshot (and the band and minimum it was taken with), or a new empty one. */
  private restoreEngine(snapshot: BookSnapshot | null): void {
    if (!snapshot) {
      this.engine = new MatchingBook(bookConfig(this.market, this.book), this.sink);
      return;
    }
    this.engine = MatchingBook.restore(snapshot, this.sink);
    const band = snapshot.config.band as { bps: number };
    (this.market as { bandBps: number }).bandBps = band.bps;
    (this.market as { minQtyLots: number }).minQtyLots = snapshot.config.minQtyLots;
  }

  /** The public prints come back from `spot_trade`. */
  private async reloadPrints(): Promise<void> {
    const trades = await latestTradeRows(this.deps.db, this.market.symbol, this.book, PRINTS_RELOADED);
    this.prints.length = 0;
    for (const t of trades) {
      this.prints.push({
        id: t.id,
        priceTicks: BigInt(t.price_ticks),
        qtyLots: BigInt(t.qty_lots),
        side: t.taker_side,
        time: t.created_at.getTime(),
      });
    }
  }
}

/**
 * The trades an order answered by `place` made on arrival (as the taker), keyed by the answer itself:
 * its fills without a query (`queries.ts` `arrivalFills`; an order answered by another process, or
 * one read back, has none here and is looked up).
 */
export const arrivalTrades = new WeakMap<OrderState, SettledTrade[]>();

/** Answers each accepted request with its order as settled (a cancel that lost to a fill is refused). */
function answerSettled(r: JournalResult, outcome: BatchOutcome): void {
  const byId = new Map(outcome.orders.map((o) => [o.id, o]));
  const byTaker = new Map<string, SettledTrade[]>();
  for (const t of outcome.trades) {
    const list = byTaker.get(t.taker.id);
    if (list) list.push(t);
    else byTaker.set(t.taker.id, [t]);
  }
  for (const a of r.accepted) {
    const id = a.job.kind === 'place' ? a.job.input.order.id : a.job.orderId;
    const state = byId.get(id);
    if (!state) a.job.reject(new Error(`order ${id} missing from its batch`));
    else if (a.job.kind === 'cancel' && state.status !== 'cancelled') {
      // The order filled earlier in the same batch: the cancel lost the race.
      a.job.reject(new Refusal('ORDER_NOT_OPEN', { status: state.status }));
    } else {
      const trades = a.job.kind === 'place' ? byTaker.get(id) : undefined;
      if (trades) arrivalTrades.set(state, trades);
      a.job.resolve(state);
    }
  }
}
