import type { Tx } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import type { RecordedTick } from '../../lib/ticks.ts';
import { isOpenAt as isOpen } from '../market/index.ts';
import { type Fill, openPosition, positionOf } from './core.ts';
import type { InstrumentBooks } from './evaluate.ts';
import { type InstrumentInfo, storedPrice } from './math.ts';
import { markOrderFilled, type OrderRow } from './repo.ts';
import { type ConsumerDeps, cancelPending } from './round.ts';
import type { Setting } from './settings.ts';

/**
 * Pending limit orders the tick's executable open price reached (orders created before the tick),
 * filled at that price — never worse than the limit. A reached order on a disabled contract is
 * cancelled `settings_changed`, outside the trading hours `market_closed`. Returns the orders still
 * pending.
 */
export async function fillReached(
  deps: ConsumerDeps,
  tx: Tx,
  input: {
    i: InstrumentInfo;
    s: Setting;
    book: InstrumentBooks;
    pending: readonly OrderRow[];
    tick: RecordedTick;
    exec: { openBuy: bigint; openSell: bigint };
    base: Omit<Fill, 'priceUnits'>;
    now: Date;
  },
): Promise<OrderRow[]> {
  const { i, s, tick, exec } = input;
  const still: OrderRow[] = [];
  for (const o of input.pending) {
    const price = o.side === 'buy' ? exec.openBuy : exec.openSell;
    if (o.created_at.getTime() >= tick.at.getTime() || !reached(o, storedPrice(i, o.price), price)) {
      still.push(o);
      continue;
    }
    if (!s.enabled) {
      await cancelPending(deps, tx, o, 'settings_changed');
      continue;
    }
    if (!isOpen(deps.market.instrument(i.symbol).schedule, tick.at.getTime())) {
      await cancelPending(deps, tx, o, 'market_closed');
      continue;
    }
    await fill(deps, tx, { ...input, o, fill: { ...input.base, priceUnits: price } });
  }
  return still;
}

function reached(o: OrderRow, limitUnits: bigint, priceUnits: bigint): boolean {
  return o.side === 'buy' ? priceUnits <= limitUnits : priceUnits >= limitUnits;
}

/** The order becomes a position at `fill` (its frozen margin and fee kept), evaluated from the next tick on. */
async function fill(
  deps: ConsumerDeps,
  tx: Tx,
  input: { i: InstrumentInfo; book: InstrumentBooks; o: OrderRow; fill: Fill; now: Date },
): Promise<void> {
  const { i, o, now } = input;
  const positionId = newId('cpo', now.getTime());
  await markOrderFilled(tx, { id: o.id, positionId, now });
  const row = await openPosition(tx, deps.ledger, {
    i,
    order: o,
    positionId,
    fill: input.fill,
    now,
    frozen: { marginUnits: BigInt(o.margin_units), feeUnits: BigInt(o.fee_units) },
  });
  deps.onAction?.('fill');
  input.book.add(positionOf(row, i));
}
