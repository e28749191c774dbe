import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, exportCsv as exportCsvOf, startTestApp, type TestApp } from '../../../test/harness.ts';
import { fund, USDT } from '../assets/testing.ts';
import { ratedCustomer } from '../suitability/testing.ts';

/** A two-tick replay feed: a position opened on the first tick is closed in two parts on the second. */
const START = Date.parse('2026-11-21T04:00:00Z');
const PERP = 'BTC/USDT-PERP';
const line = (ms: number, price: string) =>
  JSON.stringify({ time: ms, symbol: PERP, price, bid: price, ask: price, mark: price });

let t: TestApp;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-contracts-export-'));
  const file = path.join(dir, 'ticks.jsonl');
  fs.writeFileSync(file, `${[line(START, '95000.0'), line(START + 1_000, '95500.0')].join('\n')}\n`);
  t = await startTestApp(
    { feed: 'replay', replayFile: file, replayLoop: false, feedTickMs: 0, staleAfterMs: 60_000 },
    { now: new Date(START) },
  );
  await t.db
    .updateTable('contracts_setting')
    .set({ spread: '0.1', fee_per_lot: '2' })
    .where('symbol', '=', PERP)
    .execute();
  await step(START);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function step(toMs: number) {
  t.clock.set(new Date(toMs));
  await t.app.market.step();
  await t.app.market.flushRecorder();
}

async function post(token: string, name: string, fields: Record<string, string>) {
  const answer = await call(t.app, { call: name, fields, headers: { token } });
  expect(answer.code, JSON.stringify(answer)).toBe(1);
  return answer.data;
}

async function list(token: string, name: string, fields: Record<string, string> = {}) {
  return (await call(t.app, { method: 'GET', call: name, fields, headers: { token } })).data;
}

const exportCsv = (token: string | undefined, query: Record<string, string>) =>
  exportCsvOf(t.app, 'exportContractRecords', token, query);

describe('web/exportContractRecords', () => {
  it('exports each contract list with its filters: localized header and labels, rows = the list total', async () => {
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', USDT(5000), 'contract');
    const opened = await post(c.token, 'openContract', {
      symbol: PERP,
      side: 'buy',
      lots: '0.1',
      leverage: '10',
      tp_price: '99000',
    });
    const positionId: string = opened.position.position_id;
    const limit = await post(c.token, 'openContract', {
      symbol: PERP,
      side: 'sell',
      type: 'limit',
      price: '99000',
      lots: '0.01',
      leverage: '20',
    });
    await step(START + 1_000);
    await post(c.token, 'closeContract', { position_id: positionId, lots: '0.04' });
    await post(c.token, 'closeContract', { position_id: positionId });

    const history = await list(c.token, 'getContractHistory', { status: 'closed' });
    expect(history.total).toBe(1);
    const zh = await exportCsv(c.token, { list: 'history', status: 'closed', lang: 'zh' });
    expect(zh.response.statusCode).toBe(200);
    expect(zh.response.headers['content-type']).toMatch(/^text\/csv/);
    expect(zh.response.headers['content-disposition']).toBe('attachment; filename="contracts-history.csv"');
    expect(zh.response.headers['cache-control']).toBe('no-store');
    expect(zh.lines[0]).toBe(
      '编号,平仓时间,合约,方向,杠杆,手数,开仓价,平仓价,价格来源,手续费,资金费,已实现盈亏,状态,原因',
    );
    expect(zh.lines).toHaveLength(history.total + 1);
    const p = history.items[0];
    expect(zh.lines[1]).toBe(
      [
        positionId,
        new Date(p.closed_at).toISOString(),
        PERP,
        '多',
        '10',
        p.opened_lots,
        p.open_price,
        p.close_price,
        '回放行情',
        p.fee,
        p.funding,
        p.realized_pnl,
        '已平仓',
        '由您平仓',
      ].join(','),
    );

    const closes = await list(c.token, 'getContractCloses', { position_id: positionId });
    expect(closes.total).toBe(2);
    const ft = await exportCsv(c.token, { list: 'closes', position_id: positionId, lang: 'ft' });
    expect(ft.lines[0]).toBe(
      '編號,倉位編號,時間,合約,方向,手數,開倉價,平倉價,價格來源,盈虧,手續費,釋放,保險賬戶承擔,原因',
    );
    expect(ft.lines).toHaveLength(closes.total + 1);
    expect(ft.lines.slice(1).map((l) => l.split(',')[0])).toEqual(
      closes.items.map((x: { close_id: string }) => x.close_id),
    );

    const pending = await list(c.token, 'getContractOrders');
    expect(pending.total).toBe(1);
    const en = await exportCsv(c.token, { list: 'orders' });
    expect(en.lines[0]).toBe(
      'ID,Time,Contract,Side,Leverage,Type,Price,Lots,Take profit,Stop loss,Held,Status,Reason',
    );
    expect(en.lines).toHaveLength(2);
    expect(en.lines[1]).toMatch(
      new RegExp(
        `^${limit.order.order_id},[^,]+,BTC/USDT-PERP,Short,20,Limit,99000(\\.0)?,0\\.01,,,[0-9.]+,Pending,$`,
      ),
    );
    const filled = await exportCsv(c.token, { list: 'orders', status: 'filled', lang: 'zh' });
    expect(filled.lines).toHaveLength(
      (await list(c.token, 'getContractOrders', { status: 'filled' })).total + 1,
    );

    const funding = await exportCsv(c.token, { list: 'funding', lang: 'zh' });
    expect(funding.lines).toEqual(['编号,仓位编号,时间,合约,方向,费率,标记价,金额']);
  });

  it('refuses a filter or status the list does not take, with a localized message; needs a session', async () => {
    const c = await ratedCustomer(t);
    const status = await exportCsv(c.token, { list: 'orders', status: 'closed', lang: 'zh' });
    expect(status.response.statusCode).toBeLessThan(500);
    expect(status.response.json()).toMatchObject({ reason: 'BAD_INPUT', params: { field: 'status' } });
    expect(status.response.json().msg).toMatch(/无效/);
    const time = await exportCsv(c.token, { list: 'closes', start_time: '1' });
    expect(time.response.json()).toMatchObject({ reason: 'BAD_INPUT', params: { field: 'start_time' } });
    const range = await exportCsv(c.token, { list: 'history', start_time: '2000', end_time: '1000' });
    expect(range.response.json().reason).toBe('DATE_RANGE_INVALID');
    const anonymous = await exportCsv(undefined, { list: 'history' });
    expect(anonymous.response.json().reason).toBe('LOGIN_REQUIRED');
  });
});
