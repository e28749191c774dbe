/**
 * The engine's vocabulary: commands in, events out. Prices are integer ticks, quantities integer
 * lots (see `limits.ts` for why plain `number`s are exact here). Every command carries its own
 * sequence number and timestamp: the engine has no clock and no randomness.
 */

export type Side = 'buy' | 'sell';
export type OrderKind = 'limit' | 'market';
/** GTC rests; IOC cancels what does not fill at once; FOK fills completely at once or not at all. */
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';
/** What happens when a taker would trade with a resting order of the same user. */
export type StpMode = 'cancel-taker' | 'cancel-maker' | 'cancel-both';

/** Market-order protection: how far from the reference price a market order may trade. */
export type PriceBand = { ticks: number } | { bps: number };

export interface BookConfig {
  /** The market's code, for events and the hash (e.g. `BTC-USDT`). */
  market: string;
  /** Smallest accepted order (and amended) quantity, in lots. */
  minQtyLots: number;
  /** Largest accepted quantity, in lots. `maxQtyLots × maxOpenOrders` must be a safe integer. */
  maxQtyLots: number;
  /** Largest accepted price, in ticks (at most `MAX_PRICE_TICKS_LIMIT`). */
  maxPriceTicks: number;
  /** Resting orders this book holds at most; a GTC order arriving at a full book is refused. */
  maxOpenOrders: number;
  /** Market-order protection band around the reference price. */
  band: PriceBand;
  /** Self-trade prevention when a command names none. */
  stpDefault: StpMode;
}

interface CommandBase {
  /** Strictly increasing per book; the journal's position. The engine throws on a non-increasing one. */
  seq: number;
  /** Wall time of acceptance upstream, copied into events and orders; never read as a clock. */
  timestampMs: number;
}

export interface PlaceCommand extends CommandBase {
  type: 'place';
  orderId: string;
  userId: string;
  side: Side;
  kind: OrderKind;
  /** Limit price in ticks; must be absent for market orders. */
  priceTicks?: number;
  qtyLots: number;
  /** Default GTC for limit, IOC for market (a market order cannot be GTC). */
  tif?: TimeInForce;
  /** Limit GTC only: refused if it would trade on arrival. */
  postOnly?: boolean;
  /** Default: the book's `stpDefault`. */
  stp?: StpMode;
  /** Market orders: the band is measured from here (the market module's price); else from the best opposite price. */
  referencePriceTicks?: number;
}

export interface CancelCommand extends CommandBase {
  type: 'cancel';
  orderId: string;
  userId: string;
}

/** Sets a resting order's open quantity. Lower keeps its place in the queue; higher sends it to the back. */
export interface AmendCommand extends CommandBase {
  type: 'amend';
  orderId: string;
  userId: string;
  qtyLots: number;
}

export type Command = PlaceCommand | CancelCommand | AmendCommand;

export type RejectReason =
  | 'INVALID_COMMAND'
  | 'INVALID_ORDER_ID'
  | 'INVALID_USER_ID'
  | 'INVALID_SIDE'
  | 'INVALID_KIND'
  | 'INVALID_TIF'
  | 'INVALID_STP'
  | 'INVALID_QTY'
  | 'INVALID_PRICE'
  | 'QTY_BELOW_MIN'
  | 'QTY_ABOVE_MAX'
  | 'PRICE_ABOVE_MAX'
  | 'POST_ONLY_NOT_LIMIT_GTC'
  | 'POST_ONLY_WOULD_TAKE'
  | 'DUPLICATE_ORDER_ID'
  | 'UNKNOWN_ORDER'
  | 'AMEND_UNCHANGED'
  | 'BOOK_FULL';

export type CancelReason =
  /** A cancel command. */
  | 'USER'
  /** The unfilled rest of an IOC limit order. */
  | 'IOC_REMAINDER'
  /** A FOK order that could not fill completely; nothing traded. */
  | 'FOK_UNFILLABLE'
  /** A market order's rest when the opposite side is empty. */
  | 'NO_LIQUIDITY'
  /** A market order's rest when the next opposite price lies beyond the protection band. */
  | 'PRICE_BAND'
  /** Self-trade prevention (the taker's rest, or a resting maker). */
  | 'SELF_TRADE';

interface EventBase {
  /** The command that caused the event. */
  seq: number;
  timestampMs: number;
  orderId: string;
  userId: string;
}

export interface AcceptedEvent extends EventBase {
  type: 'accepted';
  side: Side;
  kind: OrderKind;
  tif: TimeInForce;
  /** 0 for a market order. */
  priceTicks: number;
  qtyLots: number;
  postOnly: boolean;
}
export interface RejectedEvent extends EventBase {
  type: 'rejected';
  command: Command['type'];
  reason: RejectReason;
}
export interface TradeEvent {
  type: 'trade';
  seq: number;
  timestampMs: number;
  /** 1, 2, 3, … per book; survives snapshot and restore. */
  tradeId: number;
  makerOrderId: string;
  takerOrderId: string;
  makerUserId: string;
  takerUserId: string;
  takerSide: Side;
  /** Always the maker's price. */
  priceTicks: number;
  qtyLots: number;
}
/** The taker's unfilled rest went into the book. */
export interface RestedEvent extends EventBase {
  type: 'rested';
  side: Side;
  priceTicks: number;
  qtyLots: number;
}
/** The order is done: its whole quantity traded. */
export interface FilledEvent extends EventBase {
  type: 'filled';
}
export interface CancelledEvent extends EventBase {
  type: 'cancelled';
  side: Side;
  /** 0 for a market order. */
  priceTicks: number;
  /** The open quantity that was cancelled. */
  qtyLots: number;
  reason: CancelReason;
  /** True when the order was resting in the book (depth changes), false for a taker's rest. */
  resting: boolean;
}
export interface ReducedEvent extends EventBase {
  type: 'reduced';
  side: Side;
  priceTicks: number;
  /** Lots taken off. */
  qtyLots: number;
  remainingLots: number;
}
/** The open quantity went up; the order lost its time priority (now last at its price). */
export interface IncreasedEvent extends EventBase {
  type: 'increased';
  side: Side;
  priceTicks: number;
  /** Lots added. */
  qtyLots: number;
  remainingLots: number;
}

export type EngineEvent =
  | AcceptedEvent
  | RejectedEvent
  | TradeEvent
  | RestedEvent
  | FilledEvent
  | CancelledEvent
  | ReducedEvent
  | IncreasedEvent;

/**
 * Receives every event in order. The event object is reused by the engine and is valid only during
 * the call: copy what you keep (`{ ...event }`), or use `collectEvents`.
 */
export type EventSink = (event: Readonly<EngineEvent>) => void;

export interface RestingOrder {
  orderId: string;
  userId: string;
  side: Side;
  priceTicks: number;
  openLots: number;
  /** Seq of the command that gave the order its current queue position. */
  seq: number;
  timestampMs: number;
  stp: StpMode;
}

export interface BookSnapshot {
  version: 1;
  config: BookConfig;
  lastSeq: number;
  nextTradeId: number;
  /** Best price first; within a price, queue order. */
  bids: RestingOrder[];
  asks: RestingOrder[];
}

export interface DepthLevel {
  priceTicks: number;
  qtyLots: number;
  orders: number;
}
