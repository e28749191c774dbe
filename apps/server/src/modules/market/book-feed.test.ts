import { describe, expect, it } from 'vitest';
import { type BookCursor, type BookPrint, createBookFeed, type Recorded } from './feeds/book.ts';
import { createSimFeed } from './feeds/sim.ts';
import type { FeedTick } from './feeds/types.ts';
import { fixtureInstruments } from './fixtures/instruments.ts';

const CSV = [
  'symbol,name,class,base,quote,price_tick,lot_size,max_leverage,trading_hours,status,ref_price,feed_symbol',
  'NEW/USDT,New coin,crypto_spot,NEW,USDT,0.0001,0.01,1,24/7,active,0.05,book',
  'OLD/USDT,Halted coin,crypto_spot,OLD,USDT,0.0001,0.01,1,24/7,halted,0.05,book',
  'BTC/USDT,Bitcoin,crypto_spot,BTC,USDT,0.01,0.00001,1,24/7,active,60000,BTC/USDT',
].join('\n');
const instruments = fixtureInstruments(CSV);
const T0 = Date.parse('2026-11-26T12:00:00Z');

/** A stand-in for the spot module: recorded trades and the book's top, as the test sets them. */
function source(prints: BookPrint[] = [], top = { bid: null as string | null, ask: null as string | null }) {
  const calls: BookCursor[] = [];
  return {
    prints,
    top,
    calls,
    async read(symbol: string, after: BookCursor, limit: number) {
      calls.push(after);
      if (symbol !== 'NEW/USDT') return [];
      const newer = (p: BookPrint) =>
        'afterId' in after ? p.tradeId > after.afterId : p.atMs > after.afterMs;
      return prints.filter(newer).slice(0, limit);
    },
  };
}

function feedOn(s: ReturnType<typeof source>, recorded?: Recorded) {
  const feed = createBookFeed({ intervalMs: 1_000, reconfirmMs: 10_000, ...(recorded ? { recorded } : {}) });
  feed.setInstruments(instruments, () => null);
  feed.setSource({ prints: (sym, after, limit) => s.read(sym, after, limit), top: () => s.top });
  return feed;
}

const show = (t: FeedTick) =>
  `${t.instrument.symbol}@${t.atMs - T0} ${t.priceTicks} ${t.bidTicks}/${t.askTicks} m${t.markTicks} x${t.sizeUnits} ${t.source}`;
const print = (id: number, price: string, quantity: string, atMs: number): BookPrint => ({
  tradeId: BigInt(id),
  price,
  quantity,
  atMs,
});

describe('the book feed (a coin priced only by its own book)', () => {
  it('covers only `book` instruments, and the other feeds can be given the rest', () => {
    const feed = createBookFeed({ intervalMs: 1_000 });
    expect(instruments.filter((i) => feed.covers(i)).map((i) => i.symbol)).toEqual(['NEW/USDT', 'OLD/USDT']);
    // The sim covers everything when asked: the service hands each instrument to the first feed covering it.
    expect(createSimFeed({ seed: 's', intervalMs: 1_000 }).covers(instruments[0] as never)).toBe(true);
  });

  it('has no price before a first trade, and makes none up', async () => {
    const feed = createBookFeed({ intervalMs: 1_000 });
    feed.setInstruments(instruments, () => null);
    expect(await feed.poll(T0)).toEqual([]); // no source wired yet
    const s = source();
    const wired = feedOn(s);
    for (let i = 0; i < 5; i++) expect(await wired.poll(T0 + i * 20_000)).toEqual([]);
  });

  it('each new trade is one tick with its size; the top is the book’s, or the trade price when a side is empty', async () => {
    const s = source();
    const feed = feedOn(s);
    expect(await feed.poll(T0)).toEqual([]);
    s.prints.push(print(1, '0.08', '40', T0 + 100), print(2, '0.0812', '2.5', T0 + 200));
    s.top = { bid: '0.07', ask: '0.0815' };
    expect((await feed.poll(T0 + 1_000)).map(show)).toEqual([
      'NEW/USDT@100 800 700/815 m800 x4000000000 book',
      'NEW/USDT@200 812 700/815 m812 x250000000 book',
    ]);
    s.prints.push(print(3, '0.09', '1', T0 + 1_500));
    s.top = { bid: null, ask: null };
    expect((await feed.poll(T0 + 2_000)).map(show)).toEqual([
      'NEW/USDT@1500 900 900/900 m900 x100000000 book',
    ]);
    // Read after the cursor only; the halted instrument is never read.
    expect(s.calls).toEqual([{ afterId: 0n }, { afterId: 0n }, { afterId: 2n }]);
  });

  it('a market listed moments before its first poll counts the trades already made, volume and all', async () => {
    const s = source([print(1, '0.06', '100', T0 - 300)], { bid: null, ask: null });
    const feed = feedOn(s, () => ({ lastTickMs: 0, markTicks: 500n }));
    expect((await feed.poll(T0)).map(show)).toEqual(['NEW/USDT@-300 600 600/600 m600 x10000000000 book']);
  });

  it('a process starting continues after the last recorded tick: nothing counted twice, nothing lost', async () => {
    const s = source([print(7, '0.08', '1', T0 - 60_000), print(8, '0.081', '2', T0 - 30_000)], {
      bid: '0.079',
      ask: '0.081',
    });
    const feed = feedOn(s, () => ({ lastTickMs: T0 - 60_000, markTicks: 800n }));
    expect((await feed.poll(T0)).map(show)).toEqual(['NEW/USDT@-30000 810 790/810 m810 x200000000 book']);
    expect(s.calls).toEqual([{ afterMs: T0 - 60_000 }]);
    expect(await feed.poll(T0 + 1_000)).toEqual([]);
    expect(s.calls.at(-1)).toEqual({ afterId: 8n });
  });

  it('a quiet book re-confirms its last price with a zero-size tick every reconfirm interval', async () => {
    const s = source([print(7, '0.08', '1', T0 - 60_000)], { bid: '0.079', ask: '0.081' });
    const feed = feedOn(s, () => ({ lastTickMs: T0 - 60_000, markTicks: 800n }));
    // Nothing new since the record's last tick, which is long ago: re-confirmed at once.
    expect((await feed.poll(T0)).map(show)).toEqual(['NEW/USDT@0 800 790/810 m800 x0 book']);
    expect(await feed.poll(T0 + 5_000)).toEqual([]);
    s.top = { bid: '0.0795', ask: '0.081' };
    expect((await feed.poll(T0 + 10_000)).map(show)).toEqual(['NEW/USDT@10000 800 795/810 m800 x0 book']);
    expect(await feed.poll(T0 + 15_000)).toEqual([]);
  });

  it('prices off the grid round down to a tick; a crossed or unreadable top falls back to the trade price', async () => {
    const s = source([], { bid: '0.09', ask: '0.08' });
    const feed = feedOn(s);
    await feed.poll(T0);
    s.prints.push(print(1, '0.08009', '1', T0 + 1));
    expect((await feed.poll(T0 + 1_000)).map(show)).toEqual(['NEW/USDT@1 800 800/800 m800 x100000000 book']);
  });
});
