import { describe, expect, it } from 'vitest';
import { requiredTiers, tiersPhrase } from './tiers.ts';

describe('the verification a product needs: the profile’s rule, then its own tier', () => {
  it('names none, one (whose rule), the same twice once, and two different both, the profile’s first', () => {
    expect(requiredTiers('none', null)).toEqual([]);
    expect(requiredTiers('none', 'advanced')).toEqual([{ tier: 'advanced', source: 'own' }]);
    expect(requiredTiers('primary', null)).toEqual([{ tier: 'primary', source: 'profile' }]);
    expect(requiredTiers('primary', 'primary')).toEqual([{ tier: 'primary', source: 'both' }]);
    expect(requiredTiers('address', 'advanced')).toEqual([
      { tier: 'address', source: 'profile' },
      { tier: 'advanced', source: 'own' },
    ]);
  });

  it('joins the phrases into one', () => {
    const and = (a: string, b: string) => `${a} and ${b}`;
    expect(tiersPhrase([], 'not required', and)).toBe('not required');
    expect(tiersPhrase(['primary'], 'not required', and)).toBe('primary');
    expect(tiersPhrase(['primary', 'advanced'], 'not required', and)).toBe('primary and advanced');
  });
});
