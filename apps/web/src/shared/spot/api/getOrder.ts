import type { SpotOrderData } from '@bourse/protocol';
import { apiGet } from '../../../lib/api.ts';

/** `GET web/getOrder`: one of the customer's orders. */
export function fetchOrder(orderId: string): Promise<SpotOrderData> {
  return apiGet<SpotOrderData>('web/getOrder', { order_id: orderId });
}

const FINAL = new Set(['filled', 'cancelled']);

/**
 * A market order's outcome: the answer to `createOrder` when it is final, else the order read again
 * (a few times, 300 ms apart) until it is — fills are settled in batches just after matching.
 */
export async function settledOrder(order: SpotOrderData, tries = 10): Promise<SpotOrderData> {
  let current = order;
  for (let i = 0; i < tries && !FINAL.has(current.status); i++) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    current = await fetchOrder(order.order_id);
  }
  return current;
}
