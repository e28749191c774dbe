import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { fund, ledgerOf, USDT } from '../assets/testing.ts';
import { adminCall, staffSession } from '../staff/testing.ts';
import { ratedCustomer } from '../suitability/testing.ts';
import { createContractsConsumer } from './consumer.ts';
import { createRiskEngine } from './engine.ts';

/**
 * Scenarios on a scripted replay feed: every price below is exactly what the feed records, so every
 * figure is checked to the USDT minor unit. BTC/USDT-PERP: tick 0.1, 1 lot = 1 BTC; spread set to
 * 1 tick (0.1), fee 2 USDT per lot, liquidation level 0.8.
 */
const START = Date.parse('2026-11-21T04:00:00Z');
const EXPIRY = Date.parse('2026-12-25T08:00:00Z');
const PERP = 'BTC/USDT-PERP';
const DELIVERY = 'BTC/USDT-261225';
const line = (ms: number, symbol: string, bid: string, ask: string, mark: string) =>
  JSON.stringify({ time: ms, symbol, price: mark, bid, ask, mark });
const SCRIPT = [
  line(START, PERP, '95000.0', '95000.0', '95000.0'),
  line(START, DELIVERY, '96000.0', '96000.0', '96000.0'),
  line(START + 1_000, PERP, '95500.0', '95500.2', '95500.1'),
  line(START + 2_000, PERP, '95700.0', '95700.0', '95700.0'),
  line(START + 3_000, PERP, '90000.0', '90000.0', '90000.0'),
  line(START + 4_000, PERP, '85000.0', '85000.0', '85000.0'),
  line(START + 5_000, PERP, '85010.0', '85010.0', '85010.0'),
  // after the 08:00 funding time
  line(Date.parse('2026-11-21T08:00:01Z'), PERP, '85020.0', '85020.0', '85020.0'),
  // the delivery contract's last price before expiry, then one after
  line(EXPIRY - 60_000, DELIVERY, '97000.0', '97000.0', '97123.4'),
  line(EXPIRY + 1_000, PERP, '85030.0', '85030.0', '85030.0'),
];

let t: TestApp;
let dir: string;
let staffToken: string;

async function tick(toMs: number) {
  t.clock.set(new Date(toMs));
  await t.app.market.step();
  await t.app.market.flushRecorder();
}

async function open(token: string, fields: Record<string, string>) {
  return call(t.app, { call: 'openContract', fields: { symbol: PERP, ...fields }, headers: { token } });
}

async function balance(customerId: string) {
  const b = await ledgerOf(t).balance(t.db, {
    book: 'real',
    customerId,
    accountType: 'contract',
    currency: 'USDT',
  });
  return { available: b.availableUnits, frozen: b.frozenUnits };
}

async function insurance(): Promise<bigint> {
  const rows = await ledgerOf(t).platformBalances(t.db, { book: 'real', platform: 'insurance' });
  return rows.find((r) => r.currency === 'USDT')?.availableUnits ?? 0n;
}

async function verified() {
  const report = await ledgerOf(t).verify();
  expect(report.ok).toBe(true);
}

const U = (text: string) => {
  const [w = '0', f = ''] = text.split('.');
  const sign = w.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(w.replace('-', '')) * 10n ** 8n + BigInt(f.padEnd(8, '0')));
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-contracts-'));
  const file = path.join(dir, 'ticks.jsonl');
  fs.writeFileSync(file, `${SCRIPT.join('\n')}\n`);
  t = await startTestApp(
    {
      feed: 'replay',
      replayFile: file,
      replayLoop: false,
      feedTickMs: 0,
      staleAfterMs: 60_000,
    },
    { now: new Date(START) }, // the script's instants: sessions made now stay valid as ticks advance
  );
  await t.db
    .updateTable('contracts_setting')
    .set({ spread: '0.1', fee_per_lot: '2', liquidation_level: '0.8', margin_topup_max: '500' })
    .where('symbol', 'in', [PERP, DELIVERY])
    .execute();
  staffToken = (await staffSession(t, ['administrator'])).token;
  await tick(START);
  await t.app.contracts.engine.step();
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('contracts on a scripted feed', () => {
  const ids: Record<string, { token: string; id: string; position?: string }> = {};

  it('lists the contracts with their rules, and quotes from @bourse/risk', async () => {
    const list = await call(t.app, { method: 'GET', call: 'getContracts', fields: { symbol: PERP } });
    expect(list.data.items[0]).toMatchObject({
      symbol: PERP,
      kind: 'perpetual',
      leverage_class: 'crypto',
      max_leverage: 100,
      spread: '0.1',
      fee_per_lot: '2',
      lot_step: '0.001',
      funding_rate: '0.0001',
      funding_interval_hours: 8,
      open: true,
      conversion: { rate: '1', via: null },
    });
    const q = await call(t.app, {
      method: 'GET',
      call: 'getContractQuote',
      fields: { symbol: PERP, side: 'buy', lots: '0.1', leverage: '100' },
    });
    expect(q.data).toMatchObject({
      price: '95000.1',
      margin: '95.0001',
      fee: '0.2',
      required: '95.2001',
      notional_usdt: '9500.01',
    });
    // a delivery position, settled at expiry by the last test
    const z = await ratedCustomer(t);
    await fund(t, z.id, 'USDT', USDT(1000), 'contract');
    const dz = await open(z.token, { symbol: DELIVERY, side: 'sell', lots: '0.01', leverage: '10' });
    expect(dz.data.position).toMatchObject({ open_price: '95999.9', kind: 'delivery' });
  });

  it('opens a 100x position and closes it with exact P&L, fee and balances', async () => {
    const a = await ratedCustomer(t);
    ids.a = a;
    await fund(t, a.id, 'USDT', USDT(1000), 'contract');
    const o = await open(a.token, { side: 'buy', lots: '0.1', leverage: '100' });
    expect(o.code).toBe(1);
    expect(o.data.position).toMatchObject({
      open_price: '95000.1',
      margin: '95.0001',
      fee: '0.2',
      status: 'open',
    });
    expect(await balance(a.id)).toEqual({ available: U('904.7999'), frozen: U('95.0001') });
    await tick(START + 1_000);
    const c = await call(t.app, {
      call: 'closeContract',
      fields: { position_id: o.data.position.position_id },
      headers: { token: a.token },
    });
    // closes at bid − spread = 95499.9: (95499.9 − 95000.1) × 0.1 = 49.98
    expect(c.data).toMatchObject({
      close_price: '95499.9',
      pnl: '49.98',
      fee: '0.2',
      price_source: 'replay',
    });
    expect(await balance(a.id)).toEqual({ available: U('1049.58'), frozen: 0n });
    await verified();
  });

  it('triggers take-profit and stop-loss at the executable close price of the recorded tick', async () => {
    const b = await ratedCustomer(t);
    const c = await ratedCustomer(t);
    await fund(t, b.id, 'USDT', USDT(2000), 'contract');
    await fund(t, c.id, 'USDT', USDT(2000), 'contract');
    const long = await open(b.token, { side: 'buy', lots: '0.1', leverage: '10', tp_price: '95600' });
    const short = await open(c.token, { side: 'sell', lots: '0.1', leverage: '10', sl_price: '95650' });
    expect(long.data.position.open_price).toBe('95500.3');
    expect(short.data.position.open_price).toBe('95499.9');
    await t.app.contracts.engine.step(); // the tick they opened on does not trigger them
    await tick(START + 2_000);
    await t.app.contracts.engine.step();
    const hb = await call(t.app, {
      method: 'GET',
      call: 'getContractHistory',
      fields: {},
      headers: { token: b.token },
    });
    expect(hb.data.items[0]).toMatchObject({
      status: 'closed',
      close_reason: 'take_profit',
      close_price: '95699.9',
      close_price_source: 'replay',
      close_price_at: START + 2_000,
      realized_pnl: '19.96',
    });
    const hc = await call(t.app, {
      method: 'GET',
      call: 'getContractHistory',
      fields: {},
      headers: { token: c.token },
    });
    expect(hc.data.items[0]).toMatchObject({
      close_reason: 'stop_loss',
      close_price: '95700.1',
      close_price_at: START + 2_000,
      realized_pnl: '-20.02',
    });
    await verified();
  });

  it('liquidates on a price shock at the mark; the insurance account covers the shortfall', async () => {
    const fundAnswer = await adminCall(t.app, {
      call: 'contracts/insurance/fund',
      token: staffToken,
      fields: { book: 'real', amount: '1000', reason: 'seed the insurance fund' },
    });
    expect(fundAnswer.data.balance).toBe('1000');
    const d = await ratedCustomer(t);
    ids.d = d;
    await fund(t, d.id, 'USDT', USDT(1000), 'contract');
    const o = await open(d.token, { side: 'buy', lots: '0.1', leverage: '100' });
    expect(o.data.position).toMatchObject({ open_price: '95700.1', margin: '95.7001' });
    const before = await insurance();
    await tick(START + 3_000);
    await t.app.contracts.engine.step();
    const h = await call(t.app, {
      method: 'GET',
      call: 'getContractCloses',
      fields: {},
      headers: { token: d.token },
    });
    // at the mark 90000.0: (90000 − 95700.1) × 0.1 = −570.01; the margin pays 95.7001, insurance 474.3099
    expect(h.data.items[0]).toMatchObject({
      reason: 'liquidation',
      close_price: '90000.0',
      price_source: 'replay',
      price_at: START + 3_000,
      pnl: '-570.01',
      fee: '0',
      released: '0',
      insurance_covered: '474.3099',
    });
    expect(before - (await insurance())).toBe(U('474.3099'));
    expect(await balance(d.id)).toEqual({ available: U('904.0999'), frozen: 0n });
    await verified();
  });

  it('recovers from a crash between tick and settlement: each action exactly once', async () => {
    const e = await ratedCustomer(t);
    const f = await ratedCustomer(t);
    ids.f = f;
    await fund(t, e.id, 'USDT', USDT(1000), 'contract');
    await fund(t, f.id, 'USDT', USDT(20_000), 'contract');
    const pe = await open(e.token, { side: 'buy', lots: '0.1', leverage: '100' });
    const pf = await open(f.token, { side: 'buy', lots: '1', leverage: '10' });
    ids.f.position = pf.data.position.position_id;
    await t.app.contracts.engine.step();
    await tick(START + 4_000);
    const cursor = await t.app.contracts.engine.cursor();
    // A process whose round dies after the contracts consumer wrote its liquidation.
    const crashing = createRiskEngine({
      db: t.db,
      clock: t.clock,
      log: t.app.log as never,
      consumers: [
        createContractsConsumer({
          clock: t.clock,
          log: t.app.log as never,
          ledger: ledgerOf(t),
          market: t.app.market,
          pairOf: t.app.contracts.service.pairOf,
        }),
        {
          name: 'crash',
          onTicks: async () => {
            throw new Error('killed mid-round');
          },
          onTime: async () => {},
        },
      ],
    });
    await expect(crashing.step()).rejects.toThrow('killed mid-round');
    const still = await t.db
      .selectFrom('contracts_position')
      .select('status')
      .where('id', '=', pe.data.position.position_id)
      .executeTakeFirstOrThrow();
    expect(still.status).toBe('open');
    expect(await t.app.contracts.engine.cursor()).toBe(cursor);
    await t.app.contracts.engine.step();
    await t.app.contracts.engine.step();
    const closes = await t.db
      .selectFrom('contracts_close')
      .selectAll()
      .where('position_id', '=', pe.data.position.position_id)
      .execute();
    expect(closes.map((c) => c.reason)).toEqual(['liquidation']);
    const entries = await t.db
      .selectFrom('ledger_entry')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('reference_id', '=', pe.data.position.position_id)
      .where('reason', '=', 'contract.liquidation')
      .executeTakeFirstOrThrow();
    expect(Number(entries.n)).toBe(1);
    await verified();
  });

  it('charges funding at the funding time exactly once, at the recorded mark', async () => {
    const f = ids.f as { token: string; id: string; position: string };
    await tick(START + 5_000);
    await t.app.contracts.engine.step();
    const before = await t.db
      .selectFrom('contracts_position')
      .select('margin_units')
      .where('id', '=', f.position)
      .executeTakeFirstOrThrow();
    await tick(Date.parse('2026-11-21T08:00:01Z'));
    await t.app.contracts.engine.step();
    await t.app.contracts.engine.step();
    const list = await call(t.app, {
      method: 'GET',
      call: 'getContractFunding',
      fields: {},
      headers: { token: f.token },
    });
    // the last recorded mark at or before 08:00:00 is 85010.0: 85010 × 1 × 0.0001 = 8.501, paid by the long
    expect(list.data.items).toHaveLength(1);
    expect(list.data.items[0]).toMatchObject({
      amount: '-8.501',
      mark_price: '85010.0',
      funding_at: Date.parse('2026-11-21T08:00:00Z'),
    });
    const after = await t.db
      .selectFrom('contracts_position')
      .select('margin_units')
      .where('id', '=', f.position)
      .executeTakeFirstOrThrow();
    expect(BigInt(before.margin_units) - BigInt(after.margin_units)).toBe(U('8.501'));
    await verified();
  });

  it('refuses by name (one message in zh), and outside trading hours names the hours', async () => {
    const g = await ratedCustomer(t);
    await fund(t, g.id, 'USDT', USDT(100), 'contract');
    const pos = await open(g.token, { side: 'buy', lots: '0.01', leverage: '20' });
    expect(pos.code).toBe(1);
    const cases: Array<[Record<string, string>, string, Record<string, unknown>?]> = [
      [{ side: 'buy', lots: '0.1', leverage: '101' }, 'LEVERAGE_INVALID', { max: 100 }],
      [{ side: 'buy', lots: '0.0015', leverage: '10' }, 'LOTS_STEP', { step: '0.001' }],
      [{ side: 'buy', lots: '1000', leverage: '10' }, 'LOTS_ABOVE_MAX', { max: '100' }],
      [{ side: 'buy', lots: '0.1', leverage: '10', type: 'limit' }, 'ORDER_PRICE_REQUIRED'],
      [{ side: 'buy', lots: '0.1', leverage: '10', price: '1' }, 'ORDER_PRICE_NOT_ALLOWED'],
      [
        { side: 'buy', lots: '0.1', leverage: '10', type: 'limit', price: '1.05' },
        'ORDER_PRICE_TICK',
        { tick: '0.1' },
      ],
      [{ side: 'buy', lots: '0.1', leverage: '10', tp_price: '1' }, 'TP_MUST_BE_ABOVE'],
      [{ side: 'buy', lots: '0.1', leverage: '10', sl_price: '999999' }, 'SL_MUST_BE_BELOW'],
      [{ side: 'sell', lots: '0.1', leverage: '10', tp_price: '999999' }, 'TP_MUST_BE_BELOW'],
      [{ side: 'sell', lots: '0.1', leverage: '10', sl_price: '1' }, 'SL_MUST_BE_ABOVE'],
      [{ side: 'buy', lots: '1', leverage: '1' }, 'INSUFFICIENT_BALANCE'],
      [{ side: 'buy', lots: 'abc', leverage: '10' }, 'AMOUNT_INVALID'],
      [
        { symbol: 'XAU/USD', side: 'buy', lots: '0.01', leverage: '10' },
        'MARKET_CLOSED',
        { symbol: 'XAU/USD', hours: 'America/New_York Sun-Thu 18:00-17:00' },
      ],
      [{ symbol: 'BTC/USDT', side: 'buy', lots: '0.01', leverage: '10' }, 'CONTRACT_UNAVAILABLE'],
    ];
    for (const [fields, reason, params] of cases) {
      const answer = await open(g.token, fields);
      expect(answer.reason, JSON.stringify(fields)).toBe(reason);
      if (params) expect(answer.params).toMatchObject(params);
    }
    const zh = await call(t.app, {
      call: 'openContract',
      fields: { symbol: PERP, side: 'buy', lots: '0.1', leverage: '101', lang: 'zh' },
      headers: { token: g.token },
    });
    expect(zh.reason).toBe('LEVERAGE_INVALID');
    expect(zh.msg).toMatch(/[\u4e00-\u9fff]/);
    const id = pos.data.position.position_id;
    const more = await call(t.app, {
      call: 'closeContract',
      fields: { position_id: id, lots: '1' },
      headers: { token: g.token },
    });
    expect(more).toMatchObject({ reason: 'CLOSE_LOTS_ABOVE_OPEN', params: { lots: '0.01' } });
    const topup = await call(t.app, {
      call: 'addContractMargin',
      fields: { position_id: id, amount: '501' },
      headers: { token: g.token },
    });
    expect(topup).toMatchObject({ reason: 'MARGIN_TOPUP_ABOVE_MAX', params: { max: '500' } });
    const ok = await call(t.app, {
      call: 'addContractMargin',
      fields: { position_id: id, amount: '10' },
      headers: { token: g.token },
    });
    expect(ok.code).toBe(1);
    const done = await call(t.app, {
      call: 'closeContract',
      fields: { position_id: id },
      headers: { token: g.token },
    });
    expect(done.code).toBe(1);
    const again = await call(t.app, {
      call: 'closeContract',
      fields: { position_id: id },
      headers: { token: g.token },
    });
    expect(again).toMatchObject({ reason: 'POSITION_NOT_OPEN', params: { status: 'closed' } });
    await verified();
  });

  it('20 concurrent opens against a balance covering 5: exactly 5 open; demo trades the demo book', async () => {
    const r = await ratedCustomer(t);
    // each: 0.01 lots at 85010.1 (ask + spread) ×… at 100x = 8.501001 margin + 0.02 fee
    const q = await call(t.app, {
      method: 'GET',
      call: 'getContractQuote',
      fields: { symbol: PERP, side: 'buy', lots: '0.01', leverage: '100' },
    });
    await fund(t, r.id, 'USDT', 5n * U(q.data.required), 'contract');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => open(r.token, { side: 'buy', lots: '0.01', leverage: '100' })),
    );
    expect(answers.filter((a) => a.code === 1)).toHaveLength(5);
    expect(answers.filter((a) => a.reason === 'INSUFFICIENT_BALANCE')).toHaveLength(15);
    expect(await balance(r.id)).toEqual({ available: 0n, frozen: 5n * U(q.data.margin) });
    // client_oid retries are one order
    const s1 = await ratedCustomer(t);
    await fund(t, s1.id, 'USDT', USDT(100), 'contract');
    const twins = await Promise.all(
      [1, 2, 3].map(() =>
        open(s1.token, { side: 'sell', lots: '0.01', leverage: '10', client_oid: 'twin-1' }),
      ),
    );
    expect(new Set(twins.map((a) => a.data?.order?.order_id)).size).toBe(1);
    await verified();
  });

  it('partial close, pending order filled and cancelled', async () => {
    const h = await ratedCustomer(t);
    await fund(t, h.id, 'USDT', USDT(5000), 'contract');
    const o = await open(h.token, { side: 'buy', lots: '0.3', leverage: '10' });
    const id = o.data.position.position_id;
    const part = await call(t.app, {
      call: 'closeContract',
      fields: { position_id: id, lots: '0.1' },
      headers: { token: h.token },
    });
    expect(part.data).toMatchObject({ lots: '0.1' });
    const pos = await call(t.app, {
      method: 'GET',
      call: 'getContractPositions',
      fields: {},
      headers: { token: h.token },
    });
    expect(pos.data.items[0]).toMatchObject({ lots: '0.2', opened_lots: '0.3', status: 'open' });
    // a buy limit above the market fills on the next tick at the executable price (never worse)
    const limit = await open(h.token, {
      side: 'buy',
      lots: '0.01',
      leverage: '10',
      type: 'limit',
      price: '90000.0',
    });
    expect(limit.data.order).toMatchObject({ status: 'pending', frozen: '90.02' });
    const cancelMe = await open(h.token, {
      side: 'buy',
      lots: '0.01',
      leverage: '10',
      type: 'limit',
      price: '1000.0',
    });
    const cancelled = await call(t.app, {
      call: 'cancelContractOrder',
      fields: { order_id: cancelMe.data.order.order_id },
      headers: { token: h.token },
    });
    expect(cancelled.data).toMatchObject({ status: 'cancelled', cancel_reason: 'user', frozen: '0' });
    const twice = await call(t.app, {
      call: 'cancelContractOrder',
      fields: { order_id: cancelMe.data.order.order_id },
      headers: { token: h.token },
    });
    expect(twice).toMatchObject({ reason: 'CONTRACT_ORDER_NOT_PENDING', params: { status: 'cancelled' } });
    await t.app.contracts.engine.step();
    await tick(EXPIRY + 1_000);
    await t.app.contracts.engine.step();
    // (the session has expired by now: the clock jumped a month; read the rows)
    const mine = await t.db
      .selectFrom('contracts_order')
      .selectAll()
      .where('id', '=', limit.data.order.order_id)
      .executeTakeFirstOrThrow();
    expect(mine).toMatchObject({ status: 'filled' });
    const p = await t.db
      .selectFrom('contracts_position')
      .selectAll()
      .where('id', '=', mine.position_id as string)
      .executeTakeFirstOrThrow();
    expect(p.open_price).toBe('85030.1');
    expect(p.margin_units).toBe(U('90').toString()); // what was frozen at placement
    await verified();
  });

  it('settles a delivery contract at the last recorded mark at or before expiry', async () => {
    const rows = await t.db
      .selectFrom('contracts_position')
      .selectAll()
      .where('symbol', '=', DELIVERY)
      .execute();
    for (const r of rows)
      expect(r).toMatchObject({ status: 'delivered', close_price: '97123.4', close_reason: 'delivery' });
    expect(rows.length).toBe(1);
  });

  it('no back-office route sets a price or closes a position', async () => {
    const spec = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const admin = Object.keys(spec.paths).filter((p) => p.startsWith('/api/admin/contracts'));
    expect(admin.sort()).toEqual([
      '/api/admin/contracts/exposure',
      '/api/admin/contracts/insurance',
      '/api/admin/contracts/insurance/fund',
      '/api/admin/contracts/positions',
      '/api/admin/contracts/settings',
    ]);
    for (const l of admin) expect(l).not.toMatch(/price|liquidat|close/i);
  });
});
