import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  exportCsv as exportCsvOf,
  startTestApp,
  type TestApp,
  testNow,
} from '../../../test/harness.ts';
import { fund, USDT } from '../assets/testing.ts';
import { ratedCustomer } from '../suitability/testing.ts';
import { engineDriver } from './testing.ts';

/** A scripted BTC feed: options bought at 0 s expire at 30 s on a higher price. */
const START = testNow().getTime();
const S = (seconds: number) => START + seconds * 1_000;
const tick = (s: number, price: string) =>
  JSON.stringify({ time: S(s), symbol: 'BTC/USDT', price, bid: price, ask: price });

let t: TestApp;
let dir: string;
let driver: Awaited<ReturnType<typeof engineDriver>>;

async function to(seconds: number) {
  t.clock.set(new Date(S(seconds)));
  await t.app.market.step();
  await driver.round();
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-options-export-'));
  const file = path.join(dir, 'ticks.jsonl');
  fs.writeFileSync(file, [tick(0, '100000.00'), tick(30, '100100.00'), tick(31, '100200.00')].join('\n'));
  t = await startTestApp({ feed: 'replay', replayFile: file, replayLoop: false, feedTickMs: 0 });
  driver = await engineDriver(t, t.app.optionsService.consumer);
  await to(0);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function buy(token: string, fields: Record<string, string>) {
  const answer = await call(t.app, {
    call: 'buyOption',
    fields: { symbol: 'BTC/USDT', direction: 'up', stake: '100', duration: '30', ...fields },
    headers: { token },
  });
  expect(answer.code, JSON.stringify(answer)).toBe(1);
  return answer.data as { order_id: string };
}

const exportCsv = (token: string | undefined, query: Record<string, string>) =>
  exportCsvOf(t.app, 'exportOptionRecords', token, query);

describe('web/exportOptionRecords', () => {
  it("exports the customer's options with the list's filters: localized header and labels", async () => {
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', USDT(1000), 'options');
    const won = await buy(c.token, {});
    const lost = await buy(c.token, { direction: 'down', stake: '50.5' });
    await to(31);
    const open = await buy(c.token, { duration: '60' });

    const settled = await call(t.app, {
      method: 'GET',
      call: 'getOptionOrders',
      fields: { status: 'settled' },
      headers: { token: c.token },
    });
    expect(settled.data.total).toBe(2);
    const zh = await exportCsv(c.token, { status: 'settled', lang: 'zh' });
    expect(zh.response.statusCode).toBe(200);
    expect(zh.response.headers['content-type']).toMatch(/^text\/csv/);
    expect(zh.response.headers['content-disposition']).toBe('attachment; filename="options.csv"');
    expect(zh.response.headers['cache-control']).toBe('no-store');
    expect(zh.lines[0]).toBe(
      '订单号,开仓时间,品种,方向,投资金额,币种,期限,收益率,开仓价格,开仓价来源,结算价格,结算价来源,结果,返还金额,收益,结算时间,到期时间',
    );
    expect(zh.lines).toHaveLength(settled.data.total + 1);
    const byId = new Map(zh.lines.slice(1).map((l) => [l.split(',')[0], l]));
    const w = settled.data.items.find((o: { order_id: string }) => o.order_id === won.order_id);
    expect(byId.get(won.order_id)).toBe(
      [
        won.order_id,
        new Date(S(0)).toISOString(),
        'BTC/USDT',
        '看涨',
        '100',
        'USDT',
        '30秒',
        w.payout_rate,
        '100000.00',
        '历史回放行情',
        '100100.00',
        '历史回放行情',
        '盈利',
        w.payout,
        w.profit,
        new Date(S(31)).toISOString(),
        new Date(S(30)).toISOString(),
      ].join(','),
    );
    expect(byId.get(lost.order_id)).toMatch(/,看跌,50\.5,USDT,30秒,.*,亏损,0,-50\.5,/);

    const en = await exportCsv(c.token, { status: 'open' });
    expect(en.lines[0]).toMatch(/^ID,Opened,Instrument,Direction,Investment,Currency,Duration,Profit rate,/);
    expect(en.lines).toHaveLength(2);
    expect(en.lines[1]).toMatch(new RegExp(`^${open.order_id},.*,Up,100,USDT,1\\u00a0min,.*,Open,,,,`));
    const all = await exportCsv(c.token, { lang: 'ft' });
    expect(all.lines).toHaveLength(4);
    expect(all.lines[0]).toMatch(/^訂單號,/);
  });

  it('refuses a bad filter with a localized message; needs a session', async () => {
    const c = await ratedCustomer(t);
    const range = await exportCsv(c.token, { start_time: '2000', end_time: '1000', lang: 'zh' });
    expect(range.response.statusCode).toBeLessThan(500);
    expect(range.response.json().reason).toBe('DATE_RANGE_INVALID');
    expect(range.response.json().msg).not.toMatch(/[A-Za-z]{4}/);
    const paged = await exportCsv(c.token, { page: '2' });
    expect(paged.response.statusCode).toBeLessThan(500);
    expect(paged.response.headers['content-type']).not.toMatch(/csv/);
    const anonymous = await exportCsv(undefined, {});
    expect(anonymous.response.json().reason).toBe('LOGIN_REQUIRED');
  });
});
