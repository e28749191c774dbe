import type { JurisdictionProfileId, RequiredTier, VerificationFeature } from '@bourse/protocol';

/**
 * What each tier unlocks, as first seeded (operator data afterwards: `custom` is edited by staff,
 * the built-in profiles stay as they are). `permissive` lets money in and out unverified and asks
 * for real-name verification where identity matters (C2C, credit score, new-coin subscription) and
 * advanced verification for loans (spec 5); `eu_retail` asks for real-name verification before any
 * money moves (EU AML rules: customer due diligence before a business relationship).
 */
export const SEED_FEATURE_RULES: Readonly<
  Record<JurisdictionProfileId, Readonly<Record<VerificationFeature, RequiredTier>>>
> = {
  permissive: {
    deposit: 'none',
    withdraw: 'none',
    loans: 'advanced',
    credit_score: 'primary',
    c2c: 'primary',
    earn: 'none',
    launchpad: 'primary',
  },
  eu_retail: {
    deposit: 'primary',
    withdraw: 'primary',
    loans: 'advanced',
    credit_score: 'primary',
    c2c: 'primary',
    earn: 'primary',
    launchpad: 'primary',
  },
  custom: {
    deposit: 'none',
    withdraw: 'none',
    loans: 'advanced',
    credit_score: 'primary',
    c2c: 'primary',
    earn: 'none',
    launchpad: 'primary',
  },
};

/** Five years: a common AML record-keeping period after the relationship (e.g. EU AMLD art. 40). */
export const SEED_RETENTION_DAYS = 1825;
