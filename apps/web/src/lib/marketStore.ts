import { compareDecimal } from '@bourse/money';
import {
  MARKET_CHANNEL,
  PRICE_STATES,
  type PriceState,
  type WsChannelMessage,
  type WsTicker,
} from '@bourse/protocol';
import { useSyncExternalStore } from 'react';

/**
 * The one market-data store (spec 7: "incoming JSON is stored as all-currency market data"): the
 * latest ticker of every instrument from the `tickers` channel, keyed by symbol, the socket's state,
 * and the sequence number of every channel. Prices stay decimal strings; never floats.
 *
 * Sequence rule (packages/protocol market.ts): a subscribe is answered by a snapshot carrying the
 * channel's `seq`; every later message carries exactly `seq + 1`. Anything else is a gap: the store
 * forgets the channel's number, ignores its messages, and tells the socket to subscribe again for a
 * fresh snapshot (`ingest` returns `gap`).
 */
export type Move = 'up' | 'down' | null;

export type Ticker = {
  symbol: string;
  last: string;
  bid: string;
  ask: string;
  mark: string;
  open: string;
  high: string;
  low: string;
  /** 24 h change in percent, two decimals. */
  change_pct: string;
  volume: string;
  turnover: string;
  /** Time of the last tick (ms); 0 before the first. */
  updated_at: number;
  state: PriceState;
  /** Which way `last` moved at the latest update (drives the up/down flash). */
  move: Move;
};

export type SocketStatus = 'connecting' | 'open' | 'closed';
export type IngestResult = 'applied' | 'duplicate' | 'gap' | 'waiting' | 'malformed';

type MarketState = {
  readonly tickers: ReadonlyMap<string, Ticker>;
  /** The same tickers as a list, rebuilt only when they change (stable for React). */
  readonly list: readonly Ticker[];
  readonly status: SocketStatus;
  readonly seqByChannel: ReadonlyMap<string, number>;
  readonly serverTimeMs: number | null;
  /** Snapshots of `tickers` received: a resync shows up as one more. */
  readonly snapshots: number;
};

export type ChannelEvent = { channel: string; snapshot: boolean; data: unknown };
type ChannelListener = (event: ChannelEvent) => void;

const initial: MarketState = {
  tickers: new Map(),
  list: [],
  status: 'connecting',
  seqByChannel: new Map(),
  serverTimeMs: null,
  snapshots: 0,
};
let state: MarketState = initial;
const listeners = new Set<() => void>();
const channelListeners = new Map<string, Set<ChannelListener>>();
/** Channels that saw a gap and wait for a snapshot; their messages are dropped meanwhile. */
const awaiting = new Set<string>();

function update(next: MarketState): void {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const DECIMAL = /^-?\d+(\.\d+)?$/;
const isDecimal = (v: unknown): v is string => typeof v === 'string' && DECIMAL.test(v);

/** One `WsTicker` (short keys) as a store ticker; null when a field is missing or not a decimal. */
export function parseWsTicker(raw: unknown, previous?: Ticker): Ticker | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const w = raw as Partial<WsTicker>;
  if (typeof w.s !== 'string' || w.s.length === 0) return null;
  const decimals = [w.p, w.b, w.a, w.m, w.o, w.h, w.l, w.c, w.v, w.q];
  if (!decimals.every(isDecimal)) return null;
  if (typeof w.t !== 'number' || !(PRICE_STATES as readonly unknown[]).includes(w.x)) return null;
  const last = w.p as string;
  let move: Move = previous?.move ?? null;
  if (previous && previous.last !== last) move = compareDecimal(last, previous.last) > 0 ? 'up' : 'down';
  return {
    symbol: w.s,
    last,
    bid: w.b as string,
    ask: w.a as string,
    mark: w.m as string,
    open: w.o as string,
    high: w.h as string,
    low: w.l as string,
    change_pct: w.c as string,
    volume: w.v as string,
    turnover: w.q as string,
    updated_at: w.t,
    state: w.x as PriceState,
    move,
  };
}

function itemsOf(data: unknown): unknown[] | null {
  if (typeof data !== 'object' || data === null) return null;
  const items = (data as { items?: unknown }).items;
  return Array.isArray(items) ? items : null;
}

function applyTickers(data: unknown, snapshot: boolean): boolean {
  const items = itemsOf(data);
  if (!items) return false;
  const tickers = snapshot ? new Map<string, Ticker>() : new Map(state.tickers);
  let changed = snapshot;
  for (const raw of items) {
    const symbol = (raw as { s?: unknown } | null)?.s;
    const previous = typeof symbol === 'string' ? state.tickers.get(symbol) : undefined;
    const ticker = parseWsTicker(raw, previous);
    if (!ticker) continue;
    tickers.set(ticker.symbol, ticker);
    changed = true;
  }
  if (!changed) return false;
  update({
    ...state,
    tickers,
    list: [...tickers.values()],
    snapshots: state.snapshots + (snapshot ? 1 : 0),
  });
  return true;
}

function isChannelMessage(value: unknown): value is WsChannelMessage & { snapshot?: boolean } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as WsChannelMessage).channel === 'string' &&
    typeof (value as WsChannelMessage).seq === 'number'
  );
}

function setSeq(channel: string, seq: number | null): void {
  const seqByChannel = new Map(state.seqByChannel);
  if (seq === null) seqByChannel.delete(channel);
  else seqByChannel.set(channel, seq);
  state = { ...state, seqByChannel };
}

export const marketStore = {
  getState: (): MarketState => state,
  subscribe,

  /** A message from the socket. `gap` means: subscribe to this channel again for a snapshot. */
  ingest(message: unknown): IngestResult {
    if (!isChannelMessage(message)) return 'malformed';
    const { channel, seq } = message;
    const snapshot = message.snapshot === true;
    if (snapshot) {
      awaiting.delete(channel);
      setSeq(channel, seq);
    } else {
      if (awaiting.has(channel)) return 'waiting';
      const last = state.seqByChannel.get(channel);
      if (last !== undefined && seq <= last) return 'duplicate';
      if (last === undefined || seq !== last + 1) {
        awaiting.add(channel);
        setSeq(channel, null);
        return 'gap';
      }
      setSeq(channel, seq);
    }
    if (channel === MARKET_CHANNEL.tickers) applyTickers(message.data, snapshot);
    for (const listener of channelListeners.get(channel) ?? [])
      listener({ channel, snapshot, data: message.data });
    return 'applied';
  },

  /** The socket closed: every channel's numbering ends with it (a new socket starts with snapshots). */
  resetChannels(): void {
    awaiting.clear();
    state = { ...state, seqByChannel: new Map() };
  },

  /** Listens to one channel's snapshots and messages (after the store has checked their order). */
  onChannel(channel: string, listener: ChannelListener): () => void {
    let set = channelListeners.get(channel);
    if (!set) {
      set = new Set();
      channelListeners.set(channel, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) channelListeners.delete(channel);
    };
  },

  setStatus(status: SocketStatus): void {
    if (state.status !== status) update({ ...state, status });
  },

  setServerTime(serverTimeMs: number): void {
    update({ ...state, serverTimeMs });
  },

  /** Tests: back to an empty store. */
  reset(): void {
    awaiting.clear();
    channelListeners.clear();
    update(initial);
  },
};

export function useTickers(): readonly Ticker[] {
  return useSyncExternalStore(subscribe, () => state.list);
}

export function useTickerMap(): ReadonlyMap<string, Ticker> {
  return useSyncExternalStore(subscribe, () => state.tickers);
}

export function useTicker(symbol: string | null): Ticker | undefined {
  return useSyncExternalStore(subscribe, () => (symbol ? state.tickers.get(symbol) : undefined));
}

export function useSocketStatus(): SocketStatus {
  return useSyncExternalStore(subscribe, () => state.status);
}
