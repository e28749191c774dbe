import type { WsChannelMessage } from '@bourse/protocol';
import { useSyncExternalStore } from 'react';
import { TICKER_CHANNEL_PREFIX } from '../config/app.ts';

/**
 * The one market-data store (spec 7: "incoming JSON is stored as all-currency market data"): the
 * latest ticker of every instrument, keyed by symbol, plus the socket's state. Prices are decimal
 * strings as they arrive; they are never turned into floats here.
 */
export type Ticker = {
  symbol: string;
  /** Last traded price. */
  last?: string;
  /** Change over 24 hours, in percent. */
  change_pct?: string;
  high?: string;
  low?: string;
  volume?: string;
};

export type SocketStatus = 'connecting' | 'open' | 'closed';

type MarketState = {
  readonly tickers: ReadonlyMap<string, Ticker>;
  /** The same tickers as a list, rebuilt only when they change (stable for React). */
  readonly list: readonly Ticker[];
  readonly status: SocketStatus;
  /** Last sequence number seen per channel; older or repeated messages are ignored. */
  readonly seqByChannel: ReadonlyMap<string, number>;
  readonly serverTimeMs: number | null;
};

let state: MarketState = {
  tickers: new Map(),
  list: [],
  status: 'connecting',
  seqByChannel: new Map(),
  serverTimeMs: null,
};
const listeners = new Set<() => void>();

function update(next: MarketState): void {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getState(): MarketState {
  return state;
}

function isTicker(value: unknown): value is Ticker {
  return typeof value === 'object' && value !== null && typeof (value as Ticker).symbol === 'string';
}

/** A ticker payload may be one ticker, a list, or an object keyed by symbol. */
function tickersIn(data: unknown): Ticker[] {
  if (Array.isArray(data)) return data.filter(isTicker);
  if (isTicker(data)) return [data];
  if (typeof data === 'object' && data !== null) return Object.values(data).filter(isTicker);
  return [];
}

export const marketStore = {
  getState,
  subscribe,

  /** A message that names a channel. Only ticker channels are kept for now. */
  ingest(message: WsChannelMessage): void {
    const lastSeq = state.seqByChannel.get(message.channel);
    if (typeof message.seq === 'number' && lastSeq !== undefined && message.seq <= lastSeq) return;
    const seqByChannel = new Map(state.seqByChannel);
    if (typeof message.seq === 'number') seqByChannel.set(message.channel, message.seq);
    if (!message.channel.startsWith(TICKER_CHANNEL_PREFIX)) {
      update({ ...state, seqByChannel });
      return;
    }
    const incoming = tickersIn(message.data);
    if (incoming.length === 0) {
      update({ ...state, seqByChannel });
      return;
    }
    const tickers = new Map(state.tickers);
    for (const ticker of incoming) tickers.set(ticker.symbol, { ...tickers.get(ticker.symbol), ...ticker });
    update({ ...state, tickers, list: [...tickers.values()], seqByChannel });
  },

  setStatus(status: SocketStatus): void {
    if (state.status !== status) update({ ...state, status });
  },

  setServerTime(serverTimeMs: number): void {
    update({ ...state, serverTimeMs });
  },
};

export function useTickers(): readonly Ticker[] {
  return useSyncExternalStore(subscribe, () => state.list);
}

export function useSocketStatus(): SocketStatus {
  return useSyncExternalStore(subscribe, () => state.status);
}
