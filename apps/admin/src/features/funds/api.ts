import type {
  AdminFundModelData,
  AdminFundOrderData,
  AdminFundRebalanceData,
  FundModelData,
  FundModelId,
  FundModelState,
  FundNavPoint,
  FundOrderState,
  Paged,
} from '@bourse/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../app/api.ts';
import { useLang } from '../../app/i18n.ts';

/**
 * The back office's ETF calls (packages/protocol/src/funds.ts, "back office"): reads need
 * `funds.read`, opening or pausing a model `funds.write` (audited with a reason).
 */
export const KEYS = {
  models: ['funds', 'models'] as const,
  orders: (f: OrdersFilter) => ['funds', 'orders', f] as const,
  rebalances: (page: number) => ['funds', 'rebalances', page] as const,
  nav: (model: FundModelId) => ['funds', 'nav', model] as const,
};

export function useModels() {
  const lang = useLang();
  return useQuery({
    queryKey: [...KEYS.models, lang],
    queryFn: () => api.get<{ items: AdminFundModelData[] }>('funds/models').then((r) => r.items),
  });
}

export function setModelState(body: { model_id: FundModelId; state: FundModelState; reason: string }) {
  return api.post<FundModelData>('funds/models/state', body);
}

export type OrdersFilter = {
  model_id?: FundModelId;
  state?: FundOrderState;
  book?: 'real' | 'demo';
  customer_id?: string;
  page: number;
  page_size: number;
};

export function useOrders(filter: OrdersFilter) {
  const lang = useLang();
  return useQuery({
    queryKey: [...KEYS.orders(filter), lang],
    queryFn: () => api.get<Paged<AdminFundOrderData>>('funds/orders', filter),
    placeholderData: keepPreviousData,
  });
}

export function useRebalances(page: number) {
  return useQuery({
    queryKey: KEYS.rebalances(page),
    queryFn: () => api.get<Paged<AdminFundRebalanceData>>('funds/rebalances', { page, page_size: 20 }),
    placeholderData: keepPreviousData,
  });
}

export function useNav(model: FundModelId) {
  return useQuery({
    queryKey: KEYS.nav(model),
    queryFn: () =>
      api.get<{ items: FundNavPoint[] }>('funds/nav', { model_id: model, range: 'all' }).then((r) => r.items),
  });
}
