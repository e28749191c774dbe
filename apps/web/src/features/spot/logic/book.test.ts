import { describe, expect, it } from 'vitest';
import { type BookAction, type BookState, depthView, EMPTY_BOOK, keyToDecimal, reduceBook } from './book.ts';

function run(actions: BookAction[], start: BookState = EMPTY_BOOK) {
  let state = start;
  const results: string[] = [];
  for (const action of actions) {
    const next = reduceBook(state, action);
    state = next.state;
    results.push(next.result);
  }
  return { state, results };
}

const snapshot: BookAction = {
  type: 'snapshot',
  seq: 10,
  bids: [
    ['100.00', '1.5'],
    ['99.50', '2'],
  ],
  asks: [
    ['100.50', '0.5'],
    ['101', '3'],
  ],
};

describe('order book reducer', () => {
  it('ignores diffs before the first snapshot', () => {
    const { state, results } = run([{ type: 'diff', seq: 1, bids: [['1', '1']], asks: [] }]);
    expect(results).toEqual(['waiting']);
    expect(state.status).toBe('empty');
    expect(state.bids.size).toBe(0);
  });

  it('applies a snapshot, then in-order diffs: sets, replaces and removes (qty 0) levels', () => {
    const { state, results } = run([
      snapshot,
      { type: 'diff', seq: 11, bids: [['100.00', '0']], asks: [['100.50', '0.75']] },
      { type: 'diff', seq: 12, bids: [['99.75', '4']], asks: [['102', '1']] },
    ]);
    expect(results).toEqual(['applied', 'applied', 'applied']);
    expect(state.seq).toBe(12);
    const view = depthView(state, 10);
    expect(view.bids.map((r) => [r.price, r.qty])).toEqual([
      ['99.75', '4'],
      ['99.50', '2'],
    ]);
    expect(view.asks.map((r) => [r.price, r.qty])).toEqual([
      ['100.50', '0.75'],
      ['101', '3'],
      ['102', '1'],
    ]);
  });

  it('treats equal prices written differently as one level', () => {
    const { state } = run([snapshot, { type: 'diff', seq: 11, bids: [['100', '7']], asks: [] }]);
    expect(state.bids.size).toBe(2);
    expect(depthView(state, 5).bids[0]?.qty).toBe('7');
  });

  it('drops a duplicate or old diff without changing the book', () => {
    const first = run([snapshot, { type: 'diff', seq: 11, bids: [['98', '1']], asks: [] }]);
    const { state, results } = run([{ type: 'diff', seq: 11, bids: [['97', '1']], asks: [] }], first.state);
    expect(results).toEqual(['duplicate']);
    expect(state).toBe(first.state);
  });

  it('stops on a gap, ignores later diffs, and recovers from the next snapshot', () => {
    const { state, results } = run([
      snapshot,
      { type: 'diff', seq: 12, bids: [['98', '1']], asks: [] },
      { type: 'diff', seq: 13, bids: [['97', '1']], asks: [] },
    ]);
    expect(results).toEqual(['applied', 'gap', 'waiting']);
    expect(state.status).toBe('resync');
    // Neither diff after the gap touched the book.
    expect([...state.bids.values()].map((l) => l.price)).toEqual(['100.00', '99.50']);
    const resynced = run(
      [
        { type: 'snapshot', seq: 20, bids: [['98', '1']], asks: [['99', '2']] },
        { type: 'diff', seq: 21, bids: [], asks: [['99', '1']] },
      ],
      state,
    );
    expect(resynced.results).toEqual(['applied', 'applied']);
    expect(resynced.state.status).toBe('live');
    expect(resynced.state.snapshots).toBe(2);
    expect(depthView(resynced.state, 5).asks[0]?.qty).toBe('1');
  });

  it('a snapshot replaces the whole book', () => {
    const { state } = run([snapshot, { type: 'snapshot', seq: 3, bids: [], asks: [['5', '1']] }]);
    expect(state.bids.size).toBe(0);
    expect(state.seq).toBe(3);
  });

  it('skips malformed levels and keeps the rest', () => {
    const { state } = run([
      {
        type: 'snapshot',
        seq: 1,
        bids: [
          ['abc', '1'],
          ['1', '2'],
        ],
        asks: [['2', '-1']],
      },
    ]);
    expect(state.bids.size).toBe(1);
    expect(state.asks.size).toBe(0);
  });
});

describe('depth view', () => {
  it('sorts, limits, sums cumulative depth exactly and scales bars to the deeper side', () => {
    const { state } = run([snapshot]);
    const view = depthView(state, 1);
    expect(view.bids).toHaveLength(1);
    const full = depthView(state, 10);
    expect(full.bids.map((r) => keyToDecimal(r.totalUnits))).toEqual(['1.5', '3.5']);
    expect(full.asks.map((r) => keyToDecimal(r.totalUnits))).toEqual(['0.5', '3.5']);
    expect(full.bids.map((r) => r.depthPct)).toEqual([42.85, 100]);
    expect(full.asks[0]?.depthPct).toBe(14.28);
    expect(keyToDecimal(full.spread ?? -1n)).toBe('0.5');
  });

  it('has no spread with one side empty and no bars for an empty book', () => {
    const view = depthView(EMPTY_BOOK, 10);
    expect(view.spread).toBeNull();
    expect(view.bids).toEqual([]);
  });

  it('sums quantities with many decimals without float error', () => {
    const { state } = run([
      {
        type: 'snapshot',
        seq: 1,
        bids: [
          ['3', '0.1'],
          ['2', '0.2'],
        ],
        asks: [],
      },
    ]);
    expect(keyToDecimal(depthView(state, 5).bids[1]?.totalUnits ?? 0n)).toBe('0.3');
  });
});
