import {
  assertLevel,
  boundaryOf,
  type ContractMath,
  executable,
  type Side,
  usdtDenominator,
} from './contract.ts';
import type { Ratio } from './ratio.ts';

export type PositionState = {
  id: string;
  side: Side;
  openUnits: bigint;
  lotsUnits: bigint;
  marginUnits: bigint;
  tpUnits: bigint | null;
  slUnits: bigint | null;
};

export type Trigger = { id: string; kind: 'stop_loss' | 'take_profit' | 'liquidation'; priceUnits: bigint };
export type BookTick = { bidUnits: bigint; askUnits: bigint; markUnits: bigint };
export type Revaluation = {
  positions: number;
  unrealizedPnlUnits: bigint;
  marginUnits: bigint;
  maxRiskRate: Ratio;
};

type Entry = {
  p: PositionState;
  /** lots × contract size × toUsdt.num: P&L of a price move Δ is Δ × k / d (USDT units). */
  k: bigint;
  /** Exact liquidation boundary (long: mark ≤ it; short: mark ≥ it), or null. */
  liq: bigint | null;
};

const byId = (a: Trigger, b: Trigger) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Keys (trigger prices) sorted ascending with their position ids. Changes are queued and applied
 * at the next query: up to 16 by binary-search insertion, more by one filtering pass plus a merge
 * of the sorted changes (O(n + d log d)), so loading 100,000 positions costs one sort, not 100,000
 * array shifts, and removing thousands after a shock costs one pass.
 */
class TriggerIndex {
  private keys: bigint[] = [];
  private ids: string[] = [];
  /** What `keys`/`ids` hold now. */
  private indexed = new Map<string, bigint>();
  /** What they should hold. */
  private wanted = new Map<string, bigint>();
  private dirty = new Set<string>();

  set(id: string, key: bigint | null): void {
    if (key === null) {
      if (!this.wanted.delete(id) && !this.indexed.has(id)) return;
    } else {
      if (this.wanted.get(id) === key && this.indexed.get(id) === key) return;
      this.wanted.set(id, key);
    }
    this.dirty.add(id);
  }

  /** Positions with key ≤ x. */
  collectAtMost(x: bigint, into: string[]): void {
    this.flush();
    const end = this.upperBound(x);
    for (let i = 0; i < end; i++) into.push(this.ids[i] as string);
  }

  /** Positions with key ≥ x. */
  collectAtLeast(x: bigint, into: string[]): void {
    this.flush();
    const keys = this.keys;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((keys[mid] as bigint) < x) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < keys.length; i++) into.push(this.ids[i] as string);
  }

  get size(): number {
    return this.wanted.size;
  }

  /** First index with key > x. */
  private upperBound(x: bigint): number {
    const keys = this.keys;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((keys[mid] as bigint) <= x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Position of (key, id) in the (key, id) order. */
  private seek(key: bigint, id: string): number {
    const keys = this.keys;
    const ids = this.ids;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = keys[mid] as bigint;
      if (k < key || (k === key && (ids[mid] as string) < id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private flush(): void {
    const dirty = this.dirty;
    if (dirty.size === 0) return;
    if (dirty.size <= 16) {
      for (const id of dirty) {
        const old = this.indexed.get(id);
        if (old !== undefined) {
          const at = this.seek(old, id);
          this.keys.splice(at, 1);
          this.ids.splice(at, 1);
          this.indexed.delete(id);
        }
        const key = this.wanted.get(id);
        if (key !== undefined) {
          const at = this.seek(key, id);
          this.keys.splice(at, 0, key);
          this.ids.splice(at, 0, id);
          this.indexed.set(id, key);
        }
      }
      dirty.clear();
      return;
    }
    // Many changes: drop the changed ids in one pass, sort only what is (re)added, merge. O(n + d log d).
    const adds: [bigint, string][] = [];
    for (const id of dirty) {
      const key = this.wanted.get(id);
      if (key === undefined) this.indexed.delete(id);
      else {
        this.indexed.set(id, key);
        adds.push([key, id]);
      }
    }
    adds.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    const oldKeys = this.keys;
    const oldIds = this.ids;
    const keys: bigint[] = [];
    const ids: string[] = [];
    let j = 0;
    for (let i = 0; i < oldKeys.length; i++) {
      const id = oldIds[i] as string;
      if (dirty.has(id)) continue;
      const key = oldKeys[i] as bigint;
      while (j < adds.length) {
        const add = adds[j] as [bigint, string];
        if (add[0] < key || (add[0] === key && add[1] < id)) {
          keys.push(add[0]);
          ids.push(add[1]);
          j++;
        } else break;
      }
      keys.push(key);
      ids.push(id);
    }
    for (; j < adds.length; j++) {
      const add = adds[j] as [bigint, string];
      keys.push(add[0]);
      ids.push(add[1]);
    }
    this.keys = keys;
    this.ids = ids;
    dirty.clear();
  }
}

function checkPosition(p: PositionState): void {
  if (typeof p.id !== 'string' || p.id === '') throw new RangeError('position id must be a non-empty string');
  if (p.side !== 'buy' && p.side !== 'sell')
    throw new RangeError(`position ${p.id}: side must be buy or sell`);
  if (typeof p.openUnits !== 'bigint' || p.openUnits <= 0n)
    throw new RangeError(`position ${p.id}: openUnits must be > 0`);
  if (typeof p.lotsUnits !== 'bigint' || p.lotsUnits <= 0n)
    throw new RangeError(`position ${p.id}: lotsUnits must be > 0`);
  if (typeof p.marginUnits !== 'bigint' || p.marginUnits <= 0n) {
    throw new RangeError(
      `position ${p.id}: marginUnits must be > 0 (close a position whose margin is used up)`,
    );
  }
  for (const v of [p.tpUnits, p.slUnits]) {
    if (v !== null && (typeof v !== 'bigint' || v <= 0n))
      throw new RangeError(`position ${p.id}: tp/sl must be > 0 or null`);
  }
}

function checkTick(t: BookTick): void {
  for (const v of [t.bidUnits, t.askUnits, t.markUnits]) {
    if (typeof v !== 'bigint' || v <= 0n) throw new RangeError('tick prices must be positive bigints');
  }
}

/**
 * The open positions of one instrument and book, for the risk engine's hot path. `evaluate`
 * touches only the positions a tick crosses (sorted trigger prices: O(log n + k)); `revalue` is the
 * full linear re-valuation. Results are exactly those of riskRate / reachesLevel / tpSlTriggered
 * run over every position (property-tested).
 */
export class PositionBook {
  private m: ContractMath;
  private level: Ratio;
  private spread: bigint;
  private readonly tick: bigint;
  private d: bigint;
  private readonly entries = new Map<string, Entry>();
  private readonly longLiq = new TriggerIndex(); // mark ≤ key
  private readonly shortLiq = new TriggerIndex(); // mark ≥ key
  private readonly longTp = new TriggerIndex(); // closeLong ≥ key
  private readonly longSl = new TriggerIndex(); // closeLong ≤ key
  private readonly shortTp = new TriggerIndex(); // closeShort ≤ key
  private readonly shortSl = new TriggerIndex(); // closeShort ≥ key

  constructor(m: ContractMath, level: Ratio, spreadUnits: bigint, tickUnits: bigint) {
    assertLevel(level);
    if (typeof spreadUnits !== 'bigint' || spreadUnits < 0n) throw new RangeError('spreadUnits must be ≥ 0');
    if (typeof tickUnits !== 'bigint' || tickUnits <= 0n) throw new RangeError('tickUnits must be > 0');
    // usdtDenominator validates nothing; a zero-lot factor call validates m.
    this.m = m;
    this.level = level;
    this.spread = spreadUnits;
    this.tick = tickUnits;
    this.d = this.validatedDenominator(m);
  }

  private validatedDenominator(m: ContractMath): bigint {
    if (!Number.isInteger(m.priceScale) || m.priceScale < 0 || m.priceScale > 12)
      throw new RangeError('bad priceScale');
    if (typeof m.contractSizeUnits !== 'bigint' || m.contractSizeUnits <= 0n)
      throw new RangeError('bad contractSizeUnits');
    if (m.toUsdt.den <= 0n || m.toUsdt.num < 0n) throw new RangeError('bad toUsdt');
    return usdtDenominator(m);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The tick size the book was made with (liquidation prices shown to customers use it). */
  get tickUnits(): bigint {
    return this.tick;
  }

  upsert(p: PositionState): void {
    checkPosition(p);
    const copy: PositionState = { ...p };
    const k = copy.lotsUnits * this.m.contractSizeUnits * this.m.toUsdt.num;
    const entry: Entry = {
      p: copy,
      k,
      liq: boundaryOf(copy.side, copy.openUnits, copy.marginUnits, this.level, k, this.d),
    };
    const previous = this.entries.get(copy.id);
    if (previous && previous.p.side !== copy.side) this.unindex(previous);
    this.entries.set(copy.id, entry);
    this.index(entry);
  }

  remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.unindex(entry);
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  setConversion(toUsdt: Ratio): void {
    const m = { ...this.m, toUsdt };
    this.d = this.validatedDenominator(m);
    this.m = m;
    for (const entry of this.entries.values()) {
      entry.k = entry.p.lotsUnits * m.contractSizeUnits * toUsdt.num;
    }
    this.reindexLiquidations();
  }

  setLevel(level: Ratio): void {
    assertLevel(level);
    this.level = level;
    this.reindexLiquidations();
  }

  setSpread(spreadUnits: bigint): void {
    if (typeof spreadUnits !== 'bigint' || spreadUnits < 0n) throw new RangeError('spreadUnits must be ≥ 0');
    this.spread = spreadUnits;
  }

  private reindexLiquidations(): void {
    for (const entry of this.entries.values()) {
      const p = entry.p;
      entry.liq = boundaryOf(p.side, p.openUnits, p.marginUnits, this.level, entry.k, this.d);
      (p.side === 'buy' ? this.longLiq : this.shortLiq).set(p.id, entry.liq);
    }
  }

  private index(e: Entry): void {
    const { id, side, tpUnits, slUnits } = e.p;
    if (side === 'buy') {
      this.longLiq.set(id, e.liq);
      this.longTp.set(id, tpUnits);
      this.longSl.set(id, slUnits);
    } else {
      this.shortLiq.set(id, e.liq);
      this.shortTp.set(id, tpUnits);
      this.shortSl.set(id, slUnits);
    }
  }

  private unindex(e: Entry): void {
    const id = e.p.id;
    if (e.p.side === 'buy') {
      this.longLiq.set(id, null);
      this.longTp.set(id, null);
      this.longSl.set(id, null);
    } else {
      this.shortLiq.set(id, null);
      this.shortTp.set(id, null);
      this.shortSl.set(id, null);
    }
  }

  /**
   * What this tick triggers, in order: stop-losses, then take-profits (on the executable close
   * price: bid − spread for longs, ask + spread for shorts), then liquidations (on the mark price)
   * of positions not already closed by them; within a kind by position id (string order). A
   * position whose stop-loss and take-profit both hold is a stop-loss. Nothing is removed: the
   * caller removes what it closes.
   */
  evaluate(tick: BookTick): Trigger[] {
    checkTick(tick);
    const { closeLong, closeShort } = executable(tick.bidUnits, tick.askUnits, this.spread);
    const sl: string[] = [];
    this.longSl.collectAtLeast(closeLong, sl);
    this.shortSl.collectAtMost(closeShort, sl);
    const tp: string[] = [];
    this.longTp.collectAtMost(closeLong, tp);
    this.shortTp.collectAtLeast(closeShort, tp);
    const liq: string[] = [];
    this.longLiq.collectAtLeast(tick.markUnits, liq);
    this.shortLiq.collectAtMost(tick.markUnits, liq);
    if (sl.length === 0 && tp.length === 0 && liq.length === 0) return [];

    const closed = new Set<string>(sl);
    const priceFor = (id: string) =>
      (this.entries.get(id) as Entry).p.side === 'buy' ? closeLong : closeShort;
    const out: Trigger[] = sl
      .map((id) => ({ id, kind: 'stop_loss' as const, priceUnits: priceFor(id) }))
      .sort(byId);
    const tps: Trigger[] = [];
    for (const id of tp) {
      if (closed.has(id)) continue;
      closed.add(id);
      tps.push({ id, kind: 'take_profit', priceUnits: priceFor(id) });
    }
    out.push(...tps.sort(byId));
    const liqs: Trigger[] = [];
    for (const id of liq) {
      if (!closed.has(id)) liqs.push({ id, kind: 'liquidation', priceUnits: tick.markUnits });
    }
    out.push(...liqs.sort(byId));
    return out;
  }

  /**
   * Every position re-valued at this tick: P&L at the executable close price (what closing now
   * would realise, before fees), margin, and the highest risk rate at the mark price (0/1 when
   * none is losing or the book is empty).
   */
  revalue(tick: BookTick): Revaluation {
    checkTick(tick);
    const { closeLong, closeShort } = executable(tick.bidUnits, tick.askUnits, this.spread);
    const d = this.d;
    const mark = tick.markUnits;
    let pnlTotal = 0n;
    let marginTotal = 0n;
    let bestNum = 0n;
    let bestDen = 1n;
    for (const e of this.entries.values()) {
      const p = e.p;
      const long = p.side === 'buy';
      const a = (long ? closeLong - p.openUnits : p.openUnits - closeShort) * e.k;
      let pnl = a / d;
      if (a < 0n && pnl * d !== a) pnl -= 1n;
      pnlTotal += pnl;
      marginTotal += p.marginUnits;
      const b = (long ? mark - p.openUnits : p.openUnits - mark) * e.k;
      if (b < 0n) {
        let atMark = b / d;
        if (atMark * d !== b) atMark -= 1n;
        const loss = -atMark;
        if (loss * bestDen > bestNum * p.marginUnits) {
          bestNum = loss;
          bestDen = p.marginUnits;
        }
      }
    }
    return {
      positions: this.entries.size,
      unrealizedPnlUnits: pnlTotal,
      marginUnits: marginTotal,
      maxRiskRate: { num: bestNum, den: bestDen },
    };
  }
}
