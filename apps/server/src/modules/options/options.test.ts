import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AdminOptionSettingsBody } from '@bourse/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp, testNow } from '../../../test/harness.ts';
import { customerSnapshot, fund, ledgerOf, USDT } from '../assets/testing.ts';
import { closeMarket } from '../market/testing.ts';
import { adminCall, staffSession } from '../staff/testing.ts';
import { ratedCustomer } from '../suitability/testing.ts';
import { OPTION_SETTLE_GRACE_MS } from './settle.ts';
import { engineDriver } from './testing.ts';

/**
 * Scenario tests on a scripted feed: FEED=replay plays a tick file we write here, through the
 * real market engine and recorder into `market_tick`; a test driver hands the recorded ticks to
 * the options consumer exactly as the risk engine does.
 */
// The harness clock's start: a fixed Saturday, or BOURSE_TEST_NOW (scripts/time-matrix.sh). XAU/USD is
// closed on purpose below, so the test means the same at any instant.
const START = testNow().getTime();
const S = (seconds: number) => START + seconds * 1_000;

function script(): string {
  const lines: string[] = [];
  const tick = (s: number, symbol: string, price: string) =>
    lines.push(JSON.stringify({ time: S(s), symbol, price, bid: price, ask: price }));
  tick(0, 'BTC/USDT', '100000.00');
  tick(0, 'ETH/USDT', '3000.00');
  tick(10, 'BTC/USDT', '100050.00');
  tick(10, 'ETH/USDT', '3010.00'); // ETH's last tick: its option settles after the grace
  tick(30, 'BTC/USDT', '100100.00'); // exactly at the first options' expiry: their settlement price
  tick(31, 'BTC/USDT', '99000.00'); // later: must not decide them
  tick(50, 'BTC/USDT', '99500.00');
  tick(69, 'BTC/USDT', '99000.00'); // back to the tie option's opening price
  tick(75, 'BTC/USDT', '98000.00');
  for (let s = 80; s <= 3_600; s += 5) tick(s, 'BTC/USDT', `${98000 + (s % 7)}.00`);
  return lines.join('\n');
}

let t: TestApp;
let dir: string;
let admin: string;
let driver: Awaited<ReturnType<typeof engineDriver>>;

async function to(seconds: number) {
  t.clock.set(new Date(S(seconds)));
  await t.app.market.step();
  await driver.round();
}

async function buy(token: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return call(t.app, {
    call: 'buyOption',
    fields: { symbol: 'BTC/USDT', direction: 'up', stake: '100', duration: '30', ...fields },
    headers: { token, ...headers },
  });
}

async function optionsBalance(customerId: string, book: 'real' | 'demo' = 'real') {
  const b = await ledgerOf(t).balance(t.db, { book, customerId, accountType: 'options', currency: 'USDT' });
  return { available: b.availableUnits, frozen: b.frozenUnits };
}

async function houseBalance(book: 'real' | 'demo' = 'real'): Promise<bigint> {
  const rows = await ledgerOf(t).platformBalances(t.db, { book, platform: 'options_house' });
  const usdt = (rows as Array<{ currency: string; availableUnits: bigint }>).find(
    (r) => r.currency === 'USDT',
  );
  return usdt?.availableUnits ?? 0n;
}

async function orderRow(id: string) {
  return t.db.selectFrom('options_order').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function orderCount(): Promise<number> {
  const r = await t.db
    .selectFrom('options_order')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function verified() {
  const report = await ledgerOf(t).verify();
  expect(report.ok).toBe(true);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-options-'));
  const file = path.join(dir, 'ticks.jsonl');
  fs.writeFileSync(file, script());
  t = await startTestApp({ feed: 'replay', replayFile: file, replayLoop: false, feedTickMs: 0 });
  expect(t.clock.now().getTime()).toBe(START);
  driver = await engineDriver(t, t.app.optionsService.consumer);
  admin = (await staffSession(t, ['administrator'])).token;
  await closeMarket(t, 'XAU/USD');
  await to(0);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('up/down options on the recorded feed', () => {
  it('lists the seeded instruments with their rules', async () => {
    const answer = await call(t.app, { method: 'GET', call: 'getOptions', fields: {} });
    const symbols = answer.data.items.map((i: { symbol: string }) => i.symbol);
    for (const s of ['BTC/USDT', 'ETH/USDT', 'SOL/USDT', 'LINK/USDT', 'XAU/USD', 'EUR/USD', 'GBP/USD', 'WTI'])
      expect(symbols).toContain(s);
    const btc = answer.data.items.find((i: { symbol: string }) => i.symbol === 'BTC/USDT');
    expect(btc).toEqual({
      symbol: 'BTC/USDT',
      name: 'Bitcoin / Tether',
      asset_class: 'crypto_spot',
      currency: 'USDT',
      min_stake: '10',
      max_stake: '10000',
      durations: [
        { seconds: 30, payout_rate: '0.8' },
        { seconds: 60, payout_rate: '0.85' },
        { seconds: 300, payout_rate: '0.9' },
        { seconds: 900, payout_rate: '0.92' },
      ],
      trading_hours: '24/7',
      open: true,
      enabled: true,
    });
    const gold = answer.data.items.find((i: { symbol: string }) => i.symbol === 'XAU/USD');
    expect(gold.open).toBe(false); // closed on purpose (beforeAll)
  });

  it('won, lost and tied with exact payouts, each on the last tick at or before expiry, exactly once', async () => {
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', USDT(1_000), 'options');
    const houseBefore = await houseBalance();
    const up = await buy(c.token, { direction: 'up' });
    const down = await buy(c.token, { direction: 'down' });
    const eth = await buy(c.token, { symbol: 'ETH/USDT', direction: 'up' });
    expect(up.code).toBe(1);
    expect(up.data).toMatchObject({
      symbol: 'BTC/USDT',
      book: 'real',
      direction: 'up',
      stake: '100',
      currency: 'USDT',
      duration: 30,
      payout_rate: '0.8',
      open_price: '100000.00',
      open_price_source: 'replay',
      open_price_at: S(0),
      opened_at: S(0),
      expires_at: S(30),
      status: 'open',
      settlement_price: null,
      payout: null,
      profit: null,
    });
    expect(eth.data.open_price).toBe('3000.00');
    expect(await optionsBalance(c.id)).toEqual({ available: USDT(700), frozen: USDT(300) });

    await to(10);
    await to(30); // a tick exactly at expiry is recorded, but nothing later yet: still open
    expect((await orderRow(up.data.order_id)).status).toBe('open');
    await to(31); // BTC ticks past the expiry: settled on the 30 s tick, not on this one
    const won = await call(t.app, {
      method: 'GET',
      call: 'getOptionOrder',
      fields: { order_id: up.data.order_id },
      headers: { token: c.token },
    });
    expect(won.data).toMatchObject({
      status: 'won',
      settlement_price: '100100.00',
      settlement_price_source: 'replay',
      settlement_price_at: S(30),
      payout: '180',
      profit: '80',
      settled_at: S(31),
    });
    const lost = await orderRow(down.data.order_id);
    expect(lost).toMatchObject({ status: 'lost', settlement_price: '100100.00', payout_units: '0' });
    expect(BigInt(lost.profit_units as string)).toBe(-USDT(100));
    expect((await orderRow(eth.data.order_id)).status).toBe('open'); // ETH has not ticked since 10 s
    expect(await optionsBalance(c.id)).toEqual({ available: USDT(880), frozen: USDT(100) });

    // A second engine run over the same ticks (a crash before the cursor moved) changes nothing.
    const entriesBefore = await t.db
      .selectFrom('ledger_entry')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const snapshot = await customerSnapshot(t, c.id);
    await driver.replayFrom(0n);
    expect(await customerSnapshot(t, c.id)).toEqual(snapshot);
    expect(
      await t.db
        .selectFrom('ledger_entry')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    ).toEqual(entriesBefore);
    expect((await orderRow(up.data.order_id)).settled_at?.getTime()).toBe(S(31));

    // ETH stopped ticking: it settles OPTION_SETTLE_GRACE_MS after expiry on its last tick (10 s).
    expect(OPTION_SETTLE_GRACE_MS).toBe(10_000);
    await to(39);
    expect((await orderRow(eth.data.order_id)).status).toBe('open');
    await to(40);
    expect(await orderRow(eth.data.order_id)).toMatchObject({
      status: 'won',
      settlement_price: '3010.00',
      payout_units: String(USDT(180)),
    });
    expect((await orderRow(eth.data.order_id)).settlement_price_at?.getTime()).toBe(S(10));

    // Tied: opened on 99000.00 (the 31 s tick), the last tick at or before its expiry is 99000.00 again.
    const tie = await buy(c.token, { direction: 'down', stake: '50' });
    expect(tie.data).toMatchObject({ open_price: '99000.00', open_price_at: S(31), expires_at: S(70) });
    await to(50);
    await to(69);
    expect((await orderRow(tie.data.order_id)).status).toBe('open');
    await to(75);
    expect(await orderRow(tie.data.order_id)).toMatchObject({
      status: 'tied',
      settlement_price: '99000.00',
      payout_units: String(USDT(50)),
      profit_units: '0',
    });
    expect(await optionsBalance(c.id)).toEqual({ available: USDT(1_060), frozen: 0n });
    // The house paid two wins (80 + 80) and took one stake (100).
    expect(houseBefore - (await houseBalance())).toBe(USDT(60));

    const history = await call(t.app, {
      method: 'GET',
      call: 'getOptionOrders',
      fields: { status: 'settled' },
      headers: { token: c.token },
    });
    expect(history.data.total).toBe(4);
    expect(history.data.items.map((o: { status: string }) => o.status).sort()).toEqual([
      'lost',
      'tied',
      'won',
      'won',
    ]);
    const open = await call(t.app, {
      method: 'GET',
      call: 'getOptionOrders',
      fields: { status: 'open' },
      headers: { token: c.token },
    });
    expect(open.data.total).toBe(0);
    await verified();
  });

  it('refuses every rule through the route, by name and in the customer’s language, writing nothing', async () => {
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', USDT(1_000), 'options');
    const before = { orders: await orderCount(), ledger: await customerSnapshot(t, c.id) };
    const cases: Array<[Record<string, string>, string, Record<string, unknown>?]> = [
      [{ symbol: 'AAPL' }, 'OPTIONS_UNAVAILABLE', { symbol: 'AAPL' }],
      [{ symbol: 'NOPE/USDT' }, 'OPTIONS_UNAVAILABLE', { symbol: 'NOPE/USDT' }],
      [{ duration: '45' }, 'OPTION_DURATION_INVALID', { durations: '30, 60, 300, 900' }],
      [{ stake: '9.99' }, 'OPTION_STAKE_BELOW_MIN', { min: '10' }],
      [{ stake: '10000.01' }, 'OPTION_STAKE_ABOVE_MAX', { max: '10000' }],
      [{ stake: 'abc' }, 'AMOUNT_INVALID', { field: 'stake' }],
      [{ stake: '-5' }, 'AMOUNT_NOT_POSITIVE', { field: 'stake' }],
      [{ stake: '0' }, 'AMOUNT_NOT_POSITIVE', { field: 'stake' }],
      [{ stake: '10.000000001' }, 'AMOUNT_TOO_PRECISE', { field: 'stake', decimals: 8 }],
      [{ stake: '2000' }, 'INSUFFICIENT_BALANCE', { currency: 'USDT' }],
      [{ symbol: 'XAU/USD' }, 'MARKET_CLOSED', { symbol: 'XAU/USD' }],
      [{ symbol: 'SOL/USDT' }, 'PRICE_STALE', { symbol: 'SOL/USDT' }],
    ];
    for (const [fields, reason, params] of cases) {
      const answer = await buy(c.token, fields);
      expect(answer.reason, JSON.stringify(fields)).toBe(reason);
      expect(answer.status).toBeLessThan(500);
      if (params) expect(answer.params).toMatchObject(params);
      expect(answer.msg).not.toBe(reason);
    }
    const zh = await buy(c.token, { stake: '5' }, { 'accept-language': 'zh-CN' });
    expect(zh.reason).toBe('OPTION_STAKE_BELOW_MIN');
    expect(zh.msg).toBe('最低投资额为 10 USDT');
    const bad = await buy(c.token, { direction: 'sideways' });
    expect(bad.code).not.toBe(1);
    expect(bad.status).toBeLessThan(500);
    const anonymous = await call(t.app, {
      call: 'buyOption',
      fields: { symbol: 'BTC/USDT', direction: 'up', stake: '100', duration: '30' },
    });
    expect(anonymous.reason).toBe('LOGIN_REQUIRED');
    expect(await orderCount()).toBe(before.orders);
    expect(await customerSnapshot(t, c.id)).toEqual(before.ledger);
  });

  it('holds at most 50 open options per customer (OPTION_OPEN_LIMIT)', async () => {
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', USDT(1_000), 'options');
    for (let i = 0; i < 50; i++) expect((await buy(c.token, { stake: '10', duration: '900' })).code).toBe(1);
    const refused = await buy(c.token, { stake: '10', duration: '900' });
    expect(refused).toMatchObject({ reason: 'OPTION_OPEN_LIMIT', params: { max: 50 } });
    expect(await optionsBalance(c.id)).toEqual({ available: USDT(500), frozen: USDT(500) });
  });

  it('a client_oid retry is one order; the same id with other fields is refused', async () => {
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', USDT(1_000), 'options');
    const first = await buy(c.token, { client_oid: 'opt-1', stake: '20' });
    const again = await buy(c.token, { client_oid: 'opt-1', stake: '20' });
    expect(again.data.order_id).toBe(first.data.order_id);
    expect(again.data.client_oid).toBe('opt-1');
    const twins = await Promise.all([1, 2, 3].map(() => buy(c.token, { client_oid: 'opt-2', stake: '30' })));
    expect(new Set(twins.map((a) => a.data.order_id)).size).toBe(1);
    const other = await buy(c.token, { client_oid: 'opt-1', stake: '21' });
    expect(other).toMatchObject({ reason: 'CLIENT_OID_REUSED', params: { client_oid: 'opt-1' } });
    expect(await optionsBalance(c.id)).toEqual({ available: USDT(950), frozen: USDT(50) });
  });

  it('20 concurrent buys against a balance covering 7 of them: exactly 7', async () => {
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', USDT(700), 'options');
    const answers = await Promise.all(Array.from({ length: 20 }, () => buy(c.token, { stake: '100' })));
    expect(answers.filter((a) => a.code === 1)).toHaveLength(7);
    expect(answers.filter((a) => a.reason === 'INSUFFICIENT_BALANCE')).toHaveLength(13);
    expect(await optionsBalance(c.id)).toEqual({ available: 0n, frozen: USDT(700) });
    await verified();
  });

  it('a demo customer trades the demo book with demo funds', async () => {
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin', fields: {} });
    const id = (
      await t.db
        .selectFrom('accounts_customer')
        .select('id')
        .where('uid', '=', demo.data.uid)
        .executeTakeFirstOrThrow()
    ).id;
    await ledgerOf(t).transfer(t.db, {
      book: 'demo',
      customerId: id,
      currency: 'USDT',
      fromType: 'spot',
      toType: 'options',
      amountUnits: USDT(500),
      reference: { type: 'test', id: 'demo-options' },
      idempotencyKey: `test-demo-options-${id}`,
    });
    const houseReal = await houseBalance('real');
    const bought = await buy(demo.data.token, { direction: 'down', stake: '200' });
    expect(bought.data).toMatchObject({ book: 'demo', stake: '200' });
    expect(await optionsBalance(id, 'demo')).toEqual({ available: USDT(300), frozen: USDT(200) });
    const now = (t.clock.now().getTime() - START) / 1_000;
    await to(now + 30); // a tick exactly at expiry, none after: still open
    expect((await orderRow(bought.data.order_id)).status).toBe('open');
    await to(now + 36);
    const settled = await orderRow(bought.data.order_id);
    expect(settled.status).not.toBe('open');
    expect(settled.book).toBe('demo');
    expect(await houseBalance('real')).toBe(houseReal); // the real house never meets a demo option
    const admins = await adminCall(t.app, {
      method: 'GET',
      call: 'options/orders',
      token: admin,
      fields: { book: 'demo', customer_id: id },
    });
    expect(admins.data.items[0]).toMatchObject({
      order_id: bought.data.order_id,
      book: 'demo',
      customer_id: id,
    });
    await verified();
  });

  it('the eu_retail profile turns buying off (OPTIONS_NOT_PERMITTED) and permissive back on', async () => {
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', USDT(100), 'options');
    const eu = await adminCall(t.app, {
      call: 'jurisdiction',
      token: admin,
      fields: { profile: 'eu_retail', reason: 'EU retail' },
    });
    expect(eu.code).toBe(1);
    const refused = await buy(c.token, {});
    expect(refused.reason).toBe('OPTIONS_NOT_PERMITTED');
    const zh = await buy(c.token, {}, { 'accept-language': 'zh-CN' });
    expect(zh.msg).toBe('根据本平台适用的司法辖区规则，不提供涨跌期权');
    await adminCall(t.app, {
      call: 'jurisdiction',
      token: admin,
      fields: { profile: 'permissive', reason: 'back' },
    });
    expect((await buy(c.token, {})).code).toBe(1);
  });

  it('back office: settings changed audited, every bad value refused, a disabled instrument refuses buying', async () => {
    const finance = (await staffSession(t, ['finance'])).token;
    const denied = await adminCall(t.app, {
      call: 'options/settings',
      token: finance,
      fields: { symbol: 'BTC/USDT', min_stake: '20', reason: 'not allowed' },
    });
    expect(denied.reason).toBe('FORBIDDEN');
    const bad: Array<[Record<string, string>, string]> = [
      [{ durations: '' }, ''],
      [{ durations: '60:0.85,60:0.9' }, 'durations'],
      [{ durations: '29:0.8' }, 'durations'],
      [{ durations: '86401:0.8' }, 'durations'],
      [{ durations: '60:0' }, 'durations'],
      [{ durations: '60:1.5' }, 'durations'],
      [{ durations: '60:0.12345' }, 'durations'],
      [{ durations: '60:-0.5' }, 'durations'],
      [{ durations: '60' }, 'durations'],
      [{ durations: '30:0.8,60:0.8,90:0.8,120:0.8,150:0.8,180:0.8,210:0.8,240:0.8,270:0.8' }, 'durations'],
      [{ min_stake: '0' }, 'min_stake'],
      [{ min_stake: 'ten' }, 'min_stake'],
      [{ max_stake: '-1' }, 'max_stake'],
      [{ max_stake: '5' }, 'max_stake'], // below the minimum (10)
      [{ min_stake: '20000' }, 'min_stake'], // above the maximum (10,000)
      [{ max_stake: '1.000000001' }, 'max_stake'],
    ];
    const auditCount = async () =>
      Number(
        (
          await t.db
            .selectFrom('staff_audit')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('action', '=', 'options.settings.update')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const audits = await auditCount();
    for (const [fields, field] of bad) {
      const answer = await adminCall(t.app, {
        call: 'options/settings',
        token: admin,
        fields: { symbol: 'BTC/USDT', reason: 'tuning', ...fields },
      });
      expect(answer.code, JSON.stringify(fields)).not.toBe(1);
      expect(answer.status).toBeLessThan(500);
      if (field) expect(answer).toMatchObject({ reason: 'CONTRACT_SETTING_INVALID', params: { field } });
    }
    const noReason = await adminCall(t.app, {
      call: 'options/settings',
      token: admin,
      fields: { symbol: 'BTC/USDT' },
    });
    expect(noReason.code).not.toBe(1);
    expect(await auditCount()).toBe(audits);

    const changed = await adminCall(t.app, {
      call: 'options/settings',
      token: admin,
      fields: {
        symbol: 'BTC/USDT',
        durations: '300:0.9, 60:0.85',
        min_stake: '25',
        reason: 'fewer durations',
      },
    });
    expect(changed.data).toMatchObject({
      symbol: 'BTC/USDT',
      min_stake: '25',
      max_stake: '10000',
      durations: [
        { seconds: 60, payout_rate: '0.85' },
        { seconds: 300, payout_rate: '0.9' },
      ],
    });
    const audit = await t.db
      .selectFrom('staff_audit')
      .selectAll()
      .where('action', '=', 'options.settings.update')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      target_id: 'BTC/USDT',
      reason: 'fewer durations',
      before: { min_stake: '10', durations: '30:0.8,60:0.85,300:0.9,900:0.92' },
      after: { min_stake: '25', durations: '60:0.85,300:0.9' },
    });
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', USDT(100), 'options');
    expect(await buy(c.token, { duration: '30' })).toMatchObject({
      reason: 'OPTION_DURATION_INVALID',
      params: { durations: '60, 300' },
    });
    expect(await buy(c.token, { duration: '60', stake: '20' })).toMatchObject({
      reason: 'OPTION_STAKE_BELOW_MIN',
      params: { min: '25' },
    });
    await adminCall(t.app, {
      call: 'options/settings',
      token: admin,
      fields: { symbol: 'BTC/USDT', enabled: false, reason: 'pause' } as never,
    });
    expect(await buy(c.token, { duration: '60' })).toMatchObject({
      reason: 'OPTIONS_UNAVAILABLE',
      params: { symbol: 'BTC/USDT' },
    });
    const listed = await adminCall(t.app, { method: 'GET', call: 'options/settings', token: finance });
    expect(listed.data.items.find((s: { symbol: string }) => s.symbol === 'BTC/USDT').enabled).toBe(false);
    const exposure = await adminCall(t.app, { method: 'GET', call: 'options/exposure', token: finance });
    const btc = exposure.data.items.find((e: { symbol: string }) => e.symbol === 'BTC/USDT');
    expect(btc.open_orders).toBeGreaterThan(0);
    expect(btc.book).toBe('real');
    await adminCall(t.app, {
      call: 'options/settings',
      token: admin,
      fields: {
        symbol: 'BTC/USDT',
        enabled: true,
        durations: '30:0.8,60:0.85,300:0.9,900:0.92',
        min_stake: '10',
        reason: 'restore',
      } as never,
    });
  });

  it('no back-office call sets a price, a settlement price or a result', () => {
    const routes = t.app.printRoutes({ commonPrefix: false });
    const optionLines = routes.split('\n').filter((l) => l.includes('/api/admin/options'));
    const found = optionLines.map((l) => l.replace(/^[\s│├└─]+/, '').trim()).sort();
    expect(found).toEqual([
      '/api/admin/options/exposure (GET, HEAD)',
      '/api/admin/options/orders (GET, HEAD)',
      '/api/admin/options/settings (GET, HEAD, POST)',
    ]);
    // The one write takes settings only: nothing about an order, a price or a result.
    const fields = Object.keys(AdminOptionSettingsBody.properties);
    for (const f of fields) expect(f).not.toMatch(/price|result|status|order|payout$|settle/);
    // No other admin route of any module mentions options orders.
    expect(
      routes
        .split('\n')
        .filter((l) => /option/i.test(l) && l.includes('/api/admin') && !l.includes('/api/admin/options')),
    ).toEqual([]);
  });
});
