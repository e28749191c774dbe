import type { Side, StpMode } from './types.ts';

/**
 * One resting order: a node of its price level's intrusive doubly linked list, so unlinking it
 * (cancel, fill) is O(1) once the id map has found it. Nodes are pooled and reused.
 */
export class OrderNode {
  orderId = '';
  userId = '';
  side: Side = 'buy';
  priceTicks = 0;
  openLots = 0;
  seq = 0;
  timestampMs = 0;
  stp: StpMode = 'cancel-taker';
  prev: OrderNode | null = null;
  next: OrderNode | null = null;
  level: Level | null = null;
}

/** All resting orders at one price on one side, oldest first (time priority). */
export class Level {
  priceTicks = 0;
  totalLots = 0;
  count = 0;
  head: OrderNode | null = null;
  tail: OrderNode | null = null;

  append(node: OrderNode): void {
    node.level = this;
    node.prev = this.tail;
    node.next = null;
    if (this.tail) this.tail.next = node;
    else this.head = node;
    this.tail = node;
    this.count += 1;
    this.totalLots += node.openLots;
  }

  unlink(node: OrderNode): void {
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev;
    this.count -= 1;
    this.totalLots -= node.openLots;
    node.prev = null;
    node.next = null;
    node.level = null;
  }
}

/**
 * One side's price levels: an array sorted so that the best level is the LAST element (best bid =
 * highest price, best ask = lowest), plus a price → level map. Best-price access and removal of the
 * best level are O(1) (`at(-1)`, `pop`); finding an existing level is O(1) through the map; a new
 * level is placed by binary search, O(log n) to find and a memmove of the levels better than it —
 * which, since new orders land near the top of the book, is usually a handful of elements.
 */
export class BookSide {
  readonly side: Side;
  readonly levels: Level[] = [];
  readonly byPrice = new Map<number, Level>();
  private readonly pool: Level[] = [];

  constructor(side: Side) {
    this.side = side;
  }

  best(): Level | undefined {
    return this.levels[this.levels.length - 1];
  }

  /** Sort key, ascending along the array: bids by price, asks by −price. */
  private key(priceTicks: number): number {
    return this.side === 'buy' ? priceTicks : -priceTicks;
  }

  /** Index of the first level whose key is ≥ the price's key. */
  private search(priceTicks: number): number {
    const k = this.key(priceTicks);
    const levels = this.levels;
    let lo = 0;
    let hi = levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.key(levels[mid]!.priceTicks) < k) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  levelFor(priceTicks: number): Level {
    const found = this.byPrice.get(priceTicks);
    if (found) return found;
    const level = this.pool.pop() ?? new Level();
    level.priceTicks = priceTicks;
    level.totalLots = 0;
    level.count = 0;
    level.head = null;
    level.tail = null;
    this.byPrice.set(priceTicks, level);
    const levels = this.levels;
    const last = levels[levels.length - 1];
    if (!last || this.key(last.priceTicks) < this.key(priceTicks)) levels.push(level);
    else levels.splice(this.search(priceTicks), 0, level);
    return level;
  }

  /** Restore: a new level worse than every level so far (snapshots list levels best first). */
  levelForRestore(priceTicks: number): Level {
    const level = new Level();
    level.priceTicks = priceTicks;
    this.byPrice.set(priceTicks, level);
    this.levels.push(level);
    return level;
  }

  /** Restore built the array best-first; flip it into best-last order. */
  finishRestore(): void {
    this.levels.reverse();
  }

  removeLevel(level: Level): void {
    const levels = this.levels;
    if (levels[levels.length - 1] === level) levels.pop();
    else {
      const index = this.search(level.priceTicks);
      if (levels[index] !== level) throw new Error('matching: level index out of sync');
      levels.splice(index, 1);
    }
    this.byPrice.delete(level.priceTicks);
    if (this.pool.length < LEVEL_POOL_MAX) this.pool.push(level);
  }
}

export const LEVEL_POOL_MAX = 4_096;
export const ORDER_POOL_MAX = 65_536;
