import { formatUnits, multiply, parseDecimal } from '@bourse/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { type Customer, customer, customerSnapshot, fund, ledgerOf, USDT } from './testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
});
afterAll(async () => {
  await t.close();
});

const get = (token: string, name: string, fields: Record<string, string> = {}) =>
  call(t.app, { method: 'GET', call: name, fields: { token, ...fields } });
const transfer = (c: Customer, fields: Record<string, string>, rtoken?: string) =>
  call(t.app, {
    call: 'transferAsset',
    fields: { token: c.token, ...(rtoken ? { rtoken } : {}), ...fields },
  });

describe('web/getCurrencyAll', () => {
  it('lists the platform currencies with scale and deposit networks (rules as data)', async () => {
    const answer = await call(t.app, { method: 'GET', call: 'getCurrencyAll' });
    expect(answer.code).toBe(1);
    const byCode = Object.fromEntries(answer.data.map((c: { currency: string }) => [c.currency, c]));
    expect(Object.keys(byCode)).toEqual(['USDT', 'BTC', 'ETH', 'TRX']);
    expect(byCode.BTC.scale).toBe(8);
    expect(byCode.ETH.scale).toBe(18);
    expect(byCode.USDT.chains).toContainEqual({
      chain: 'ERC20',
      open: true,
      min_amount: '1',
      confirmations: 12,
    });
    expect(byCode.USDT.chains).toContainEqual({
      chain: 'TRC20',
      open: false,
      min_amount: '1',
      confirmations: 20,
    });
    expect(byCode.BTC.chains[0]).toMatchObject({ chain: 'BTC', min_amount: '0.001' });
    expect(byCode.ETH.chains[0]).toMatchObject({ chain: 'ERC20', min_amount: '0.1' });
    expect(byCode.TRX.chains[0]).toMatchObject({ chain: 'TRC20', min_amount: '10' });
  });
});

describe('web/getAsset2', () => {
  it('needs a session', async () => {
    const answer = await call(t.app, { method: 'GET', call: 'getAsset2' });
    expect(answer.reason).toBe('LOGIN_REQUIRED');
  });

  it('rows per account type with available, frozen and USDT value from the reference price', async () => {
    const c = await customer(t);
    await fund(t, c.id, 'USDT', USDT(1500));
    await fund(t, c.id, 'BTC', 12_345_678n); // 0.12345678 BTC
    const ledger = ledgerOf(t);
    await ledger.freeze(t.db, {
      book: 'real',
      customerId: c.id,
      accountType: 'spot',
      currency: 'USDT',
      amountUnits: USDT(500),
      reference: { type: 'test', id: 'f1' },
      idempotencyKey: `freeze:${c.id}`,
    });
    const answer = await get(c.token, 'getAsset2');
    expect(answer.code).toBe(1);
    const data = answer.data;
    expect(data.accounts.map((a: { type: string }) => a.type)).toEqual([
      'spot',
      'contract',
      'options',
      'earn',
      'funding',
    ]);
    const spot = data.accounts[0];
    const usdt = spot.rows.find((r: { currency: string }) => r.currency === 'USDT');
    expect(usdt).toMatchObject({
      available: '1000',
      frozen: '500',
      total: '1500',
      value_usdt: '1500.00',
      price_source: 'unit',
    });
    const btc = spot.rows.find((r: { currency: string }) => r.currency === 'BTC');
    const ticker = t.app.market.ticker('BTC/USDT');
    const price = parseDecimal(ticker.mark, { scale: ticker.price_scale });
    if (!price.ok) throw new Error('bad mark');
    const value = multiply({
      a: 12_345_678n,
      aScale: 8,
      b: price.units,
      bScale: ticker.price_scale,
      resultScale: 8,
      rounding: 'floor',
    });
    const valueText = formatUnits(value, {
      scale: 8,
      minFractionDigits: 2,
      maxFractionDigits: 2,
      rounding: 'floor',
    });
    expect(btc).toMatchObject({
      available: '0.12345678',
      frozen: '0',
      price: ticker.mark,
      value_usdt: valueText,
    });
    // The feed has not ticked in this test (FEED_TICK_MS=0): the seed price is indicative and said so.
    expect(btc.price_stale).toBe(true);
    expect(spot.price_stale).toBe(true);
    const expectedTotal = value + USDT(1500);
    expect(spot.total_usdt).toBe(
      formatUnits(expectedTotal, { scale: 8, minFractionDigits: 2, maxFractionDigits: 2, rounding: 'floor' }),
    );
    expect(data.total_usdt).toBe(spot.total_usdt);
    expect(data.accounts[1].total_usdt).toBe('0.00');
    // ETH/TRX are listed even at zero.
    expect(spot.rows.map((r: { currency: string }) => r.currency)).toEqual(['USDT', 'BTC', 'ETH', 'TRX']);
  });

  it('a live price is not stale once the feed ticks', async () => {
    const c = await customer(t);
    await fund(t, c.id, 'ETH', 10n ** 18n);
    await t.app.market.step();
    const answer = await get(c.token, 'getAsset2', { type: 'spot' });
    const eth = answer.data.accounts[0].rows.find((r: { currency: string }) => r.currency === 'ETH');
    expect(answer.data.accounts).toHaveLength(1);
    expect(eth.price_stale).toBe(false);
    expect(eth.price_source).toBe('sim');
  });

  it('a demo customer sees their demo book', async () => {
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin' });
    const answer = await get(demo.data.token, 'getAsset2');
    expect(answer.data.is_demo).toBe(1);
    expect(answer.data.accounts[0].rows[0]).toMatchObject({ currency: 'USDT', available: '100000' });
  });
});

describe('web/transferAsset', () => {
  it("moves funds atomically between two of the customer's account types", async () => {
    const c = await customer(t);
    await fund(t, c.id, 'USDT', USDT(100));
    const answer = await transfer(c, { currency: 'USDT', amount: '40.5', from: 'spot', to: 'contract' });
    expect(answer.code).toBe(1);
    expect(answer.data).toMatchObject({ amount: '40.5', from_available: '59.5', to_available: '40.5' });
    expect((await ledgerOf(t).verify()).ok).toBe(true);
  });

  it('an rtoken replay gets the first answer and moves nothing more', async () => {
    const c = await customer(t);
    await fund(t, c.id, 'USDT', USDT(100));
    const first = await transfer(
      c,
      { currency: 'USDT', amount: '10', from: 'spot', to: 'earn' },
      'replay-rt-1',
    );
    const before = await customerSnapshot(t, c.id);
    const again = await transfer(
      c,
      { currency: 'USDT', amount: '10', from: 'spot', to: 'earn' },
      'replay-rt-1',
    );
    expect(again.data).toEqual(first.data);
    expect(await customerSnapshot(t, c.id)).toEqual(before);
  });

  it('refuses bad input with a reason and writes nothing', async () => {
    const c = await customer(t);
    await fund(t, c.id, 'USDT', USDT(100));
    const cases: Array<[Record<string, string>, string, Record<string, unknown>?]> = [
      [{ amount: '-5' }, 'AMOUNT_NOT_POSITIVE', { field: 'amount' }],
      [{ amount: '0' }, 'AMOUNT_NOT_POSITIVE'],
      [{ amount: '0.000' }, 'AMOUNT_NOT_POSITIVE'],
      [{ amount: 'NaN' }, 'AMOUNT_INVALID'],
      [{ amount: 'Infinity' }, 'AMOUNT_INVALID'],
      [{ amount: '1e5' }, 'AMOUNT_INVALID'],
      [{ amount: '1,000' }, 'AMOUNT_INVALID'],
      [{ amount: '' }, 'FIELD_REQUIRED'],
      [{ amount: '1.123456789' }, 'AMOUNT_TOO_PRECISE', { field: 'amount', decimals: 8 }],
      [{ amount: '1000000000001' }, 'AMOUNT_TOO_LARGE'],
      [{ amount: '9'.repeat(40) }, 'AMOUNT_TOO_LARGE'],
      [{ amount: '9'.repeat(65) }, 'FIELD_TOO_LONG'],
      [{ amount: '100.00000001' }, 'INSUFFICIENT_BALANCE'],
      [{ currency: 'DOGE' }, 'CURRENCY_UNKNOWN', { currency: 'DOGE' }],
      [{ currency: 'usdt' }, 'CURRENCY_UNKNOWN'],
      [{ to: 'spot' }, 'TRANSFER_SAME_ACCOUNT'],
      [{ from: 'savings' }, 'BAD_INPUT', { field: 'from' }],
      [{ to: 'demo' }, 'BAD_INPUT', { field: 'to' }],
    ];
    const before = await customerSnapshot(t, c.id);
    for (const [override, reason, params] of cases) {
      const answer = await transfer(c, {
        currency: 'USDT',
        amount: '1',
        from: 'spot',
        to: 'contract',
        ...override,
      });
      expect(answer.reason, JSON.stringify(override)).toBe(reason);
      expect(answer.status).toBeLessThan(500);
      expect(answer.msg).not.toBe('');
      if (params) expect(answer.params).toMatchObject(params);
    }
    expect(await customerSnapshot(t, c.id)).toEqual(before);
    const zh = await call(t.app, {
      call: 'transferAsset',
      fields: { token: c.token, lang: 'zh', currency: 'USDT', amount: '-1', from: 'spot', to: 'contract' },
    });
    expect(zh.msg).toMatch(/必须大于零/);
  });

  it('a transfer from an account never opened is refused, nothing opened', async () => {
    const c = await customer(t);
    const before = await customerSnapshot(t, c.id);
    const answer = await transfer(c, { currency: 'BTC', amount: '0.1', from: 'options', to: 'spot' });
    expect(answer.reason).toBe('INSUFFICIENT_BALANCE');
    expect(await customerSnapshot(t, c.id)).toEqual(before);
    expect(before.accounts).toBe('0');
  });
});

describe('races on PostgreSQL through the HTTP call', () => {
  it('100 simultaneous transfers back and forth conserve the totals', async () => {
    const c = await customer(t);
    await fund(t, c.id, 'USDT', USDT(1000), 'spot');
    await fund(t, c.id, 'USDT', USDT(1000), 'contract');
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        transfer(c, {
          currency: 'USDT',
          amount: String(1 + (i % 7)),
          from: i % 2 === 0 ? 'spot' : 'contract',
          to: i % 2 === 0 ? 'contract' : 'spot',
        }),
      ),
    );
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    expect(answers.every((a) => a.code === 1)).toBe(true);
    const ledger = ledgerOf(t);
    const balances = await ledger.balances(t.db, { customerId: c.id });
    const total = balances.reduce((s, b) => s + b.availableUnits + b.frozenUnits, 0n);
    expect(total).toBe(USDT(2000));
    let expectedSpot = USDT(1000);
    for (let i = 0; i < 100; i++) expectedSpot += (i % 2 === 0 ? -1n : 1n) * USDT(1 + (i % 7));
    expect(balances.find((b) => b.accountType === 'spot')?.availableUnits).toBe(expectedSpot);
    expect((await ledger.verify()).ok).toBe(true);
  });

  it('50 simultaneous transfers against a balance covering k: exactly k succeed, every burst', async () => {
    for (const k of [0, 1, 23, 50]) {
      const c = await customer(t);
      if (k > 0) await fund(t, c.id, 'USDT', USDT(10) * BigInt(k));
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          transfer(c, { currency: 'USDT', amount: '10', from: 'spot', to: 'options' }),
        ),
      );
      expect(
        answers.filter((a) => a.code === 1),
        JSON.stringify(
          answers.filter((a) => a.code !== 1 && a.reason !== 'INSUFFICIENT_BALANCE').slice(0, 3),
        ),
      ).toHaveLength(k);
      expect(answers.filter((a) => a.code !== 1).every((a) => a.reason === 'INSUFFICIENT_BALANCE')).toBe(
        true,
      );
      const options = await ledgerOf(t).balance(t.db, {
        book: 'real',
        customerId: c.id,
        accountType: 'options',
        currency: 'USDT',
      });
      expect(options.availableUnits).toBe(USDT(10) * BigInt(k));
    }
    // Four bursts of 50 on one balance row: a loaded machine serialises them slowly; a hang still fails.
  }, 90_000);
});

describe('records from the journal', () => {
  it("lists, filters, pages and exports the customer's own entries only", async () => {
    const c = await customer(t);
    const other = await customer(t);
    await fund(t, c.id, 'USDT', USDT(100));
    await fund(t, other.id, 'USDT', USDT(7));
    for (const amount of ['1', '2', '3']) {
      await transfer(c, { currency: 'USDT', amount, from: 'spot', to: 'contract' });
    }
    const all = await get(c.token, 'getRecords', { kind: 'all' });
    expect(all.code).toBe(1);
    // One deposit row + three transfers × two account rows.
    expect(all.data.total).toBe(7);
    expect(all.data.types).toEqual(['deposit.test', 'transfer']);
    expect(all.data.items[0]).toMatchObject({ type: 'transfer', currency: 'USDT', status: 2 });
    expect(all.data.items.map((i: { amount: string }) => i.amount)).toContain('-3');
    expect(all.data.items.every((i: { detail: string }) => !i.detail.includes(other.id))).toBe(true);

    const contract = await get(c.token, 'getRecords', { kind: 'account', account_type: 'contract' });
    expect(contract.data.items.map((i: { amount: string }) => i.amount)).toEqual(['3', '2', '1']);
    const paged = await get(c.token, 'getRecords', { kind: 'all', page: '2', page_size: '3' });
    expect(paged.data).toMatchObject({ total: 7, page: 2, page_size: 3 });
    expect(paged.data.items).toHaveLength(3);
    const typed = await get(c.token, 'getRecords', { kind: 'money', type: 'deposit.test' });
    expect(typed.data.total).toBe(1);
    const deal = await get(c.token, 'getRecords', { kind: 'deal' });
    expect(deal.data.total).toBe(0);
    const failed = await get(c.token, 'getRecords', { kind: 'all', status: '0' });
    expect(failed.data.total).toBe(0);
    const now = t.clock.now().getTime();
    const future = await get(c.token, 'getRecords', { kind: 'all', start_time: String(now + 1000) });
    expect(future.data.total).toBe(0);
    const window = await get(c.token, 'getRecords', {
      kind: 'all',
      start_time: String(now - 1000),
      end_time: String(now + 1000),
    });
    expect(window.data.total).toBe(7);

    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/web/exportRecords',
      query: { token: c.token, kind: 'all', lang: 'zh' },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(8);
    expect(lines[0]).toBe('编号,时间,类型,币种,数量,账户,状态,备注');
    expect(lines[1]).toMatch(/,划转,USDT,/);
    const en = await t.app.inject({
      method: 'GET',
      url: '/api/web/exportRecords',
      query: { token: c.token, kind: 'all' },
    });
    expect(en.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe(
      'ID,Time,Type,Currency,Amount,Account,Status,Note',
    );
  });

  it("folds an order's freeze and release into its fill: no zero rows, labels, links, same CSV", async () => {
    const c = await customer(t);
    await fund(t, c.id, 'USDT', USDT(100));
    const ledger = ledgerOf(t);
    const order = { book: 'real' as const, customerId: c.id, accountType: 'spot' as const, currency: 'USDT' };
    const key = `fold:${c.id}`;
    await ledger.freeze(t.db, {
      ...order,
      amountUnits: USDT(10),
      reason: 'spot.freeze',
      reference: { type: 'spot_order', id: 'o-fold' },
      idempotencyKey: `${key}:freeze`,
    });
    await ledger.debit(t.db, {
      ...order,
      amountUnits: USDT(6),
      bucket: 'frozen',
      to: 'market_maker',
      reason: 'spot.trade',
      reference: { type: 'spot_trade', id: 'BTCUSDT:real:1' },
      idempotencyKey: `${key}:trade`,
    });
    await ledger.unfreeze(t.db, {
      ...order,
      amountUnits: USDT(4),
      reason: 'spot.release',
      reference: { type: 'spot_order', id: 'o-fold' },
      idempotencyKey: `${key}:release`,
    });
    for (const kind of ['all', 'account', 'deal']) {
      const page = await get(c.token, 'getRecords', { kind });
      const types = page.data.items.map((i: { type: string }) => i.type);
      expect(types, kind).not.toContain('spot.freeze');
      expect(types, kind).not.toContain('spot.release');
      expect(page.data.types, kind).not.toContain('spot.freeze');
      expect(
        page.data.items.every((i: { amount: string }) => i.amount !== '0'),
        kind,
      ).toBe(true);
      expect(
        page.data.items.every((i: { detail: string }) => !/o-fold|frozen/.test(i.detail)),
        kind,
      ).toBe(true);
    }
    const all = await get(c.token, 'getRecords', { kind: 'all' });
    expect(all.data.total).toBe(2);
    expect(all.data.items[0]).toMatchObject({
      type: 'spot.trade',
      amount: '-6',
      detail: 'BTCUSDT',
      ref: { kind: 'spot_order' },
    });
    const deal = await get(c.token, 'getRecords', { kind: 'deal' });
    expect(deal.data.items.map((i: { type: string }) => i.type)).toEqual(['spot.trade']);

    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/web/exportRecords',
      query: { token: c.token, kind: 'all', lang: 'zh' },
    });
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(1 + 2);
    expect(lines[1]).toMatch(/,现货成交,USDT,-6,现货,已完成,BTCUSDT$/);
    expect(lines[2]).toMatch(/,充值,USDT,100,/);
    expect(csv.body).not.toMatch(/spot\.|deposit\.test/);
    const ft = await t.app.inject({
      method: 'GET',
      url: '/api/web/exportRecords',
      query: { token: c.token, kind: 'deal', lang: 'ft' },
    });
    expect(ft.body).toMatch(/,現貨成交,/);
  });

  it('refuses bad record queries with a reason', async () => {
    const c = await customer(t);
    const cases: Array<[Record<string, string>, string]> = [
      [{ kind: 'everything' }, 'BAD_INPUT'],
      [{ kind: 'all', page: '0' }, 'BAD_INPUT'],
      [{ kind: 'all', page_size: '101' }, 'LIMIT_TOO_LARGE'],
      [{ kind: 'all', start_time: '2000', end_time: '1000' }, 'DATE_RANGE_INVALID'],
      [{ kind: 'all', currency: 'us dt' }, 'BAD_INPUT'],
      [{ kind: 'all', start_time: '-1' }, 'BAD_INPUT'],
    ];
    for (const [fields, reason] of cases) {
      const answer = await get(c.token, 'getRecords', fields);
      expect(answer.reason, JSON.stringify(fields)).toBe(reason);
    }
  });
});
