import type { CreateOrderBody, SpotCancelReason } from '@bourse/protocol';
import { SPOT_LIMITS } from '@bourse/protocol';
import { Refusal, refuse } from '../../http/refusal.ts';
import { buildOrder } from './intake.ts';
import { marketOf, runnerOf, type SpotState } from './markets.ts';
import type { Book, OrderState, PlaceInput } from './order.ts';

export type AmendResult = {
  /** Orders of the customer on this market taken off the book. */
  cancelled: number;
  /** The new orders as settled, in the order of `bodies` (refused ones left out). */
  placed: OrderState[];
  /** Each refused new order's refusal (validation, funds, or a post-only order that would take). */
  refused: Refusal[];
};

/**
 * Replaces a customer's resting orders on one market and book with `bodies`, in ONE batch of the
 * book (`BookRunner.amend`): the old orders are cancelled first and their funds released before the
 * new ones are frozen, so the funds can move from the old quotes to the new ones and the book never
 * stands without them. The market maker's re-quote; each new order is validated as `placeFor` would.
 */
export async function amendFor(
  s: SpotState,
  customerId: string,
  book: Book,
  symbol: string,
  bodies: CreateOrderBody[],
  reason: SpotCancelReason = 'user',
): Promise<AmendResult> {
  const m = marketOf(s, symbol);
  const runner = runnerOf(s, m.symbol, book);
  if (bodies.length > SPOT_LIMITS.openOrdersPerMarketMax)
    refuse('ORDER_OPEN_LIMIT', { max: SPOT_LIMITS.openOrdersPerMarketMax });
  const refused: Refusal[] = [];
  const inputs: PlaceInput[] = [];
  for (const body of bodies) {
    try {
      inputs.push(buildOrder(s, customerId, book, { ...body, symbol: m.symbol }));
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      refused.push(error);
    }
  }
  const mine = [...runner.open.values()].filter((o) => o.customerId === customerId).map((o) => o.id);
  const answers = runner.amend(customerId, mine, inputs, reason);
  const [cancelled, placed] = await Promise.all([
    Promise.allSettled(answers.cancelled),
    Promise.allSettled(answers.placed),
  ]);
  const result: AmendResult = { cancelled: 0, placed: [], refused };
  for (const a of cancelled) {
    if (a.status === 'fulfilled') result.cancelled += 1;
    else if (!(a.reason instanceof Refusal)) throw a.reason;
  }
  for (const a of placed) {
    if (a.status === 'rejected') {
      if (!(a.reason instanceof Refusal)) throw a.reason;
      result.refused.push(a.reason);
    } else if (a.value.status === 'cancelled' && a.value.cancelReason === 'rejected') {
      // The engine refused a post-only order that would have taken after the cancels.
      result.refused.push(new Refusal('ORDER_WOULD_TAKE'));
    } else result.placed.push(a.value);
  }
  return result;
}
