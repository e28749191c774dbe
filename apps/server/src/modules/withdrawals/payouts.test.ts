import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { adminCall, staffSession } from '../staff/testing.ts';
import { NETWORKS } from './chains.ts';
import { DEFAULT_RULES } from './policy.ts';
import { simulatedTxHash } from './provider.ts';
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

const U = 100_000_000n; // USDT minor units per 1
const START = new Date('2026-11-21T04:00:00Z'); // 12:00 in Hong Kong
const BLOCK_MS = 1_000;
const ERC20_CONFIRM_MS = NETWORKS.ERC20.confirmations * BLOCK_MS;
let t: TestApp;

beforeAll(async () => {
  // The job's own timer is kept out of the way: each test runs the job when its story needs it.
  t = await startTestApp({
    custodyWebhookSecret: WEBHOOK_SECRET,
    payoutSimBlockMs: BLOCK_MS,
    payoutCheckIntervalMs: 3_600_000,
    bankPayoutApprovalThreshold: '150',
  });
});
afterAll(async () => t?.close());
beforeEach(async () => {
  t.clock.set(START);
  t.app.withdrawalsService.faults.afterSettlePost = undefined;
  for (const rule of DEFAULT_RULES) await setRule(t, rule.code, { enabled: true, params: rule.params });
  await setRule(t, 'turnover', { enabled: false });
});

async function approved(amount = '300') {
  const c = await customer(t);
  await fund(t, c.customerId, '1000');
  const addressId = await addAddress(t, c.token);
  const w = await withdraw(t, c.token, { address_id: addressId, amount });
  expect(w.code).toBe(1);
  const staff = await staffSession(t, ['finance']);
  const answer = await adminCall(t.app, {
    call: 'withdrawals/approve',
    token: staff.token,
    fields: { withdrawal_id: w.data.id, reason: 'checked: customer and destination' },
  });
  expect(answer.data.state).toBe('processing');
  return { ...c, id: w.data.id as string, staff, approvedAnswer: answer.data };
}

async function settleEntries(id: string) {
  return t.db
    .selectFrom('ledger_entry')
    .select(['id', 'reason'])
    .where('reference_id', '=', id)
    .where('reason', 'in', ['withdrawal.settle', 'withdrawal.fail'])
    .execute();
}

async function records(token: string) {
  const list = await call(t.app, { method: 'GET', call: 'getWithdrawList', fields: { token } });
  return list.data.list as Array<Record<string, unknown>>;
}

async function outbox(email: string) {
  return t.db
    .selectFrom('notify_outbox')
    .select(['subject', 'body'])
    .where('recipient', '=', email)
    .where('subject', 'like', 'Withdrawal%')
    .orderBy('id')
    .execute();
}

describe('the embedded simulated chain', () => {
  it('broadcast returns the hash; confirmed after the network block count, exactly once', async () => {
    const c = await approved();
    const hash = simulatedTxHash('ERC20', `emb_${c.id}`);
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(c.approvedAnswer.tx_hash).toBe(hash);
    expect(await balance(t, c.customerId)).toEqual({ available: 700n * U, frozen: 300n * U });

    // One millisecond short of 12 blocks: nothing happens.
    t.clock.advance(ERC20_CONFIRM_MS - 1);
    expect(await t.app.payoutJob.runOnce()).toBe(0);
    expect((await records(c.token))[0]).toMatchObject({ state: 'processing', status: 1 });
    expect(await settleEntries(c.id)).toHaveLength(0);

    t.clock.advance(1);
    // Concurrent and repeated runs: one settlement.
    const runs = await Promise.all([
      t.app.payoutJob.runOnce(),
      t.app.withdrawalsService.confirmDuePayouts(),
      t.app.withdrawalsService.confirmDuePayouts(),
    ]);
    expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(await t.app.payoutJob.runOnce()).toBe(0);
    expect(await settleEntries(c.id)).toHaveLength(1);
    expect(await balance(t, c.customerId)).toEqual({ available: 700n * U, frozen: 0n });
    const row = (await records(c.token))[0];
    expect(row).toMatchObject({
      id: c.id,
      state: 'completed',
      status: 2,
      tx_hash: hash,
      explorer_url: `https://etherscan.io/tx/${hash}`,
    });
    const payout = await t.db
      .selectFrom('withdrawals_payout')
      .select(['status', 'settled_at'])
      .where('withdrawal_id', '=', c.id)
      .executeTakeFirstOrThrow();
    expect(payout.status).toBe('confirmed');
    expect(payout.settled_at?.getTime()).toBe(START.getTime() + ERC20_CONFIRM_MS);

    // Every state change told the customer: requested, approved, completed (with the hash).
    const messages = await outbox(c.email);
    expect(messages.map((m) => m.subject).sort()).toEqual([
      'Withdrawal approved: 300 USDT on its way',
      'Withdrawal completed: 300 USDT',
      'Withdrawal requested: 300 USDT',
    ]);
    expect(messages.find((m) => m.subject.startsWith('Withdrawal completed'))?.body).toContain(hash);

    const report = await ledgerOf(t).verify(t.db);
    expect(report.mismatches).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('a job that crashes mid-settlement changes nothing; the re-run settles once', async () => {
    const c = await approved('150');
    t.clock.advance(ERC20_CONFIRM_MS);
    t.app.withdrawalsService.faults.afterSettlePost = () => {
      throw new Error('simulated crash after the ledger entry');
    };
    expect(await t.app.payoutJob.runOnce()).toBe(0);
    expect(await settleEntries(c.id)).toHaveLength(0);
    expect(await balance(t, c.customerId)).toEqual({ available: 850n * U, frozen: 150n * U });
    expect((await records(c.token))[0]).toMatchObject({ state: 'processing' });

    t.app.withdrawalsService.faults.afterSettlePost = undefined;
    expect(await t.app.payoutJob.runOnce()).toBe(1);
    expect(await t.app.payoutJob.runOnce()).toBe(0);
    expect(await settleEntries(c.id)).toHaveLength(1);
    expect(await balance(t, c.customerId)).toEqual({ available: 850n * U, frozen: 0n });
    expect((await ledgerOf(t).verify(t.db)).ok).toBe(true);
  });

  it('staff mark a payout failed: unfrozen with the reason, audited, never confirmed later', async () => {
    const c = await approved('200');
    const noNote = await adminCall(t.app, {
      call: 'withdrawals/fail',
      token: c.staff.token,
      fields: { withdrawal_id: c.id, reason: 'network_rejected', note: '  ' },
    });
    expect(noNote.reason).toBe('FIELD_REQUIRED');
    const badReason = await adminCall(t.app, {
      call: 'withdrawals/fail',
      token: c.staff.token,
      fields: { withdrawal_id: c.id, reason: 'because', note: 'x' },
    });
    expect(badReason.code).not.toBe(1);
    expect(await balance(t, c.customerId)).toEqual({ available: 800n * U, frozen: 200n * U });

    const failed = await adminCall(t.app, {
      call: 'withdrawals/fail',
      token: c.staff.token,
      fields: { withdrawal_id: c.id, reason: 'network_rejected', note: 'nonce stuck, dropped from mempool' },
    });
    expect(failed.code).toBe(1);
    expect(failed.data).toMatchObject({ state: 'failed', status: 0, fail_reason: 'network_rejected' });
    expect(await balance(t, c.customerId)).toEqual({ available: 1000n * U, frozen: 0n });
    const audit = await t.db
      .selectFrom('staff_audit')
      .select(['action', 'reason'])
      .where('target_id', '=', c.id)
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['withdrawal.approve', 'withdrawal.fail']);
    expect(audit.find((a) => a.action === 'withdrawal.fail')?.reason).toBe(
      'nonce stuck, dropped from mempool',
    );

    const again = await adminCall(t.app, {
      call: 'withdrawals/fail',
      token: c.staff.token,
      fields: { withdrawal_id: c.id, reason: 'network_rejected', note: 'again' },
    });
    expect(again.reason).toBe('WITHDRAW_NOT_PROCESSING');

    // The simulated chain's confirmation time passes: the dropped payout is not confirmed.
    t.clock.advance(ERC20_CONFIRM_MS * 2);
    expect(await t.app.payoutJob.runOnce()).toBe(0);
    expect(await settleEntries(c.id)).toHaveLength(1);
    expect(await balance(t, c.customerId)).toEqual({ available: 1000n * U, frozen: 0n });
    expect((await records(c.token))[0]).toMatchObject({ state: 'failed', fail_reason: 'network_rejected' });
    const messages = await outbox(c.email);
    const failedNotice = messages.find((m) => m.subject === 'Withdrawal failed: funds returned');
    expect(failedNotice?.body).toContain('the network rejected the transfer');
    expect((await ledgerOf(t).verify(t.db)).ok).toBe(true);
  });

  it('a bank withdrawal waits for staff: paid needs the bank reference, then completes once', async () => {
    const c = await customer(t);
    await fund(t, c.customerId, '1000');
    const bank = await call(t.app, {
      call: 'addBank',
      fields: { token: c.token, bank_name: 'HSBC', card_number: '4000123412341234', payee_name: 'A' },
    });
    const w = await withdraw(t, c.token, { method: 'bank', payee_id: bank.data.id, amount: '200' });
    const approver = await staffSession(t, ['finance']);
    await adminCall(t.app, {
      call: 'withdrawals/approve',
      token: approver.token,
      fields: { withdrawal_id: w.data.id, reason: 'checked: customer and destination' },
    });
    t.clock.advance(86_400_000);
    expect(await t.app.payoutJob.runOnce()).toBe(0);
    const staff = await staffSession(t, ['finance']);
    const noRef = await adminCall(t.app, {
      call: 'withdrawals/paid',
      token: staff.token,
      fields: { withdrawal_id: w.data.id, bank_reference: ' ', note: 'paid from the operating account' },
    });
    expect(noRef.reason).toBe('FIELD_REQUIRED');
    // 200 USDT is above the four-eyes threshold (150): the first mark waits for a second staff member.
    const first = await adminCall(t.app, {
      call: 'withdrawals/paid',
      token: staff.token,
      fields: {
        withdrawal_id: w.data.id,
        bank_reference: 'HSBC-778812',
        note: 'paid from the operating account',
      },
    });
    expect(first.data).toMatchObject({
      state: 'processing',
      paid_requested: 1,
      bank_reference: 'HSBC-778812',
    });
    expect(await balance(t, c.customerId)).toEqual({ available: 800n * U, frozen: 200n * U });
    const self = await adminCall(t.app, {
      call: 'withdrawals/paid',
      token: staff.token,
      fields: {
        withdrawal_id: w.data.id,
        bank_reference: 'HSBC-778812',
        note: 'paid from the operating account',
      },
    });
    expect(self.reason).toBe('WITHDRAW_PAID_SECOND_STAFF');
    const second = await staffSession(t, ['finance']);
    const otherRef = await adminCall(t.app, {
      call: 'withdrawals/paid',
      token: second.token,
      fields: {
        withdrawal_id: w.data.id,
        bank_reference: 'HSBC-000000',
        note: 'paid from the operating account',
      },
    });
    expect(otherRef.reason).toBe('BAD_INPUT');
    expect(await settleEntries(w.data.id)).toHaveLength(0);
    const paid = await adminCall(t.app, {
      call: 'withdrawals/paid',
      token: second.token,
      fields: {
        withdrawal_id: w.data.id,
        bank_reference: 'HSBC-778812',
        note: 'paid from the operating account',
      },
    });
    expect(paid.data).toMatchObject({ state: 'completed', bank_reference: 'HSBC-778812', tx_hash: '' });
    expect(await balance(t, c.customerId)).toEqual({ available: 800n * U, frozen: 0n });
    const audit = await t.db
      .selectFrom('staff_audit')
      .select(['action', 'actor_id'])
      .where('target_id', '=', w.data.id)
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual([
      'withdrawal.approve',
      'withdrawal.paid',
      'withdrawal.paid_request',
    ]);
    const twice = await adminCall(t.app, {
      call: 'withdrawals/paid',
      token: second.token,
      fields: {
        withdrawal_id: w.data.id,
        bank_reference: 'HSBC-778812',
        note: 'paid from the operating account',
      },
    });
    expect(twice.reason).toBe('WITHDRAW_NOT_PROCESSING');
    expect(await settleEntries(w.data.id)).toHaveLength(1);

    // At or below the threshold one staff member is enough.
    const small = await withdraw(t, c.token, { method: 'bank', payee_id: bank.data.id, amount: '120' });
    await adminCall(t.app, {
      call: 'withdrawals/approve',
      token: staff.token,
      fields: { withdrawal_id: small.data.id, reason: 'checked: customer and destination' },
    });
    const smallPaid = await adminCall(t.app, {
      call: 'withdrawals/paid',
      token: staff.token,
      fields: {
        withdrawal_id: small.data.id,
        bank_reference: 'HSBC-1',
        note: 'paid from the operating account',
      },
    });
    expect(smallPaid.data).toMatchObject({ state: 'completed', paid_requested: 0 });
    expect(await balance(t, c.customerId)).toEqual({ available: 680n * U, frozen: 0n });

    // An address withdrawal is never marked paid by hand.
    const crypto = await approved('100');
    const notBank = await adminCall(t.app, {
      call: 'withdrawals/paid',
      token: staff.token,
      fields: { withdrawal_id: crypto.id, bank_reference: 'X', note: 'paid from the operating account' },
    });
    expect(notBank.reason).toBe('WITHDRAW_NOT_BANK');
    expect((await ledgerOf(t).verify(t.db)).ok).toBe(true);
  });
});
