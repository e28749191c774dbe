import type { Tx } from '../../db/database.ts';
import { closeLots } from './core.ts';
import type { InstrumentInfo } from './math.ts';
import { pendingOrdersForUpdate } from './repo.ts';
import { type ConsumerDeps, cancelPending, markAt, openPositions } from './round.ts';

/**
 * Delivery of an expired delivery contract: its pending orders expire, then every open position is
 * closed (`delivered`, closing fee charged) at the last recorded mark at or before expiry. With no
 * mark of record yet the positions wait (logged as an error).
 */
export async function deliver(
  deps: ConsumerDeps,
  tx: Tx,
  input: { i: InstrumentInfo; expiry: Date; now: Date },
): Promise<void> {
  const { i, now } = input;
  const pending = await pendingOrdersForUpdate(tx, i.symbol);
  for (const o of pending) await cancelPending(deps, tx, o, 'expired');
  const list = await openPositions(deps, tx, i.symbol);
  if (list.length === 0) return;
  const mark = await markAt(deps, tx, i, input.expiry);
  if (!mark) {
    deps.log.error({ symbol: i.symbol }, 'delivery: no recorded price at or before expiry; positions wait');
    return;
  }
  for (const p of list) {
    await closeLots(tx, deps.ledger, { i, p, lotsUnits: p.lotsUnits, fill: mark, reason: 'delivery', now });
    deps.onAction?.('delivery');
  }
}
