import {
  SPOT_CHANNELS,
  type SpotDepthData,
  type SpotTradeData,
  type SpotTradesMessage,
} from '@bourse/protocol';
import { useEffect, useRef, useState } from 'react';
import { marketStore } from '../../../lib/marketStore.ts';
import { useChannel } from '../../../lib/ws.ts';
import { type BookState, EMPTY_BOOK, reduceBook } from '../logic/book.ts';

/** Channel names of one market on the customer's book (demo customers trade on the demo book). */
export function spotChannels(symbol: string, demo: boolean) {
  return {
    depth: `${demo ? SPOT_CHANNELS.depthDemo : SPOT_CHANNELS.depth}${symbol}`,
    trades: `${demo ? SPOT_CHANNELS.tradesDemo : SPOT_CHANNELS.trades}${symbol}`,
  };
}

/**
 * The live order book: `spot_depth:<symbol>` snapshot, then its diffs in channel order. The socket
 * store already drops out-of-order messages and resubscribes on a gap; the reducer checks the
 * sequence again and, if it ever sees a gap itself, leaves and rejoins the channel for a fresh
 * snapshot (the book shows `resync` meanwhile).
 */
export function useLiveBook(symbol: string, demo: boolean): BookState {
  const { depth } = spotChannels(symbol, demo);
  const book = useRef<BookState>(EMPTY_BOOK);
  const [state, setState] = useState<BookState>(EMPTY_BOOK);
  const [rejoining, setRejoining] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: another channel starts from an empty book
  useEffect(() => {
    book.current = EMPTY_BOOK;
    setState(EMPTY_BOOK);
  }, [depth]);

  useEffect(() => {
    if (rejoining) setRejoining(false);
  }, [rejoining]);

  useChannel(rejoining ? null : depth, (event) => {
    const data = event.data as SpotDepthData;
    if (!data || !Array.isArray(data.bids) || !Array.isArray(data.asks)) return;
    const seq = marketStore.getState().seqByChannel.get(event.channel) ?? 0;
    const next = reduceBook(book.current, {
      type: event.snapshot ? 'snapshot' : 'diff',
      seq,
      bids: data.bids,
      asks: data.asks,
    });
    book.current = next.state;
    setState(next.state);
    if (next.result === 'gap') setRejoining(true);
  });
  return state;
}

export const TRADES_SHOWN = 50;

/** Latest public prints, newest first: the channel's snapshot, then new prints (oldest first) on top. */
export function useLiveTrades(symbol: string, demo: boolean): SpotTradeData[] | null {
  const { trades } = spotChannels(symbol, demo);
  const [items, setItems] = useState<SpotTradeData[] | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: another channel starts from no prints
  useEffect(() => setItems(null), [trades]);
  useChannel(trades, (event) => {
    const data = event.data as SpotTradesMessage;
    if (!data || !Array.isArray(data.items)) return;
    if (event.snapshot) setItems(data.items.slice(0, TRADES_SHOWN));
    else setItems((list) => [...[...data.items].reverse(), ...(list ?? [])].slice(0, TRADES_SHOWN));
  });
  return items;
}
