import {
  C2C_CHANNELS,
  C2C_DEMO_NAME,
  C2C_LIMITS,
  type C2cAccountData,
  type C2cDisputeReason,
  type C2cMessageData,
  type C2cMethod,
  type C2cOfferData,
  type C2cOrderData,
  type C2cOrderSide,
  type C2cPrivateMessage,
  type C2cRulesData,
  type C2cState,
  type DocumentLinkData,
  type Paged,
  type VerificationData,
} from '@bourse/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useInfo } from '../../api/info.ts';
import { ApiError, apiGet, apiPost } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';
import { useChannel, useSocketUid } from '../../lib/ws.ts';
import { mergeMessages } from './logic.ts';

/**
 * The C2C calls (packages/protocol/src/c2c.ts, docs/api.md "C2C"). Every order change refreshes the
 * order, my orders and the offers (amounts return to an offer when an order ends); live changes
 * arrive on `c2c_private:<uid>` (`useC2cLive`) and update the same queries without a reload.
 */

const ORDER = 'web/c2cOrder';
const ORDERS = 'web/c2cOrders';
const MESSAGES = 'web/c2cMessages';
const OFFERS = 'web/c2cOffers';
const ACCOUNTS = 'web/c2cAccounts';

/** `GET web/c2cRules` (public): every rule that can refuse or end an order, as data. */
export function useC2cRules() {
  return useQuery({
    queryKey: ['web/c2cRules'],
    queryFn: () => apiGet<C2cRulesData>('web/c2cRules'),
    staleTime: 300_000,
  });
}

export type OffersFilter = { side: C2cOrderSide; coin?: string; fiat?: string };

/** `GET web/c2cOffers` (public): active offers of approved merchants; spread prices move, so refreshed. */
export function useC2cOffers(filter: OffersFilter) {
  return useQuery({
    queryKey: [OFFERS, filter],
    queryFn: () =>
      apiGet<C2cOfferData[]>(OFFERS, {
        side: filter.side,
        coin: filter.coin || undefined,
        fiat: filter.fiat || undefined,
        page_size: String(C2C_LIMITS.pageSizeMax),
      }),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });
}

function allOffers() {
  return apiGet<C2cOfferData[]>(OFFERS, { page_size: String(C2C_LIMITS.pageSizeMax) });
}

/** The coins and currencies the active offers trade, for the filters (from the offers themselves). */
export function useOfferChoices() {
  return useQuery({
    queryKey: [OFFERS, 'all'],
    queryFn: allOffers,
    staleTime: 60_000,
    select: (offers) => ({
      coins: [...new Set(offers.map((o) => o.coin))].sort(),
      fiats: [...new Set(offers.map((o) => o.fiat))].sort(),
    }),
  });
}

/** One offer (`c2cOffer`); null when it is not taking orders (paused, or unknown: NOT_FOUND). */
export function useC2cOffer(offerId: string | null) {
  return useQuery({
    queryKey: [OFFERS, 'one', offerId],
    queryFn: async () => {
      try {
        return await apiGet<C2cOfferData>('web/c2cOffer', { offer_id: offerId ?? '' });
      } catch (error) {
        if (error instanceof ApiError && error.reason === 'NOT_FOUND') return null;
        throw error;
      }
    },
    enabled: offerId !== null && offerId !== '',
    refetchInterval: 15_000,
    select: (offer) => (offer && offer.state === 'active' ? offer : null),
  });
}

/** `GET web/getVerification` (login): the verified real name, once primary verification is approved. */
export function useVerifiedName() {
  const token = useToken();
  // A demo account has no verified name: its play-money orders carry the fixed demo name.
  const demo = useIsDemo();
  return useQuery({
    queryKey: ['web/getVerification', token, demo],
    queryFn: () => (demo ? Promise.resolve(null) : apiGet<VerificationData>('web/getVerification')),
    enabled: token !== null,
    staleTime: 60_000,
    select: (data) =>
      data === null
        ? C2C_DEMO_NAME
        : data.primary.state === 'approved' && data.primary.data
          ? data.primary.data.real_name
          : null,
  });
}

/** Whether the session is a demo account (C2C is real accounts only: the server refuses it). */
export function useIsDemo(): boolean {
  const info = useInfo();
  return info.data?.is_demo === 1;
}

export type CreateOrderInput = { offer_id: string; amount: string; method: C2cMethod; account_id?: string };

/** `POST web/c2cCreateOrder` (login, idempotent): the coins go into escrow before the answer. */
export function useCreateOrder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateOrderInput) => apiPost<C2cOrderData>('web/c2cCreateOrder', input),
    onSuccess: (order) => client.setQueryData([ORDER, order.order_id], order),
    onSettled: () =>
      Promise.all(
        [OFFERS, ORDERS, 'web/getAsset2'].map((key) => client.invalidateQueries({ queryKey: [key] })),
      ),
  });
}

export type OrdersFilter = { state?: C2cState; page: number; page_size: number };

/** `GET web/c2cOrders` (login): my orders, newest first, in pages. */
export function useC2cOrders(filter: OrdersFilter) {
  const token = useToken();
  return useQuery({
    queryKey: [ORDERS, filter, token],
    queryFn: () =>
      apiGet<Paged<C2cOrderData>>(ORDERS, {
        state: filter.state,
        page: String(filter.page),
        page_size: String(filter.page_size),
      }),
    enabled: token !== null,
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

/** `GET web/c2cOrder` (login, a party): the order with its timeline and the receiver's details. */
export function useC2cOrder(orderId: string | null) {
  const token = useToken();
  return useQuery({
    queryKey: [ORDER, orderId],
    queryFn: () => apiGet<C2cOrderData>(ORDER, { order_id: orderId ?? '' }),
    enabled: token !== null && orderId !== null && orderId !== '',
    refetchInterval: 30_000,
  });
}

/** An order call whose answer is the order: stored at once, and the lists refreshed. */
function useOrderAction<I extends { order_id: string }>(call: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => apiPost<C2cOrderData>(call, input),
    onSuccess: (order) => client.setQueryData([ORDER, order.order_id], order),
    onSettled: (_data, _error, input) =>
      Promise.all([
        client.invalidateQueries({ queryKey: [ORDER, input.order_id] }),
        client.invalidateQueries({ queryKey: [ORDERS] }),
        client.invalidateQueries({ queryKey: [MESSAGES, input.order_id] }),
      ]),
  });
}

/** `POST web/c2cMarkPaid` (the payer): payer name (the verified real name), bank and the proof. */
export const useMarkPaid = () =>
  useOrderAction<{ order_id: string; payer_name: string; payer_bank: string; proof_id?: string }>(
    'web/c2cMarkPaid',
  );
/** `POST web/c2cConfirm` (the receiver): releases the escrow to the buyer. */
export const useConfirmReceived = () => useOrderAction<{ order_id: string }>('web/c2cConfirm');
/** `POST web/c2cCancel` (the payer, before paying): the escrow goes back. */
export const useCancelOrder = () => useOrderAction<{ order_id: string }>('web/c2cCancel');
/** `POST web/c2cDispute` (either side, on a paid order). */
export const useOpenDispute = () =>
  useOrderAction<{ order_id: string; reason: C2cDisputeReason; note: string; evidence_ids?: string }>(
    'web/c2cDispute',
  );

/** `GET web/c2cMessages` (a party): the order's chat; live messages are merged in by `useC2cLive`. */
export function useC2cMessages(orderId: string | null) {
  const token = useToken();
  return useQuery({
    queryKey: [MESSAGES, orderId],
    queryFn: () => apiGet<C2cMessageData[]>(MESSAGES, { order_id: orderId ?? '' }),
    enabled: token !== null && orderId !== null && orderId !== '',
    refetchInterval: 60_000,
  });
}

/** `POST web/c2cSendMessage`: text, an attachment, or both; the answer joins the chat at once. */
export function useSendMessage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { order_id: string; body?: string; file_id?: string }) =>
      apiPost<C2cMessageData>('web/c2cSendMessage', input),
    onSuccess: (message, input) =>
      client.setQueryData<C2cMessageData[]>([MESSAGES, input.order_id], (old) =>
        old ? mergeMessages(old, [message]) : old,
      ),
  });
}

/**
 * The private channel `c2c_private:<uid>` while a C2C screen is open: a message joins its order's chat,
 * a state change refreshes the order and my orders — no reload needed.
 */
export function useC2cLive(): void {
  const token = useToken();
  const uid = useSocketUid();
  const client = useQueryClient();
  const channel = token && uid ? `${C2C_CHANNELS.private}${uid}` : null;
  useChannel(channel, (event) => {
    if (event.snapshot) return;
    const message = event.data as C2cPrivateMessage;
    if (message.type === 'message') {
      // Only a chat already loaded is extended: a partial one would pass for the whole chat.
      client.setQueryData<C2cMessageData[]>([MESSAGES, message.order_id], (old) =>
        old ? mergeMessages(old, [message.message]) : old,
      );
      return;
    }
    void client.invalidateQueries({ queryKey: [ORDER, message.order_id] });
    void client.invalidateQueries({ queryKey: [ORDERS] });
  });
}

/** `GET web/c2cAccounts` (login): my collection accounts. */
export function useC2cAccounts() {
  const token = useToken();
  return useQuery({
    queryKey: [ACCOUNTS, token],
    queryFn: () => apiGet<C2cAccountData[]>(ACCOUNTS),
    enabled: token !== null,
  });
}

/** `POST web/c2cAccountSave` (login): a new collection account in my verified real name. */
export function useSaveAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Record<string, string>) => apiPost<C2cAccountData>('web/c2cAccountSave', body),
    onSettled: () => client.invalidateQueries({ queryKey: [ACCOUNTS] }),
  });
}

/** `POST web/c2cAccountDelete` (login): hides the account (a matched order keeps its copy). */
export function useDeleteAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (accountId: string) =>
      apiPost<{ account_id: string }>('web/c2cAccountDelete', { account_id: accountId }),
    onSettled: () => client.invalidateQueries({ queryKey: [ACCOUNTS] }),
  });
}

/** A short-lived link to a file of the order (proof, evidence, attachment) for either side (`c2cFileLink`). */
export function useOrderFileLink(orderId: string, fileId: string | null) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/c2cFileLink', token, orderId, fileId],
    queryFn: () => apiGet<DocumentLinkData>('web/c2cFileLink', { order_id: orderId, file_id: fileId ?? '' }),
    enabled: token !== null && fileId !== null && fileId !== '',
    staleTime: 60_000,
    refetchInterval: 240_000,
    retry: false,
  });
}
