import { executable, PositionBook, type Ratio, tpSlTriggered } from '@bourse/risk';
import { liquidates, type Position } from './core.ts';
import { type InstrumentInfo, mathOf } from './math.ts';

/** What one recorded tick makes the engine do to one open position. */
export type TickAction = Readonly<{
  id: string;
  kind: 'take_profit' | 'stop_loss' | 'liquidation';
  /** TP/SL: the executable close price; liquidation: the mark. */
  priceUnits: bigint;
}>;
export type TickPrices = Readonly<{ seq: bigint; bidUnits: bigint; askUnits: bigint; markUnits: bigint }>;

const byId = (a: TickAction, b: TickAction) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The reference evaluation: every position checked one by one — TP/SL on the executable close price
 * first (a stop-loss wins when both hold), else liquidation when the risk rate at the mark reaches
 * the position's level. A position is evaluated only on ticks after the one it opened on. Kept as
 * the test oracle for `InstrumentBooks` (evaluate.test.ts).
 */
export function evaluateEach(input: {
  i: InstrumentInfo;
  positions: readonly Position[];
  tick: TickPrices;
  spreadUnits: bigint;
  toUsdt: Ratio;
}): TickAction[] {
  const { i, tick } = input;
  const exec = executable(tick.bidUnits, tick.askUnits, input.spreadUnits);
  const out: TickAction[] = [];
  for (const p of input.positions) {
    if (BigInt(p.row.open_tick_seq) >= tick.seq) continue;
    const close = p.side === 'buy' ? exec.closeLong : exec.closeShort;
    const trigger = tpSlTriggered(p.side, close, p.tpUnits, p.slUnits);
    if (trigger) out.push({ id: p.id, kind: trigger, priceUnits: close });
    else if (liquidates(i, p, tick.markUnits, input.toUsdt))
      out.push({ id: p.id, kind: 'liquidation', priceUnits: tick.markUnits });
  }
  return out.sort(byId);
}

const sameRatio = (a: Ratio, b: Ratio) => a.num * b.den === b.num * a.den;

/**
 * Ticks of one instrument in one round evaluated one by one before the books are built: building
 * the books for 100,000 positions costs about as much as 3 one-by-one passes (bench/contracts.ts).
 */
export const BOOK_AFTER_TICKS = 3;

/**
 * One instrument's open positions during one engine round. The first BOOK_AFTER_TICKS ticks are
 * evaluated one by one (`evaluateEach`); from the next on, through `@bourse/risk`'s PositionBook —
 * one book per liquidation level, since each position keeps the level it was opened under — so a
 * tick touches only the positions whose trigger prices it crosses (O(log n + k) instead of a risk
 * rate per position): a catch-up round over thousands of ticks stays linear in the positions. Both
 * give exactly the same actions, in position-id order (evaluate.test.ts). Positions enter their
 * book at the first tick after the one they opened on; one whose margin is used up (0) is evaluated
 * one by one (PositionBook holds only positions with margin).
 */
export class InstrumentBooks {
  private readonly i: InstrumentInfo;
  private readonly spreadUnits: bigint;
  private toUsdt: Ratio | null = null;
  private readonly books = new Map<string, PositionBook>();
  private readonly held = new Map<string, Position>();
  private readonly bookOf = new Map<string, PositionBook>();
  private waiting: Position[] = [];
  private readonly spent = new Map<string, Position>();
  private readonly bookAfterTicks: number;
  private evaluations = 0;
  private built = false;

  constructor(
    i: InstrumentInfo,
    spreadUnits: bigint,
    positions: readonly Position[],
    options: { bookAfterTicks?: number } = {},
  ) {
    this.i = i;
    this.spreadUnits = spreadUnits;
    this.bookAfterTicks = options.bookAfterTicks ?? BOOK_AFTER_TICKS;
    for (const p of positions) this.add(p);
  }

  get size(): number {
    return this.held.size;
  }

  /** The position as last added (a closed one is removed by the caller). */
  get(id: string): Position {
    const p = this.held.get(id);
    if (!p) throw new Error(`position ${id} is not in the book`);
    return p;
  }

  add(p: Position): void {
    this.held.set(p.id, p);
    if (this.built) this.waiting.push(p);
  }

  remove(id: string): void {
    this.held.delete(id);
    this.spent.delete(id);
    this.bookOf.get(id)?.remove(id);
    this.bookOf.delete(id);
    if (this.built) this.waiting = this.waiting.filter((p) => p.id !== id);
  }

  private admit(p: Position, toUsdt: Ratio): void {
    if (p.marginUnits <= 0n) {
      this.spent.set(p.id, p);
      return;
    }
    const level = p.row.liquidation_level;
    let book = this.books.get(level);
    if (!book) {
      book = new PositionBook(mathOf(this.i, toUsdt), p.level, this.spreadUnits, this.i.tickUnits);
      this.books.set(level, book);
    }
    book.upsert({
      id: p.id,
      side: p.side,
      openUnits: p.openUnits,
      lotsUnits: p.lotsUnits,
      marginUnits: p.marginUnits,
      tpUnits: p.tpUnits,
      slUnits: p.slUnits,
    });
    this.bookOf.set(p.id, book);
  }

  /** What this tick triggers (the caller closes each and removes it). */
  evaluate(tick: TickPrices, toUsdt: Ratio): TickAction[] {
    this.evaluations += 1;
    if (!this.built) {
      if (this.evaluations <= this.bookAfterTicks) {
        const positions = [...this.held.values()];
        return evaluateEach({ i: this.i, positions, tick, spreadUnits: this.spreadUnits, toUsdt });
      }
      this.built = true;
      this.waiting = [...this.held.values()];
    }
    if (this.toUsdt === null || !sameRatio(this.toUsdt, toUsdt)) {
      for (const book of this.books.values()) book.setConversion(toUsdt);
      this.toUsdt = toUsdt;
    }
    if (this.waiting.length > 0) {
      const still: Position[] = [];
      for (const p of this.waiting) {
        if (BigInt(p.row.open_tick_seq) < tick.seq) this.admit(p, toUsdt);
        else still.push(p);
      }
      this.waiting = still;
    }
    const out: TickAction[] = [];
    const prices = { bidUnits: tick.bidUnits, askUnits: tick.askUnits, markUnits: tick.markUnits };
    for (const book of this.books.values()) {
      if (book.size === 0) continue;
      for (const t of book.evaluate(prices)) out.push({ id: t.id, kind: t.kind, priceUnits: t.priceUnits });
    }
    if (this.spent.size > 0)
      out.push(
        ...evaluateEach({
          i: this.i,
          positions: [...this.spent.values()],
          tick,
          spreadUnits: this.spreadUnits,
          toUsdt,
        }),
      );
    return out.sort(byId);
  }
}
