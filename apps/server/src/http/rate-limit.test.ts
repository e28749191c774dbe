import { describe, expect, it } from 'vitest';
import { memoryRateLimiter } from './rate-limit.ts';

describe('memory rate limiter', () => {
  it('allows the limit per window, then names the seconds to wait, then resets', () => {
    const limiter = memoryRateLimiter();
    for (let i = 0; i < 3; i++) expect(limiter.hit('k', 3, 60_000, 1_000)).toBe(0);
    expect(limiter.hit('k', 3, 60_000, 31_000)).toBe(30);
    expect(limiter.hit('other', 3, 60_000, 31_000)).toBe(0);
    expect(limiter.hit('k', 3, 60_000, 61_000)).toBe(0);
  });
});
