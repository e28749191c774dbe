import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { expectLogLine } from '../../../test/logwatch.ts';
import type { IdempotencyStore } from '../../http/idempotency.ts';
import { addAddress, balance, customer, fund, setRule, WEBHOOK_SECRET, withdraw } from './testing.ts';

/**
 * A withdrawal request retried with its rtoken (http/hooks.ts, db/database.ts `inTransaction`): the
 * request's claim is recorded `applied` only with the money — the Google step, the row and the
 * freeze in one transaction — and never by the trade password's failure count. `crash` makes the
 * next request lose its answer as a process dying after its transactions would: the key is let go
 * and only what committed (an `applied` record included) stays.
 */
const U = 100_000_000n;
const state = { crash: false };
const wrap = (store: IdempotencyStore): IdempotencyStore => ({
  ...store,
  async finish(key, claimId, answer, now) {
    if (!state.crash) return store.finish(key, claimId, answer, now);
    state.crash = false;
    return store.release(key);
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ custodyWebhookSecret: WEBHOOK_SECRET }, { idempotency: wrap });
  await setRule(t, 'turnover', { enabled: false });
  await setRule(t, 'daily_count', { params: { max: 1000, timezone: 'Asia/Hong_Kong' } });
});
afterAll(async () => t?.close());

async function withdrawals(customerId: string) {
  return t.db
    .selectFrom('withdrawals_withdrawal')
    .select('id')
    .where('customer_id', '=', customerId)
    .execute();
}

async function appliedWithdrawRequests(): Promise<number> {
  const rows = await t.db
    .selectFrom('http_idempotency')
    .select('key_hash')
    .where('route', '=', 'POST /api/web/withdraw')
    .where('state', '=', 'applied')
    .execute();
  return rows.length;
}

/** A customer with 1000 USDT, an address and the Google authenticator enabled. */
async function withGoogle() {
  const c = await customer(t);
  await fund(t, c.customerId, '1000');
  const addressId = await addAddress(t, c.token);
  const secret = await call(t.app, { method: 'GET', call: 'googleSecret', fields: { token: c.token } });
  const epoch = () => Math.floor(t.clock.now().getTime() / 1000);
  const enabled = await call(t.app, {
    call: 'googleEnable',
    fields: { token: c.token, google_code: await generate({ secret: secret.data.secret, epoch: epoch() }) },
  });
  expect(enabled.code).toBe(1);
  // The next step's code: the enabling one is used.
  t.clock.advance(60_000);
  const code = await generate({ secret: secret.data.secret, epoch: epoch() });
  return { ...c, addressId, code };
}

describe('a withdrawal request retried with its rtoken', () => {
  it('fails after the Google step: nothing is recorded, the retry with the same code makes one withdrawal', async () => {
    const c = await withGoogle();
    const fields = {
      address_id: c.addressId,
      amount: '100',
      google_code: c.code,
      rtoken: 'wdr-after-step-1',
    };
    expectLogLine(/simulated failure after the freeze/);
    t.app.withdrawalsService.faults.afterRequestFreeze = () => {
      throw new Error('simulated failure after the freeze');
    };
    try {
      const failed = await withdraw(t, c.token, fields);
      expect(failed.status).toBeGreaterThanOrEqual(500);
    } finally {
      t.app.withdrawalsService.faults.afterRequestFreeze = undefined;
    }
    expect(await withdrawals(c.customerId)).toHaveLength(0);
    expect(await balance(t, c.customerId)).toEqual({ available: 1000n * U, frozen: 0n });

    const retry = await withdraw(t, c.token, fields);
    expect(retry, JSON.stringify(retry)).toMatchObject({ code: 1 });
    const again = await withdraw(t, c.token, fields);
    expect(again.data).toEqual(retry.data);
    expect(await withdrawals(c.customerId)).toHaveLength(1);
    expect(await balance(t, c.customerId)).toEqual({ available: 900n * U, frozen: 100n * U });
    // The code's step is used now: another request cannot spend it.
    const reused = await withdraw(t, c.token, {
      address_id: c.addressId,
      amount: '100',
      google_code: c.code,
    });
    expect(reused.reason).toBe('GOOGLE_CODE_WRONG');
    t.clock.advance(-60_000);
  });

  it('whose answer is lost after the money moved: the retry is REQUEST_ALREADY_APPLIED and there is one withdrawal', async () => {
    const c = await withGoogle();
    const fields = {
      address_id: c.addressId,
      amount: '100',
      google_code: c.code,
      rtoken: 'wdr-lost-ans-1',
    };
    state.crash = true;
    expect((await withdraw(t, c.token, fields)).code).toBe(1);
    const retry = await withdraw(t, c.token, fields);
    expect(retry).toMatchObject({ status: 409, reason: 'REQUEST_ALREADY_APPLIED' });
    expect(await withdrawals(c.customerId)).toHaveLength(1);
    expect(await balance(t, c.customerId)).toEqual({ available: 900n * U, frozen: 100n * U });
    t.clock.advance(-60_000);
  });

  it('refused for a wrong trade password: its rtoken is not recorded as applied, the retry runs again', async () => {
    const before = await appliedWithdrawRequests();
    const c = await customer(t);
    await fund(t, c.customerId, '1000');
    const addressId = await addAddress(t, c.token);
    const fields = {
      address_id: addressId,
      amount: '100',
      trade_password: '000000',
      rtoken: 'wdr-wrong-tp-1',
    };
    state.crash = true;
    const refused = await withdraw(t, c.token, fields);
    expect(refused).toMatchObject({ reason: 'TRADE_PASSWORD_WRONG', params: { attemptsLeft: 4 } });
    expect(await appliedWithdrawRequests()).toBe(before);
    const retry = await withdraw(t, c.token, fields);
    expect(retry).toMatchObject({ reason: 'TRADE_PASSWORD_WRONG', params: { attemptsLeft: 3 } });
    expect(await withdrawals(c.customerId)).toHaveLength(0);
  });
});
