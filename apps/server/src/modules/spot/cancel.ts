import { Refusal, refuse } from '../../http/refusal.ts';
import { findOrder } from './intake.ts';
import { marketOf, runnerOf, type SpotState } from './markets.ts';
import type { OrderState } from './order.ts';
import { openOrderIds } from './repo.ts';

/** Cancels go through the order's book like any command; a cancel that loses the race to a fill is refused. */

export async function cancelFor(
  s: SpotState,
  customerId: string,
  q: { order_id?: string; client_oid?: string },
  reason: 'user' | 'operator' = 'user',
): Promise<OrderState> {
  const o = await findOrder(s, customerId, q);
  if (!o) refuse('NOT_FOUND');
  if (o.status === 'filled' || o.status === 'cancelled') refuse('ORDER_NOT_OPEN', { status: o.status });
  try {
    return await runnerOf(s, o.symbol, o.book).cancel(o.id, customerId, reason);
  } catch (error) {
    if (error instanceof Refusal && error.reason === 'ORDER_NOT_OPEN') {
      const now = await findOrder(s, customerId, { order_id: o.id });
      refuse('ORDER_NOT_OPEN', { status: now?.status ?? 'filled' });
    }
    throw error;
  }
}

/** Cancels a customer's open orders (on one market when `symbol` is given); returns how many. */
export async function cancelAll(
  s: SpotState,
  customerId: string,
  symbol?: string,
  reason: 'user' | 'operator' = 'user',
): Promise<number> {
  const ids = await openOrderIds(s.db, customerId, symbol ? marketOf(s, symbol).symbol : undefined);
  // All at once: each book takes its share in one batch rather than one batch per order.
  const answers = await Promise.allSettled(
    ids.map((id) => cancelFor(s, customerId, { order_id: id }, reason)),
  );
  let n = 0;
  for (const a of answers) {
    if (a.status === 'fulfilled') n += 1;
    else if (!(a.reason instanceof Refusal && a.reason.reason === 'ORDER_NOT_OPEN')) throw a.reason;
  }
  return n;
}
