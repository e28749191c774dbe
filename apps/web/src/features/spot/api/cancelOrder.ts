import type { SpotOrderData } from '@bourse/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api.ts';
import { invalidateSpot } from '../../../shared/spot/api/createOrder.ts';

/** `POST web/cancelOrder`. */
export function cancelOrder(orderId: string): Promise<SpotOrderData> {
  return apiPost<SpotOrderData>('web/cancelOrder', { order_id: orderId });
}

export function useCancelOrder() {
  const client = useQueryClient();
  return useMutation({ mutationFn: cancelOrder, onSettled: () => invalidateSpot(client) });
}
