import type { JurisdictionProfileId, LeverageClass } from '@bourse/protocol';
import { JURISDICTION_CAPS } from '@bourse/risk';

/**
 * The built-in profiles (caps from `@bourse/risk`, the one place risk numbers live). `eu_retail` follows the EU retail CFD limits (ESMA product intervention,
 * 2018): 30:1 major forex, 20:1 minor forex, gold and major indices, 10:1 other commodities,
 * 5:1 stocks, 2:1 crypto, and no binary (up/down) options for retail customers.
 */
export type BuiltInProfile = Readonly<{
  caps: Readonly<Record<LeverageClass, number>>;
  optionsEnabled: boolean;
  /** Earn products may use principal early-redemption penalties (modules/earn). */
  earnPrincipalPenalty: boolean;
}>;

export const BUILT_IN_PROFILES: Readonly<Record<Exclude<JurisdictionProfileId, 'custom'>, BuiltInProfile>> = {
  permissive: { caps: JURISDICTION_CAPS.permissive, optionsEnabled: true, earnPrincipalPenalty: true },
  eu_retail: { caps: JURISDICTION_CAPS.eu_retail, optionsEnabled: false, earnPrincipalPenalty: false },
};

export const DEFAULT_JURISDICTION_PROFILE: JurisdictionProfileId = 'permissive';
