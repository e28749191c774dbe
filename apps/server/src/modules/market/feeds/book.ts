import { parseDecimal } from '@bourse/money';
import { type Instrument, QTY_SCALE } from '../instrument.ts';
import type { FeedTick, PriceFeed } from './types.ts';

/**
 * The price of a coin that trades only here (a launchpad listing): its own spot book. An instrument
 * whose `feed_symbol` is `book` is priced by nothing else — no simulated walk, no outside exchange:
 * its first price is its first trade, and until then it has none (market orders refuse; limit
 * orders are the price discovery).
 *
 * The feed reads recorded trades (the real book, never the demo one) after a cursor per symbol; a
 * process starting (or taking over as owner) continues after the instrument's last recorded tick,
 * so nothing is counted twice and nothing recorded later is lost (a trade stamped in the same
 * millisecond as that tick is taken as counted). Each trade is one tick (price, size) with the
 * book's best bid and ask at the poll. Without a trade, the last trade price is re-confirmed with a
 * zero-size tick every `reconfirmMs` carrying the current best bid and ask, so an open book's price
 * stays live — it is still the last price anyone paid — and its quote stays current.
 */
export const BOOK_FEED_SYMBOL = 'book';

export const BOOK_FEED_LIMITS = {
  /** Trades read per symbol per poll; the rest come on the next poll. */
  printsPerPoll: 2_000,
  reconfirmMs: 10_000,
} as const;

/** One recorded trade of the book, in decimals (the spot market's own grid). */
export type BookPrint = { tradeId: bigint; price: string; quantity: string; atMs: number };

/** Where reading resumes: after a trade id, or (at start) after the time of the last recorded tick. */
export type BookCursor = { afterId: bigint } | { afterMs: number };

/** What the spot module tells this feed (wired by wiring.ts once spot exists). */
export type BookSource = {
  /** Recorded real-book trades of `symbol` after the cursor, oldest first, at most `limit`. */
  prints(symbol: string, after: BookCursor, limit: number): Promise<BookPrint[]>;
  /** The book's best bid and ask now (null: that side is empty, or no such market yet). */
  top(symbol: string): { bid: string | null; ask: string | null };
};

export const isBookPriced = (instrument: Instrument): boolean => instrument.feedSymbol === BOOK_FEED_SYMBOL;

type Cursor = { after: BookCursor; lastTicks: bigint | null; lastEmitMs: number };

/** What the record says of an instrument: its last tick's time (0: never priced) and mark. */
export type Recorded = (symbol: string) => { lastTickMs: number; markTicks: bigint } | null;

export function createBookFeed(options: {
  intervalMs: number;
  reconfirmMs?: number;
  recorded?: Recorded;
}): PriceFeed & {
  setSource(source: BookSource): void;
} {
  const reconfirmMs = options.reconfirmMs ?? BOOK_FEED_LIMITS.reconfirmMs;
  let source: BookSource | null = null;
  let instruments: readonly Instrument[] = [];
  const cursors = new Map<string, Cursor>();

  /** A decimal price on the instrument's grid in ticks (rounded down; null if unreadable or not positive). */
  function ticksOf(instrument: Instrument, price: string | null): bigint | null {
    if (price === null) return null;
    const parsed = parseDecimal(price, { scale: instrument.priceScale + 12, allowZero: false });
    if (!parsed.ok) return null;
    const ticks = parsed.units / (instrument.tickUnits * 10n ** 12n);
    return ticks > 0n ? ticks : null;
  }

  function sizeOf(quantity: string): bigint {
    const parsed = parseDecimal(quantity, { scale: QTY_SCALE });
    return parsed.ok ? parsed.units : 0n;
  }

  function tick(instrument: Instrument, atMs: number, priceTicks: bigint, sizeUnits: bigint): FeedTick {
    const top = source?.top(instrument.symbol) ?? { bid: null, ask: null };
    const bid = ticksOf(instrument, top.bid) ?? priceTicks;
    const ask = ticksOf(instrument, top.ask) ?? priceTicks;
    return {
      instrument,
      atMs,
      priceTicks,
      bidTicks: bid <= ask ? bid : priceTicks,
      askTicks: bid <= ask ? ask : priceTicks,
      markTicks: priceTicks,
      sizeUnits,
      source: BOOK_FEED_SYMBOL,
    };
  }

  /** A new cursor: from the first trade if the record has no price, else after its last tick. */
  function startCursor(symbol: string): Cursor {
    const rec = options.recorded?.(symbol) ?? null;
    if (!rec || rec.lastTickMs === 0) return { after: { afterId: 0n }, lastTicks: null, lastEmitMs: 0 };
    return { after: { afterMs: rec.lastTickMs }, lastTicks: rec.markTicks, lastEmitMs: rec.lastTickMs };
  }

  async function pollOne(instrument: Instrument, nowMs: number, out: FeedTick[]): Promise<void> {
    if (!source || instrument.status !== 'active') return;
    const cursor = cursors.get(instrument.symbol) ?? startCursor(instrument.symbol);
    cursors.set(instrument.symbol, cursor);
    const prints = await source.prints(instrument.symbol, cursor.after, BOOK_FEED_LIMITS.printsPerPoll);
    for (const p of prints) {
      cursor.after = { afterId: p.tradeId };
      const priceTicks = ticksOf(instrument, p.price);
      if (priceTicks === null) continue;
      cursor.lastTicks = priceTicks;
      out.push(tick(instrument, Math.min(p.atMs, nowMs), priceTicks, sizeOf(p.quantity)));
      cursor.lastEmitMs = nowMs;
    }
    if (prints.length === 0 && cursor.lastTicks !== null && nowMs - cursor.lastEmitMs >= reconfirmMs) {
      out.push(tick(instrument, nowMs, cursor.lastTicks, 0n));
      cursor.lastEmitMs = nowMs;
    }
  }

  return {
    source: BOOK_FEED_SYMBOL,
    intervalMs: options.intervalMs,
    covers: isBookPriced,
    setSource(next) {
      source = next;
    },
    setInstruments(list) {
      instruments = list.filter(isBookPriced);
    },
    async poll(nowMs) {
      const ticks: FeedTick[] = [];
      for (const instrument of instruments) await pollOne(instrument, nowMs, ticks);
      return ticks;
    },
    async close() {},
  };
}
