import type {
  AdminContractSettingsBody,
  AdminInsuranceFundBody,
  AdminPositionsQuery,
} from '@bourse/protocol';
import type { Db } from '../../db/database.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Market } from '../market/index.ts';
import { fundInsurance, insurance } from './admin-insurance.ts';
import { exposure, positions } from './admin-positions.ts';
import { listSettings, updateSettings } from './admin-settings.ts';
import type { ContractsService } from './service.ts';

/**
 * The back office of contracts, wired from its parts: settings (admin-settings.ts: audited, for new
 * orders only), exposure and positions (admin-positions.ts, read only), the insurance account and
 * its funding (admin-insurance.ts). Nothing here sets a price or closes a position: there is no
 * such call (a test enumerates the admin routes).
 */
export function createContractsAdmin(deps: {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  market: Market;
  audit: AuditLog;
  service: ContractsService;
  /** Customer id → what the back office shows (accounts' `customerLabels`, passed in by app.ts). */
  customerLabels(ids: readonly string[]): Promise<Map<string, string>>;
}) {
  return {
    settings: (symbol?: string) => listSettings(deps, symbol),
    updateSettings: (staff: StaffContext, body: AdminContractSettingsBody) =>
      updateSettings(deps, staff, body),
    exposure: (book: 'real' | 'demo') => exposure(deps, book),
    positions: (q: AdminPositionsQuery) => positions(deps, q),
    insurance: (book: 'real' | 'demo') => insurance(deps, book),
    fundInsurance: (staff: StaffContext, body: AdminInsuranceFundBody, requestId: string) =>
      fundInsurance(deps, staff, body, requestId),
  };
}

export type ContractsAdmin = ReturnType<typeof createContractsAdmin>;
