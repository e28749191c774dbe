import type { SpotBalanceData, SpotPrivateBalance } from '@bourse/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useToken } from '../../../lib/session.ts';
import { spotBalanceKey } from '../../../shared/spot/api/getSpotBalance.ts';
import { type PrivateStatus, useSpotPrivate } from './useSpotPrivate.ts';

function applyBalances(data: SpotBalanceData, balances: readonly SpotPrivateBalance[]): SpotBalanceData {
  const next = { ...data };
  for (const b of balances) {
    if (b.currency === data.base) {
      next.base_available = b.available;
      next.base_frozen = b.frozen;
    }
    if (b.currency === data.quote) {
      next.quote_available = b.available;
      next.quote_frozen = b.frozen;
    }
  }
  return next;
}

/**
 * Keeps the screen's private data live from `spot_private:<uid>`: balances are written straight into
 * the balance query, and an order or fill change refetches the order lists (coalesced per frame).
 */
export function useSpotPrivateSync(symbol: string | null): PrivateStatus {
  const client = useQueryClient();
  const token = useToken();
  const pending = useRef<number | null>(null);
  const refreshLists = () => {
    if (pending.current !== null) return;
    pending.current = window.setTimeout(() => {
      pending.current = null;
      for (const key of ['web/getCurrentOrders', 'web/getHistoryOrders', 'web/getMyTrades'])
        void client.invalidateQueries({ queryKey: [key] });
    }, 50);
  };
  const setBalances = (balances: readonly SpotPrivateBalance[]) => {
    client.setQueryData<SpotBalanceData>(spotBalanceKey(symbol, token), (old) =>
      old ? applyBalances(old, balances) : old,
    );
  };
  return useSpotPrivate((event) => {
    if (event.kind === 'snapshot') {
      setBalances(event.data.balances ?? []);
      refreshLists();
      return;
    }
    const message = event.data;
    if (message.type === 'balance') setBalances(message.balances);
    else refreshLists();
  });
}
