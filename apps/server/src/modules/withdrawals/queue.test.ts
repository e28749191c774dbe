import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { customerSummaries } from '../staff/customer-context.ts';
import { adminCall, staffSession } from '../staff/testing.ts';
import { summaries as verificationSummaries } from '../verification/view.ts';
import { DEFAULT_RULES } from './policy.ts';
import { destinationHistories } from './repo.ts';
import { addAddress, balance, customer, ledgerOf, setRule, WEBHOOK_SECRET, withdraw } from './testing.ts';

const U = 100_000_000n; // USDT minor units per 1
const START = new Date('2026-11-21T04:00:00Z'); // 12:00 in Hong Kong
const DAY = 86_400_000;
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    custodyWebhookSecret: WEBHOOK_SECRET,
    payoutSimBlockMs: 10,
    payoutCheckIntervalMs: 3_600_000,
    bankPayoutApprovalThreshold: '100000',
  });
});
afterAll(async () => t?.close());
beforeEach(async () => {
  t.clock.set(START);
  for (const rule of DEFAULT_RULES) await setRule(t, rule.code, { enabled: true, params: rule.params });
  await setRule(t, 'turnover', { enabled: false });
});

let deposits = 0;
/** A credited crypto deposit as the deposits module records it (the row the summary reads) and its funds. */
async function deposited(customerId: string, amount: string) {
  deposits += 1;
  const id = `dep_q${process.pid}_${deposits}`;
  const entry = await ledgerOf(t).credit(t.db, {
    book: 'real',
    customerId,
    accountType: 'spot',
    currency: 'USDT',
    amountUnits: BigInt(amount) * U,
    from: 'deposits_clearing',
    reason: 'deposit.crypto',
    reference: { type: 'deposit', id },
    idempotencyKey: `queue-test:${id}`,
  });
  await t.db
    .insertInto('deposits_crypto')
    .values({
      id,
      customer_id: customerId,
      chain: 'ERC20',
      currency: 'USDT',
      txid: `0x${process.pid.toString(16)}${deposits.toString(16).padStart(8, '0')}`.padEnd(66, 'a'),
      output_index: 0,
      address: '0x0000000000000000000000000000000000000001',
      amount_units: (BigInt(amount) * U).toString(),
      confirmations: 12,
      status: 'credited',
      entry_id: entry.id,
      released_by: null,
      created_at: t.clock.now(),
      updated_at: t.clock.now(),
    })
    .execute();
}

type QueueRow = {
  id: string;
  amount: string;
  customer: {
    customer_id: string;
    uid: string;
    name: string;
    age_days: number;
    verification: { level: number; status: string };
    last_login_at: number | null;
    activity: {
      days: number;
      deposits: Array<{ currency: string; count: number; amount: string }>;
      withdrawals: Array<{ currency: string; count: number; amount: string }>;
    };
    totals?: unknown;
  };
  destination_history: { used_before: number; first_used_at: number | null; other_customers: number };
  risk: Array<{ code: string; params: Record<string, unknown> }>;
};

async function queue(token: string, state = 'pending'): Promise<QueueRow[]> {
  const answer = await adminCall(t.app, {
    method: 'GET',
    call: 'withdrawals/queue',
    token,
    fields: { state, page_size: '100' },
  });
  expect(answer.code).toBe(1);
  return answer.data.list;
}

describe('the staff queue shows who is paid and where', () => {
  it('each row carries the customer, recent activity, the destination history and named risk flags', async () => {
    const staff = await staffSession(t, ['finance']);
    const a = await customer(t);
    const uid = (
      await t.db
        .selectFrom('accounts_customer')
        .select('uid')
        .where('id', '=', a.customerId)
        .executeTakeFirstOrThrow()
    ).uid;
    await deposited(a.customerId, '1000');
    const addressId = await addAddress(t, a.token);
    const first = await withdraw(t, a.token, { address_id: addressId, amount: '300' });
    expect(first.code).toBe(1);

    const row = (await queue(staff.token)).find((r) => r.id === first.data.id);
    expect(row?.customer).toMatchObject({
      customer_id: a.customerId,
      uid,
      name: a.email,
      age_days: 0,
      verification: { level: 0, status: 'unverified' },
      activity: {
        days: 30,
        deposits: [{ currency: 'USDT', count: 1, amount: '1000' }],
        withdrawals: [{ currency: 'USDT', count: 1, amount: '300' }],
      },
    });
    expect(row?.customer.last_login_at).toBe(START.getTime());
    expect(row?.customer.totals).toBeUndefined();
    expect(row?.destination_history).toEqual({ used_before: 0, first_used_at: null, other_customers: 0 });
    expect(row?.risk.map((f) => f.code)).toEqual(['new_account', 'first_withdrawal', 'new_destination']);
    expect(row?.risk[0]).toEqual({ code: 'new_account', params: { days: 7, age: 0 } });

    // Paid out: approved, then the simulated chain confirms it.
    const approved = await adminCall(t.app, {
      call: 'withdrawals/approve',
      token: staff.token,
      fields: { withdrawal_id: first.data.id, reason: 'known customer, deposit on chain' },
    });
    expect(approved.data.state).toBe('processing');
    t.clock.advance(60_000);
    expect(await t.app.payoutJob.runOnce()).toBe(1);

    // Eight days later, to the same address: an older account, a known destination, but more
    // than 90% of what was ever deposited.
    t.clock.set(new Date(START.getTime() + 8 * DAY));
    const second = await withdraw(t, a.token, { address_id: addressId, amount: '650' });
    expect(second.code).toBe(1);
    const next = await staffSession(t, ['finance']);
    const later = (await queue(next.token)).find((r) => r.id === second.data.id);
    expect(later?.customer.age_days).toBe(8);
    expect(later?.destination_history).toEqual({
      used_before: 1,
      first_used_at: START.getTime(),
      other_customers: 0,
    });
    expect(later?.risk).toEqual([{ code: 'above_deposits', params: { percent: 90 } }]);
    expect(later?.customer.activity.withdrawals).toEqual([{ currency: 'USDT', count: 2, amount: '950' }]);

    // Another customer withdraws to the same address: both rows say so.
    const b = await customer(t);
    await deposited(b.customerId, '500');
    const other = await withdraw(t, b.token, { address_id: await addAddress(t, b.token), amount: '100' });
    expect(other.code).toBe(1);
    const rows = await queue(next.token);
    const mine = rows.find((r) => r.id === second.data.id);
    const theirs = rows.find((r) => r.id === other.data.id);
    expect(mine?.destination_history.other_customers).toBe(1);
    expect(theirs?.destination_history).toEqual({ used_before: 0, first_used_at: null, other_customers: 1 });
    expect(theirs?.risk.map((f) => f.code)).toEqual([
      'new_account',
      'first_withdrawal',
      'new_destination',
      'shared_destination',
    ]);
    expect(theirs?.risk[3]?.params).toEqual({ customers: 1 });
  });

  it('a bank card is the same destination when the same saved card is used again', async () => {
    const staff = await staffSession(t, ['finance']);
    const c = await customer(t);
    await deposited(c.customerId, '1000');
    const bank = await call(t.app, {
      call: 'addBank',
      fields: { token: c.token, bank_name: 'HSBC', card_number: '4000123412341234', payee_name: 'A' },
    });
    const first = await withdraw(t, c.token, { method: 'bank', payee_id: bank.data.id, amount: '200' });
    await adminCall(t.app, {
      call: 'withdrawals/approve',
      token: staff.token,
      fields: { withdrawal_id: first.data.id, reason: 'card in the customer name' },
    });
    t.clock.advance(60_000);
    const second = await withdraw(t, c.token, { method: 'bank', payee_id: bank.data.id, amount: '100' });
    const row = (await queue(staff.token)).find((r) => r.id === second.data.id);
    expect(row?.destination_history).toEqual({
      used_before: 1,
      first_used_at: START.getTime(),
      other_customers: 0,
    });
    expect(row?.risk.map((f) => f.code)).toEqual(['new_account', 'first_withdrawal']);
  });
});

describe('a page costs the same number of queries whatever its size', () => {
  it('five for the customer summaries (verification included), one for the destination histories', async () => {
    const ids: string[] = [];
    const withdrawals: string[] = [];
    for (let i = 0; i < 6; i++) {
      const c = await customer(t);
      await deposited(c.customerId, '500');
      const w = await withdraw(t, c.token, { address_id: await addAddress(t, c.token), amount: '100' });
      expect(w.code).toBe(1);
      ids.push(c.customerId);
      withdrawals.push(w.data.id);
    }
    const counted = () => {
      let queries = 0;
      const db = t.db.withPlugin({
        transformQuery: (args) => {
          queries += 1;
          return args.node;
        },
        transformResult: async (args) => args.result,
      });
      return { db, queries: () => queries };
    };
    for (const n of [1, 6]) {
      const summaries = counted();
      const found = await customerSummaries(summaries.db, ids.slice(0, n), t.clock.now(), (some) =>
        verificationSummaries({ db: summaries.db }, some),
      );
      expect(found.size).toBe(n);
      expect(summaries.queries()).toBe(5);
      const histories = counted();
      const rows = await destinationHistories(histories.db, withdrawals.slice(0, n));
      expect(rows.size).toBe(n);
      expect(histories.queries()).toBe(1);
    }
  });
});

describe('every money action needs a reason', () => {
  it('approve and mark paid without a reason are refused in the staff language and change nothing', async () => {
    const staff = await staffSession(t, ['finance']);
    const c = await customer(t);
    await deposited(c.customerId, '1000');
    const bank = await call(t.app, {
      call: 'addBank',
      fields: { token: c.token, bank_name: 'HSBC', card_number: '4000123412341234', payee_name: 'A' },
    });
    const w = await withdraw(t, c.token, { method: 'bank', payee_id: bank.data.id, amount: '200' });
    expect(await balance(t, c.customerId)).toEqual({ available: 800n * U, frozen: 200n * U });
    const audits = async () =>
      (
        await t.db
          .selectFrom('staff_audit')
          .select('action')
          .where('target_id', '=', w.data.id)
          .orderBy('seq')
          .execute()
      ).map((r) => r.action);

    for (const reason of [undefined, '', '   ']) {
      const refused = await adminCall(t.app, {
        call: 'withdrawals/approve',
        token: staff.token,
        fields: { withdrawal_id: w.data.id, lang: 'ft', ...(reason === undefined ? {} : { reason }) },
      });
      expect(refused.reason).toBe('FIELD_REQUIRED');
      expect(refused.msg).toBe('原因不能為空');
    }
    expect((await queue(staff.token)).find((r) => r.id === w.data.id)).toBeDefined();
    expect(await audits()).toEqual([]);

    const approved = await adminCall(t.app, {
      call: 'withdrawals/approve',
      token: staff.token,
      fields: { withdrawal_id: w.data.id, reason: '  name on the card matches  ' },
    });
    expect(approved.data.state).toBe('processing');
    const noNote = await adminCall(t.app, {
      call: 'withdrawals/paid',
      token: staff.token,
      fields: { withdrawal_id: w.data.id, bank_reference: 'HSBC-1', lang: 'zh' },
    });
    expect(noNote.reason).toBe('FIELD_REQUIRED');
    expect(noNote.msg).toBe('备注不能为空');
    expect(await balance(t, c.customerId)).toEqual({ available: 800n * U, frozen: 200n * U });

    const paid = await adminCall(t.app, {
      call: 'withdrawals/paid',
      token: staff.token,
      fields: { withdrawal_id: w.data.id, bank_reference: 'HSBC-1', note: 'paid by transfer' },
    });
    expect(paid.data).toMatchObject({ state: 'completed', bank_reference: 'HSBC-1' });
    expect(await balance(t, c.customerId)).toEqual({ available: 800n * U, frozen: 0n });
    const rows = await t.db
      .selectFrom('staff_audit')
      .select(['action', 'reason'])
      .where('target_id', '=', w.data.id)
      .orderBy('seq')
      .execute();
    expect(rows).toEqual([
      { action: 'withdrawal.approve', reason: 'name on the card matches' },
      { action: 'withdrawal.paid', reason: 'paid by transfer' },
    ]);
  });
});

describe('the withdrawal policy is validated by name', () => {
  async function update(token: string, fields: Record<string, string>) {
    return adminCall(t.app, { call: 'withdrawals/rules/update', token, fields });
  }
  async function rule(code: string) {
    return t.db
      .selectFrom('withdrawals_rule')
      .select(['enabled', 'params'])
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
  }

  it('fees out of range, a minimum above the maximum and a missing reason are refused; nothing changes', async () => {
    const admin = await staffSession(t, ['administrator']);
    const before = { fee: await rule('fee'), min: await rule('min_amount'), max: await rule('max_amount') };
    const cases: Array<[Record<string, string>, string, Record<string, unknown>, string]> = [
      [
        { code: 'fee', params: JSON.stringify({ address_bps: 0, bank_bps: 6000 }) },
        'WITHDRAW_RULE_RANGE',
        { field: 'bank_bps', min: 0, max: 5000 },
        '提现到银行卡的手续费须为 0 至 5000 之间的整数',
      ],
      [
        { code: 'fee', params: JSON.stringify({ address_bps: -1, bank_bps: 500 }) },
        'WITHDRAW_RULE_RANGE',
        { field: 'address_bps', min: 0, max: 5000 },
        '提现到地址的手续费须为 0 至 5000 之间的整数',
      ],
      [
        { code: 'fee', params: JSON.stringify({ address_bps: 1.5, bank_bps: 500 }) },
        'WITHDRAW_RULE_RANGE',
        { field: 'address_bps', min: 0, max: 5000 },
        '提现到地址的手续费须为 0 至 5000 之间的整数',
      ],
      [
        { code: 'min_amount', params: JSON.stringify({ amount: '250000', currency: 'USDT' }) },
        'WITHDRAW_RULE_MIN_ABOVE_MAX',
        { min: '250000', max: '200000', currency: 'USDT' },
        '最低提现金额（250000 USDT）不能高于最高提现金额（200000 USDT）',
      ],
      [
        { code: 'max_amount', params: JSON.stringify({ amount: '99.5', currency: 'USDT' }) },
        'WITHDRAW_RULE_MIN_ABOVE_MAX',
        { min: '100', max: '99.5', currency: 'USDT' },
        '最低提现金额（100 USDT）不能高于最高提现金额（99.5 USDT）',
      ],
      [
        { code: 'min_amount', params: JSON.stringify({ amount: '0.000000001', currency: 'USDT' }) },
        'BAD_INPUT',
        { field: 'amount' },
        '金额的值无效',
      ],
      [
        { code: 'daily_count', params: JSON.stringify({ max: 0, timezone: 'Asia/Hong_Kong' }) },
        'WITHDRAW_RULE_RANGE',
        { field: 'max', min: 1, max: 1000 },
        '上限须为 1 至 1000 之间的整数',
      ],
    ];
    for (const [fields, reason, params, msg] of cases) {
      const refused = await update(admin.token, {
        enabled: '1',
        reason: 'policy review',
        lang: 'zh',
        ...fields,
      });
      expect(refused.reason, JSON.stringify(fields)).toBe(reason);
      expect(refused.params).toEqual(params);
      expect(refused.msg).toBe(msg);
    }
    const noReason = await update(admin.token, {
      code: 'fee',
      enabled: '1',
      params: JSON.stringify({ address_bps: 10, bank_bps: 300 }),
      lang: 'zh',
    });
    expect(noReason.reason).toBe('FIELD_REQUIRED');
    expect(noReason.msg).toBe('原因不能为空');
    expect({ fee: await rule('fee'), min: await rule('min_amount'), max: await rule('max_amount') }).toEqual(
      before,
    );

    const ok = await update(admin.token, {
      code: 'fee',
      enabled: '1',
      params: JSON.stringify({ address_bps: 10, bank_bps: 300 }),
      reason: 'bank fees lowered',
    });
    expect(ok.code).toBe(1);
    expect((await rule('fee')).params).toEqual({ address_bps: 10, bank_bps: 300 });
    const audit = await t.db
      .selectFrom('staff_audit')
      .select(['action', 'reason', 'before', 'after'])
      .where('target_id', '=', 'fee')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ action: 'withdrawal_rule.update', reason: 'bank fees lowered' });
  });
});
