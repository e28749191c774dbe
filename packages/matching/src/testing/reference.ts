import { MAX_ID_LENGTH, STP_MODES } from '../limits.ts';
import type {
  BookConfig,
  CancelReason,
  Command,
  EngineEvent,
  PlaceCommand,
  RejectReason,
  RestingOrder,
  Side,
  StpMode,
} from '../types.ts';

/**
 * The obviously-correct matcher the fast engine is compared against in property tests: one flat
 * array of resting orders, every lookup a linear scan, priority by sorting on (price, arrival).
 * Slow on purpose; it shares no code with the engine except the vocabulary and the limits.
 */
type RefOrder = RestingOrder & { arrival: number };

const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_ID_LENGTH;
const isPos = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;

export class ReferenceBook {
  readonly config: BookConfig;
  orders: RefOrder[] = [];
  private arrivals = 0;
  private nextTradeId = 1;
  private events: EngineEvent[] = [];

  constructor(config: BookConfig) {
    this.config = config;
  }

  /** Opposite-side orders that would trade with a taker at `limit`, in priority order. */
  private makersFor(side: Side, limit: number): RefOrder[] {
    const opposite = side === 'buy' ? 'sell' : 'buy';
    return this.orders
      .filter((o) => o.side === opposite && (side === 'buy' ? o.priceTicks <= limit : o.priceTicks >= limit))
      .sort((a, b) =>
        a.priceTicks !== b.priceTicks
          ? side === 'buy'
            ? a.priceTicks - b.priceTicks
            : b.priceTicks - a.priceTicks
          : a.arrival - b.arrival,
      );
  }

  private bestPrice(side: Side): number | undefined {
    const prices = this.orders.filter((o) => o.side === side).map((o) => o.priceTicks);
    if (prices.length === 0) return undefined;
    return side === 'buy' ? Math.max(...prices) : Math.min(...prices);
  }

  resting(side: Side): RestingOrder[] {
    return this.orders
      .filter((o) => o.side === side)
      .sort((a, b) =>
        a.priceTicks !== b.priceTicks
          ? side === 'buy'
            ? b.priceTicks - a.priceTicks
            : a.priceTicks - b.priceTicks
          : a.arrival - b.arrival,
      )
      .map(({ arrival: _arrival, ...o }) => o);
  }

  apply(c: Command): EngineEvent[] {
    this.events = [];
    if (c.type === 'place') this.place(c);
    else if (c.type === 'cancel') {
      const o = this.orders.find((x) => x.orderId === c.orderId && x.userId === c.userId);
      if (!o) this.reject(c, 'UNKNOWN_ORDER');
      else this.remove(o, 'USER', c);
    } else {
      let reason: RejectReason | null = null;
      if (!isPos(c.qtyLots)) reason = 'INVALID_QTY';
      else if (c.qtyLots > this.config.maxQtyLots) reason = 'QTY_ABOVE_MAX';
      else if (c.qtyLots < this.config.minQtyLots) reason = 'QTY_BELOW_MIN';
      const o = this.orders.find((x) => x.orderId === c.orderId && x.userId === c.userId);
      if (reason === null && !o) reason = 'UNKNOWN_ORDER';
      if (reason === null && o && o.openLots === c.qtyLots) reason = 'AMEND_UNCHANGED';
      if (reason !== null || !o) this.reject(c, reason ?? 'UNKNOWN_ORDER');
      else {
        const before = o.openLots;
        o.openLots = c.qtyLots;
        const common = { seq: c.seq, timestampMs: c.timestampMs, orderId: o.orderId, userId: o.userId };
        if (c.qtyLots < before) {
          this.events.push({
            ...common,
            type: 'reduced',
            side: o.side,
            priceTicks: o.priceTicks,
            qtyLots: before - c.qtyLots,
            remainingLots: c.qtyLots,
          });
        } else {
          o.arrival = ++this.arrivals;
          o.seq = c.seq;
          o.timestampMs = c.timestampMs;
          this.events.push({
            ...common,
            type: 'increased',
            side: o.side,
            priceTicks: o.priceTicks,
            qtyLots: c.qtyLots - before,
            remainingLots: c.qtyLots,
          });
        }
      }
    }
    return this.events;
  }

  private reject(c: Command, reason: RejectReason): void {
    this.events.push({
      type: 'rejected',
      seq: c.seq,
      timestampMs: c.timestampMs,
      command: c.type,
      orderId: isId(c.orderId) ? c.orderId : '',
      userId: isId(c.userId) ? c.userId : '',
      reason,
    });
  }

  private remove(o: RefOrder, reason: CancelReason, c: Command): void {
    this.orders = this.orders.filter((x) => x !== o);
    this.events.push({
      type: 'cancelled',
      seq: c.seq,
      timestampMs: c.timestampMs,
      orderId: o.orderId,
      userId: o.userId,
      side: o.side,
      priceTicks: o.priceTicks,
      qtyLots: o.openLots,
      reason,
      resting: true,
    });
  }

  private validate(c: PlaceCommand): RejectReason | null {
    const cfg = this.config;
    const tif = c.tif;
    if (!isId(c.orderId)) return 'INVALID_ORDER_ID';
    if (!isId(c.userId)) return 'INVALID_USER_ID';
    if (c.side !== 'buy' && c.side !== 'sell') return 'INVALID_SIDE';
    if (c.kind !== 'limit' && c.kind !== 'market') return 'INVALID_KIND';
    if (tif !== undefined && !['GTC', 'IOC', 'FOK'].includes(tif)) return 'INVALID_TIF';
    if (c.kind === 'market' && tif === 'GTC') return 'INVALID_TIF';
    if (c.stp !== undefined && !STP_MODES.includes(c.stp)) return 'INVALID_STP';
    if (!isPos(c.qtyLots)) return 'INVALID_QTY';
    if (c.qtyLots > cfg.maxQtyLots) return 'QTY_ABOVE_MAX';
    if (c.qtyLots < cfg.minQtyLots) return 'QTY_BELOW_MIN';
    if (c.kind === 'limit') {
      if (!isPos(c.priceTicks)) return 'INVALID_PRICE';
      if (c.priceTicks > cfg.maxPriceTicks) return 'PRICE_ABOVE_MAX';
    } else {
      if (c.priceTicks !== undefined) return 'INVALID_PRICE';
      const r = c.referencePriceTicks;
      if (r !== undefined && !(isPos(r) && r <= cfg.maxPriceTicks)) return 'INVALID_PRICE';
    }
    if (c.postOnly !== undefined && typeof c.postOnly !== 'boolean') return 'INVALID_COMMAND';
    if (c.postOnly && (c.kind !== 'limit' || (tif ?? 'GTC') !== 'GTC')) return 'POST_ONLY_NOT_LIMIT_GTC';
    if (this.orders.some((o) => o.orderId === c.orderId)) return 'DUPLICATE_ORDER_ID';
    if (c.postOnly && this.makersFor(c.side, c.priceTicks!).length > 0) return 'POST_ONLY_WOULD_TAKE';
    if (c.kind === 'limit' && (tif ?? 'GTC') === 'GTC' && this.orders.length >= cfg.maxOpenOrders)
      return 'BOOK_FULL';
    return null;
  }

  private place(c: PlaceCommand): void {
    const reason = this.validate(c);
    if (reason) {
      this.reject(c, reason);
      return;
    }
    const market = c.kind === 'market';
    const tif = c.tif ?? (market ? 'IOC' : 'GTC');
    const stp: StpMode = c.stp ?? this.config.stpDefault;
    const opposite: Side = c.side === 'buy' ? 'sell' : 'buy';
    const head = { seq: c.seq, timestampMs: c.timestampMs, orderId: c.orderId, userId: c.userId };
    this.events.push({
      ...head,
      type: 'accepted',
      side: c.side,
      kind: c.kind,
      tif,
      priceTicks: market ? 0 : c.priceTicks!,
      qtyLots: c.qtyLots,
      postOnly: c.postOnly === true,
    });
    const cancelTaker = (price: number, qty: number, why: CancelReason) =>
      this.events.push({
        ...head,
        type: 'cancelled',
        side: c.side,
        priceTicks: price,
        qtyLots: qty,
        reason: why,
        resting: false,
      });

    let limit: number;
    if (market) {
      const ref = c.referencePriceTicks ?? this.bestPrice(opposite);
      if (ref === undefined) return void cancelTaker(0, c.qtyLots, 'NO_LIQUIDITY');
      const band = this.config.band;
      const distance = 'ticks' in band ? band.ticks : Math.floor((ref * band.bps) / 10_000);
      limit = c.side === 'buy' ? ref + distance : Math.max(1, ref - distance);
    } else limit = c.priceTicks!;
    const shownPrice = market ? 0 : limit;

    const makers = this.makersFor(c.side, limit);
    if (tif === 'FOK') {
      let available = 0;
      for (const m of makers) {
        if (m.userId === c.userId) {
          if (stp === 'cancel-maker') continue;
          break;
        }
        available += m.openLots;
      }
      if (available < c.qtyLots) return void cancelTaker(shownPrice, c.qtyLots, 'FOK_UNFILLABLE');
    }

    let left = c.qtyLots;
    let stopped = false;
    for (const m of makers) {
      if (left === 0) break;
      if (m.userId === c.userId) {
        if (stp === 'cancel-taker') {
          stopped = true;
          break;
        }
        this.remove(m, 'SELF_TRADE', c);
        if (stp === 'cancel-both') {
          stopped = true;
          break;
        }
        continue;
      }
      const qty = Math.min(left, m.openLots);
      left -= qty;
      m.openLots -= qty;
      this.events.push({
        type: 'trade',
        seq: c.seq,
        timestampMs: c.timestampMs,
        tradeId: this.nextTradeId++,
        makerOrderId: m.orderId,
        takerOrderId: c.orderId,
        makerUserId: m.userId,
        takerUserId: c.userId,
        takerSide: c.side,
        priceTicks: m.priceTicks,
        qtyLots: qty,
      });
      if (m.openLots === 0) {
        this.orders = this.orders.filter((x) => x !== m);
        this.events.push({
          type: 'filled',
          seq: c.seq,
          timestampMs: c.timestampMs,
          orderId: m.orderId,
          userId: m.userId,
        });
      }
    }
    if (left === 0) return void this.events.push({ ...head, type: 'filled' });
    if (stopped) return void cancelTaker(shownPrice, left, 'SELF_TRADE');
    if (market) {
      return void cancelTaker(
        0,
        left,
        this.bestPrice(opposite) === undefined ? 'NO_LIQUIDITY' : 'PRICE_BAND',
      );
    }
    if (tif !== 'GTC')
      return void cancelTaker(limit, left, tif === 'FOK' ? 'FOK_UNFILLABLE' : 'IOC_REMAINDER');
    this.orders.push({
      orderId: c.orderId,
      userId: c.userId,
      side: c.side,
      priceTicks: limit,
      openLots: left,
      seq: c.seq,
      timestampMs: c.timestampMs,
      stp,
      arrival: ++this.arrivals,
    });
    this.events.push({ ...head, type: 'rested', side: c.side, priceTicks: limit, qtyLots: left });
  }
}
