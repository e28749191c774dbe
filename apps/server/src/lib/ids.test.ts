import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newId, randomCode } from './ids.ts';

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

  it('random codes use the unambiguous alphabet', () => {
    for (let i = 0; i < 200; i++) expect(randomCode(8)).toMatch(/^[2-9A-HJKMNP-Z]{8}$/);
  });
});
