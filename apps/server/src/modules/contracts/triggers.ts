import type { Tx } from '../../db/database.ts';
import type { RecordedTick } from '../../lib/ticks.ts';
import { closeLots, type Fill } from './core.ts';
import type { InstrumentBooks } from './evaluate.ts';
import type { InstrumentInfo } from './math.ts';
import type { ConsumerDeps } from './round.ts';

/**
 * On one recorded tick: (1) take-profit / stop-loss on the executable close price, closed at that
 * price, (2) liquidation when the risk rate at the mark reaches the level, closed at the mark — in
 * position-id order, as `InstrumentBooks` finds them (evaluate.ts). A loss beyond the margin is
 * covered by insurance in closeLots (core.ts).
 */
export async function closeTriggered(
  deps: ConsumerDeps,
  tx: Tx,
  input: {
    i: InstrumentInfo;
    book: InstrumentBooks;
    tick: RecordedTick;
    prices: { bidUnits: bigint; askUnits: bigint; markUnits: bigint };
    /** The tick's source, time, seq and conversion: every close of this tick is at its price of record. */
    base: Omit<Fill, 'priceUnits'>;
    now: Date;
  },
): Promise<void> {
  const { i, book, base, now } = input;
  const actions = book.evaluate({ seq: input.tick.seq, ...input.prices }, base.conversion.rate);
  for (const a of actions) {
    const p = book.get(a.id);
    await closeLots(tx, deps.ledger, {
      i,
      p,
      lotsUnits: p.lotsUnits,
      fill: { ...base, priceUnits: a.priceUnits },
      reason: a.kind,
      now,
    });
    book.remove(a.id);
    deps.onAction?.(a.kind);
  }
}
