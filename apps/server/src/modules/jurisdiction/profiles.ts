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
  /**
   * How many levels of inviters may receive a share of an invitee's trading fees (modules/referral):
   * 0 where referral rewards are banned, 1 where only the direct inviter may be paid.
   */
  referralMaxDepth: number;
  /**
   * Whether promotional incentives (the sign-in reward's credit) may be offered: ESMA's 2018 product
   * intervention bans monetary and non-monetary incentives for retail CFDs and binary options, so
   * the EU retail profile offers none.
   */
  promoIncentives: boolean;
}>;

export const BUILT_IN_PROFILES: Readonly<Record<Exclude<JurisdictionProfileId, 'custom'>, BuiltInProfile>> = {
  permissive: {
    caps: JURISDICTION_CAPS.permissive,
    optionsEnabled: true,
    earnPrincipalPenalty: true,
    referralMaxDepth: 4,
    promoIncentives: true,
  },
  eu_retail: {
    caps: JURISDICTION_CAPS.eu_retail,
    optionsEnabled: false,
    earnPrincipalPenalty: false,
    referralMaxDepth: 1,
    promoIncentives: false,
  },
};

export const DEFAULT_JURISDICTION_PROFILE: JurisdictionProfileId = 'permissive';
