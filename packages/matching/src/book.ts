import { createHash } from 'node:crypto';
import { MAX_ID_LENGTH, STP_MODES, validateConfig } from './limits.ts';
import { BookSide, type Level, ORDER_POOL_MAX, OrderNode } from './structures.ts';
import type {
  AcceptedEvent,
  AmendCommand,
  BookConfig,
  BookSnapshot,
  CancelCommand,
  CancelledEvent,
  CancelReason,
  Command,
  DepthLevel,
  EventSink,
  FilledEvent,
  IncreasedEvent,
  PlaceCommand,
  ReducedEvent,
  RejectedEvent,
  RejectReason,
  RestedEvent,
  RestingOrder,
  Side,
  StpMode,
  TimeInForce,
  TradeEvent,
} from './types.ts';

const noop: EventSink = () => {};

const isId = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH;
const isPositiveInt = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;

/**
 * One market's order book and matching engine. Pure and deterministic: `apply(command)` changes the
 * book and reports what happened through the sink, synchronously and in order; the same commands
 * from the same state always give the same events and the same `hash()`.
 */
export class MatchingBook {
  readonly config: BookConfig;
  private sink: EventSink;
  private readonly bids = new BookSide('buy');
  private readonly asks = new BookSide('sell');
  private readonly orders = new Map<string, OrderNode>();
  private readonly pool: OrderNode[] = [];
  private lastSeqValue = 0;
  private nextTradeIdValue = 1;

  // Reused event objects: the sink sees each only during its call (see `EventSink`).
  private readonly evAccepted: AcceptedEvent;
  private readonly evRejected: RejectedEvent;
  private readonly evTrade: TradeEvent;
  private readonly evRested: RestedEvent;
  private readonly evFilled: FilledEvent;
  private readonly evCancelled: CancelledEvent;
  private readonly evReduced: ReducedEvent;
  private readonly evIncreased: IncreasedEvent;

  constructor(config: BookConfig, sink: EventSink = noop) {
    this.config = validateConfig(config);
    this.sink = sink;
    const base = { seq: 0, timestampMs: 0, orderId: '', userId: '' };
    const order = { ...base, side: 'buy' as Side, priceTicks: 0, qtyLots: 0 };
    this.evAccepted = { ...order, type: 'accepted', kind: 'limit', tif: 'GTC', postOnly: false };
    this.evRejected = { ...base, type: 'rejected', command: 'place', reason: 'INVALID_COMMAND' };
    this.evTrade = {
      type: 'trade',
      seq: 0,
      timestampMs: 0,
      tradeId: 0,
      makerOrderId: '',
      takerOrderId: '',
      makerUserId: '',
      takerUserId: '',
      takerSide: 'buy',
      priceTicks: 0,
      qtyLots: 0,
    };
    this.evRested = { ...order, type: 'rested' };
    this.evFilled = { ...base, type: 'filled' };
    this.evCancelled = { ...order, type: 'cancelled', reason: 'USER', resting: false };
    this.evReduced = { ...order, type: 'reduced', remainingLots: 0 };
    this.evIncreased = { ...order, type: 'increased', remainingLots: 0 };
  }

  setSink(sink: EventSink): void {
    this.sink = sink;
  }

  get lastSeq(): number {
    return this.lastSeqValue;
  }
  get nextTradeId(): number {
    return this.nextTradeIdValue;
  }
  get openOrders(): number {
    return this.orders.size;
  }
  bestBid(): number | undefined {
    return this.bids.best()?.priceTicks;
  }
  bestAsk(): number | undefined {
    return this.asks.best()?.priceTicks;
  }

  /** Applies one command. Throws only on a broken contract (a non-increasing `seq`), never on bad input. */
  apply(command: Command): void {
    const seq = command.seq;
    if (!(Number.isSafeInteger(seq) && seq > this.lastSeqValue)) {
      throw new RangeError(`matching: seq ${String(seq)} does not follow ${this.lastSeqValue}`);
    }
    if (!Number.isSafeInteger(command.timestampMs)) {
      throw new RangeError(`matching: timestampMs ${String(command.timestampMs)} is not an integer`);
    }
    this.lastSeqValue = seq;
    if (command.type === 'place') this.place(command);
    else if (command.type === 'cancel') this.cancel(command);
    else if (command.type === 'amend') this.amend(command);
    else {
      const c = command as { orderId?: unknown; userId?: unknown; timestampMs: number };
      this.reject(
        seq,
        c.timestampMs,
        'place',
        String(c.orderId ?? ''),
        String(c.userId ?? ''),
        'INVALID_COMMAND',
      );
    }
  }

  // ---- place ---------------------------------------------------------------------------------

  private validatePlace(c: PlaceCommand): RejectReason | null {
    if (!isId(c.orderId)) return 'INVALID_ORDER_ID';
    if (!isId(c.userId)) return 'INVALID_USER_ID';
    if (c.side !== 'buy' && c.side !== 'sell') return 'INVALID_SIDE';
    if (c.kind !== 'limit' && c.kind !== 'market') return 'INVALID_KIND';
    const tif = c.tif;
    if (tif !== undefined && tif !== 'GTC' && tif !== 'IOC' && tif !== 'FOK') return 'INVALID_TIF';
    if (c.kind === 'market' && tif === 'GTC') return 'INVALID_TIF';
    if (c.stp !== undefined && !STP_MODES.includes(c.stp)) return 'INVALID_STP';
    if (!isPositiveInt(c.qtyLots)) return 'INVALID_QTY';
    if (c.qtyLots > this.config.maxQtyLots) return 'QTY_ABOVE_MAX';
    if (c.qtyLots < this.config.minQtyLots) return 'QTY_BELOW_MIN';
    if (c.kind === 'limit') {
      if (!isPositiveInt(c.priceTicks)) return 'INVALID_PRICE';
      if (c.priceTicks > this.config.maxPriceTicks) return 'PRICE_ABOVE_MAX';
    } else {
      if (c.priceTicks !== undefined) return 'INVALID_PRICE';
      const ref = c.referencePriceTicks;
      if (ref !== undefined && !(isPositiveInt(ref) && ref <= this.config.maxPriceTicks))
        return 'INVALID_PRICE';
    }
    if (c.postOnly !== undefined && typeof c.postOnly !== 'boolean') return 'INVALID_COMMAND';
    if (c.postOnly && (c.kind !== 'limit' || (tif ?? 'GTC') !== 'GTC')) return 'POST_ONLY_NOT_LIMIT_GTC';
    if (this.orders.has(c.orderId)) return 'DUPLICATE_ORDER_ID';
    if (c.postOnly) {
      const best = (c.side === 'buy' ? this.asks : this.bids).best();
      if (best && (c.side === 'buy' ? best.priceTicks <= c.priceTicks! : best.priceTicks >= c.priceTicks!)) {
        return 'POST_ONLY_WOULD_TAKE';
      }
    }
    if (c.kind === 'limit' && (tif ?? 'GTC') === 'GTC' && this.orders.size >= this.config.maxOpenOrders) {
      return 'BOOK_FULL';
    }
    return null;
  }

  private place(c: PlaceCommand): void {
    const reason = this.validatePlace(c);
    if (reason !== null) {
      this.reject(
        c.seq,
        c.timestampMs,
        'place',
        isId(c.orderId) ? c.orderId : '',
        isId(c.userId) ? c.userId : '',
        reason,
      );
      return;
    }
    const isMarket = c.kind === 'market';
    const tif: TimeInForce = c.tif ?? (isMarket ? 'IOC' : 'GTC');
    const stp = c.stp ?? this.config.stpDefault;
    const opposite = c.side === 'buy' ? this.asks : this.bids;

    const accepted = this.evAccepted;
    accepted.seq = c.seq;
    accepted.timestampMs = c.timestampMs;
    accepted.orderId = c.orderId;
    accepted.userId = c.userId;
    accepted.side = c.side;
    accepted.kind = c.kind;
    accepted.tif = tif;
    accepted.priceTicks = isMarket ? 0 : c.priceTicks!;
    accepted.qtyLots = c.qtyLots;
    accepted.postOnly = c.postOnly === true;
    this.sink(accepted);

    // A market order trades like an IOC/FOK limit at the edge of its protection band.
    let limit: number;
    if (isMarket) {
      const ref = c.referencePriceTicks ?? opposite.best()?.priceTicks;
      if (ref === undefined) {
        this.cancelTaker(c, 0, c.qtyLots, 'NO_LIQUIDITY');
        return;
      }
      limit = this.bandLimit(c.side, ref);
    } else limit = c.priceTicks!;

    if (tif === 'FOK' && this.fillable(c.side, c.userId, stp, limit, c.qtyLots) < c.qtyLots) {
      this.cancelTaker(c, isMarket ? 0 : limit, c.qtyLots, 'FOK_UNFILLABLE');
      return;
    }

    const outcome = this.match(c, limit, stp);
    const left = this.takerLeft;
    if (left === 0) {
      this.emitFilled(c.seq, c.timestampMs, c.orderId, c.userId);
      return;
    }
    if (outcome !== null) {
      this.cancelTaker(c, isMarket ? 0 : limit, left, outcome);
      return;
    }
    if (isMarket) {
      this.cancelTaker(c, 0, left, opposite.best() ? 'PRICE_BAND' : 'NO_LIQUIDITY');
      return;
    }
    if (tif !== 'GTC') {
      this.cancelTaker(c, limit, left, tif === 'FOK' ? 'FOK_UNFILLABLE' : 'IOC_REMAINDER');
      return;
    }
    this.rest(c, limit, left, stp);
  }

  /** The worst price a market order may trade at: reference ± band, never below 1 tick. */
  private bandLimit(side: Side, ref: number): number {
    const band = this.config.band;
    let distance: number;
    if ('ticks' in band) distance = band.ticks;
    else {
      const product = ref * band.bps; // < 2^53, see limits.ts
      distance = (product - (product % 10_000)) / 10_000;
    }
    return side === 'buy' ? ref + distance : Math.max(1, ref - distance);
  }

  /**
   * How much of a FOK taker could fill right now, walking makers in priority order exactly as
   * `match` would (stopping at the first own order unless STP cancels makers). Stops once enough.
   */
  private fillable(side: Side, userId: string, stp: StpMode, limit: number, want: number): number {
    const levels = (side === 'buy' ? this.asks : this.bids).levels;
    let sum = 0;
    for (let i = levels.length - 1; i >= 0; i -= 1) {
      const level = levels[i]!;
      if (side === 'buy' ? level.priceTicks > limit : level.priceTicks < limit) break;
      for (let node = level.head; node !== null; node = node.next) {
        if (node.userId === userId) {
          if (stp === 'cancel-maker') continue;
          return sum;
        }
        sum += node.openLots;
        if (sum >= want) return sum;
      }
    }
    return sum;
  }

  /** Set by `match`: the taker's open quantity afterwards. */
  private takerLeft = 0;

  /** Matches the taker against the opposite side up to `limit`. Returns a cancel reason if STP stopped it. */
  private match(c: PlaceCommand, limit: number, stp: StpMode): CancelReason | null {
    const isBuy = c.side === 'buy';
    const opposite = isBuy ? this.asks : this.bids;
    const levels = opposite.levels;
    let left = c.qtyLots;
    let stopped: CancelReason | null = null;
    while (left > 0 && stopped === null) {
      const level = levels[levels.length - 1];
      if (level === undefined) break;
      const price = level.priceTicks;
      if (isBuy ? price > limit : price < limit) break;
      let maker = level.head;
      while (maker !== null && left > 0) {
        const next = maker.next;
        if (maker.userId === c.userId) {
          if (stp === 'cancel-taker') {
            stopped = 'SELF_TRADE';
            break;
          }
          // The level stays in place while we walk it; it is dropped below once empty.
          this.removeResting(maker, 'SELF_TRADE', c.seq, c.timestampMs, false);
          if (stp === 'cancel-both') {
            stopped = 'SELF_TRADE';
            break;
          }
          maker = next;
          continue;
        }
        const qty = Math.min(left, maker.openLots);
        left -= qty;
        maker.openLots -= qty;
        level.totalLots -= qty;
        const trade = this.evTrade;
        trade.seq = c.seq;
        trade.timestampMs = c.timestampMs;
        trade.tradeId = this.nextTradeIdValue;
        this.nextTradeIdValue += 1;
        trade.makerOrderId = maker.orderId;
        trade.takerOrderId = c.orderId;
        trade.makerUserId = maker.userId;
        trade.takerUserId = c.userId;
        trade.takerSide = c.side;
        trade.priceTicks = price;
        trade.qtyLots = qty;
        this.sink(trade);
        if (maker.openLots === 0) {
          level.unlink(maker);
          this.orders.delete(maker.orderId);
          this.emitFilled(c.seq, c.timestampMs, maker.orderId, maker.userId);
          this.release(maker);
        }
        maker = next;
      }
      if (level.count === 0) opposite.removeLevel(level);
    }
    this.takerLeft = left;
    return stopped;
  }

  private rest(c: PlaceCommand, price: number, openLots: number, stp: StpMode): void {
    const node = this.pool.pop() ?? new OrderNode();
    node.orderId = c.orderId;
    node.userId = c.userId;
    node.side = c.side;
    node.priceTicks = price;
    node.openLots = openLots;
    node.seq = c.seq;
    node.timestampMs = c.timestampMs;
    node.stp = stp;
    (c.side === 'buy' ? this.bids : this.asks).levelFor(price).append(node);
    this.orders.set(c.orderId, node);
    const e = this.evRested;
    e.seq = c.seq;
    e.timestampMs = c.timestampMs;
    e.orderId = c.orderId;
    e.userId = c.userId;
    e.side = c.side;
    e.priceTicks = price;
    e.qtyLots = openLots;
    this.sink(e);
  }

  // ---- cancel and amend ----------------------------------------------------------------------

  /** The order if it rests and belongs to the user; otherwise rejects with UNKNOWN_ORDER. */
  private owned(c: CancelCommand | AmendCommand): OrderNode | null {
    const node = isId(c.orderId) ? this.orders.get(c.orderId) : undefined;
    if (node !== undefined && node.userId === c.userId) return node;
    this.reject(
      c.seq,
      c.timestampMs,
      c.type,
      isId(c.orderId) ? c.orderId : '',
      isId(c.userId) ? c.userId : '',
      'UNKNOWN_ORDER',
    );
    return null;
  }

  private cancel(c: CancelCommand): void {
    const node = this.owned(c);
    if (node) this.removeResting(node, 'USER', c.seq, c.timestampMs);
  }

  private amend(c: AmendCommand): void {
    let reason: RejectReason | null = null;
    if (!isPositiveInt(c.qtyLots)) reason = 'INVALID_QTY';
    else if (c.qtyLots > this.config.maxQtyLots) reason = 'QTY_ABOVE_MAX';
    else if (c.qtyLots < this.config.minQtyLots) reason = 'QTY_BELOW_MIN';
    if (reason !== null) {
      this.reject(
        c.seq,
        c.timestampMs,
        'amend',
        isId(c.orderId) ? c.orderId : '',
        isId(c.userId) ? c.userId : '',
        reason,
      );
      return;
    }
    const node = this.owned(c);
    if (node === null) return;
    const level = node.level!;
    const before = node.openLots;
    if (c.qtyLots === before) {
      this.reject(c.seq, c.timestampMs, 'amend', c.orderId, c.userId, 'AMEND_UNCHANGED');
      return;
    }
    if (c.qtyLots < before) {
      // Smaller: same place in the queue.
      node.openLots = c.qtyLots;
      level.totalLots -= before - c.qtyLots;
      const e = this.evReduced;
      e.seq = c.seq;
      e.timestampMs = c.timestampMs;
      e.orderId = node.orderId;
      e.userId = node.userId;
      e.side = node.side;
      e.priceTicks = node.priceTicks;
      e.qtyLots = before - c.qtyLots;
      e.remainingLots = c.qtyLots;
      this.sink(e);
      return;
    }
    // Larger: it is a new promise to the queue, so it goes to the back (loses time priority).
    level.unlink(node);
    node.openLots = c.qtyLots;
    node.seq = c.seq;
    node.timestampMs = c.timestampMs;
    level.append(node);
    const e = this.evIncreased;
    e.seq = c.seq;
    e.timestampMs = c.timestampMs;
    e.orderId = node.orderId;
    e.userId = node.userId;
    e.side = node.side;
    e.priceTicks = node.priceTicks;
    e.qtyLots = c.qtyLots - before;
    e.remainingLots = c.qtyLots;
    this.sink(e);
  }

  // ---- helpers -------------------------------------------------------------------------------

  private removeResting(
    node: OrderNode,
    reason: CancelReason,
    seq: number,
    timestampMs: number,
    dropEmptyLevel = true,
  ): void {
    const level = node.level!;
    const openLots = node.openLots;
    level.unlink(node);
    if (dropEmptyLevel && level.count === 0) (node.side === 'buy' ? this.bids : this.asks).removeLevel(level);
    this.orders.delete(node.orderId);
    const e = this.evCancelled;
    e.seq = seq;
    e.timestampMs = timestampMs;
    e.orderId = node.orderId;
    e.userId = node.userId;
    e.side = node.side;
    e.priceTicks = node.priceTicks;
    e.qtyLots = openLots;
    e.reason = reason;
    e.resting = true;
    this.release(node);
    this.sink(e);
  }

  private cancelTaker(c: PlaceCommand, priceTicks: number, qtyLots: number, reason: CancelReason): void {
    const e = this.evCancelled;
    e.seq = c.seq;
    e.timestampMs = c.timestampMs;
    e.orderId = c.orderId;
    e.userId = c.userId;
    e.side = c.side;
    e.priceTicks = priceTicks;
    e.qtyLots = qtyLots;
    e.reason = reason;
    e.resting = false;
    this.sink(e);
  }

  private emitFilled(seq: number, timestampMs: number, orderId: string, userId: string): void {
    const e = this.evFilled;
    e.seq = seq;
    e.timestampMs = timestampMs;
    e.orderId = orderId;
    e.userId = userId;
    this.sink(e);
  }

  private reject(
    seq: number,
    timestampMs: number,
    command: Command['type'],
    orderId: string,
    userId: string,
    reason: RejectReason,
  ): void {
    const e = this.evRejected;
    e.seq = seq;
    e.timestampMs = timestampMs;
    e.command = command;
    e.orderId = orderId;
    e.userId = userId;
    e.reason = reason;
    this.sink(e);
  }

  private release(node: OrderNode): void {
    node.orderId = '';
    node.userId = '';
    if (this.pool.length < ORDER_POOL_MAX) this.pool.push(node);
  }

  // ---- reading, snapshot, hash ---------------------------------------------------------------

  /** Resting orders of one side, best price first and queue order within a price. */
  restingOrders(side: Side): RestingOrder[] {
    const levels = (side === 'buy' ? this.bids : this.asks).levels;
    const out: RestingOrder[] = [];
    for (let i = levels.length - 1; i >= 0; i -= 1) {
      for (let n = levels[i]!.head; n !== null; n = n.next) {
        out.push({
          orderId: n.orderId,
          userId: n.userId,
          side: n.side,
          priceTicks: n.priceTicks,
          openLots: n.openLots,
          seq: n.seq,
          timestampMs: n.timestampMs,
          stp: n.stp,
        });
      }
    }
    return out;
  }

  order(orderId: string): RestingOrder | undefined {
    const n = this.orders.get(orderId);
    if (!n) return undefined;
    const { userId, side, priceTicks, openLots, seq, timestampMs, stp } = n;
    return { orderId, userId, side, priceTicks, openLots, seq, timestampMs, stp };
  }

  /** Aggregated levels, best first, at most `maxLevels` per side. */
  depth(maxLevels: number): { bids: DepthLevel[]; asks: DepthLevel[] } {
    const read = (s: BookSide) => {
      const out: DepthLevel[] = [];
      for (let i = s.levels.length - 1; i >= 0 && out.length < maxLevels; i -= 1) {
        const l: Level = s.levels[i]!;
        out.push({ priceTicks: l.priceTicks, qtyLots: l.totalLots, orders: l.count });
      }
      return out;
    };
    return { bids: read(this.bids), asks: read(this.asks) };
  }

  /** The open lots resting at one price of one side (0 when no order rests there): O(1). */
  levelLots(side: Side, priceTicks: number): number {
    return (side === 'buy' ? this.bids : this.asks).byPrice.get(priceTicks)?.totalLots ?? 0;
  }

  snapshot(): BookSnapshot {
    return {
      version: 1,
      config: { ...this.config, band: { ...this.config.band } },
      lastSeq: this.lastSeqValue,
      nextTradeId: this.nextTradeIdValue,
      bids: this.restingOrders('buy'),
      asks: this.restingOrders('sell'),
    };
  }

  /** Rebuilds a book equal to the one the snapshot was taken from (same `hash()`). Throws on a bad snapshot. */
  static restore(snapshot: BookSnapshot, sink: EventSink = noop): MatchingBook {
    if (snapshot.version !== 1) throw new RangeError('matching: unknown snapshot version');
    const book = new MatchingBook(snapshot.config, sink);
    if (!(Number.isSafeInteger(snapshot.lastSeq) && snapshot.lastSeq >= 0))
      throw new RangeError('matching: lastSeq');
    if (!isPositiveInt(snapshot.nextTradeId)) throw new RangeError('matching: nextTradeId');
    book.lastSeqValue = snapshot.lastSeq;
    book.nextTradeIdValue = snapshot.nextTradeId;
    book.restoreSide(book.bids, snapshot.bids);
    book.restoreSide(book.asks, snapshot.asks);
    if (book.orders.size > book.config.maxOpenOrders)
      throw new RangeError('matching: snapshot exceeds maxOpenOrders');
    const bid = book.bestBid();
    const ask = book.bestAsk();
    if (bid !== undefined && ask !== undefined && bid >= ask)
      throw new RangeError('matching: snapshot book is crossed');
    return book;
  }

  private restoreSide(side: BookSide, orders: readonly RestingOrder[]): void {
    let level: Level | null = null;
    for (const o of orders) {
      if (
        o.side !== side.side ||
        !isId(o.orderId) ||
        !isId(o.userId) ||
        !isPositiveInt(o.priceTicks) ||
        o.priceTicks > this.config.maxPriceTicks ||
        !isPositiveInt(o.openLots) ||
        o.openLots > this.config.maxQtyLots ||
        !STP_MODES.includes(o.stp) ||
        !Number.isSafeInteger(o.seq) ||
        !Number.isSafeInteger(o.timestampMs) ||
        this.orders.has(o.orderId)
      ) {
        throw new RangeError(`matching: bad snapshot order ${String(o.orderId)}`);
      }
      if (level === null || level.priceTicks !== o.priceTicks) {
        if (
          level !== null &&
          (side.side === 'buy' ? o.priceTicks > level.priceTicks : o.priceTicks < level.priceTicks)
        ) {
          throw new RangeError('matching: snapshot levels out of order');
        }
        if (side.byPrice.has(o.priceTicks)) throw new RangeError('matching: snapshot level repeated');
        level = side.levelForRestore(o.priceTicks);
      }
      const node = new OrderNode();
      node.orderId = o.orderId;
      node.userId = o.userId;
      node.side = o.side;
      node.priceTicks = o.priceTicks;
      node.openLots = o.openLots;
      node.seq = o.seq;
      node.timestampMs = o.timestampMs;
      node.stp = o.stp;
      level.append(node);
      this.orders.set(o.orderId, node);
    }
    side.finishRestore();
  }

  /**
   * SHA-256 (hex) of everything that decides future events: config, lastSeq, nextTradeId and every
   * resting order in priority order. Two books with equal hashes behave identically.
   */
  hash(): string {
    const h = createHash('sha256');
    const c = this.config;
    h.update(
      JSON.stringify([
        c.market,
        c.minQtyLots,
        c.maxQtyLots,
        c.maxPriceTicks,
        c.maxOpenOrders,
        c.band,
        c.stpDefault,
      ]),
    );
    h.update(`|${this.lastSeqValue}|${this.nextTradeIdValue}`);
    for (const side of [this.bids, this.asks]) {
      h.update(`|${side.side}`);
      for (let i = side.levels.length - 1; i >= 0; i -= 1) {
        for (let n = side.levels[i]!.head; n !== null; n = n.next) {
          h.update(
            `|${n.orderId}\u0000${n.userId}\u0000${n.priceTicks}\u0000${n.openLots}\u0000${n.seq}\u0000${n.timestampMs}\u0000${n.stp}`,
          );
        }
      }
    }
    return h.digest('hex');
  }
}
