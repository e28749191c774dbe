import type {
  AdminC2cOfferBody,
  AdminC2cOrderData,
  AdminC2cOrderDetailData,
  C2cMerchantData,
  C2cMessageData,
  C2cOfferData,
  C2cOutcome,
  C2cState,
  Paged,
} from '@bourse/protocol';
import { C2C_LIMITS } from '@bourse/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api.ts';

/**
 * The back office's C2C calls (`/api/admin/c2c/*`, packages/protocol/src/c2c.ts): reading needs
 * `c2c.read`; merchants, offers and the staff side of a disputed order's chat `c2c.write`; dispute
 * decisions `c2c.decide` (four eyes above the threshold). Every change carries a reason (audited).
 */

export const PAGE_SIZE = 50;
/** The offers list asks for the server's largest page (every offer, paused ones too). */
export const OFFERS_PAGE_SIZE = C2C_LIMITS.pageSizeMax;

export const c2cKeys = {
  all: ['c2c'] as const,
  merchants: ['c2c', 'merchants'] as const,
  offers: ['c2c', 'offers'] as const,
  orders: (filter: OrdersFilter) => ['c2c', 'orders', filter] as const,
  disputes: (page: number) => ['c2c', 'disputes', page] as const,
  order: (id: string) => ['c2c', 'order', id] as const,
};

export function useC2cMerchants() {
  return useQuery({
    queryKey: c2cKeys.merchants,
    queryFn: () => api.get<C2cMerchantData[]>('c2c/merchants'),
  });
}

export function useC2cOffers() {
  return useQuery({
    queryKey: c2cKeys.offers,
    queryFn: () => api.get<C2cOfferData[]>('c2c/offers', { page: 1, page_size: OFFERS_PAGE_SIZE }),
  });
}

/** `state` absent: the live orders (matched, paid, disputed). */
export type OrdersFilter = { state?: C2cState; page: number };

export function useC2cOrders(filter: OrdersFilter) {
  return useQuery({
    queryKey: c2cKeys.orders(filter),
    queryFn: () => api.get<Paged<AdminC2cOrderData>>('c2c/orders', { ...filter, page_size: PAGE_SIZE }),
  });
}

export function useC2cDisputes(page: number) {
  return useQuery({
    queryKey: c2cKeys.disputes(page),
    queryFn: () => api.get<Paged<AdminC2cOrderData>>('c2c/disputes', { page, page_size: PAGE_SIZE }),
  });
}

/** One order with its chat and evidence (each proof link the server makes is audited). */
export function useC2cOrder(id: string | null) {
  return useQuery({
    queryKey: c2cKeys.order(id ?? ''),
    queryFn: () => api.get<AdminC2cOrderDetailData>(`c2c/orders/${encodeURIComponent(id ?? '')}`),
    enabled: id !== null,
  });
}

/** Every write refreshes every C2C screen (a state change moves counts, lists and the order's view). */
function useC2cWrite<I, O>(call: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => client.invalidateQueries({ queryKey: c2cKeys.all }),
  });
}

type Plain<T> = Omit<T, 'token' | 'lang' | 'rtoken'>;

export const useAddMerchant = () =>
  useC2cWrite((body: { uid: string; name: string; is_operator: boolean; reason: string }) =>
    api.postJson<{ merchant_id: string; state: string }>('c2c/merchants', body),
  );

export const useMerchantState = () =>
  useC2cWrite((input: { id: string; state: 'approved' | 'suspended'; reason: string }) =>
    api.postJson<{ merchant_id: string; state: string }>(
      `c2c/merchants/${encodeURIComponent(input.id)}/state`,
      { state: input.state, reason: input.reason },
    ),
  );

/** Creates an offer (no id) or changes one (its merchant, side, coin and fiat stay). */
export const useSaveOffer = () =>
  useC2cWrite((input: { id: string | null; body: Plain<AdminC2cOfferBody> }) =>
    api.postJson<{ offer_id: string; state: string }>(
      input.id === null ? 'c2c/offers' : `c2c/offers/${encodeURIComponent(input.id)}`,
      input.body,
    ),
  );

export const useOfferState = () =>
  useC2cWrite((input: { id: string; state: 'active' | 'paused'; reason: string }) =>
    api.postJson<{ offer_id: string; state: string }>(`c2c/offers/${encodeURIComponent(input.id)}/state`, {
      state: input.state,
      reason: input.reason,
    }),
  );

export const useDecide = () =>
  useC2cWrite((input: { id: string; outcome: C2cOutcome; reason: string }) =>
    api.postJson<AdminC2cOrderData>(`c2c/orders/${encodeURIComponent(input.id)}/decide`, {
      outcome: input.outcome,
      reason: input.reason,
    }),
  );

export const useStaffMessage = () =>
  useC2cWrite((input: { id: string; body: string }) =>
    api.postJson<C2cMessageData>(`c2c/orders/${encodeURIComponent(input.id)}/message`, {
      body: input.body,
    }),
  );
