import type { OptionDirection, OptionOrderData } from '@bourse/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api.ts';
import { noteServerTime } from '../hooks/useServerNow.ts';

export type NewOption = {
  symbol: string;
  direction: OptionDirection;
  stake: string;
  /** Seconds, one of the instrument's durations. */
  duration: number;
  /** One per confirmed purchase: a retried request is the same option. */
  client_oid: string;
};

/** A fresh client order id (letters and digits, 21 characters). */
export function newClientOid(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  let out = 'o';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}

/** `POST web/buyOption`. A refusal (code 0) rejects with the server's localized message and reason. */
export function buyOption(option: NewOption): Promise<OptionOrderData> {
  return apiPost<OptionOrderData>('web/buyOption', option).then((order) => {
    // The server stamped `opened_at` just before answering: a sample of its clock for the countdown.
    noteServerTime(order.opened_at);
    return order;
  });
}

/** Everything a purchase or a settlement changes. */
export function invalidateOptions(client: ReturnType<typeof useQueryClient>): Promise<void> {
  return Promise.all(
    ['web/getOptionOrders', 'web/getAsset2'].map((key) => client.invalidateQueries({ queryKey: [key] })),
  ).then(() => undefined);
}

export function useBuyOption() {
  const client = useQueryClient();
  return useMutation({ mutationFn: buyOption, onSettled: () => invalidateOptions(client) });
}
