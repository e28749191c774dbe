import type { CancelAllOrdersData } from '@bourse/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api.ts';
import { invalidateSpot } from '../../../shared/spot/api/createOrder.ts';

/** `POST web/cancelAllOrders`: every open order of the customer in one market. */
export function cancelAllOrders(symbol: string): Promise<CancelAllOrdersData> {
  return apiPost<CancelAllOrdersData>('web/cancelAllOrders', { symbol });
}

export function useCancelAllOrders() {
  const client = useQueryClient();
  return useMutation({ mutationFn: cancelAllOrders, onSettled: () => invalidateSpot(client) });
}
