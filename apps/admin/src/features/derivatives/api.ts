import type {
  AdminContractSettingsData,
  AdminExposureData,
  AdminInsuranceData,
  AdminJurisdictionData,
  AdminOptionExposureData,
  AdminOptionSettingsData,
  AdminPositionData,
  DerivativesBook,
  JurisdictionProfileId,
  LeverageClass,
  Paged,
} from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../app/api.ts';

/**
 * The back office's derivatives calls (packages/protocol/src/derivatives.ts, "back office"): one
 * fetcher and query hook each. Reads need `risk.read`; settings and jurisdiction `markets.write`;
 * funding the insurance account `adjustments.create` — the server checks, the screens only mirror.
 */
export const KEYS = {
  contractSettings: ['derivatives', 'contractSettings'] as const,
  optionSettings: ['derivatives', 'optionSettings'] as const,
  exposure: (book: DerivativesBook) => ['derivatives', 'exposure', book] as const,
  optionExposure: (book: DerivativesBook) => ['derivatives', 'optionExposure', book] as const,
  positions: (query: PositionsFilter) => ['derivatives', 'positions', query] as const,
  insurance: (book: DerivativesBook) => ['derivatives', 'insurance', book] as const,
  jurisdiction: ['derivatives', 'jurisdiction'] as const,
};

/** Exposure and insurance screens refresh on their own this often. */
export const REFRESH_MS = 5_000;

export function useContractSettings() {
  return useQuery({
    queryKey: KEYS.contractSettings,
    queryFn: () => api.get<{ items: AdminContractSettingsData[] }>('contracts/settings'),
  });
}

/** `POST admin/contracts/settings`: only the changed fields, typed as the schema wants them. */
export type ContractSettingsChange = {
  symbol: string;
  enabled?: boolean;
  spread?: string;
  fee_per_lot?: string;
  max_leverage?: number;
  min_lots?: string;
  max_lots?: string;
  liquidation_level?: string;
  margin_topup_max?: string;
  funding_rate?: string;
  funding_interval_hours?: number;
  reason: string;
};
export function saveContractSettings(change: ContractSettingsChange) {
  return api.postJson<AdminContractSettingsData>('contracts/settings', change);
}

export function useOptionSettings() {
  return useQuery({
    queryKey: KEYS.optionSettings,
    queryFn: () => api.get<{ items: AdminOptionSettingsData[] }>('options/settings'),
  });
}

export type OptionSettingsChange = {
  symbol: string;
  enabled?: boolean;
  min_stake?: string;
  max_stake?: string;
  /** "60:0.85,300:0.9" */
  durations?: string;
  reason: string;
};
export function saveOptionSettings(change: OptionSettingsChange) {
  return api.postJson<AdminOptionSettingsData>('options/settings', change);
}

export function useExposure(book: DerivativesBook) {
  return useQuery({
    queryKey: KEYS.exposure(book),
    queryFn: () => api.get<{ items: AdminExposureData[] }>('contracts/exposure', { book }),
    refetchInterval: REFRESH_MS,
  });
}

export function useOptionExposure(book: DerivativesBook) {
  return useQuery({
    queryKey: KEYS.optionExposure(book),
    queryFn: () => api.get<{ items: AdminOptionExposureData[] }>('options/exposure', { book }),
    refetchInterval: REFRESH_MS,
  });
}

export type PositionsFilter = {
  book?: DerivativesBook;
  symbol?: string;
  customer_id?: string;
  status?: 'open' | 'closed' | 'liquidated' | 'delivered';
  page: number;
  page_size: number;
};
export function usePositions(filter: PositionsFilter) {
  return useQuery({
    queryKey: KEYS.positions(filter),
    queryFn: () => api.get<Paged<AdminPositionData>>('contracts/positions', filter),
    placeholderData: (previous) => previous,
  });
}

export function useInsurance(book: DerivativesBook) {
  return useQuery({
    queryKey: KEYS.insurance(book),
    queryFn: () => api.get<AdminInsuranceData>('contracts/insurance', { book }),
    refetchInterval: REFRESH_MS,
  });
}

export function fundInsurance(body: { book: DerivativesBook; amount: string; reason: string }) {
  return api.postJson<unknown>('contracts/insurance/fund', body);
}

export function useJurisdiction() {
  return useQuery({
    queryKey: KEYS.jurisdiction,
    queryFn: () => api.get<AdminJurisdictionData>('jurisdiction'),
  });
}

export function selectJurisdiction(body: { profile: JurisdictionProfileId; reason: string }) {
  return api.postJson<unknown>('jurisdiction', body);
}

export function saveCustomJurisdiction(body: {
  leverage_caps: Record<LeverageClass, number>;
  options_enabled: boolean;
  referral_max_depth: number;
  promo_incentives: boolean;
  reason: string;
}) {
  return api.postJson<unknown>('jurisdiction/custom', body);
}
