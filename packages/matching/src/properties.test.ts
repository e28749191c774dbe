import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MatchingBook } from './book.ts';
import { collectEvents } from './index.ts';
import { journalArb, journalOf } from './testing/journal.ts';
import { ReferenceBook } from './testing/reference.ts';
import type { BookConfig, BookSnapshot, Command, EngineEvent } from './types.ts';

/** fast-check prints the seed and the shrunk journal on failure. */
const RUNS = Number.parseInt(process.env.MATCHING_PROPERTY_RUNS ?? '300', 10);

const params = { numRuns: RUNS };

function runAll(config: BookConfig, journal: readonly Command[]) {
  const { events, sink } = collectEvents();
  const book = new MatchingBook(config, sink);
  for (const c of journal) book.apply(c);
  return { book, events };
}

describe('matching engine against the reference matcher', () => {
  it('emits exactly the events of the reference, command by command, and rests the same orders', () => {
    fc.assert(
      fc.property(journalArb, ([config, intents]) => {
        const journal = journalOf(intents);
        const reference = new ReferenceBook(config);
        let events: EngineEvent[] = [];
        const book = new MatchingBook(config, (e) => events.push({ ...e } as EngineEvent));
        for (const c of journal) {
          events = [];
          book.apply(c);
          expect(events).toEqual(reference.apply(c));
        }
        expect(book.restingOrders('buy')).toEqual(reference.resting('buy'));
        expect(book.restingOrders('sell')).toEqual(reference.resting('sell'));
      }),
      params,
    );
  });

  it('conserves quantity: accepted + increased = traded + cancelled + reduced + resting, per order', () => {
    fc.assert(
      fc.property(journalArb, ([config, intents]) => {
        const { book, events } = runAll(config, journalOf(intents));
        const placed = new Map<string, number>();
        const gone = new Map<string, number>();
        const add = (m: Map<string, number>, id: string, q: number) => m.set(id, (m.get(id) ?? 0) + q);
        for (const e of events) {
          if (e.type === 'accepted' || e.type === 'increased') add(placed, e.orderId, e.qtyLots);
          if (e.type === 'cancelled' || e.type === 'reduced') add(gone, e.orderId, e.qtyLots);
          if (e.type === 'trade') {
            add(gone, e.makerOrderId, e.qtyLots);
            add(gone, e.takerOrderId, e.qtyLots);
          }
        }
        // Ids can be reused once an order is done, so the sums are per id over its lifetimes.
        for (const [id, qty] of placed) {
          expect(qty).toBe((gone.get(id) ?? 0) + (book.order(id)?.openLots ?? 0));
        }
        const levels = book.depth(1_000);
        const resting = [...book.restingOrders('buy'), ...book.restingOrders('sell')];
        expect([...levels.bids, ...levels.asks].reduce((s, l) => s + l.qtyLots, 0)).toBe(
          resting.reduce((s, o) => s + o.openLots, 0),
        );
        for (const l of levels.bids) expect(book.levelLots('buy', l.priceTicks)).toBe(l.qtyLots);
        for (const l of levels.asks) expect(book.levelLots('sell', l.priceTicks)).toBe(l.qtyLots);
        expect(book.openOrders).toBe(resting.length);
        expect(book.openOrders).toBeLessThanOrEqual(config.maxOpenOrders);
      }),
      params,
    );
  });

  it('never leaves the book crossed, and every resting order is positive', () => {
    fc.assert(
      fc.property(journalArb, ([config, intents]) => {
        const book = new MatchingBook(config);
        for (const c of journalOf(intents)) {
          book.apply(c);
          const bid = book.bestBid();
          const ask = book.bestAsk();
          if (bid !== undefined && ask !== undefined) expect(bid).toBeLessThan(ask);
        }
        for (const o of [...book.restingOrders('buy'), ...book.restingOrders('sell')]) {
          expect(o.openLots).toBeGreaterThan(0);
        }
      }),
      params,
    );
  });

  it('replaying the journal into a fresh engine gives the same events and the same hash', () => {
    fc.assert(
      fc.property(journalArb, ([config, intents]) => {
        const journal = journalOf(intents);
        const first = runAll(config, journal);
        const second = runAll(config, structuredClone(journal));
        expect(second.events).toEqual(first.events);
        expect(second.book.hash()).toBe(first.book.hash());
      }),
      params,
    );
  });

  it('snapshot → JSON → restore → continue equals the uninterrupted run', () => {
    fc.assert(
      fc.property(journalArb, fc.nat(), ([config, intents], cutAt) => {
        const journal = journalOf(intents);
        const cut = cutAt % (journal.length + 1);
        const whole = runAll(config, journal);

        const head = runAll(config, journal.slice(0, cut));
        const snapshot = JSON.parse(JSON.stringify(head.book.snapshot())) as BookSnapshot;
        const { events: tail, sink } = collectEvents();
        const restored = MatchingBook.restore(snapshot, sink);
        expect(restored.hash()).toBe(head.book.hash());
        for (const c of journal.slice(cut)) restored.apply(c);
        expect([...head.events, ...tail]).toEqual(whole.events);
        expect(restored.hash()).toBe(whole.book.hash());
        expect(restored.snapshot()).toEqual(whole.book.snapshot());
      }),
      params,
    );
  });
});
