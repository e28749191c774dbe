import type { RequiredTier, VerificationTier } from '@bourse/protocol';

/** Whose rule asks for a verification tier: the active jurisdiction profile's, the product's own, or both. */
export type TierSource = 'profile' | 'own' | 'both';

/**
 * The verification a product actually needs, as the server checks it: first the active
 * jurisdiction profile's rule for its feature (`profile_tier`, modules/verification
 * `requireFeature`), then the product's own `min_tier`. Neither: an empty list. One, or both the
 * same: that tier, naming whose rule. Two different tiers: both, the profile's first — each must be
 * approved on its own, so neither is folded into the other.
 */
export function requiredTiers(
  profileTier: RequiredTier,
  ownTier: VerificationTier | null,
): Array<{ tier: VerificationTier; source: TierSource }> {
  const profile = profileTier === 'none' ? null : profileTier;
  if (profile === null) return ownTier === null ? [] : [{ tier: ownTier, source: 'own' }];
  if (ownTier === null) return [{ tier: profile, source: 'profile' }];
  if (profile === ownTier) return [{ tier: profile, source: 'both' }];
  return [
    { tier: profile, source: 'profile' },
    { tier: ownTier, source: 'own' },
  ];
}

/**
 * The tiers `requiredTiers` gives, as one phrase of a rule sentence: `none` when there are none,
 * the one phrase, or two joined by `and` (each feature's own texts).
 */
export function tiersPhrase(
  phrases: readonly string[],
  none: string,
  and: (first: string, second: string) => string,
) {
  const [first, second] = phrases;
  if (first === undefined) return none;
  return second === undefined ? first : and(first, second);
}
