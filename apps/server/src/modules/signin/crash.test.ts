import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import type { IdempotencyStore } from '../../http/idempotency.ts';
import { customer, USDT } from '../assets/testing.ts';
import { fundBudget, setProgramme, signIn, spotUnits } from './testing.ts';

/**
 * A process killed right after the sign-in committed (the answer never stored nor sent, the rtoken's
 * key let go, as http/exactly-once.test.ts does it), then the app retries with the same rtoken: one
 * reward. With the rtoken claim recorded the retry is REQUEST_ALREADY_APPLIED; in the control, where
 * the claim is not recorded with the effect, the retry runs again and the (customer, day) key still
 * refuses it — the day's claim alone makes it exactly once.
 */
for (const recordClaims of [true, false]) {
  describe(`a sign-in whose answer was lost (${recordClaims ? 'claims recorded' : 'control: claims not recorded'})`, () => {
    let t: TestApp;
    const state = { crash: false };
    const wrap = ({ claimsStatement, ...store }: IdempotencyStore): IdempotencyStore => ({
      ...store,
      // The control writes no claim at all: neither on its own nor inside a spot batch's statement.
      ...(recordClaims && claimsStatement ? { claimsStatement } : {}),
      commit: recordClaims ? store.commit : async () => true,
      commitMany: recordClaims
        ? store.commitMany
        : async (_tx, claims) => new Set(claims.map((c) => c.key.hash)),
      async finish(key, claimId, answer, now) {
        if (!state.crash) return store.finish(key, claimId, answer, now);
        state.crash = false;
        return store.release(key);
      },
    });
    beforeAll(async () => {
      t = await startTestApp({}, { idempotency: wrap, now: new Date('2027-05-03T10:00:00Z') });
      await setProgramme(t);
      await fundBudget(t, '100');
    }, 120_000);
    afterAll(async () => t?.close());

    it('pays once', async () => {
      const c = await customer(t, 'sgn');
      state.crash = true;
      expect((await signIn(t, c.token, 'rt-lost-sign')).code).toBe(1);
      const retry = await signIn(t, c.token, 'rt-lost-sign');
      if (recordClaims) expect(retry).toMatchObject({ status: 409, reason: 'REQUEST_ALREADY_APPLIED' });
      else expect(retry.reason).toBe('SIGNIN_ALREADY_TODAY');
      expect(await spotUnits(t, c.id)).toBe(USDT(1));
    });
  });
}
