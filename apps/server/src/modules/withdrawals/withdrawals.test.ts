import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
  webhook,
  withdraw,
  withdrawalCount,
} from './testing.ts';

const U = 100_000_000n; // USDT minor units per 1
let t: TestApp;
const START = new Date('2026-11-21T04:00:00Z'); // 12:00 in Hong Kong

beforeAll(async () => {
  t = await startTestApp({ custodyWebhookSecret: WEBHOOK_SECRET });
});
afterAll(async () => t?.close());
beforeEach(async () => {
  t.clock.set(START);
  for (const rule of DEFAULT_RULES) await setRule(t, rule.code, { enabled: true, params: rule.params });
  // Turnover is tested on its own; elsewhere the customer only deposited.
  await setRule(t, 'turnover', { enabled: false });
});

async function funded(amount = '1000') {
  const c = await customer(t);
  await fund(t, c.customerId, amount);
  const addressId = await addAddress(t, c.token);
  return { ...c, addressId };
}

describe('the rules before the customer submits', () => {
  it('getWithdrawRules lists every rule with its parameters, the balance and the day so far', async () => {
    const c = await funded('250');
    const r = await call(t.app, {
      method: 'GET',
      call: 'getWithdrawRules',
      fields: { token: c.token, currency: 'USDT' },
    });
    expect(r.code).toBe(1);
    expect(r.data.rules.map((x: { code: string }) => x.code)).toEqual([
      'currency_chain',
      'window',
      'min_amount',
      'max_amount',
      'fee',
      'daily_count',
      'turnover',
    ]);
    expect(r.data.rules.find((x: { code: string }) => x.code === 'window').params).toEqual({
      start: '12:00',
      end: '24:00',
      timezone: 'Asia/Hong_Kong',
    });
    expect(r.data).toMatchObject({
      available: '250',
      withdrawable: '250',
      held: [],
      used_today: 0,
      transaction_password: '1',
      google: '0',
    });
  });
});

describe('each rule refuses by name, with its parameters, and writes nothing', () => {
  async function refused(fields: Record<string, string>, c: Awaited<ReturnType<typeof funded>>) {
    const before = { count: await withdrawalCount(t), balance: await balance(t, c.customerId) };
    const r = await withdraw(t, c.token, { address_id: c.addressId, ...fields });
    expect(r.code).toBe(0);
    expect(await withdrawalCount(t)).toBe(before.count);
    expect(await balance(t, c.customerId)).toEqual(before.balance);
    return r;
  }

  it('currency_chain: USDT on TRC20 is not offered (USDT on ERC20 only)', async () => {
    const c = await funded();
    const tronId = await addAddress(t, c.token, {
      chain: 'TRC20',
      address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    });
    const r = await refused({ address_id: tronId, amount: '100' }, c);
    expect(r.reason).toBe('WITHDRAW_CURRENCY_NOT_ALLOWED');
    expect(r.params).toEqual({ currency: 'USDT', chain: 'TRC20', allowed: 'USDT/ERC20' });
  });

  it('window: before 12:00 Hong Kong time is refused; 23:59 is open; midnight closes', async () => {
    const c = await funded();
    t.clock.set(new Date('2026-11-21T03:59:00Z')); // 11:59 HKT
    const r = await refused({ amount: '100' }, c);
    expect(r.reason).toBe('WITHDRAW_WINDOW_CLOSED');
    expect(r.params).toEqual({ start: '12:00', end: '24:00', timezone: 'Asia/Hong_Kong' });
    expect(r.msg).toContain('12:00');
    t.clock.set(new Date('2026-11-21T16:00:00Z')); // 00:00 HKT next day
    expect((await refused({ amount: '100' }, c)).reason).toBe('WITHDRAW_WINDOW_CLOSED');
    t.clock.set(new Date('2026-11-21T15:59:00Z')); // 23:59 HKT
    expect((await withdraw(t, c.token, { address_id: c.addressId, amount: '100' })).code).toBe(1);
  });

  it('min_amount and max_amount: 100 and 200,000 USDT, bounds included', async () => {
    const c = await funded('300000');
    const low = await refused({ amount: '99.99999999' }, c);
    expect(low.reason).toBe('WITHDRAW_BELOW_MINIMUM');
    expect(low.params).toEqual({ min: '100', currency: 'USDT' });
    const high = await refused({ amount: '200000.00000001' }, c);
    expect(high.reason).toBe('WITHDRAW_ABOVE_MAXIMUM');
    expect(high.params).toEqual({ max: '200000', currency: 'USDT' });
    expect((await withdraw(t, c.token, { address_id: c.addressId, amount: '100' })).code).toBe(1);
    expect((await withdraw(t, c.token, { address_id: c.addressId, amount: '200000' })).code).toBe(1);
  });

  it('daily_count: the third request of a Hong Kong day is refused; cancelled ones do not count; the next day opens', async () => {
    const c = await funded();
    const first = await withdraw(t, c.token, { address_id: c.addressId, amount: '100' });
    const cancelled = await call(t.app, {
      call: 'cancelWithdraw',
      fields: { token: c.token, withdrawal_id: first.data.id },
    });
    expect(cancelled.data.status).toBe(0);
    expect((await withdraw(t, c.token, { address_id: c.addressId, amount: '100' })).code).toBe(1);
    expect((await withdraw(t, c.token, { address_id: c.addressId, amount: '100' })).code).toBe(1);
    const third = await refused({ amount: '100' }, c);
    expect(third.reason).toBe('WITHDRAW_DAILY_LIMIT');
    expect(third.params).toEqual({ max: 2 });
    t.clock.set(new Date('2026-11-22T04:00:00Z'));
    expect((await withdraw(t, c.token, { address_id: c.addressId, amount: '100' })).code).toBe(1);
  });

  it('fee: 5% on bank withdrawals, charged up; a fee that would take everything is refused', async () => {
    const c = await funded();
    const bank = await call(t.app, {
      call: 'addBank',
      fields: { token: c.token, bank_name: 'HSBC', card_number: '4000123412341234', payee_name: 'Chan' },
    });
    const ok = await withdraw(t, c.token, { method: 'bank', payee_id: bank.data.id, amount: '123.45' });
    expect(ok.code).toBe(1);
    expect(ok.data).toMatchObject({
      amount: '123.45',
      fee: '6.1725',
      received: '117.2775',
      destination: 'HSBC **** 1234',
    });
    const viaAddress = await withdraw(t, c.token, { address_id: c.addressId, amount: '100' });
    expect(viaAddress.data).toMatchObject({ fee: '0', received: '100' });
    t.clock.set(new Date('2026-11-22T04:00:00Z'));
    await setRule(t, 'min_amount', { enabled: false });
    await setRule(t, 'fee', { params: { address_bps: 5000, bank_bps: 5000 } });
    const all = await refused({ amount: '0.00000001' }, c);
    expect(all.reason).toBe('WITHDRAW_FEE_EXCEEDS_AMOUNT');
    expect(all.params).toEqual({ percent: '50' });
  });

  // The turnover rule (promotional credit only) is tested in turnover.test.ts.

  it('insufficient balance is refused by the ledger and nothing is written', async () => {
    const c = await funded('150');
    const r = await refused({ amount: '150.00000001' }, c);
    expect(r.reason).toBe('INSUFFICIENT_BALANCE');
  });
});

describe('bad input changes nothing', () => {
  it('negative, zero, NaN, over-precise, enormous amounts; unknown currency', async () => {
    const c = await funded();
    const before = await withdrawalCount(t);
    const cases: Array<[string, string]> = [
      ['-100', 'AMOUNT_NOT_POSITIVE'],
      ['0', 'AMOUNT_NOT_POSITIVE'],
      ['0.00', 'AMOUNT_NOT_POSITIVE'],
      ['NaN', 'AMOUNT_INVALID'],
      ['1e3', 'AMOUNT_INVALID'],
      ['', 'FIELD_REQUIRED'],
      ['100.123456789', 'AMOUNT_TOO_PRECISE'],
      ['9'.repeat(40), 'AMOUNT_TOO_LARGE'],
      ['Infinity', 'AMOUNT_INVALID'],
    ];
    for (const [amount, reason] of cases) {
      const r = await withdraw(t, c.token, { address_id: c.addressId, amount });
      expect(r.reason, amount).toBe(reason);
      expect(r.status).toBeLessThan(500);
    }
    const cur = await withdraw(t, c.token, { address_id: c.addressId, amount: '100', currency: 'XYZ' });
    expect(cur.reason).toBe('CURRENCY_UNKNOWN');
    const missing = await withdraw(t, c.token, { amount: '100' });
    expect(missing.reason).toBe('FIELD_REQUIRED');
    expect(await withdrawalCount(t)).toBe(before);
    expect(await balance(t, c.customerId)).toEqual({ available: 1000n * U, frozen: 0n });
  });

  it("another customer's address, card and withdrawal are NOT_FOUND and unusable", async () => {
    const a = await funded();
    const b = await funded();
    const bank = await call(t.app, {
      call: 'addBank',
      fields: { token: a.token, bank_name: 'HSBC', card_number: '4000123412341234', payee_name: 'A' },
    });
    const mine = await withdraw(t, a.token, { address_id: a.addressId, amount: '100' });
    const before = await withdrawalCount(t);
    expect((await withdraw(t, b.token, { address_id: a.addressId, amount: '100' })).reason).toBe('NOT_FOUND');
    expect(
      (await withdraw(t, b.token, { method: 'bank', payee_id: bank.data.id, amount: '100' })).reason,
    ).toBe('NOT_FOUND');
    // A bank-card id used as an address (or the reverse) is not found either.
    expect(
      (await withdraw(t, a.token, { method: 'bank', payee_id: a.addressId, amount: '100' })).reason,
    ).toBe('NOT_FOUND');
    const cancel = await call(t.app, {
      call: 'cancelWithdraw',
      fields: { token: b.token, withdrawal_id: mine.data.id },
    });
    expect(cancel.reason).toBe('NOT_FOUND');
    const listB = await call(t.app, { method: 'GET', call: 'getWithdrawList', fields: { token: b.token } });
    expect(listB.data.list).toEqual([]);
    expect(await withdrawalCount(t)).toBe(before);
    expect(await balance(t, b.customerId)).toEqual({ available: 1000n * U, frozen: 0n });
    expect(await balance(t, a.customerId)).toEqual({ available: 900n * U, frozen: 100n * U });
  });
});

describe('the life of a withdrawal', () => {
  it('freezes on request, unfreezes on cancel; cancel twice is refused', async () => {
    const c = await funded();
    const w = await withdraw(t, c.token, { address_id: c.addressId, amount: '250.5' });
    expect(w.data).toMatchObject({
      status: 1,
      state: 'pending',
      can_cancel: 1,
      destination: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    });
    expect(await balance(t, c.customerId)).toEqual({
      available: (7495n * U) / 10n,
      frozen: (2505n * U) / 10n,
    });
    const cancel = await call(t.app, {
      call: 'cancelWithdraw',
      fields: { token: c.token, withdrawal_id: w.data.id },
    });
    expect(cancel.data.state).toBe('cancelled');
    expect(await balance(t, c.customerId)).toEqual({ available: 1000n * U, frozen: 0n });
    const again = await call(t.app, {
      call: 'cancelWithdraw',
      fields: { token: c.token, withdrawal_id: w.data.id },
    });
    expect(again.reason).toBe('WITHDRAW_NOT_PENDING');
  });

  it('staff approve (audited) → processing → signed webhook replayed 20 times settles once', async () => {
    const c = await funded();
    const bank = await call(t.app, {
      call: 'addBank',
      fields: { token: c.token, bank_name: 'HSBC', card_number: '4000123412341234', payee_name: 'A' },
    });
    const w = await withdraw(t, c.token, { method: 'bank', payee_id: bank.data.id, amount: '200' });
    const staff = await staffSession(t, ['finance']);
    const approved = await adminCall(t.app, {
      call: 'withdrawals/approve',
      token: staff.token,
      fields: { withdrawal_id: w.data.id, reason: 'checked: customer and destination' },
    });
    expect(approved.code).toBe(1);
    expect(approved.data.state).toBe('processing');
    const audit = await t.db
      .selectFrom('staff_audit')
      .selectAll()
      .where('target_id', '=', w.data.id)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['withdrawal.approve']);
    const payout = await t.db
      .selectFrom('withdrawals_payout')
      .selectAll()
      .where('withdrawal_id', '=', w.data.id)
      .executeTakeFirstOrThrow();
    expect(payout.amount).toBe(String(190n * U));

    const ledger = ledgerOf(t);
    const clearingBefore = await ledger.platformBalances(t.db, {
      book: 'real',
      platform: 'withdrawals_clearing',
    });
    const body = {
      event_id: 'evt-1',
      withdrawal_id: w.data.id,
      provider_ref: payout.id,
      status: 'confirmed',
      tx_hash: '0xabc',
    };
    const answers = await Promise.all(Array.from({ length: 20 }, () => webhook(t, body)));
    expect(answers.every((a) => a.code === 1)).toBe(true);
    expect(answers.filter((a) => a.data.replayed === false)).toHaveLength(1);
    expect(await balance(t, c.customerId)).toEqual({ available: 800n * U, frozen: 0n });
    const clearingAfter = await ledger.platformBalances(t.db, {
      book: 'real',
      platform: 'withdrawals_clearing',
    });
    const usdt = (rows: Awaited<typeof clearingAfter>) =>
      rows.find((r) => r.currency === 'USDT')?.availableUnits ?? 0n;
    expect(usdt(clearingAfter) - usdt(clearingBefore)).toBe(190n * U);
    const list = await call(t.app, { method: 'GET', call: 'getWithdrawList', fields: { token: c.token } });
    expect(list.data.list[0]).toMatchObject({
      id: w.data.id,
      status: 2,
      state: 'completed',
      tx_hash: '0xabc',
    });
    const report = await ledger.verify(t.db);
    expect(report.mismatches).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('a failed payout unfreezes; a bad signature is refused and changes nothing', async () => {
    const c = await funded();
    const w = await withdraw(t, c.token, { address_id: c.addressId, amount: '100' });
    const staff = await staffSession(t, ['finance']);
    await adminCall(t.app, {
      call: 'withdrawals/approve',
      token: staff.token,
      fields: { withdrawal_id: w.data.id, reason: 'checked: customer and destination' },
    });
    const ref = `emb_${w.data.id}`;
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/custody/withdrawals/webhook',
      payload: JSON.stringify({
        event_id: 'e',
        withdrawal_id: w.data.id,
        provider_ref: ref,
        status: 'failed',
      }),
      headers: {
        'content-type': 'application/json',
        'x-bourse-signature': `t=${Math.floor(t.clock.now().getTime() / 1000)},v1=${'0'.repeat(64)}`,
      },
    });
    expect(forged.json().reason).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(await balance(t, c.customerId)).toEqual({ available: 900n * U, frozen: 100n * U });
    const failed = await webhook(t, {
      event_id: 'e2',
      withdrawal_id: w.data.id,
      provider_ref: ref,
      status: 'failed',
    });
    expect(failed.data.state).toBe('failed');
    expect(await balance(t, c.customerId)).toEqual({ available: 1000n * U, frozen: 0n });
    const wrongRef = await webhook(t, {
      event_id: 'e3',
      withdrawal_id: w.data.id,
      provider_ref: 'emb_other',
      status: 'confirmed',
    });
    expect(wrongRef.reason).toBe('NOT_FOUND');
  });

  it('staff reject needs a reason, unfreezes, is audited; permissions are checked', async () => {
    const c = await funded();
    const w = await withdraw(t, c.token, { address_id: c.addressId, amount: '100' });
    const support = await staffSession(t, ['support']);
    const forbidden = await adminCall(t.app, {
      call: 'withdrawals/reject',
      token: support.token,
      fields: { withdrawal_id: w.data.id, reason: 'no' },
    });
    expect(forbidden.reason).toBe('FORBIDDEN');
    const staff = await staffSession(t, ['finance']);
    const queue = await adminCall(t.app, { method: 'GET', call: 'withdrawals/queue', token: staff.token });
    expect(queue.data.list.some((x: { id: string }) => x.id === w.data.id)).toBe(true);
    const rejected = await adminCall(t.app, {
      call: 'withdrawals/reject',
      token: staff.token,
      fields: { withdrawal_id: w.data.id, reason: 'Address flagged by compliance' },
    });
    expect(rejected.data).toMatchObject({
      state: 'rejected',
      status: 0,
      reject_reason: 'Address flagged by compliance',
    });
    expect(await balance(t, c.customerId)).toEqual({ available: 1000n * U, frozen: 0n });
    const approveLate = await adminCall(t.app, {
      call: 'withdrawals/approve',
      token: staff.token,
      fields: { withdrawal_id: w.data.id, reason: 'checked: customer and destination' },
    });
    expect(approveLate.reason).toBe('WITHDRAW_NOT_PENDING');
    const unknown = await adminCall(t.app, {
      call: 'withdrawals/approve',
      token: staff.token,
      fields: { withdrawal_id: 'wdr_nope', reason: 'checked: customer and destination' },
    });
    expect(unknown.reason).toBe('NOT_FOUND');
  });

  it('staff edit a rule (settings.write), audited; bad parameters are refused by name', async () => {
    const admin = await staffSession(t, ['administrator']);
    const finance = await staffSession(t, ['finance']);
    const params = JSON.stringify({ amount: '50', currency: 'USDT' });
    const noPerm = await adminCall(t.app, {
      call: 'withdrawals/rules/update',
      token: finance.token,
      fields: { code: 'min_amount', enabled: '1', params, reason: 'policy review' },
    });
    expect(noPerm.reason).toBe('FORBIDDEN');
    const bad = await adminCall(t.app, {
      call: 'withdrawals/rules/update',
      token: admin.token,
      fields: {
        reason: 'policy review',
        code: 'window',
        enabled: '1',
        params: JSON.stringify({ start: '25:00', end: '24:00', timezone: 'Asia/Hong_Kong' }),
      },
    });
    expect(bad.reason).toBe('BAD_INPUT');
    expect(bad.params).toEqual({ field: 'start' });
    const ok = await adminCall(t.app, {
      call: 'withdrawals/rules/update',
      token: admin.token,
      fields: { code: 'min_amount', enabled: '1', params, reason: 'policy review' },
    });
    expect(ok.code).toBe(1);
    const audit = await t.db
      .selectFrom('staff_audit')
      .selectAll()
      .where('target_id', '=', 'min_amount')
      .execute();
    expect(audit).toHaveLength(1);
    const c = await funded();
    expect((await withdraw(t, c.token, { address_id: c.addressId, amount: '50' })).code).toBe(1);
  });
});

describe('records', () => {
  it('filters by status and method, pages, and exports CSV', async () => {
    const c = await funded('5000');
    const bank = await call(t.app, {
      call: 'addBank',
      fields: { token: c.token, bank_name: 'HSBC', card_number: '4000123412341234', payee_name: 'A' },
    });
    const a = await withdraw(t, c.token, { address_id: c.addressId, amount: '100' });
    await call(t.app, { call: 'cancelWithdraw', fields: { token: c.token, withdrawal_id: a.data.id } });
    t.clock.advance(1000);
    await withdraw(t, c.token, { method: 'bank', payee_id: bank.data.id, amount: '300' });
    t.clock.advance(1000);
    await withdraw(t, c.token, { address_id: c.addressId, amount: '200' });
    const all = await call(t.app, {
      method: 'GET',
      call: 'getWithdrawList',
      fields: { token: c.token, page_size: '2' },
    });
    expect(all.data.total).toBe(3);
    expect(all.data.list.map((x: { amount: string }) => x.amount)).toEqual(['200', '300']);
    const page2 = await call(t.app, {
      method: 'GET',
      call: 'getWithdrawList',
      fields: { token: c.token, page_size: '2', page: '2' },
    });
    expect(page2.data.list.map((x: { amount: string }) => x.amount)).toEqual(['100']);
    const failed = await call(t.app, {
      method: 'GET',
      call: 'getWithdrawList',
      fields: { token: c.token, status: '0' },
    });
    expect(failed.data.list.map((x: { state: string }) => x.state)).toEqual(['cancelled']);
    const banks = await call(t.app, {
      method: 'GET',
      call: 'getWithdrawList',
      fields: { token: c.token, method: 'bank' },
    });
    expect(banks.data.list).toHaveLength(1);
    expect(banks.data.list[0].destination).toBe('HSBC **** 1234');
    const tooBig = await call(t.app, {
      method: 'GET',
      call: 'getWithdrawList',
      fields: { token: c.token, page_size: '500' },
    });
    expect(tooBig.reason).toBe('LIMIT_TOO_LARGE');
    const range = await call(t.app, {
      method: 'GET',
      call: 'getWithdrawList',
      fields: { token: c.token, start_time: '2000', end_time: '1000' },
    });
    expect(range.reason).toBe('DATE_RANGE_INVALID');
    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/web/exportWithdrawList',
      query: { token: c.token, method: 'bank' },
    });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['cache-control']).toBe('no-store');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('ID,Time,Method,Currency,Network,To,Amount,Fee,Received,Status,Transaction');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('HSBC **** 1234');
    expect(lines[1]).toContain(',Bank card,');
    expect(csv.body).not.toContain('4000123412341234');
    const zh = await t.app.inject({
      method: 'GET',
      url: '/api/web/exportWithdrawList',
      query: { token: c.token, method: 'bank', lang: 'zh' },
    });
    const zhLines = zh.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(zhLines[0]).toBe('编号,时间,方式,币种,网络,去向,数量,手续费,到账,状态,交易哈希');
    expect(zhLines[1]).not.toMatch(/,bank,|,pending,|,processing,/);
  });
});
