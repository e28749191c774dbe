import type { JurisdictionProfileId, LeverageClass } from '@bourse/protocol';

/** Kysely types of the jurisdiction tables (migrations.ts). */
export type JurisdictionTables = {
  /** One row (`id = 1`): the active profile and the operator's custom profile. */
  jurisdiction_setting: {
    id: number;
    active_profile: JurisdictionProfileId;
    /** Leverage cap per class of the custom profile (whole numbers 1…100). */
    custom_caps: Record<LeverageClass, number>;
    custom_options_enabled: boolean;
    /** The custom profile's earn principal-penalty switch (migration 20261126_0950). */
    custom_earn_principal_penalty: boolean;
    /** The custom profile's referral depth 0…4 and incentives switch (migration 20261212_0900). */
    custom_referral_max_depth: number;
    custom_promo_incentives: boolean;
    updated_at: Date;
    updated_by: string | null;
  };
};
