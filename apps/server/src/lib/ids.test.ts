import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newId, newIds, randomCode } from './ids.ts';

describe('ids', () => {
  it('are prefixed and sort by creation time', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 47 }), fc.integer({ min: 1, max: 2 ** 20 }), (t, dt) => {
        const a = newId('usr', t);
        const b = newId('usr', t + dt);
        expect(a).toMatch(/^usr_[0-9A-HJKMNP-TV-Z]{26}$/);
        expect(a < b).toBe(true);
      }),
    );
  });

  it('a batch of ids from one random draw: same shape and time prefix, all distinct', () => {
    expect(newIds('jnl', 0)).toEqual([]);
    const ids = newIds('jnl', 1000, 1_700_000_000_000);
    expect(new Set(ids).size).toBe(1000);
    const single = newId('jnl', 1_700_000_000_000);
    for (const id of ids) {
      expect(id).toMatch(/^jnl_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(id.slice(0, 14)).toBe(single.slice(0, 14));
    }
  });

  it('ids made one by one across several pool draws never repeat their random part', () => {
    // 4 KiB per draw, 16 bytes per id: 1,000 ids span four draws and their seams.
    const parts = Array.from({ length: 1000 }, () => newId('usr', 1_700_000_000_000).slice(14));
    expect(new Set(parts).size).toBe(1000);
  });

  it('random codes use the unambiguous alphabet', () => {
    for (let i = 0; i < 200; i++) expect(randomCode(8)).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
  });
});
