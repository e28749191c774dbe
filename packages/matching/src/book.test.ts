import { describe, expect, it } from 'vitest';
import { MatchingBook } from './book.ts';
import { collectEvents, DEFAULT_MAX_OPEN_ORDERS, DEFAULT_MAX_QTY_LOTS } from './index.ts';
import type { BookConfig, Command, EngineEvent, PlaceCommand } from './types.ts';

const config: BookConfig = {
  market: 'BTC-USDT',
  minQtyLots: 2,
  maxQtyLots: 1_000,
  maxPriceTicks: 100_000,
  maxOpenOrders: 100,
  band: { ticks: 5 },
  stpDefault: 'cancel-taker',
};

/** A book plus a helper that applies commands with increasing seq and returns that command's events. */
function setup(overrides: Partial<BookConfig> = {}) {
  const { events, sink } = collectEvents();
  const book = new MatchingBook({ ...config, ...overrides }, sink);
  let seq = 0;
  const run = (command: Record<string, unknown>): EngineEvent[] => {
    const from = events.length;
    seq += 1;
    book.apply({ seq, timestampMs: 1_000 + seq, ...command } as unknown as Command);
    return events.slice(from);
  };
  const limit = (
    orderId: string,
    userId: string,
    side: 'buy' | 'sell',
    priceTicks: number,
    qtyLots: number,
    extra: Partial<PlaceCommand> = {},
  ) => run({ type: 'place', orderId, userId, side, kind: 'limit', priceTicks, qtyLots, ...extra });
  const market = (
    orderId: string,
    userId: string,
    side: 'buy' | 'sell',
    qtyLots: number,
    extra: Partial<PlaceCommand> = {},
  ) => run({ type: 'place', orderId, userId, side, kind: 'market', qtyLots, ...extra });
  return { book, events, run, limit, market };
}

const types = (events: EngineEvent[]) =>
  events.map((e) => ('reason' in e ? `${e.type}:${e.reason}` : e.type));
const trades = (events: EngineEvent[]) =>
  events.flatMap((e) =>
    e.type === 'trade' ? [[e.makerOrderId, e.takerOrderId, e.priceTicks, e.qtyLots]] : [],
  );

describe('limit orders and price-time priority', () => {
  it('rests a GTC order that does not cross, and reports it', () => {
    const { book, limit } = setup();
    const ev = limit('a', 'u1', 'buy', 100, 5);
    expect(types(ev)).toEqual(['accepted', 'rested']);
    expect(ev[1]).toMatchObject({
      orderId: 'a',
      side: 'buy',
      priceTicks: 100,
      qtyLots: 5,
      seq: 1,
      timestampMs: 1_001,
    });
    expect(book.bestBid()).toBe(100);
    expect(book.depth(5)).toEqual({ bids: [{ priceTicks: 100, qtyLots: 5, orders: 1 }], asks: [] });
  });

  it('fills better prices first, then older orders first at the same price, at the maker price', () => {
    const { limit } = setup();
    limit('s1', 'u1', 'sell', 101, 3);
    limit('s2', 'u2', 'sell', 100, 3);
    limit('s3', 'u3', 'sell', 100, 3);
    limit('s4', 'u1', 'sell', 102, 3);
    const ev = limit('b', 'u9', 'buy', 101, 8);
    expect(trades(ev)).toEqual([
      ['s2', 'b', 100, 3],
      ['s3', 'b', 100, 3],
      ['s1', 'b', 101, 2],
    ]);
    expect(types(ev)).toEqual(['accepted', 'trade', 'filled', 'trade', 'filled', 'trade', 'filled']);
    const trade = ev.find((e) => e.type === 'trade');
    expect(trade).toMatchObject({ makerUserId: 'u2', takerUserId: 'u9', takerSide: 'buy', tradeId: 1 });
  });

  it('rests the remainder of a partly filled GTC order at its limit', () => {
    const { book, limit } = setup();
    limit('s', 'u1', 'sell', 100, 4);
    const ev = limit('b', 'u2', 'buy', 105, 10);
    expect(types(ev)).toEqual(['accepted', 'trade', 'filled', 'rested']);
    expect(ev[3]).toMatchObject({ priceTicks: 105, qtyLots: 6 });
    expect(book.order('b')?.openLots).toBe(6);
    expect(book.bestAsk()).toBeUndefined();
  });
});

describe('time in force', () => {
  it('IOC trades what it can and cancels the rest', () => {
    const { book, limit } = setup();
    limit('s', 'u1', 'sell', 100, 4);
    const ev = limit('b', 'u2', 'buy', 100, 10, { tif: 'IOC' });
    expect(types(ev)).toEqual(['accepted', 'trade', 'filled', 'cancelled:IOC_REMAINDER']);
    expect(ev[3]).toMatchObject({ qtyLots: 6, resting: false });
    expect(book.openOrders).toBe(0);
  });

  it('FOK fills completely or does nothing at all', () => {
    const { book, limit } = setup();
    limit('s1', 'u1', 'sell', 100, 4);
    limit('s2', 'u1', 'sell', 101, 4);
    const hash = book.hash();
    const killed = limit('b1', 'u2', 'buy', 101, 9, { tif: 'FOK' });
    expect(types(killed)).toEqual(['accepted', 'cancelled:FOK_UNFILLABLE']);
    expect(killed[1]).toMatchObject({ qtyLots: 9 });
    expect(book.order('s1')?.openLots).toBe(4);
    const filled = limit('b2', 'u2', 'buy', 101, 8, { tif: 'FOK' });
    expect(types(filled)).toEqual(['accepted', 'trade', 'filled', 'trade', 'filled', 'filled']);
    expect(hash).not.toBe(book.hash());
  });

  it('FOK does not count the taker own orders when STP would stop at them', () => {
    const { limit } = setup();
    limit('own', 'u1', 'sell', 100, 5);
    limit('other', 'u2', 'sell', 100, 5);
    expect(types(limit('b', 'u1', 'buy', 100, 5, { tif: 'FOK' }))).toEqual([
      'accepted',
      'cancelled:FOK_UNFILLABLE',
    ]);
    expect(types(limit('b2', 'u1', 'buy', 100, 5, { tif: 'FOK', stp: 'cancel-maker' }))).toEqual([
      'accepted',
      'cancelled:SELF_TRADE',
      'trade',
      'filled',
      'filled',
    ]);
  });
});

describe('post-only', () => {
  it('is refused when it would take, and rests when it would not', () => {
    const { book, limit } = setup();
    limit('s', 'u1', 'sell', 100, 4);
    const ev = limit('p', 'u2', 'buy', 100, 4, { postOnly: true });
    expect(types(ev)).toEqual(['rejected:POST_ONLY_WOULD_TAKE']);
    expect(book.openOrders).toBe(1);
    expect(types(limit('p2', 'u2', 'buy', 99, 4, { postOnly: true }))).toEqual(['accepted', 'rested']);
  });

  it('only goes with a GTC limit order', () => {
    const { limit, market } = setup();
    expect(types(limit('p', 'u', 'buy', 99, 4, { postOnly: true, tif: 'IOC' }))).toEqual([
      'rejected:POST_ONLY_NOT_LIMIT_GTC',
    ]);
    expect(types(market('m', 'u', 'buy', 4, { postOnly: true }))).toEqual([
      'rejected:POST_ONLY_NOT_LIMIT_GTC',
    ]);
  });
});

describe('self-trade prevention', () => {
  const book3 = (stpDefault: BookConfig['stpDefault']) => {
    const s = setup({ stpDefault });
    s.limit('o1', 'u2', 'sell', 100, 2);
    s.limit('own', 'u1', 'sell', 100, 2);
    s.limit('o2', 'u3', 'sell', 100, 2);
    return s;
  };

  it('cancel-taker (the default): trades up to the own order, then cancels the taker rest', () => {
    const { book, limit } = book3('cancel-taker');
    const ev = limit('t', 'u1', 'buy', 100, 6);
    expect(trades(ev)).toEqual([['o1', 't', 100, 2]]);
    expect(types(ev).at(-1)).toBe('cancelled:SELF_TRADE');
    expect(ev.at(-1)).toMatchObject({ orderId: 't', qtyLots: 4, resting: false });
    expect(book.order('own')?.openLots).toBe(2);
  });

  it('cancel-maker: cancels the own resting order and keeps matching', () => {
    const { book, limit } = book3('cancel-taker');
    const ev = limit('t', 'u1', 'buy', 100, 6, { stp: 'cancel-maker' });
    expect(trades(ev)).toEqual([
      ['o1', 't', 100, 2],
      ['o2', 't', 100, 2],
    ]);
    expect(ev.find((e) => e.type === 'cancelled')).toMatchObject({
      orderId: 'own',
      reason: 'SELF_TRADE',
      resting: true,
    });
    expect(book.order('own')).toBeUndefined();
    expect(book.order('t')?.openLots).toBe(2);
  });

  it('cancel-both: cancels the own resting order and the taker rest', () => {
    const { book, limit } = book3('cancel-both');
    const ev = limit('t', 'u1', 'buy', 100, 6);
    expect(types(ev)).toEqual([
      'accepted',
      'trade',
      'filled',
      'cancelled:SELF_TRADE',
      'cancelled:SELF_TRADE',
    ]);
    expect(book.order('own')).toBeUndefined();
    expect(book.order('o2')?.openLots).toBe(2);
    expect(book.order('t')).toBeUndefined();
  });
});

describe('market orders and the price band', () => {
  it('trades within the band of the best price and cancels the rest as PRICE_BAND', () => {
    const { book, limit, market } = setup({ band: { ticks: 5 } });
    limit('s1', 'u1', 'sell', 100, 2);
    limit('s2', 'u1', 'sell', 105, 2);
    limit('s3', 'u1', 'sell', 106, 2);
    const ev = market('m', 'u2', 'buy', 10);
    expect(trades(ev)).toEqual([
      ['s1', 'm', 100, 2],
      ['s2', 'm', 105, 2],
    ]);
    expect(ev.at(-1)).toMatchObject({ type: 'cancelled', reason: 'PRICE_BAND', qtyLots: 6, priceTicks: 0 });
    expect(book.bestAsk()).toBe(106);
  });

  it('measures the band from the given reference price, in basis points', () => {
    const { market, limit } = setup({ band: { bps: 500 } }); // 5 %
    limit('b1', 'u1', 'buy', 1_000, 2);
    limit('b2', 'u1', 'buy', 951, 2);
    limit('b3', 'u1', 'buy', 950, 2);
    limit('b4', 'u1', 'buy', 949, 2);
    // reference 1000 → sells may trade down to 950
    const ev = market('m', 'u2', 'sell', 10, { referencePriceTicks: 1_000 });
    expect(trades(ev).map((t) => t[2])).toEqual([1_000, 951, 950]);
    expect(ev.at(-1)).toMatchObject({ reason: 'PRICE_BAND', qtyLots: 4 });
    // reference 990 → distance 49.5 floored to 49 → may trade down to 941: reaches b4 at 949
    const ev2 = market('m2', 'u2', 'sell', 2, { referencePriceTicks: 990 });
    expect(trades(ev2)).toEqual([['b4', 'm2', 949, 2]]);
  });

  it('is cancelled as NO_LIQUIDITY on an empty side, and can be FOK but never GTC', () => {
    const { market, limit } = setup();
    expect(types(market('m', 'u', 'buy', 3))).toEqual(['accepted', 'cancelled:NO_LIQUIDITY']);
    limit('s', 'u1', 'sell', 100, 2);
    expect(types(market('m2', 'u', 'buy', 3))).toEqual([
      'accepted',
      'trade',
      'filled',
      'cancelled:NO_LIQUIDITY',
    ]);
    limit('s2', 'u1', 'sell', 100, 2);
    expect(types(market('m3', 'u', 'buy', 3, { tif: 'FOK' }))).toEqual([
      'accepted',
      'cancelled:FOK_UNFILLABLE',
    ]);
    expect(types(market('m4', 'u', 'buy', 3, { tif: 'GTC' }))).toEqual(['rejected:INVALID_TIF']);
    expect(types(market('m5', 'u', 'buy', 3, { priceTicks: 100 }))).toEqual(['rejected:INVALID_PRICE']);
  });
});

describe('cancel and amend', () => {
  it('cancels a resting order by id, and refuses unknown ids and other users orders', () => {
    const { book, run, limit } = setup();
    limit('a', 'u1', 'buy', 100, 5);
    expect(types(run({ type: 'cancel', orderId: 'a', userId: 'u2' }))).toEqual(['rejected:UNKNOWN_ORDER']);
    expect(types(run({ type: 'cancel', orderId: 'zzz', userId: 'u1' }))).toEqual(['rejected:UNKNOWN_ORDER']);
    const ev = run({ type: 'cancel', orderId: 'a', userId: 'u1' });
    expect(ev).toEqual([
      expect.objectContaining({
        type: 'cancelled',
        reason: 'USER',
        qtyLots: 5,
        resting: true,
        priceTicks: 100,
        side: 'buy',
      }),
    ]);
    expect(book.openOrders).toBe(0);
    expect(book.depth(5).bids).toEqual([]);
    expect(types(run({ type: 'cancel', orderId: 'a', userId: 'u1' }))).toEqual(['rejected:UNKNOWN_ORDER']);
  });

  it('a reduction keeps the order first in its queue', () => {
    const { run, limit } = setup();
    limit('a', 'u1', 'buy', 100, 5);
    limit('b', 'u2', 'buy', 100, 5);
    const ev = run({ type: 'amend', orderId: 'a', userId: 'u1', qtyLots: 3 });
    expect(ev).toEqual([expect.objectContaining({ type: 'reduced', qtyLots: 2, remainingLots: 3 })]);
    expect(trades(limit('s', 'u3', 'sell', 100, 4))).toEqual([
      ['a', 's', 100, 3],
      ['b', 's', 100, 1],
    ]);
  });

  it('an increase sends the order to the back of its queue', () => {
    const { book, run, limit } = setup();
    limit('a', 'u1', 'buy', 100, 5);
    limit('b', 'u2', 'buy', 100, 5);
    const ev = run({ type: 'amend', orderId: 'a', userId: 'u1', qtyLots: 7 });
    expect(ev).toEqual([expect.objectContaining({ type: 'increased', qtyLots: 2, remainingLots: 7 })]);
    expect(book.order('a')?.seq).toBe(3);
    expect(book.depth(1).bids).toEqual([{ priceTicks: 100, qtyLots: 12, orders: 2 }]);
    expect([book.levelLots('buy', 100), book.levelLots('sell', 100), book.levelLots('buy', 99)]).toEqual([
      12, 0, 0,
    ]);
    expect(trades(limit('s', 'u3', 'sell', 100, 6))).toEqual([
      ['b', 's', 100, 5],
      ['a', 's', 100, 1],
    ]);
  });

  it('refuses an amend to the same, a too small or a malformed quantity', () => {
    const { run, limit } = setup();
    limit('a', 'u1', 'buy', 100, 5);
    expect(types(run({ type: 'amend', orderId: 'a', userId: 'u1', qtyLots: 5 }))).toEqual([
      'rejected:AMEND_UNCHANGED',
    ]);
    expect(types(run({ type: 'amend', orderId: 'a', userId: 'u1', qtyLots: 1 }))).toEqual([
      'rejected:QTY_BELOW_MIN',
    ]);
    expect(types(run({ type: 'amend', orderId: 'a', userId: 'u1', qtyLots: 0 }))).toEqual([
      'rejected:INVALID_QTY',
    ]);
    expect(types(run({ type: 'amend', orderId: 'a', userId: 'u1', qtyLots: 2.5 }))).toEqual([
      'rejected:INVALID_QTY',
    ]);
    expect(types(run({ type: 'amend', orderId: 'x', userId: 'u1', qtyLots: 4 }))).toEqual([
      'rejected:UNKNOWN_ORDER',
    ]);
  });
});

describe('input validation', () => {
  it('refuses a duplicate live order id, but allows reuse after the order is done', () => {
    const { run, limit } = setup();
    limit('a', 'u1', 'buy', 100, 5);
    expect(types(limit('a', 'u2', 'sell', 200, 5))).toEqual(['rejected:DUPLICATE_ORDER_ID']);
    run({ type: 'cancel', orderId: 'a', userId: 'u1' });
    expect(types(limit('a', 'u2', 'sell', 200, 5))).toEqual(['accepted', 'rested']);
  });

  it('refuses quantities below the minimum and above the maximum', () => {
    const { limit } = setup();
    expect(types(limit('a', 'u', 'buy', 100, 1))).toEqual(['rejected:QTY_BELOW_MIN']);
    expect(types(limit('a', 'u', 'buy', 100, 1_001))).toEqual(['rejected:QTY_ABOVE_MAX']);
    expect(types(limit('a', 'u', 'buy', 100, 2))).toEqual(['accepted', 'rested']);
  });

  it.each([0, -3, 2.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '5', 5n, null])(
    'refuses %s as a quantity or a price without touching the book',
    (bad) => {
      const { book, limit, market } = setup();
      limit('keep', 'u0', 'sell', 500, 3);
      const hash = book.hash();
      expect(types(limit('q', 'u', 'buy', 100, bad as number))).toEqual(['rejected:INVALID_QTY']);
      expect(types(market('q', 'u', 'buy', bad as number))).toEqual(['rejected:INVALID_QTY']);
      expect(types(limit('p', 'u', 'buy', bad as number, 3))).toEqual(['rejected:INVALID_PRICE']);
      expect(types(market('r', 'u', 'buy', 3, { referencePriceTicks: bad as number }))).toEqual([
        'rejected:INVALID_PRICE',
      ]);
      const seqNow = book.lastSeq;
      expect(book.snapshot()).toMatchObject({
        lastSeq: seqNow,
        bids: [],
        asks: [expect.objectContaining({ orderId: 'keep' })],
      });
      expect(hash).not.toBe(book.hash()); // only lastSeq moved
      expect(book.restingOrders('sell')).toHaveLength(1);
    },
  );

  it('refuses a price above the market maximum, bad ids, sides, kinds, TIF and STP', () => {
    const { limit, run } = setup();
    expect(types(limit('a', 'u', 'buy', 100_001, 3))).toEqual(['rejected:PRICE_ABOVE_MAX']);
    expect(types(limit('', 'u', 'buy', 100, 3))).toEqual(['rejected:INVALID_ORDER_ID']);
    expect(types(limit('x'.repeat(65), 'u', 'buy', 100, 3))).toEqual(['rejected:INVALID_ORDER_ID']);
    expect(types(limit('a', '', 'buy', 100, 3))).toEqual(['rejected:INVALID_USER_ID']);
    expect(types(limit('a', 'u', 'hold' as 'buy', 100, 3))).toEqual(['rejected:INVALID_SIDE']);
    expect(
      types(
        run({
          type: 'place',
          orderId: 'a',
          userId: 'u',
          side: 'buy',
          kind: 'stop',
          priceTicks: 1,
          qtyLots: 3,
        }),
      ),
    ).toEqual(['rejected:INVALID_KIND']);
    expect(types(limit('a', 'u', 'buy', 100, 3, { tif: 'GTD' as 'GTC' }))).toEqual(['rejected:INVALID_TIF']);
    expect(types(limit('a', 'u', 'buy', 100, 3, { stp: 'none' as 'cancel-maker' }))).toEqual([
      'rejected:INVALID_STP',
    ]);
    expect(types(run({ type: 'modify', orderId: 'a', userId: 'u' }))).toEqual(['rejected:INVALID_COMMAND']);
  });

  it('refuses a GTC order when the book holds maxOpenOrders, but still takes IOC liquidity', () => {
    const { limit } = setup({ maxOpenOrders: 2 });
    limit('a', 'u1', 'buy', 100, 5);
    limit('b', 'u1', 'buy', 99, 5);
    expect(types(limit('c', 'u1', 'buy', 98, 5))).toEqual(['rejected:BOOK_FULL']);
    expect(types(limit('d', 'u2', 'sell', 100, 5, { tif: 'IOC' }))).toEqual([
      'accepted',
      'trade',
      'filled',
      'filled',
    ]);
    expect(types(limit('c', 'u1', 'buy', 98, 5))).toEqual(['accepted', 'rested']);
  });

  it('throws on a non-increasing seq or a non-integer timestamp, which are broken contracts', () => {
    const book = new MatchingBook(config);
    const place = {
      type: 'place',
      orderId: 'a',
      userId: 'u',
      side: 'buy',
      kind: 'limit',
      priceTicks: 1,
      qtyLots: 2,
    } as const;
    book.apply({ ...place, seq: 5, timestampMs: 0 });
    expect(() => book.apply({ ...place, orderId: 'b', seq: 5, timestampMs: 0 })).toThrow(RangeError);
    expect(() => book.apply({ ...place, orderId: 'b', seq: 4, timestampMs: 0 })).toThrow(RangeError);
    expect(() => book.apply({ ...place, orderId: 'b', seq: 6, timestampMs: 1.5 })).toThrow(RangeError);
    expect(book.lastSeq).toBe(5);
    expect(book.openOrders).toBe(1);
  });
});

describe('config, snapshot and hash', () => {
  it('refuses a config whose sums could leave the safe-integer range, or that is malformed', () => {
    expect(
      () =>
        new MatchingBook({
          ...config,
          maxQtyLots: DEFAULT_MAX_QTY_LOTS,
          maxOpenOrders: DEFAULT_MAX_OPEN_ORDERS,
        }),
    ).not.toThrow();
    expect(
      () =>
        new MatchingBook({
          ...config,
          maxQtyLots: DEFAULT_MAX_QTY_LOTS + 1,
          maxOpenOrders: DEFAULT_MAX_OPEN_ORDERS,
        }),
    ).toThrow(/MAX_SAFE_INTEGER/);
    expect(() => new MatchingBook({ ...config, maxPriceTicks: 2 ** 40 })).toThrow(/maxPriceTicks/);
    expect(() => new MatchingBook({ ...config, band: { bps: 10_001 } })).toThrow(/band/);
    expect(
      () => new MatchingBook({ ...config, band: { ticks: 1, bps: 1 } as unknown as BookConfig['band'] }),
    ).toThrow(/band/);
    expect(() => new MatchingBook({ ...config, minQtyLots: 0 })).toThrow(/minQtyLots/);
    expect(() => new MatchingBook({ ...config, stpDefault: 'none' as 'cancel-maker' })).toThrow(/stpDefault/);
  });

  it('restores an identical book from a JSON snapshot and refuses a tampered one', () => {
    const { book, limit } = setup();
    limit('a', 'u1', 'buy', 100, 5);
    limit('b', 'u2', 'buy', 100, 6);
    limit('c', 'u2', 'buy', 98, 7);
    limit('d', 'u3', 'sell', 103, 8);
    limit('e', 'u3', 'sell', 101, 9);
    const snap = JSON.parse(JSON.stringify(book.snapshot()));
    const restored = MatchingBook.restore(snap);
    expect(restored.hash()).toBe(book.hash());
    expect(restored.depth(10)).toEqual(book.depth(10));
    expect(restored.nextTradeId).toBe(book.nextTradeId);

    const crossed = structuredClone(snap);
    crossed.asks[0].priceTicks = 99;
    expect(() => MatchingBook.restore(crossed)).toThrow(/crossed|order/);
    const unordered = structuredClone(snap);
    unordered.bids.reverse();
    expect(() => MatchingBook.restore(unordered)).toThrow(/out of order/);
    const dup = structuredClone(snap);
    dup.asks[0].orderId = 'a';
    expect(() => MatchingBook.restore(dup)).toThrow(/bad snapshot order/);
  });

  it('the hash changes with priority, not only with quantities', () => {
    const one = setup();
    one.limit('a', 'u1', 'buy', 100, 5);
    one.limit('b', 'u2', 'buy', 100, 5);
    const two = setup();
    two.limit('b', 'u2', 'buy', 100, 5);
    two.limit('a', 'u1', 'buy', 100, 5);
    expect(one.book.depth(1)).toEqual(two.book.depth(1));
    expect(one.book.hash()).not.toBe(two.book.hash());
  });

  it('keeps exact sums at the largest allowed quantities', () => {
    const { book, limit } = setup({ maxQtyLots: DEFAULT_MAX_QTY_LOTS, maxOpenOrders: 3 });
    for (const id of ['a', 'b', 'c']) limit(id, id, 'buy', 100, DEFAULT_MAX_QTY_LOTS);
    expect(book.depth(1).bids[0]?.qtyLots).toBe(DEFAULT_MAX_QTY_LOTS * 3);
    expect(Number.isSafeInteger(DEFAULT_MAX_QTY_LOTS * 3)).toBe(true);
  });
});
