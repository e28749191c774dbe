import { parseDecimal, toDecimalString } from '@bourse/money';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { withdrawalsMigrations } from './migrations.ts';
import { DEFAULT_RULES, PROMOTIONAL_REASONS, rulesFrom, turnoverHold } from './policy.ts';
import {
  addAddress,
  balance,
  customer,
  fund,
  ledgerOf,
  setRule,
  WEBHOOK_SECRET,
  withdraw,
  withdrawalCount,
} from './testing.ts';

/**
 * Issue 13, fair withdrawal rules: the turnover rule is off by default; when an operator turns it
 * on it holds promotional credit only — a deposit (and trading profit) can always be withdrawn.
 */
const U = 100_000_000n; // USDT minor units per 1
const START = new Date('2026-11-21T04:00:00Z'); // 12:00 in Hong Kong
let t: TestApp;
let seq = 0;
const units = (text: string) => {
  const parsed = parseDecimal(text, { scale: 8 });
  if (!parsed.ok) throw new Error(`not an amount: ${text}`);
  return parsed.units;
};

beforeAll(async () => {
  t = await startTestApp({ custodyWebhookSecret: WEBHOOK_SECRET });
});
afterAll(async () => t?.close());

async function rulesScreen(token: string) {
  const r = await call(t.app, {
    method: 'GET',
    call: 'getWithdrawRules',
    fields: { token, currency: 'USDT' },
  });
  expect(r.code).toBe(1);
  return r.data as {
    available: string;
    withdrawable: string;
    held: Array<{
      code: string;
      params: { percent: number };
      amount: string;
      release: { trade_more: string };
    }>;
  };
}

async function bonus(customerId: string, units: bigint, reason = 'reward.bonus') {
  seq += 1;
  await ledgerOf(t).credit(t.db, {
    book: 'real',
    customerId,
    accountType: 'spot',
    currency: 'USDT',
    amountUnits: units,
    from: 'rewards_expense',
    reason,
    reference: { type: 'reward', id: `bonus-${seq}` },
    idempotencyKey: `test-bonus-${process.pid}-${seq}`,
  });
}

/** Consumption: value sent to the platform, as a trade fee is. */
async function consume(customerId: string, units: bigint) {
  seq += 1;
  await ledgerOf(t).debit(t.db, {
    book: 'real',
    customerId,
    accountType: 'spot',
    currency: 'USDT',
    amountUnits: units,
    to: 'fee_income',
    reason: 'trade.fee',
    reference: { type: 'trade', id: `fee-${seq}` },
    idempotencyKey: `test-consume-${process.pid}-${seq}`,
  });
}

/** Trading profit: paid by the options house, as a won option is. */
async function profit(customerId: string, units: bigint) {
  seq += 1;
  await ledgerOf(t).credit(t.db, {
    book: 'real',
    customerId,
    accountType: 'spot',
    currency: 'USDT',
    amountUnits: units,
    from: 'options_house',
    reason: 'option.settle',
    reference: { type: 'option', id: `win-${seq}` },
    idempotencyKey: `test-profit-${process.pid}-${seq}`,
  });
}

describe('the turnover rule by default', () => {
  it('is off on a new install (migration 0610) and nothing is held', async () => {
    const row = await t.db
      .selectFrom('withdrawals_rule')
      .select(['enabled', 'params'])
      .where('code', '=', 'turnover')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ enabled: false, params: { percent: 90 } });
    const c = await customer(t);
    await fund(t, c.customerId, '500');
    await bonus(c.customerId, 10n * U);
    const screen = await rulesScreen(c.token);
    expect(screen).toMatchObject({ available: '510', withdrawable: '510', held: [] });
  });

  it('migration 0610 turns off only a rule still as shipped, never one staff changed', async () => {
    const off = withdrawalsMigrations['20261125_0610_withdrawals_turnover_off'];
    const rerun = () => off?.up(t.db as unknown as Kysely<unknown>);
    const read = () =>
      t.db
        .selectFrom('withdrawals_rule')
        .select(['enabled'])
        .where('code', '=', 'turnover')
        .executeTakeFirstOrThrow();
    await t.db
      .updateTable('withdrawals_rule')
      .set({ enabled: true, updated_by: null })
      .where('code', '=', 'turnover')
      .execute();
    await rerun();
    expect(await read()).toEqual({ enabled: false });
    await t.db
      .updateTable('withdrawals_rule')
      .set({ enabled: true, updated_by: 'stf_operator' })
      .where('code', '=', 'turnover')
      .execute();
    await rerun();
    expect(await read()).toEqual({ enabled: true });
  });
});

describe('the turnover rule on: promotional credit only', () => {
  beforeEach(async () => {
    t.clock.set(START);
    for (const rule of DEFAULT_RULES) await setRule(t, rule.code, { enabled: true, params: rule.params });
    await setRule(t, 'daily_count', { params: { max: 1000, timezone: 'Asia/Hong_Kong' } });
  });

  it('holds a bonus until its turnover is met, shows why, and the refusal names the rule', async () => {
    const c = await customer(t);
    await fund(t, c.customerId, '1000');
    await bonus(c.customerId, 10n * U);
    const addressId = await addAddress(t, c.token);
    expect(await rulesScreen(c.token)).toEqual(
      expect.objectContaining({
        available: '1010',
        withdrawable: '1000',
        held: [{ code: 'turnover', params: { percent: 90 }, amount: '10', release: { trade_more: '9' } }],
      }),
    );
    const before = { count: await withdrawalCount(t), balance: await balance(t, c.customerId) };
    const refused = await withdraw(t, c.token, { address_id: addressId, amount: '1000.5' });
    expect(refused.reason).toBe('WITHDRAW_TURNOVER_REQUIRED');
    expect(refused.params).toEqual({
      percent: 90,
      held: '10',
      withdrawable: '1000',
      more: '9',
      currency: 'USDT',
    });
    expect(refused.msg).toContain('turnover');
    expect({ count: await withdrawalCount(t), balance: await balance(t, c.customerId) }).toEqual(before);

    // Trading 4.5 releases 5 of the 10 (90%: every 0.9 traded releases 1).
    await consume(c.customerId, (45n * U) / 10n);
    expect(await rulesScreen(c.token)).toMatchObject({
      available: '1005.5',
      withdrawable: '1000.5',
      held: [{ amount: '5', release: { trade_more: '4.5' } }],
    });
    expect((await withdraw(t, c.token, { address_id: addressId, amount: '1000.5' })).code).toBe(1);
    // The rest is released once 9 is traded in all; the bonus is then withdrawable like any money.
    await consume(c.customerId, (45n * U) / 10n);
    await setRule(t, 'min_amount', { enabled: false });
    expect(await rulesScreen(c.token)).toMatchObject({ available: '0.5', withdrawable: '0.5', held: [] });
    expect((await withdraw(t, c.token, { address_id: addressId, amount: '0.5' })).code).toBe(1);
  });

  it('every promotional reason counts; deposits and trading profit are never held', async () => {
    const c = await customer(t);
    for (const reason of PROMOTIONAL_REASONS) await bonus(c.customerId, 2n * U, reason);
    await fund(t, c.customerId, '100');
    await profit(c.customerId, 50n * U);
    const screen = await rulesScreen(c.token);
    // Two promotional reasons (sign-in rewards, bonuses; referral income is a share of fees paid, never held).
    expect(PROMOTIONAL_REASONS).toEqual(['reward.signin', 'reward.bonus']);
    expect(screen).toMatchObject({ available: '154', withdrawable: '150' });
    expect(screen.held[0]).toMatchObject({ amount: '4', release: { trade_more: '3.6' } });
  });

  it('property: a deposit can always be withdrawn in full, less the fee, whatever the trading', async () => {
    await setRule(t, 'fee', { params: { address_bps: 125, bank_bps: 500 } });
    await setRule(t, 'turnover', { enabled: true, params: { percent: 90 } });
    const op = fc.oneof(
      fc.record({ kind: fc.constant('profit' as const), units: fc.bigInt({ min: 1n, max: 5_000n * U }) }),
      fc.record({ kind: fc.constant('consume' as const), units: fc.bigInt({ min: 1n, max: 5_000n * U }) }),
      fc.record({ kind: fc.constant('bonus' as const), units: fc.bigInt({ min: 1n, max: 500n * U }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 100n * U, max: 100_000n * U }),
        fc.array(op, { maxLength: 6 }),
        async (deposited, activity) => {
          const c = await customer(t);
          const addressId = await addAddress(t, c.token);
          await ledgerOf(t).credit(t.db, {
            book: 'real',
            customerId: c.customerId,
            accountType: 'spot',
            currency: 'USDT',
            amountUnits: deposited,
            from: 'deposits_clearing',
            reason: 'deposit.crypto',
            reference: { type: 'deposit', id: `prop-${c.customerId}` },
            idempotencyKey: `prop-deposit-${c.customerId}`,
          });
          // Trading spends only what came on top of the deposit (profit and bonus), as a
          // customer who keeps their deposit would; bonuses may be spent too.
          let extra = 0n;
          for (const step of activity) {
            if (step.kind === 'consume') {
              const spent = step.units <= extra ? step.units : extra;
              if (spent > 0n) await consume(c.customerId, spent);
              extra -= spent;
            } else {
              if (step.kind === 'profit') await profit(c.customerId, step.units);
              else await bonus(c.customerId, step.units);
              extra += step.units;
            }
          }
          const screen = await rulesScreen(c.token);
          expect(units(screen.withdrawable)).toBeGreaterThanOrEqual(deposited);
          const amount = toDecimalString(deposited, 8);
          const r = await withdraw(t, c.token, { address_id: addressId, amount });
          expect(r.code).toBe(1);
          const fee = (deposited * 125n + 9_999n) / 10_000n;
          expect(units(r.data.received)).toBe(deposited - fee);
          expect((await balance(t, c.customerId)).frozen).toBe(deposited);
        },
      ),
      { numRuns: 20, seed: 13 },
    );
  });
});

describe('turnoverHold (pure)', () => {
  const on = rulesFrom([{ code: 'turnover', enabled: true, params: { percent: 90 } }]);
  it('releases 100/percent of credit per unit consumed, capped by the balance', () => {
    const f = { availableUnits: 1_010n, promotionalUnits: 10n, consumedUnits: 0n };
    expect(turnoverHold(on, f)).toEqual({ withdrawableUnits: 1_000n, heldUnits: 10n, releaseMoreUnits: 9n });
    expect(turnoverHold(on, { ...f, consumedUnits: 9n })).toMatchObject({ heldUnits: 0n });
    expect(turnoverHold(on, { ...f, consumedUnits: 8n })).toEqual({
      withdrawableUnits: 1_008n,
      heldUnits: 2n,
      releaseMoreUnits: 1n,
    });
    expect(turnoverHold(on, { ...f, availableUnits: 4n })).toMatchObject({
      withdrawableUnits: 0n,
      heldUnits: 4n,
    });
    const off = rulesFrom([{ code: 'turnover', enabled: false, params: { percent: 90 } }]);
    expect(turnoverHold(off, f)).toMatchObject({ withdrawableUnits: 1_010n, heldUnits: 0n });
  });
});
