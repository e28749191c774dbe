import {
  type BookConfig,
  type BookSnapshot,
  type Command,
  type EngineEvent,
  MatchingBook,
} from '@bourse/matching';
import type { SpotCancelReason, SpotOrderStatus } from '@bourse/protocol';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import {
  ClaimLostError,
  currentEffectClaim,
  type Db,
  detached,
  type EffectClaim,
  inTransaction,
  type Tx,
} from '../../db/database.ts';
import { Refusal } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { EntryInput, Ledger } from '../ledger/index.ts';
import { baseUnits, feeOf, type MarketMath, notionalUnits, parseRate } from './amounts.ts';

/**
 * One book (a market's real or demo side): a serial queue in front of one `MatchingBook`.
 *
 * A batch of queued commands goes through three steps, strictly one batch at a time:
 *  1. **journal** (one transaction): new orders' rows, their freezes (one `postBatch`: a refused
 *     freeze refuses only its order), and every accepted command into `spot_journal` with the next
 *     seq. Nothing is acknowledged before this commits.
 *  2. **match**: the commands go through the engine in seq order; events are copied.
 *  3. **settle** (one transaction): trades, order rows, one `postBatch` of trade entries (maker
 *     and taker fees into `fee_income`) and releases of funds no longer needed, and the cursor
 *     `spot_cursor.settled_seq`. Idempotency keys per trade and per release make a repeat harmless.
 * A crash between 1 and 3 is repaired by `recover()`: replay the journal, settle what is past the cursor.
 */
export type Book = 'real' | 'demo';

export type OrderState = {
  id: string;
  customerId: string;
  symbol: string;
  book: Book;
  clientOid: string | null;
  side: 'buy' | 'sell';
  type: 'limit' | 'market';
  tif: 'GTC' | 'IOC' | 'FOK';
  postOnly: boolean;
  priceTicks: bigint | null;
  freezePriceTicks: bigint | null;
  qtyLots: bigint;
  filledLots: bigint;
  filledAmount: bigint;
  fee: bigint;
  frozen: bigint;
  frozenCurrency: string;
  makerRate: string;
  takerRate: string;
  status: SpotOrderStatus;
  cancelReason: SpotCancelReason | null;
  seq: bigint;
  createdAt: Date;
  updatedAt: Date;
};

export type MarketRef = {
  symbol: string;
  base: string;
  quote: string;
  math: MarketMath;
  bandBps: number;
  minQtyLots: number;
};

export type PlaceInput = {
  order: OrderState;
  referencePriceTicks?: number;
};

export type Print = { id: string; priceTicks: bigint; qtyLots: bigint; side: 'buy' | 'sell'; time: number };

type Job =
  | {
      kind: 'place';
      input: PlaceInput;
      claim: EffectClaim | null;
      resolve: (o: OrderState) => void;
      reject: (e: unknown) => void;
    }
  | {
      kind: 'cancel';
      claim: EffectClaim | null;
      orderId: string;
      customerId: string;
      reason: SpotCancelReason;
      resolve: (o: OrderState) => void;
      reject: (e: unknown) => void;
    };

type JournalCommand =
  | (Command & { cancelReason?: SpotCancelReason })
  | { type: 'config'; seq: number; timestampMs: number; bandBps: number; minQtyLots: number };

export type BatchOutcome = {
  orders: OrderState[];
  trades: Array<{
    id: string;
    engineTradeId: number;
    priceTicks: bigint;
    qtyLots: bigint;
    takerSide: 'buy' | 'sell';
    time: number;
    maker: OrderState;
    taker: OrderState;
    makerFee: bigint;
    takerFee: bigint;
    amount: bigint;
  }>;
  /** Depth levels changed: side → price → new total lots. */
  depth: { bids: Map<number, number>; asks: Map<number, number> };
  customers: Set<string>;
  engineSeq: number;
};

export type RunnerDeps = {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  log: Logger;
  hooks: RunnerHooks;
  snapshotEvery?: number;
};

export type RunnerHooks = {
  /** Checked for each place command right before it is journaled: a refusal, or null. */
  gate(symbol: string): Refusal | null;
  published(book: BookRunner, outcome: BatchOutcome): void;
};

const CANCEL_REASON: Record<string, SpotCancelReason> = {
  USER: 'user',
  IOC_REMAINDER: 'ioc_remainder',
  FOK_UNFILLABLE: 'fok_unfillable',
  NO_LIQUIDITY: 'no_liquidity',
  PRICE_BAND: 'price_band',
  SELF_TRADE: 'self_trade',
};

class ClientOidRace extends Error {}
/** A request's idempotency claim was taken by a twin: drop that job and journal the rest. */
class ClaimRace extends Error {}

export const RUNNER_LIMITS = { batchMax: 500, ledgerBatchMax: 1000, snapshotEvery: 5000 } as const;

export function bookConfig(market: MarketRef, book: Book): BookConfig {
  return {
    market: `${market.symbol}#${book}`,
    minQtyLots: market.minQtyLots,
    maxQtyLots: 9_000_000_000,
    maxPriceTicks: 2 ** 39,
    maxOpenOrders: 1_000_000,
    band: { bps: market.bandBps },
    stpDefault: 'cancel-taker',
  };
}

/** What an open order still needs frozen (quote for a buy incl. the taker fee, base for a sell). */
export function needOf(math: MarketMath, o: OrderState): bigint {
  if (o.status === 'filled' || o.status === 'cancelled') return 0n;
  const open = o.qtyLots - o.filledLots;
  if (o.side === 'sell') return baseUnits(math, open);
  const price = o.priceTicks ?? o.freezePriceTicks;
  if (price === null) throw new Error(`buy order ${o.id} without a freeze price`);
  const n = notionalUnits(math, price, open);
  return n + feeOf(n, parseRate(o.takerRate));
}

export function orderRow(o: OrderState) {
  return {
    id: o.id,
    customer_id: o.customerId,
    book: o.book,
    symbol: o.symbol,
    client_oid: o.clientOid,
    side: o.side,
    type: o.type,
    tif: o.tif,
    post_only: o.postOnly,
    price_ticks: o.priceTicks === null ? null : o.priceTicks.toString(),
    freeze_price_ticks: o.freezePriceTicks === null ? null : o.freezePriceTicks.toString(),
    qty_lots: o.qtyLots.toString(),
    filled_lots: o.filledLots.toString(),
    filled_amount_units: o.filledAmount.toString(),
    fee_units: o.fee.toString(),
    frozen_units: o.frozen.toString(),
    frozen_currency: o.frozenCurrency,
    fee_rate_maker: o.makerRate,
    fee_rate_taker: o.takerRate,
    status: o.status,
    cancel_reason: o.cancelReason,
    seq: o.seq.toString(),
    created_at: o.createdAt,
    updated_at: o.updatedAt,
  };
}

export function orderFromRow(r: ReturnType<typeof orderRow> | Record<string, unknown>): OrderState {
  const row = r as ReturnType<typeof orderRow>;
  return {
    id: row.id,
    customerId: row.customer_id,
    symbol: row.symbol,
    book: row.book,
    clientOid: row.client_oid,
    side: row.side,
    type: row.type,
    tif: row.tif,
    postOnly: row.post_only,
    priceTicks: row.price_ticks === null ? null : BigInt(row.price_ticks),
    freezePriceTicks: row.freeze_price_ticks === null ? null : BigInt(row.freeze_price_ticks),
    qtyLots: BigInt(row.qty_lots),
    filledLots: BigInt(row.filled_lots),
    filledAmount: BigInt(row.filled_amount_units),
    fee: BigInt(row.fee_units),
    frozen: BigInt(row.frozen_units),
    frozenCurrency: row.frozen_currency,
    makerRate: String(row.fee_rate_maker),
    takerRate: String(row.fee_rate_taker),
    status: row.status,
    cancelReason: row.cancel_reason as SpotCancelReason | null,
    seq: BigInt(row.seq),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

export class BookRunner {
  readonly market: MarketRef;
  readonly book: Book;
  engine: MatchingBook;
  /** Open orders of this book (the engine holds ids; this holds the money side). */
  readonly open = new Map<string, OrderState>();
  /** Latest public prints, newest first. */
  readonly prints: Print[] = [];
  private seq = 0;
  private queue: Job[] = [];
  private running = false;
  private broken = false;
  private readonly deps: RunnerDeps;
  private events: EngineEvent[] = [];
  private idle: Promise<void> = Promise.resolve();
  private idleResolve: (() => void) | null = null;

  constructor(market: MarketRef, book: Book, deps: RunnerDeps) {
    this.market = market;
    this.book = book;
    this.deps = deps;
    this.engine = new MatchingBook(bookConfig(market, book), (e) =>
      this.events.push({ ...e } as EngineEvent),
    );
  }

  get engineSeq(): number {
    return this.seq;
  }

  hash(): string {
    return this.engine.hash();
  }

  place(input: PlaceInput): Promise<OrderState> {
    return new Promise((resolve, reject) => {
      this.queue.push({ kind: 'place', input, claim: currentEffectClaim(), resolve, reject });
      this.kick();
    });
  }

  cancel(orderId: string, customerId: string, reason: SpotCancelReason): Promise<OrderState> {
    return new Promise((resolve, reject) => {
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
      while (this.queue.length > 0) {
        // A post-only order is checked against the book as it is: it goes in a batch of its own.
        let n = 0;
        while (n < this.queue.length && n < RUNNER_LIMITS.batchMax) {
          const job = this.queue[n]!;
          if (job.kind === 'place' && job.input.order.postOnly) {
            if (n === 0) n = 1;
            break;
          }
          n += 1;
        }
        const jobs = this.queue.splice(0, n);
        if (this.broken) {
          try {
            await this.recover();
          } catch (error) {
            for (const job of jobs) job.reject(error);
            continue;
          }
        }
        await this.runBatch(jobs);
      }
    } finally {
      this.running = false;
      this.idleResolve?.();
    }
  }

  /** Records a config change (band, minimum) in the journal and applies it to the engine. */
  async reconfigure(bandBps: number, minQtyLots: number): Promise<void> {
    while (this.running) await this.idle;
    this.running = true;
    try {
      await this.writeConfig(bandBps, minQtyLots);
    } finally {
      this.running = false;
      if (this.queue.length > 0) this.kick();
    }
  }

  private async writeConfig(bandBps: number, minQtyLots: number): Promise<void> {
    const seq = this.seq + 1;
    const command: JournalCommand = {
      type: 'config',
      seq,
      timestampMs: this.deps.clock.now().getTime(),
      bandBps,
      minQtyLots,
    };
    await this.deps.db
      .insertInto('spot_journal')
      .values({
        symbol: this.market.symbol,
        book: this.book,
        seq: String(seq),
        command: JSON.stringify(command),
        created_at: this.deps.clock.now(),
      })
      .execute();
    this.seq = seq;
    this.applyConfig(bandBps, minQtyLots);
    await this.deps.db
      .insertInto('spot_cursor')
      .values({ symbol: this.market.symbol, book: this.book, settled_seq: String(seq) })
      .onConflict((oc) => oc.columns(['symbol', 'book']).doUpdateSet({ settled_seq: String(seq) }))
      .execute();
  }

  private applyConfig(bandBps: number, minQtyLots: number): void {
    (this.market as { bandBps: number }).bandBps = bandBps;
    (this.market as { minQtyLots: number }).minQtyLots = minQtyLots;
    const snap = this.engine.snapshot();
    this.engine = MatchingBook.restore({ ...snap, config: bookConfig(this.market, this.book) }, (e) =>
      this.events.push({ ...e } as EngineEvent),
    );
  }

  private async runBatch(jobs: Job[]): Promise<void> {
    const { db, ledger, clock } = this.deps;
    const now = clock.now();
    const places: Array<Job & { kind: 'place' }> = [];
    const cancels: Array<Job & { kind: 'cancel' }> = [];
    for (const job of jobs) {
      if (job.kind === 'place') {
        const refusal = this.deps.hooks.gate(this.market.symbol);
        if (refusal) {
          job.reject(refusal);
          continue;
        }
        const o = job.input.order;
        if (o.postOnly && o.priceTicks !== null) {
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
        cancels.push(job);
      }
    }
    if (places.length === 0 && cancels.length === 0) return;

    // 1. journal
    const t0 = performance.now();
    const firstSeq = this.seq;
    const accepted: Array<{ job: Job; command: JournalCommand; order?: OrderState }> = [];
    const duplicate = new Set<Job>();
    const lost = new Set<Job>();
    const refusals = new Map<Job, Refusal>();
    for (let attempt = 0; ; attempt++) {
      try {
        await inTransaction(db, async (tx) => {
          accepted.length = 0;
          refusals.clear();
          let seq = firstSeq;
          let candidates = places.filter((j) => !duplicate.has(j) && !lost.has(j));
          // A client_oid already used is answered by the service with the existing order.
          const oids = candidates.filter((j) => j.input.order.clientOid !== null);
          if (oids.length > 0) {
            const taken = await tx
              .selectFrom('spot_order')
              .select(['customer_id', 'client_oid'])
              .where(
                'client_oid',
                'in',
                oids.map((j) => j.input.order.clientOid as string),
              )
              .execute();
            const keys = new Set(taken.map((r) => `${r.customer_id}|${r.client_oid}`));
            const inBatch = new Set<string>();
            for (const j of oids) {
              const key = `${j.input.order.customerId}|${j.input.order.clientOid}`;
              if (keys.has(key) || inBatch.has(key)) duplicate.add(j);
              inBatch.add(key);
            }
            candidates = candidates.filter((j) => !duplicate.has(j));
          }
          const freezes: EntryInput[] = candidates.map((j) => ({
            reason: 'spot.freeze',
            reference: { type: 'spot_order', id: j.input.order.id },
            idempotencyKey: `spot:freeze:${j.input.order.id}`,
            postings: [
              {
                account: { book: this.book, customerId: j.input.order.customerId, accountType: 'spot' },
                currency: j.input.order.frozenCurrency,
                bucket: 'available',
                amountUnits: -j.input.order.frozen,
              },
              {
                account: { book: this.book, customerId: j.input.order.customerId, accountType: 'spot' },
                currency: j.input.order.frozenCurrency,
                bucket: 'frozen',
                amountUnits: j.input.order.frozen,
              },
            ],
          }));
          const outcomes = freezes.length > 0 ? await ledger.postBatch(tx, freezes) : [];
          const placed = new Set<Job>();
          candidates.forEach((j, i) => {
            const outcome = outcomes[i];
            if (outcome?.ok) placed.add(j);
            else if (outcome) refusals.set(j, new Refusal(outcome.refusal.reason, outcome.refusal.params));
          });
          const rows: Array<{ symbol: string; book: Book; seq: string; command: string; created_at: Date }> =
            [];
          for (const job of jobs) {
            if (job.kind === 'place') {
              if (!placed.has(job)) continue;
              const o = job.input.order;
              seq += 1;
              const command: JournalCommand = {
                type: 'place',
                seq,
                timestampMs: now.getTime(),
                orderId: o.id,
                userId: o.customerId,
                side: o.side,
                kind: o.type,
                ...(o.type === 'limit' ? { priceTicks: Number(o.priceTicks) } : {}),
                qtyLots: Number(o.qtyLots),
                tif: o.tif,
                ...(o.postOnly ? { postOnly: true } : {}),
                ...(job.input.referencePriceTicks !== undefined
                  ? { referencePriceTicks: job.input.referencePriceTicks }
                  : {}),
              };
              accepted.push({ job, command, order: { ...o, seq: BigInt(seq) } });
              rows.push({
                symbol: this.market.symbol,
                book: this.book,
                seq: String(seq),
                command: JSON.stringify(command),
                created_at: now,
              });
            } else if (cancels.includes(job as Job & { kind: 'cancel' }) && !lost.has(job)) {
              seq += 1;
              const command: JournalCommand = {
                type: 'cancel',
                seq,
                timestampMs: now.getTime(),
                orderId: job.orderId,
                userId: job.customerId,
                cancelReason: job.reason,
              };
              accepted.push({ job, command });
              rows.push({
                symbol: this.market.symbol,
                book: this.book,
                seq: String(seq),
                command: JSON.stringify(command),
                created_at: now,
              });
            }
          }
          const orders = accepted.flatMap((a) => (a.order ? [a.order] : []));
          if (orders.length > 0) {
            const inserted = await tx
              .insertInto('spot_order')
              .values(orders.map(orderRow))
              .onConflict((oc) => oc.columns(['customer_id', 'client_oid']).doNothing())
              .returning('id')
              .execute();
            if (inserted.length !== orders.length) {
              // A twin with the same client_oid committed in another book meanwhile: drop it and redo.
              const ids = new Set(inserted.map((r) => r.id));
              for (const a of accepted) if (a.order && !ids.has(a.order.id)) duplicate.add(a.job);
              throw new ClientOidRace();
            }
          }
          // Each accepted request's idempotency claim commits with its journal entry (exactly once).
          for (const a of accepted) {
            if (a.job.claim && !(await a.job.claim.commit(tx))) {
              lost.add(a.job);
              throw new ClaimRace();
            }
          }
          if (rows.length > 0) await tx.insertInto('spot_journal').values(rows).execute();
        });
        break;
      } catch (error) {
        if ((error instanceof ClientOidRace || error instanceof ClaimRace) && attempt < jobs.length + 5)
          continue;
        for (const job of jobs) job.reject(error);
        return;
      }
    }
    for (const job of jobs) if (lost.has(job)) job.reject(new ClaimLostError());
    for (const job of places) {
      if (lost.has(job)) continue;
      const refusal = refusals.get(job);
      if (refusal) job.reject(refusal);
      else if (duplicate.has(job))
        job.reject(new Refusal('CLIENT_OID_REUSED', { client_oid: job.input.order.clientOid ?? '' }));
    }
    if (accepted.length === 0) return;
    this.seq = (accepted.at(-1)!.command as { seq: number }).seq;

    const t1 = performance.now();
    // 2. match
    for (const a of accepted) if (a.order) this.open.set(a.order.id, a.order);
    const commands = accepted.map((a) => a.command);
    const events = this.applyCommands(commands);

    // 3. settle
    let outcome: BatchOutcome;
    try {
      outcome = await this.settle(commands, events, now);
    } catch (error) {
      this.deps.log.error(
        { err: error, symbol: this.market.symbol, book: this.book },
        'spot settlement failed; the book will be rebuilt from the journal',
      );
      this.broken = true;
      for (const a of accepted) a.job.reject(error);
      return;
    }
    this.deps.log.debug(
      {
        symbol: this.market.symbol,
        book: this.book,
        batch: jobs.length,
        journalMs: t1 - t0,
        settleMs: performance.now() - t1,
      },
      'spot batch',
    );
    for (const a of accepted) {
      const id = a.job.kind === 'place' ? a.job.input.order.id : a.job.orderId;
      const state = outcome.orders.find((o) => o.id === id);
      if (!state) a.job.reject(new Error(`order ${id} missing from its batch`));
      else if (a.job.kind === 'cancel' && state.status !== 'cancelled') {
        // The order filled earlier in the same batch: the cancel lost the race.
        a.job.reject(new Refusal('ORDER_NOT_OPEN', { status: state.status }));
      } else a.job.resolve(state);
    }
    this.deps.hooks.published(this, outcome);
    if (this.seq - this.lastSnapshotSeq >= (this.deps.snapshotEvery ?? RUNNER_LIMITS.snapshotEvery)) {
      await this.snapshotNow().catch((error) =>
        this.deps.log.warn({ err: error }, 'spot snapshot not written'),
      );
    }
  }

  private lastSnapshotSeq = 0;

  /**
   * Writes the engine's state at the current (settled) seq and drops older snapshots: recovery
   * restores it and replays only the journal after it. Called between batches only.
   */
  async snapshotNow(): Promise<number> {
    const seq = this.seq;
    const snapshot = this.engine.snapshot();
    await inTransaction(this.deps.db, async (tx) => {
      await tx
        .insertInto('spot_snapshot')
        .values({
          symbol: this.market.symbol,
          book: this.book,
          seq: String(seq),
          snapshot: JSON.stringify(snapshot),
          created_at: this.deps.clock.now(),
        })
        .onConflict((oc) => oc.columns(['symbol', 'book', 'seq']).doNothing())
        .execute();
      await tx
        .deleteFrom('spot_snapshot')
        .where('symbol', '=', this.market.symbol)
        .where('book', '=', this.book)
        .where('seq', '<', String(seq))
        .execute();
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

  /** Writes the results of `commands` (their `events`): orders, trades, ledger, cursor — one transaction. */
  private async settle(commands: JournalCommand[], events: EngineEvent[], now: Date): Promise<BatchOutcome> {
    const math = this.market.math;
    const touched = new Map<string, OrderState>();
    const cancelReasonOf = new Map<number, SpotCancelReason>();
    for (const c of commands)
      if (c.type === 'cancel' && c.cancelReason) cancelReasonOf.set(c.seq, c.cancelReason);
    const get = (id: string): OrderState => {
      const o = touched.get(id) ?? this.open.get(id);
      if (!o) throw new Error(`order ${id} is not known to book ${this.market.symbol}/${this.book}`);
      const copy = touched.get(id) ?? { ...o };
      touched.set(id, copy);
      return copy;
    };
    const trades: BatchOutcome['trades'] = [];
    const entries: EntryInput[] = [];
    const depth = { bids: new Map<number, number>(), asks: new Map<number, number>() };
    const levelTouched = (side: 'buy' | 'sell', price: number) =>
      (side === 'buy' ? depth.bids : depth.asks).set(price, 0);
    const spot = (customerId: string) => ({ book: this.book, customerId, accountType: 'spot' as const });
    for (const c of commands) if (c.type === 'place' || c.type === 'cancel') get(c.orderId);
    for (const e of events) {
      switch (e.type) {
        case 'trade': {
          const maker = get(e.makerOrderId);
          const taker = get(e.takerOrderId);
          const qty = BigInt(e.qtyLots);
          const price = BigInt(e.priceTicks);
          const amount = notionalUnits(math, price, qty);
          const makerFee = feeOf(amount, parseRate(maker.makerRate));
          const takerFee = feeOf(amount, parseRate(taker.takerRate));
          const buyer = e.takerSide === 'buy' ? taker : maker;
          const seller = e.takerSide === 'buy' ? maker : taker;
          const buyerFee = buyer === taker ? takerFee : makerFee;
          const sellerFee = seller === taker ? takerFee : makerFee;
          const base = baseUnits(math, qty);
          const postings: EntryInput['postings'][number][] = [
            {
              account: spot(buyer.customerId),
              currency: this.market.quote,
              bucket: 'frozen',
              amountUnits: -(amount + buyerFee),
            },
            {
              account: spot(buyer.customerId),
              currency: this.market.base,
              bucket: 'available',
              amountUnits: base,
            },
            {
              account: spot(seller.customerId),
              currency: this.market.base,
              bucket: 'frozen',
              amountUnits: -base,
            },
          ];
          if (amount - sellerFee > 0n)
            postings.push({
              account: spot(seller.customerId),
              currency: this.market.quote,
              bucket: 'available',
              amountUnits: amount - sellerFee,
            });
          if (buyerFee + sellerFee > 0n)
            postings.push({
              account: { book: this.book, platform: 'fee_income' },
              currency: this.market.quote,
              amountUnits: buyerFee + sellerFee,
            });
          const id = newId('trd', e.timestampMs);
          entries.push({
            reason: 'spot.trade',
            reference: { type: 'spot_trade', id: `${this.market.symbol}:${this.book}:${e.tradeId}` },
            idempotencyKey: `spot:trade:${this.market.symbol}:${this.book}:${e.tradeId}`,
            postings,
          });
          buyer.frozen -= amount + buyerFee;
          seller.frozen -= base;
          for (const [o, fee] of [
            [maker, makerFee],
            [taker, takerFee],
          ] as const) {
            o.filledLots += qty;
            o.filledAmount += amount;
            o.fee += fee;
            o.updatedAt = now;
          }
          levelTouched(e.takerSide === 'buy' ? 'sell' : 'buy', e.priceTicks);
          trades.push({
            id,
            engineTradeId: e.tradeId,
            priceTicks: price,
            qtyLots: qty,
            takerSide: e.takerSide,
            time: e.timestampMs,
            maker,
            taker,
            makerFee,
            takerFee,
            amount,
          });
          break;
        }
        case 'filled': {
          const o = get(e.orderId);
          o.status = 'filled';
          o.updatedAt = now;
          break;
        }
        case 'cancelled': {
          const o = get(e.orderId);
          o.status = 'cancelled';
          o.cancelReason =
            e.reason === 'USER' ? (cancelReasonOf.get(e.seq) ?? 'user') : (CANCEL_REASON[e.reason] ?? 'user');
          o.updatedAt = now;
          if (e.resting) levelTouched(e.side, e.priceTicks);
          break;
        }
        case 'rejected': {
          if (e.command === 'place') {
            const o = get(e.orderId);
            o.status = 'cancelled';
            o.cancelReason = 'rejected';
            o.updatedAt = now;
          }
          break;
        }
        case 'rested':
          levelTouched(e.side, e.priceTicks);
          break;
        case 'reduced':
        case 'increased':
          levelTouched(e.side, e.priceTicks);
          break;
        default:
          break;
      }
    }
    for (const o of touched.values()) {
      if (o.status !== 'filled' && o.status !== 'cancelled')
        o.status = o.filledLots > 0n ? 'partially_filled' : 'unfilled';
      const need = needOf(math, o);
      const excess = o.frozen - need;
      if (excess < 0n) throw new Error(`order ${o.id} would need ${need} but holds ${o.frozen}`);
      if (excess > 0n) {
        entries.push({
          reason: 'spot.release',
          reference: { type: 'spot_order', id: o.id },
          idempotencyKey: `spot:release:${o.id}:${this.seq}`,
          postings: [
            {
              account: spot(o.customerId),
              currency: o.frozenCurrency,
              bucket: 'frozen',
              amountUnits: -excess,
            },
            {
              account: spot(o.customerId),
              currency: o.frozenCurrency,
              bucket: 'available',
              amountUnits: excess,
            },
          ],
        });
        o.frozen = need;
      }
    }
    const lastSeq = commands.length > 0 ? (commands.at(-1) as { seq: number }).seq : this.seq;
    await inTransaction(this.deps.db, async (tx: Tx) => {
      const entryIds: string[] = [];
      for (let i = 0; i < entries.length; i += RUNNER_LIMITS.ledgerBatchMax) {
        const chunk = entries.slice(i, i + RUNNER_LIMITS.ledgerBatchMax);
        const outcomes = await this.deps.ledger.postBatch(tx, chunk);
        for (const outcome of outcomes) {
          if (!outcome.ok)
            throw new Error(
              `spot settlement refused by the ledger: ${outcome.refusal.reason} ${JSON.stringify(outcome.refusal.params)}`,
            );
          entryIds.push(outcome.entry.id);
        }
      }
      if (trades.length > 0) {
        await tx
          .insertInto('spot_trade')
          .values(
            trades.map((t, i) => ({
              id: t.id,
              symbol: this.market.symbol,
              book: this.book,
              engine_trade_id: String(t.engineTradeId),
              seq: String(lastSeq),
              maker_order_id: t.maker.id,
              taker_order_id: t.taker.id,
              maker_customer_id: t.maker.customerId,
              taker_customer_id: t.taker.customerId,
              taker_side: t.takerSide,
              price_ticks: t.priceTicks.toString(),
              qty_lots: t.qtyLots.toString(),
              amount_units: t.amount.toString(),
              maker_fee_units: t.makerFee.toString(),
              taker_fee_units: t.takerFee.toString(),
              entry_id: entryIds[i]!,
              created_at: new Date(t.time),
            })),
          )
          .onConflict((oc) => oc.columns(['symbol', 'book', 'engine_trade_id']).doNothing())
          .execute();
      }
      const rows = [...touched.values()];
      if (rows.length > 0) {
        await sql`
          update spot_order o set
            filled_lots = v.filled_lots::bigint, filled_amount_units = v.filled_amount::numeric, fee_units = v.fee::numeric,
            frozen_units = v.frozen::numeric, status = v.status, cancel_reason = v.cancel_reason, updated_at = v.updated_at::timestamptz
          from unnest(${rows.map((o) => o.id)}::text[], ${rows.map((o) => o.filledLots.toString())}::text[],
                      ${rows.map((o) => o.filledAmount.toString())}::text[], ${rows.map((o) => o.fee.toString())}::text[],
                      ${rows.map((o) => o.frozen.toString())}::text[], ${rows.map((o) => o.status)}::text[],
                      ${rows.map((o) => o.cancelReason)}::text[], ${rows.map((o) => o.updatedAt.toISOString())}::text[])
            as v(id, filled_lots, filled_amount, fee, frozen, status, cancel_reason, updated_at)
          where o.id = v.id`.execute(tx);
      }
      await tx
        .insertInto('spot_cursor')
        .values({ symbol: this.market.symbol, book: this.book, settled_seq: String(lastSeq) })
        .onConflict((oc) => oc.columns(['symbol', 'book']).doUpdateSet({ settled_seq: String(lastSeq) }))
        .execute();
    });
    // Only now does memory follow the database.
    const customers = new Set<string>();
    for (const o of touched.values()) {
      customers.add(o.customerId);
      if (o.status === 'filled' || o.status === 'cancelled') this.open.delete(o.id);
      else this.open.set(o.id, o);
    }
    for (const t of trades) {
      this.prints.unshift({
        id: t.id,
        priceTicks: t.priceTicks,
        qtyLots: t.qtyLots,
        side: t.takerSide,
        time: t.time,
      });
    }
    if (this.prints.length > 500) this.prints.length = 500;
    const levels = this.engine.depth(1_000_000);
    const totals = {
      bids: new Map(levels.bids.map((l) => [l.priceTicks, l.qtyLots])),
      asks: new Map(levels.asks.map((l) => [l.priceTicks, l.qtyLots])),
    };
    for (const p of depth.bids.keys()) depth.bids.set(p, totals.bids.get(p) ?? 0);
    for (const p of depth.asks.keys()) depth.asks.set(p, totals.asks.get(p) ?? 0);
    return { orders: [...touched.values()], trades, depth, customers, engineSeq: lastSeq };
  }

  /**
   * Rebuilds the book from the journal and settles, exactly once, what was journaled but not
   * settled (a crash between journal and settlement). Also the start-up path.
   */
  async recover(): Promise<{ replayed: number; settled: number }> {
    const { db } = this.deps;
    const cursor = await db
      .selectFrom('spot_cursor')
      .select('settled_seq')
      .where('symbol', '=', this.market.symbol)
      .where('book', '=', this.book)
      .executeTakeFirst();
    const settledSeq = cursor ? Number(cursor.settled_seq) : 0;
    const snap = await db
      .selectFrom('spot_snapshot')
      .select(['seq', 'snapshot'])
      .where('symbol', '=', this.market.symbol)
      .where('book', '=', this.book)
      .where('seq', '<=', String(settledSeq))
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    const fromSeq = snap ? Number(snap.seq) : 0;
    const rows = await db
      .selectFrom('spot_journal')
      .select(['seq', 'command'])
      .where('symbol', '=', this.market.symbol)
      .where('book', '=', this.book)
      .where('seq', '>', String(fromSeq))
      .orderBy('seq')
      .execute();
    const current = { bandBps: this.market.bandBps, minQtyLots: this.market.minQtyLots };
    const sink = (e: Readonly<EngineEvent>) => this.events.push({ ...e } as EngineEvent);
    if (snap) {
      const snapshot = snap.snapshot as BookSnapshot;
      this.engine = MatchingBook.restore(snapshot, sink);
      const band = snapshot.config.band as { bps: number };
      (this.market as { bandBps: number }).bandBps = band.bps;
      (this.market as { minQtyLots: number }).minQtyLots = snapshot.config.minQtyLots;
    } else this.engine = new MatchingBook(bookConfig(this.market, this.book), sink);
    this.lastSnapshotSeq = fromSeq;
    this.open.clear();
    const commands = rows.map((r) => r.command as JournalCommand);
    const before = commands.filter((c) => c.seq <= settledSeq);
    const after = commands.filter((c) => c.seq > settledSeq);
    this.applyCommands(before);
    this.seq = settledSeq;
    const open = await db
      .selectFrom('spot_order')
      .selectAll()
      .where('symbol', '=', this.market.symbol)
      .where('book', '=', this.book)
      .where((eb) =>
        eb.or([eb('status', 'in', ['unfilled', 'partially_filled']), eb('seq', '>', String(settledSeq))]),
      )
      .execute();
    for (const row of open) this.open.set(row.id, orderFromRow(row));
    if (after.length > 0) {
      const events = this.applyCommands(after);
      this.seq = after.at(-1)!.seq;
      await this.settle(after, events, this.deps.clock.now());
    }
    for (const [id, o] of this.open)
      if (o.status === 'filled' || o.status === 'cancelled') this.open.delete(id);
    this.seq = commands.length > 0 ? commands.at(-1)!.seq : fromSeq;
    const trades = await db
      .selectFrom('spot_trade')
      .select(['id', 'price_ticks', 'qty_lots', 'taker_side', 'created_at'])
      .where('symbol', '=', this.market.symbol)
      .where('book', '=', this.book)
      .orderBy('engine_trade_id', 'desc')
      .limit(50)
      .execute();
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
    this.broken = false;
    // A new book starts its journal with its configuration, so a replay never depends on today's settings.
    if (this.seq === 0) await this.writeConfig(current.bandBps, current.minQtyLots);
    else if (current.bandBps !== this.market.bandBps || current.minQtyLots !== this.market.minQtyLots) {
      await this.writeConfig(current.bandBps, current.minQtyLots);
    }
    return { replayed: commands.length, settled: after.length };
  }
}
