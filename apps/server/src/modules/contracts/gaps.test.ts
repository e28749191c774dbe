import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { fund, ledgerOf, USDT } from '../assets/testing.ts';
import { adminCall, staffSession } from '../staff/testing.ts';
import { ratedCustomer } from '../suitability/testing.ts';

/**
 * The second scenario file: insurance-fund idempotency, the back-office settings, the demo book,
 * close racing liquidation, funding across an engine outage, and a non-USD quote (EUR/JPY valued
 * through USD/JPY) — every figure exact, on a scripted replay feed.
 */
const S = Date.parse('2026-11-21T04:00:00Z'); // a Saturday: crypto only
const MON = Date.parse('2026-11-23T10:00:00Z'); // forex open (UTC Sun 22:00 – Fri 22:00)
const PERP = 'BTC/USDT-PERP';
const ETH = 'ETH/USDT-PERP';
const line = (ms: number, symbol: string, bid: string, ask: string, mark: string) =>
  JSON.stringify({ time: ms, symbol, price: mark, bid, ask, mark });
const at = (iso: string) => Date.parse(iso);
const RACES = 10;
const SCRIPT = [
  line(S, PERP, '95000.0', '95000.0', '95000.0'),
  line(S, ETH, '3400.00', '3400.00', '3400.00'),
  line(S + 5_000, ETH, '3400.00', '3400.00', '3400.00'),
  line(S + 6_000, ETH, '3350.00', '3350.00', '3350.00'),
  ...Array.from({ length: RACES }, (_, k) => [
    line(S + 10_000 + k * 2_000, ETH, '3400.00', '3400.00', '3400.00'),
    line(S + 11_000 + k * 2_000, ETH, '3350.00', '3350.00', '3350.00'),
  ]).flat(),
  line(S + 60_000, PERP, '95000.0', '95000.0', '95000.0'),
  line(at('2026-11-21T07:59:00Z'), PERP, '96000.0', '96000.0', '96000.0'),
  line(at('2026-11-21T08:00:00Z'), PERP, '96500.0', '96500.0', '96500.0'),
  line(at('2026-11-21T12:00:00Z'), PERP, '97000.0', '97000.0', '97000.0'),
  line(at('2026-11-21T15:59:59Z'), PERP, '97500.0', '97500.0', '97500.0'),
  line(at('2026-11-21T16:00:01Z'), PERP, '98000.0', '98000.0', '98000.0'),
  line(MON, 'USD/JPY', '150.000', '150.002', '150.001'),
  line(MON, 'EUR/JPY', '163.000', '163.002', '163.001'),
  line(MON + 10_000, 'USD/JPY', '151.000', '151.002', '151.001'),
  line(MON + 10_000, 'EUR/JPY', '164.000', '164.002', '164.001'),
];

let t: TestApp;
let dir: string;
let admin: string;

async function tick(toMs: number) {
  t.clock.set(new Date(toMs));
  await t.app.market.step();
  await t.app.market.flushRecorder();
}
const step = () => t.app.contracts.engine.step();

async function open(token: string, fields: Record<string, string>) {
  return call(t.app, { call: 'openContract', fields: { symbol: PERP, ...fields }, headers: { token } });
}

async function balance(customerId: string, book: 'real' | 'demo' = 'real') {
  const b = await ledgerOf(t).balance(t.db, { book, customerId, accountType: 'contract', currency: 'USDT' });
  return { available: b.availableUnits, frozen: b.frozenUnits };
}

const PLATFORM = ['insurance', 'insurance_capital', 'fee_income', 'contract_house'] as const;
async function platform(book: 'real' | 'demo'): Promise<Record<(typeof PLATFORM)[number], bigint>> {
  const out = { insurance: 0n, insurance_capital: 0n, fee_income: 0n, contract_house: 0n };
  for (const code of PLATFORM) {
    const rows = await ledgerOf(t).platformBalances(t.db, { book, platform: code });
    out[code] = rows.find((r) => r.currency === 'USDT')?.availableUnits ?? 0n;
  }
  return out;
}

async function verified() {
  const report = await ledgerOf(t).verify();
  expect(report.ok).toBe(true);
}

const U = (text: string) => {
  const negative = text.startsWith('-');
  const [w = '0', f = ''] = text.replace('-', '').split('.');
  const units = BigInt(w) * 10n ** 8n + BigInt(f.padEnd(8, '0'));
  return negative ? -units : units;
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-contracts-gaps-'));
  const file = path.join(dir, 'ticks.jsonl');
  fs.writeFileSync(file, `${SCRIPT.join('\n')}\n`);
  t = await startTestApp(
    {
      feed: 'replay',
      replayFile: file,
      replayLoop: false,
      feedTickMs: 0,
      staleAfterMs: 3_600_000,
    },
    { now: new Date(S) }, // the script's instants: sessions made now stay valid as ticks advance
  );
  await t.db
    .updateTable('contracts_setting')
    .set({ spread: '0.1', fee_per_lot: '2', liquidation_level: '0.8', margin_topup_max: '500' })
    .where('symbol', '=', PERP)
    .execute();
  await t.db
    .updateTable('contracts_setting')
    .set({ spread: '0.01', fee_per_lot: '2', liquidation_level: '0.8' })
    .where('symbol', '=', ETH)
    .execute();
  await t.db
    .updateTable('contracts_setting')
    .set({ spread: '0.002', fee_per_lot: '5', liquidation_level: '0.8' })
    .where('symbol', '=', 'EUR/JPY')
    .execute();
  admin = (await staffSession(t, ['administrator'])).token;
  await tick(S);
  await step();
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('contracts: the gaps closed', () => {
  it('insurance funding: one rtoken is one payment; another amount or book under it is refused cleanly', async () => {
    const fundIt = (fields: Record<string, string>) =>
      adminCall(t.app, { call: 'contracts/insurance/fund', token: admin, fields });
    const before = await platform('real');
    const first = await fundIt({
      book: 'real',
      amount: '10000',
      reason: 'seed the fund',
      rtoken: 'ins-key-1',
    });
    expect(first.code).toBe(1);
    expect(first.data.balance).toBe('10000');
    const again = await fundIt({
      book: 'real',
      amount: '10000',
      reason: 'seed the fund',
      rtoken: 'ins-key-1',
    });
    expect(again.code).toBe(1);
    expect(again.data.balance).toBe('10000');
    const other = await fundIt({ book: 'real', amount: '5', reason: 'seed the fund', rtoken: 'ins-key-1' });
    expect(other).toMatchObject({ status: 400, reason: 'RTOKEN_REUSED', params: { field: 'rtoken' } });
    const otherBook = await fundIt({ book: 'demo', amount: '10000', reason: 'seed', rtoken: 'ins-key-1' });
    expect(otherBook).toMatchObject({ reason: 'RTOKEN_REUSED', params: { field: 'rtoken' } });
    // twins in flight at once: one payment
    const twins = await Promise.all(
      [1, 2, 3].map(() => fundIt({ book: 'real', amount: '7', reason: 'twins', rtoken: 'ins-key-2' })),
    );
    expect(twins.map((a) => a.code)).toEqual([1, 1, 1]);
    const after = await platform('real');
    expect(after.insurance - before.insurance).toBe(USDT(10_007));
    expect(before.insurance_capital - after.insurance_capital).toBe(USDT(10_007));
    const view = await adminCall(t.app, {
      method: 'GET',
      call: 'contracts/insurance',
      token: admin,
      fields: { book: 'real' },
    });
    expect(view.data.movements.map((m: { amount: string }) => m.amount)).toEqual(['7', '10000']);
    expect(view.data.movements[0].reason).toBe('contract.insurance.fund');
    const audits = await t.db
      .selectFrom('staff_audit')
      .select('action')
      .where('action', '=', 'contract.insurance.fund')
      .execute();
    expect(audits).toHaveLength(2);
    await verified();
  });

  it('settings: audited before/after + reason; each bad value named; new orders only; eu_retail caps leverage', async () => {
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', USDT(20_000), 'contract');
    const kept = await open(c.token, { side: 'buy', lots: '0.1', leverage: '10' });
    expect(kept.data.position).toMatchObject({ open_price: '95000.1', fee: '0.2', liquidation_level: '0.8' });
    const set = (fields: Record<string, unknown>) =>
      adminCall(t.app, {
        call: 'contracts/settings',
        token: admin,
        fields: { symbol: PERP, reason: 'tighter terms', ...fields } as Record<string, string>,
      });
    const changed = await set({ fee_per_lot: '3', max_leverage: 50, liquidation_level: '0.5' });
    expect(changed.code).toBe(1);
    expect(changed.data).toMatchObject({ fee_per_lot: '3', max_leverage: 50, liquidation_level: '0.5' });
    const audit = await t.db
      .selectFrom('staff_audit')
      .selectAll()
      .where('action', '=', 'contract.settings')
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.reason).toBe('tighter terms');
    expect(audit.before).toMatchObject({ fee_per_lot: '2', max_leverage: 100, liquidation_level: '0.8' });
    expect(audit.after).toMatchObject({ fee_per_lot: '3', max_leverage: 50, liquidation_level: '0.5' });
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ spread: '-0.1' }, 'spread'],
      [{ spread: '0.05' }, 'spread'], // off the 0.1 tick
      [{ spread: 'wide' }, 'spread'],
      [{ fee_per_lot: '-1' }, 'fee_per_lot'],
      [{ fee_per_lot: '0.000000001' }, 'fee_per_lot'],
      [{ min_lots: '0.0005' }, 'min_lots'], // off the 0.001 step
      [{ min_lots: '0' }, 'min_lots'],
      [{ max_lots: '0.0001' }, 'max_lots'],
      [{ min_lots: '5', max_lots: '1' }, 'max_lots'],
      [{ liquidation_level: '0' }, 'liquidation_level'],
      [{ liquidation_level: '1.5' }, 'liquidation_level'],
      [{ margin_topup_max: '-5' }, 'margin_topup_max'],
      [{ funding_rate: 'x' }, 'funding_rate'],
      [{ symbol: 'XAU/USD', funding_rate: '0.0001' }, 'funding_rate'], // not a perpetual
      [{ symbol: '0700.HK', max_leverage: 20 }, 'max_leverage'], // above the instrument's 10
    ];
    for (const [fields, field] of bad) {
      const answer = await set(fields);
      expect(answer, JSON.stringify(fields)).toMatchObject({
        reason: 'CONTRACT_SETTING_INVALID',
        params: { field },
      });
    }
    // out of the schema's range: refused before the service, still never a 500
    for (const fields of [{ max_leverage: 101 }, { max_leverage: 0 }, { funding_interval_hours: 0 }]) {
      const answer = await set(fields);
      expect(answer.code, JSON.stringify(fields)).not.toBe(1);
      expect(answer.status).toBeLessThan(500);
    }
    const unchanged = await adminCall(t.app, {
      method: 'GET',
      call: 'contracts/settings',
      token: admin,
      fields: { symbol: PERP },
    });
    expect(unchanged.data.items[0]).toMatchObject({ fee_per_lot: '3', max_leverage: 50, spread: '0.1' });
    // a new order takes the new terms …
    const above = await open(c.token, { side: 'buy', lots: '0.1', leverage: '51' });
    expect(above).toMatchObject({ reason: 'LEVERAGE_INVALID', params: { max: 50 } });
    const fresh = await open(c.token, { side: 'buy', lots: '0.1', leverage: '50' });
    expect(fresh.data.position).toMatchObject({ fee: '0.3', liquidation_level: '0.5' });
    // … the open position keeps its own: closing fee 2 per lot, level 0.8
    const closed = await call(t.app, {
      call: 'closeContract',
      fields: { position_id: kept.data.position.position_id },
      headers: { token: c.token },
    });
    expect(closed.data).toMatchObject({ fee: '0.2', close_price: '94999.9' });
    const row = await t.db
      .selectFrom('contracts_position')
      .selectAll()
      .where('id', '=', kept.data.position.position_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ fee_per_lot: '2', liquidation_level: '0.8' });
    await call(t.app, {
      call: 'closeContract',
      fields: { position_id: fresh.data.position.position_id },
      headers: { token: c.token },
    });
    // the EU retail profile caps crypto at 2x for new orders
    const eu = await adminCall(t.app, {
      call: 'jurisdiction',
      token: admin,
      fields: { profile: 'eu_retail', reason: 'EU retail launch' },
    });
    expect(eu.code).toBe(1);
    const capped = await open(c.token, { side: 'buy', lots: '0.01', leverage: '3' });
    expect(capped).toMatchObject({ reason: 'LEVERAGE_INVALID', params: { max: 2 } });
    const listed = await call(t.app, { method: 'GET', call: 'getContracts', fields: { symbol: PERP } });
    expect(listed.data.items[0].max_leverage).toBe(2);
    const two = await open(c.token, { side: 'sell', lots: '0.01', leverage: '2' });
    expect(two.code).toBe(1);
    await call(t.app, {
      call: 'closeContract',
      fields: { position_id: two.data.position.position_id },
      headers: { token: c.token },
    });
    await adminCall(t.app, {
      call: 'jurisdiction',
      token: admin,
      fields: { profile: 'permissive', reason: 'back' },
    });
    const restored = await set({ fee_per_lot: '2', max_leverage: 100, liquidation_level: '0.8' });
    expect(restored.code).toBe(1);
    await verified();
  });

  it('a demo customer trades the demo book: demo insurance covers, real platform accounts untouched', async () => {
    const real0 = await platform('real');
    const demo0 = await platform('demo');
    expect(demo0.insurance).toBe(USDT(1_000_000)); // the demo seed
    const login = await call(t.app, { method: 'GET', call: 'tempLogin', fields: {} });
    const id = (
      await t.db
        .selectFrom('accounts_customer')
        .select('id')
        .where('uid', '=', login.data.uid)
        .executeTakeFirstOrThrow()
    ).id;
    await ledgerOf(t).transfer(t.db, {
      book: 'demo',
      customerId: id,
      currency: 'USDT',
      fromType: 'spot',
      toType: 'contract',
      amountUnits: USDT(1_000),
      reference: { type: 'test', id: 'demo-contract' },
      idempotencyKey: `test-demo-contract-${id}`,
    });
    await tick(S + 5_000);
    await step();
    const o = await open(login.data.token, { symbol: ETH, side: 'buy', lots: '1', leverage: '100' });
    expect(o.data.position).toMatchObject({
      book: 'demo',
      open_price: '3400.01',
      margin: '34.0001',
      fee: '2',
    });
    expect(o.data.order.book).toBe('demo');
    expect(await balance(id, 'demo')).toEqual({ available: U('963.9999'), frozen: U('34.0001') });
    await tick(S + 6_000);
    await step();
    const closes = await t.db
      .selectFrom('contracts_close')
      .selectAll()
      .where('position_id', '=', o.data.position.position_id)
      .execute();
    // at the mark 3350.00: (3350 − 3400.01) × 1 = −50.01; margin 34.0001, demo insurance 16.0099
    expect(closes.map((c) => [c.book, c.reason, c.pnl_units, c.insurance_covered_units])).toEqual([
      ['demo', 'liquidation', U('-50.01').toString(), U('16.0099').toString()],
    ]);
    const demo1 = await platform('demo');
    expect(demo0.insurance - demo1.insurance).toBe(U('16.0099'));
    expect(demo1.fee_income - demo0.fee_income).toBe(U('2'));
    expect(demo1.contract_house - demo0.contract_house).toBe(U('50.01'));
    expect(await platform('real')).toEqual(real0);
    expect(await balance(id, 'demo')).toEqual({ available: U('963.9999'), frozen: 0n });
    // the real book shows the demo customer nothing, and the demo history shows the liquidation
    const history = await call(t.app, {
      method: 'GET',
      call: 'getContractHistory',
      fields: {},
      headers: { token: login.data.token },
    });
    expect(history.data.items[0]).toMatchObject({ book: 'demo', status: 'liquidated' });
    await verified();
  });

  it(`close racing the liquidating engine round, ×${RACES}: exactly one wins each time`, async () => {
    const r = await ratedCustomer(t);
    await fund(t, r.id, 'USDT', USDT(1_000), 'contract');
    const tally = { user: 0, liquidation: 0 };
    for (let k = 0; k < RACES; k++) {
      await tick(S + 10_000 + k * 2_000);
      await step();
      const o = await open(r.token, { symbol: ETH, side: 'buy', lots: '0.1', leverage: '100' });
      expect(o.code).toBe(1);
      const id = o.data.position.position_id;
      await tick(S + 11_000 + k * 2_000);
      // The engine's start is staggered by 0–12 ms so both orders of arrival occur across the runs.
      const [closed] = await Promise.all([
        call(t.app, { call: 'closeContract', fields: { position_id: id }, headers: { token: r.token } }),
        new Promise((resolve) => setTimeout(resolve, (k % 5) * 3)).then(step),
      ]);
      const rows = await t.db
        .selectFrom('contracts_close')
        .selectAll()
        .where('position_id', '=', id)
        .execute();
      expect(rows).toHaveLength(1);
      const winner = rows[0]?.reason as 'user' | 'liquidation';
      tally[winner] += 1;
      if (winner === 'user') expect(closed.code).toBe(1);
      else expect(closed).toMatchObject({ reason: 'POSITION_NOT_OPEN', params: { status: 'liquidated' } });
      const p = await t.db
        .selectFrom('contracts_position')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(p.status).toBe(winner === 'user' ? 'closed' : 'liquidated');
      expect(p.margin_units).toBe('0');
      const entries = await t.db
        .selectFrom('ledger_entry')
        .select('reason')
        .where('reference_id', '=', id)
        .where('reason', 'in', ['contract.close', 'contract.liquidation'])
        .execute();
      expect(entries).toHaveLength(1);
      await verified();
    }
    expect(tally.user + tally.liquidation).toBe(RACES);
    expect((await balance(r.id)).frozen).toBe(0n);
    console.info(`close vs liquidation: ${JSON.stringify(tally)}`);
  });

  it('funding across an engine outage: each missed funding time charged once, at its own recorded mark', async () => {
    await tick(S + 60_000);
    await step();
    const f = await ratedCustomer(t);
    await fund(t, f.id, 'USDT', USDT(20_000), 'contract');
    const o = await open(f.token, { side: 'buy', lots: '1', leverage: '10' });
    const id = o.data.position.position_id;
    expect(o.data.position).toMatchObject({ open_price: '95000.1', margin: '9500.01' });
    // the engine is down from here to 16:00:01: 08:00 and 16:00 pass unprocessed
    await tick(at('2026-11-21T16:00:01Z'));
    await step();
    await step();
    await step();
    const rows = await t.db
      .selectFrom('contracts_funding')
      .selectAll()
      .where('position_id', '=', id)
      .orderBy('funding_at')
      .execute();
    // at 08:00 the mark of record is the tick AT 08:00:00 (96500.0); at 16:00 the one at 15:59:59 (97500.0)
    expect(rows.map((r) => [r.funding_at.toISOString(), r.mark_price, r.amount_units])).toEqual([
      ['2026-11-21T08:00:00.000Z', '96500.0', U('-9.65').toString()],
      ['2026-11-21T16:00:00.000Z', '97500.0', U('-9.75').toString()],
    ]);
    const entries = await t.db
      .selectFrom('ledger_entry')
      .select('id')
      .where('reference_id', '=', id)
      .where('reason', '=', 'contract.funding')
      .execute();
    expect(entries).toHaveLength(2);
    const p = await t.db
      .selectFrom('contracts_position')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(p.margin_units).toBe((U('9500.01') - U('19.4')).toString());
    expect(p.funding_units).toBe(U('-19.4').toString());
    expect(await balance(f.id)).toEqual({ available: U('10497.99'), frozen: U('9480.61') });
    await call(t.app, { call: 'closeContract', fields: { position_id: id }, headers: { token: f.token } });
    await verified();
  });

  it('a non-USD quote: EUR/JPY valued through USD/JPY at the recorded rates, to the unit', async () => {
    await tick(MON);
    await step();
    const j = await ratedCustomer(t);
    await fund(t, j.id, 'USDT', USDT(5_000), 'contract');
    const listed = await call(t.app, { method: 'GET', call: 'getContracts', fields: { symbol: 'EUR/JPY' } });
    expect(listed.data.items[0]).toMatchObject({ quote: 'JPY', open: true, conversion: { via: 'USD/JPY' } });
    const o = await open(j.token, { symbol: 'EUR/JPY', side: 'buy', lots: '0.1', leverage: '10' });
    expect(o.code).toBe(1);
    // 163.004 × 0.1 × 100,000 = 1,630,040 JPY × (1 / 150.001 → 0.006666622223) ÷ 10, rounded up
    expect(o.data.position).toMatchObject({ open_price: '163.004', margin: '1086.68608884', fee: '0.5' });
    const row = await t.db
      .selectFrom('contracts_position')
      .select('open_rate')
      .where('id', '=', o.data.position.position_id)
      .executeTakeFirstOrThrow();
    expect(row.open_rate).toBe('0.006666622223');
    expect(await balance(j.id)).toEqual({ available: U('3912.81391116'), frozen: U('1086.68608884') });
    await tick(MON + 10_000);
    const c = await call(t.app, {
      call: 'closeContract',
      fields: { position_id: o.data.position.position_id },
      headers: { token: j.token },
    });
    // closes at 164.000 − 0.002 = 163.998: 994 ticks × 0.1 × 100,000 = 9,940 JPY × 0.006622472699 (1 / 151.001), floored
    expect(c.data).toMatchObject({ close_price: '163.998', pnl: '65.82737862', fee: '0.5' });
    const close = await t.db
      .selectFrom('contracts_close')
      .select('rate')
      .where('id', '=', c.data.close_id)
      .executeTakeFirstOrThrow();
    expect(close.rate).toBe('0.006622472699');
    expect(await balance(j.id)).toEqual({ available: U('5064.82737862'), frozen: 0n });
    await verified();
  });
});
