import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { adminCall, staffSession } from '../staff/testing.ts';
import { DEFAULT_RULES } from './policy.ts';
import {
  addAddress,
  balance,
  customer,
  fund,
  ledgerOf,
  setRule,
  WEBHOOK_SECRET,
  withdraw,
} from './testing.ts';

const U = 100_000_000n;
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ custodyWebhookSecret: WEBHOOK_SECRET });
  for (const rule of DEFAULT_RULES) await setRule(t, rule.code, { enabled: true, params: rule.params });
  // Relaxed for the bursts through the rule data: 50 requests a day, no turnover requirement.
  await setRule(t, 'daily_count', { params: { max: 1000, timezone: 'Asia/Hong_Kong' } });
  await setRule(t, 'turnover', { enabled: false });
}, 120_000);
afterAll(async () => t?.close());

describe('races on PostgreSQL', () => {
  for (const k of [0, 1, 7, 25, 49]) {
    it(`50 simultaneous withdrawals of 100 USDT against a balance covering ${k}: exactly ${k} succeed`, async () => {
      const c = await customer(t);
      await fund(t, c.customerId, `${k * 100 + 50}`);
      const addressId = await addAddress(t, c.token);
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => withdraw(t, c.token, { address_id: addressId, amount: '100' })),
      );
      expect(answers.filter((a) => a.status >= 500)).toEqual([]);
      const won = answers.filter((a) => a.code === 1);
      expect(won).toHaveLength(k);
      expect(new Set(answers.filter((a) => a.code !== 1).map((a) => a.reason))).toEqual(
        k === 50 ? new Set() : new Set(['INSUFFICIENT_BALANCE']),
      );
      expect(await balance(t, c.customerId)).toEqual({ available: 50n * U, frozen: BigInt(k) * 100n * U });
      const rows = await t.db
        .selectFrom('withdrawals_withdrawal')
        .select('id')
        .where('customer_id', '=', c.customerId)
        .execute();
      expect(rows).toHaveLength(k);
    }, 60_000);
  }

  it('the daily count holds under a burst: 20 simultaneous requests, at most 2 a day', async () => {
    await setRule(t, 'daily_count', { params: { max: 2, timezone: 'Asia/Hong_Kong' } });
    try {
      const c = await customer(t);
      await fund(t, c.customerId, '10000');
      const addressId = await addAddress(t, c.token);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => withdraw(t, c.token, { address_id: addressId, amount: '100' })),
      );
      expect(answers.filter((a) => a.code === 1)).toHaveLength(2);
      expect(new Set(answers.filter((a) => a.code !== 1).map((a) => a.reason))).toEqual(
        new Set(['WITHDRAW_DAILY_LIMIT']),
      );
    } finally {
      await setRule(t, 'daily_count', { params: { max: 1000, timezone: 'Asia/Hong_Kong' } });
    }
  }, 60_000);

  it('cancel and approve racing: exactly one wins, ten times over', async () => {
    const staff = await staffSession(t, ['finance']);
    const c = await customer(t);
    await fund(t, c.customerId, '1000');
    const addressId = await addAddress(t, c.token);
    for (let i = 0; i < 10; i++) {
      const w = await withdraw(t, c.token, { address_id: addressId, amount: '100' });
      const [cancel, approve] = await Promise.all([
        call(t.app, { call: 'cancelWithdraw', fields: { token: c.token, withdrawal_id: w.data.id } }),
        adminCall(t.app, {
          call: 'withdrawals/approve',
          token: staff.token,
          fields: { withdrawal_id: w.data.id, reason: 'checked: customer and destination' },
        }),
      ]);
      const wins = [cancel, approve].filter((a) => a.code === 1);
      expect(wins).toHaveLength(1);
      const loser = cancel.code === 1 ? approve : cancel;
      expect(loser.reason).toBe('WITHDRAW_NOT_PENDING');
      const row = await t.db
        .selectFrom('withdrawals_withdrawal')
        .select('status')
        .where('id', '=', w.data.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe(cancel.code === 1 ? 'cancelled' : 'processing');
    }
    const b = await balance(t, c.customerId);
    expect(b.available + b.frozen).toBe(1000n * U);
    const report = await ledgerOf(t).verify(t.db);
    expect(report.mismatches).toEqual([]);
  }, 60_000);
});
