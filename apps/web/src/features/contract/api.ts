import type {
  CloseAllResult,
  ContractCloseData,
  ContractFundingData,
  ContractOrderData,
  ContractPositionData,
  ContractQuoteData,
  ContractSide,
  JurisdictionData,
  OpenContractResult,
  Paged,
  RiskRatingData,
} from '@bourse/protocol';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost, type Params } from '../../lib/api.ts';
import { useToken } from '../../lib/session.ts';

/**
 * The contract calls (packages/protocol/src/derivatives.ts). Every number on the contract screens
 * comes from these answers: the app never computes margin, fees, P&L, risk rate or a liquidation
 * price itself.
 */

/** `GET web/getJurisdiction` (public): the active profile, to explain a capped leverage. */
export function useJurisdiction() {
  return useQuery({
    queryKey: ['web/getJurisdiction'],
    queryFn: () => apiGet<JurisdictionData>('web/getJurisdiction'),
    staleTime: 300_000,
    retry: false,
  });
}

/** `GET web/getRiskRating` (login): the customer's risk rating, to explain a leverage capped by it (issue 15). */
export function useRiskRating() {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getRiskRating', token],
    queryFn: () => apiGet<RiskRatingData>('web/getRiskRating'),
    enabled: token !== null,
    staleTime: 30_000,
    retry: false,
  });
}

export type QuoteInput = {
  symbol: string;
  side: ContractSide;
  lots: string;
  leverage: number;
  price?: string;
};

/** `GET web/getContractQuote`: the server's preview of an order (null input: no query). */
export function useContractQuote(input: QuoteInput | null) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getContractQuote', input, token],
    queryFn: () =>
      apiGet<ContractQuoteData>('web/getContractQuote', {
        symbol: input?.symbol,
        side: input?.side,
        lots: input?.lots,
        leverage: input?.leverage,
        price: input?.price,
      }),
    enabled: input !== null && token !== null,
    placeholderData: keepPreviousData,
    // A market preview moves with the price.
    refetchInterval: input?.price === undefined ? 3_000 : false,
    retry: false,
  });
}

/** `GET web/getContractPositions`: open positions with live numbers, refreshed every second while shown. */
export function useContractPositions(symbol?: string) {
  const token = useToken();
  return useQuery({
    queryKey: ['web/getContractPositions', symbol ?? null, token],
    queryFn: () =>
      apiGet<{ items: ContractPositionData[] }>('web/getContractPositions', { symbol }).then((d) => d.items),
    enabled: token !== null,
    refetchInterval: 1_000,
    refetchIntervalInBackground: false,
  });
}

export type ListFilter = {
  symbol?: string;
  status?: string;
  start_time?: number;
  end_time?: number;
  position_id?: string;
  page?: number;
  page_size?: number;
};

function usePaged<T>(call: string, filter: ListFilter, refetchInterval: number | false = false) {
  const token = useToken();
  return useQuery({
    queryKey: [call, filter, token],
    queryFn: () => apiGet<Paged<T>>(call, filter as Params),
    enabled: token !== null,
    placeholderData: keepPreviousData,
    refetchInterval,
  });
}

/** `GET web/getContractOrders`: pending orders (default) or finished ones. */
export const useContractOrders = (filter: ListFilter, live = false) =>
  usePaged<ContractOrderData>('web/getContractOrders', filter, live ? 3_000 : false);
/** `GET web/getContractHistory`: closed, liquidated and delivered positions. */
export const useContractHistory = (filter: ListFilter) =>
  usePaged<ContractPositionData>('web/getContractHistory', filter);
/** `GET web/getContractCloses`: every close, partial or full. */
export const useContractCloses = (filter: ListFilter) =>
  usePaged<ContractCloseData>('web/getContractCloses', filter);
/** `GET web/getContractFunding`: funding paid and received. */
export const useContractFunding = (filter: ListFilter) =>
  usePaged<ContractFundingData>('web/getContractFunding', filter);

/** Every contract list and balance an action changes. */
function invalidateContracts(client: ReturnType<typeof useQueryClient>): Promise<void> {
  return Promise.all(
    [
      'web/getContractPositions',
      'web/getContractOrders',
      'web/getContractHistory',
      'web/getContractCloses',
      'web/getContractFunding',
      'web/getContractQuote',
      'web/getAsset2',
    ].map((key) => client.invalidateQueries({ queryKey: [key] })),
  ).then(() => undefined);
}

function useContractMutation<I, O>(call: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: I) => apiPost<O>(call, input as Params),
    onSettled: () => invalidateContracts(client),
  });
}

export type OpenInput = {
  symbol: string;
  side: ContractSide;
  type: 'market' | 'limit';
  price?: string;
  lots: string;
  leverage: number;
  tp_price?: string;
  sl_price?: string;
  client_oid: string;
};

/** `POST web/openContract`. */
export const useOpenContract = () => useContractMutation<OpenInput, OpenContractResult>('web/openContract');
/** `POST web/cancelContractOrder`. */
export const useCancelContractOrder = () =>
  useContractMutation<{ order_id: string }, ContractOrderData>('web/cancelContractOrder');
/** `POST web/closeContract` (all lots when `lots` is omitted). */
export const useCloseContract = () =>
  useContractMutation<{ position_id: string; lots?: string }, unknown>('web/closeContract');
/** `POST web/closeAllContracts`. */
export const useCloseAllContracts = () =>
  useContractMutation<{ symbol?: string }, CloseAllResult>('web/closeAllContracts');
/** `POST web/setContractTpSl` ("" clears a level). */
export const useSetTpSl = () =>
  useContractMutation<
    { position_id?: string; order_id?: string; tp_price?: string; sl_price?: string },
    unknown
  >('web/setContractTpSl');
/** `POST web/addContractMargin`. */
export const useAddMargin = () =>
  useContractMutation<{ position_id: string; amount: string }, unknown>('web/addContractMargin');

/** A fresh client order id (letters and digits). */
export function newContractOid(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  let out = 'c';
  for (const byte of bytes) out += alphabet[byte % alphabet.length];
  return out;
}
