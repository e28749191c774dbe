import type { SpotOrderData, SpotOrderType, SpotSide } from '@bourse/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api.ts';

export type NewOrder = {
  symbol: string;
  side: SpotSide;
  type: SpotOrderType;
  /** Limit orders only. */
  price?: string;
  quantity: string;
  /** One per submission: a retried request is the same order. */
  client_oid: string;
};

/** A fresh client order id (letters and digits, 20 characters). */
export function newClientOid(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  let out = 'w';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}

/** `POST web/createOrder`. A refusal (code 0) rejects with the server's localized message. */
export function createOrder(order: NewOrder): Promise<SpotOrderData> {
  return apiPost<SpotOrderData>('web/createOrder', order);
}

/** Every spot list that an order changes. */
export function invalidateSpot(client: ReturnType<typeof useQueryClient>): Promise<void> {
  return Promise.all(
    [
      'web/getSpotBalance',
      'web/getCurrentOrders',
      'web/getHistoryOrders',
      'web/getMyTrades',
      'web/getDepth',
    ].map((key) => client.invalidateQueries({ queryKey: [key] })),
  ).then(() => undefined);
}

export function useCreateOrder() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createOrder, onSettled: () => invalidateSpot(client) });
}
