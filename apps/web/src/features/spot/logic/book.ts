import { max, parseDecimal, toDecimalString } from '@bourse/money';

/**
 * The order book as the screen keeps it: a depth snapshot, then sequenced diffs. A diff carries the
 * book's sequence number; it applies only when it is exactly one more than the book's. Anything
 * else is a gap: the book stops (`resync`), drops every diff until a fresh snapshot arrives, and
 * asks the caller to fetch one. Prices and quantities stay decimal strings for display; their
 * order and sums are computed on bigints (never floats).
 */

/** Internal scale for keys and sums: generous enough for any price or quantity the server sends. */
const KEY_SCALE = 18;

export type LevelInput = readonly [price: string, qty: string];

export type BookLevel = { price: string; qty: string; priceUnits: bigint; qtyUnits: bigint };

export type BookState = {
  /** `empty` before the first snapshot; `live` while diffs apply; `resync` after a gap. */
  status: 'empty' | 'live' | 'resync';
  seq: number;
  bids: ReadonlyMap<bigint, BookLevel>;
  asks: ReadonlyMap<bigint, BookLevel>;
  /** Snapshots applied (a resync shows as one more). */
  snapshots: number;
};

export type BookAction =
  | { type: 'snapshot'; seq: number; bids: readonly LevelInput[]; asks: readonly LevelInput[] }
  | { type: 'diff'; seq: number; bids: readonly LevelInput[]; asks: readonly LevelInput[] }
  | { type: 'reset' };

export const EMPTY_BOOK: BookState = {
  status: 'empty',
  seq: 0,
  bids: new Map(),
  asks: new Map(),
  snapshots: 0,
};

/** A decimal string as bigint units at the key scale; null when it is not a non-negative decimal. */
export function decimalKey(value: string): bigint | null {
  const parsed = parseDecimal(value, { scale: KEY_SCALE });
  return parsed.ok ? parsed.units : null;
}

function applyLevels(target: Map<bigint, BookLevel>, levels: readonly LevelInput[]): void {
  for (const level of levels) {
    const [price, qty] = level;
    const priceUnits = decimalKey(price);
    const qtyUnits = decimalKey(qty);
    // A malformed level is the server's bug; skipping it keeps the rest of the book usable.
    if (priceUnits === null || qtyUnits === null) {
      console.error('[book] malformed level', level);
      continue;
    }
    if (qtyUnits === 0n) target.delete(priceUnits);
    else target.set(priceUnits, { price, qty, priceUnits, qtyUnits });
  }
}

/** What a diff did: `applied`; `duplicate` (already seen); `gap` (the caller must fetch a snapshot); `waiting`. */
export type DiffResult = 'applied' | 'duplicate' | 'gap' | 'waiting';

export function reduceBook(state: BookState, action: BookAction): { state: BookState; result: DiffResult } {
  if (action.type === 'reset') return { state: EMPTY_BOOK, result: 'applied' };
  if (action.type === 'snapshot') {
    const bids = new Map<bigint, BookLevel>();
    const asks = new Map<bigint, BookLevel>();
    applyLevels(bids, action.bids);
    applyLevels(asks, action.asks);
    return {
      state: { status: 'live', seq: action.seq, bids, asks, snapshots: state.snapshots + 1 },
      result: 'applied',
    };
  }
  if (state.status !== 'live') return { state, result: 'waiting' };
  if (action.seq <= state.seq) return { state, result: 'duplicate' };
  if (action.seq !== state.seq + 1) {
    return { state: { ...state, status: 'resync' }, result: 'gap' };
  }
  const bids = new Map(state.bids);
  const asks = new Map(state.asks);
  applyLevels(bids, action.bids);
  applyLevels(asks, action.asks);
  return { state: { ...state, seq: action.seq, bids, asks }, result: 'applied' };
}

export type DepthRow = BookLevel & {
  /** Sum of quantities from the best price to this level. */
  totalUnits: bigint;
  /** This level's cumulative depth as a share of the deepest shown, 0–100 (display only). */
  depthPct: number;
};

/** Shown levels: asks ascending, bids descending; the best `limit` of each, with cumulative depth. */
export function depthView(
  state: BookState,
  limit: number,
): { bids: DepthRow[]; asks: DepthRow[]; spread: bigint | null } {
  const sortedBids = [...state.bids.values()].sort((a, b) =>
    a.priceUnits === b.priceUnits ? 0 : a.priceUnits > b.priceUnits ? -1 : 1,
  );
  const sortedAsks = [...state.asks.values()].sort((a, b) =>
    a.priceUnits === b.priceUnits ? 0 : a.priceUnits < b.priceUnits ? -1 : 1,
  );
  const cumulate = (levels: BookLevel[]) => {
    let total = 0n;
    return levels.slice(0, limit).map((level) => {
      total += level.qtyUnits;
      return { ...level, totalUnits: total, depthPct: 0 };
    });
  };
  const bids = cumulate(sortedBids);
  const asks = cumulate(sortedAsks);
  const deepest = max(bids.at(-1)?.totalUnits ?? 0n, asks.at(-1)?.totalUnits ?? 0n);
  for (const row of [...bids, ...asks]) {
    // Basis points of the deepest side, as an integer; the bar width needs no more precision.
    row.depthPct = deepest === 0n ? 0 : Number((row.totalUnits * 10_000n) / deepest) / 100;
  }
  const bestBid = bids[0]?.priceUnits;
  const bestAsk = asks[0]?.priceUnits;
  const spread = bestBid !== undefined && bestAsk !== undefined ? bestAsk - bestBid : null;
  return { bids, asks, spread };
}

/** A key-scale bigint back to a decimal string (for cumulative totals). */
export function keyToDecimal(units: bigint): string {
  return toDecimalString(units, KEY_SCALE);
}
