import type { AdminSuitabilityData, CapsByRating, RiskRatingData, ScoringTable } from '@bourse/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../app/api.ts';

/**
 * The back office's risk-questionnaire calls (packages/protocol/src/suitability.ts): reading needs
 * `risk.read`, publishing a scoring version and editing the custom caps `settings.write` (each with a
 * reason, audited); a customer's rating `customers.read` — the server checks, the screens mirror.
 */
export const KEYS = {
  suitability: ['suitability'] as const,
  customer: (id: string) => ['suitability', 'customer', id] as const,
};

export function useSuitability() {
  return useQuery({
    queryKey: KEYS.suitability,
    queryFn: () => api.get<AdminSuitabilityData>('suitability'),
  });
}

export function publishScoring(body: ScoringTable & { reason: string }) {
  return api.postJson<AdminSuitabilityData>('suitability/scoring', body);
}

export function saveCustomCaps(body: { caps: CapsByRating; reason: string }) {
  return api.postJson<AdminSuitabilityData>('suitability/caps', body);
}

export function useCustomerRating(customerId: string) {
  return useQuery({
    queryKey: KEYS.customer(customerId),
    queryFn: () => api.get<RiskRatingData>('suitability/customer', { customer_id: customerId }),
    enabled: customerId !== '',
  });
}
