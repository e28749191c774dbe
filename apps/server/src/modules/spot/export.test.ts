import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, exportCsv as exportCsvOf, startTestApp, type TestApp } from '../../../test/harness.ts';
import { customer, fund, USDT } from '../assets/testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
  await t.app.market.step();
});
afterAll(async () => t?.close());

const BTC = (n: number) => BigInt(Math.round(n * 1e8));

async function order(token: string, fields: Record<string, string>) {
  const answer = await call(t.app, {
    call: 'createOrder',
    fields: { symbol: 'BTC/USDT', ...fields },
    headers: { token },
  });
  expect(answer.code, JSON.stringify(answer)).toBe(1);
  return answer.data as { order_id: string };
}

const exportCsv = (token: string | undefined, query: Record<string, string>) =>
  exportCsvOf(t.app, 'exportSpotRecords', token, query);

describe('web/exportSpotRecords', () => {
  it('exports each spot list with its filters: localized header and labels, rows = the list total', async () => {
    const seller = await customer(t);
    const buyer = await customer(t);
    await fund(t, seller.id, 'BTC', BTC(1));
    await fund(t, buyer.id, 'USDT', USDT(10_000));
    await order(seller.token, { side: 'sell', price: '50000', quantity: '0.1' });
    await order(buyer.token, { side: 'buy', price: '50000', quantity: '0.04' });
    await order(buyer.token, { side: 'buy', type: 'market', quantity: '0.01' });
    const cancelled = await order(buyer.token, { side: 'buy', price: '100', quantity: '0.1' });
    await call(t.app, {
      call: 'cancelOrder',
      fields: { order_id: cancelled.order_id },
      headers: { token: buyer.token },
    });
    await order(buyer.token, { side: 'buy', price: '101.5', quantity: '0.1' });

    const history = await call(t.app, {
      method: 'GET',
      call: 'getHistoryOrders',
      fields: { side: 'buy' },
      headers: { token: buyer.token },
    });
    expect(history.data.total).toBe(3);
    const zh = await exportCsv(buyer.token, { list: 'history', side: 'buy', lang: 'zh' });
    expect(zh.response.statusCode).toBe(200);
    expect(zh.response.headers['content-type']).toMatch(/^text\/csv/);
    expect(zh.response.headers['content-disposition']).toBe('attachment; filename="spot-history.csv"');
    expect(zh.response.headers['cache-control']).toBe('no-store');
    expect(zh.response.body.startsWith('\uFEFF')).toBe(true);
    expect(zh.lines[0]).toBe('订单号,时间,交易对,方向,类型,价格,成交均价,数量,已成交,手续费,手续费币种,状态');
    expect(zh.lines).toHaveLength(history.data.total + 1);
    // Labels in Chinese, amounts as the API's decimal strings.
    const at = new Date(history.data.items[0].created_at).toISOString();
    expect(zh.lines).toContain(`${cancelled.order_id},${at},BTC/USDT,买入,限价,100,,0.1,0,0,USDT,已撤销`);
    // The same rows as the list, in its order (orders placed at the same instant: by id).
    expect(zh.lines.slice(1).map((l) => l.split(',')[0])).toEqual(
      history.data.items.map((o: { order_id: string }) => o.order_id),
    );
    expect(zh.lines.some((l) => l.endsWith(',买入,市价,市价,50000,0.01,0.01,1,USDT,已成交'))).toBe(true);
    expect(zh.lines.some((l) => l.endsWith(',买入,限价,50000,50000,0.04,0.04,4,USDT,已成交'))).toBe(true);

    const ft = await exportCsv(buyer.token, { list: 'history', status: 'cancelled', lang: 'ft' });
    expect(ft.lines[0]).toBe('訂單號,時間,交易對,方向,類型,價格,成交均價,數量,已成交,手續費,手續費幣種,狀態');
    expect(ft.lines).toHaveLength(2);

    const en = await exportCsv(buyer.token, { list: 'open' });
    expect(en.lines[0]).toBe(
      'Order ID,Time,Market,Side,Type,Price,Average price,Quantity,Filled,Fee,Fee currency,Status',
    );
    expect(en.lines).toHaveLength(2);
    expect(en.lines[1]).toMatch(/,BTC\/USDT,Buy,Limit,101\.5,,0\.1,0,0,USDT,/);

    const fills = await call(t.app, {
      method: 'GET',
      call: 'getMyTrades',
      fields: { symbol: 'BTC/USDT' },
      headers: { token: seller.token },
    });
    expect(fills.data.total).toBe(2);
    const sellerFills = await exportCsv(seller.token, { list: 'fills', symbol: 'BTC/USDT', lang: 'zh' });
    expect(sellerFills.lines[0]).toBe(
      '成交编号,订单号,时间,交易对,方向,角色,价格,数量,成交额,手续费,手续费币种',
    );
    expect(sellerFills.lines).toHaveLength(fills.data.total + 1);
    expect(sellerFills.lines[1]).toContain(
      `${fills.data.items[0].trade_id},${fills.data.items[0].order_id},`,
    );
    // Both fills carry the same clock instant, so which one is listed first is not part of the story.
    expect(
      sellerFills.lines.slice(1).filter((l) => /,BTC\/USDT,卖出,挂单方,50000,0\.01,500,0\.5,USDT$/.test(l)),
    ).toHaveLength(1);
    // A filter that matches nothing: the header alone.
    const none = await exportCsv(seller.token, { list: 'fills', symbol: 'ETH/USDT', lang: 'zh' });
    expect(none.lines).toHaveLength(1);
  });

  it('every record export is in the OpenAPI document with its query', async () => {
    const docs = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, { get?: { parameters?: Array<{ name: string }> } }>;
    };
    const params = (path: string) => (docs.paths[path]?.get?.parameters ?? []).map((p) => p.name);
    expect(params('/api/web/exportRecords')).toContain('kind');
    expect(params('/api/web/exportSpotRecords')).toEqual(expect.arrayContaining(['list', 'symbol', 'side']));
    expect(params('/api/web/exportContractRecords')).toEqual(expect.arrayContaining(['list', 'position_id']));
    expect(params('/api/web/exportOptionRecords')).toEqual(expect.arrayContaining(['symbol', 'status']));
    expect(params('/api/web/exportWithdrawList')).toContain('method');
  });

  it('refuses a filter the list does not take, with a localized message; needs a session', async () => {
    const c = await customer(t);
    const bad = await exportCsv(c.token, { list: 'fills', side: 'buy', lang: 'zh' });
    expect(bad.response.statusCode).toBeLessThan(500);
    const body = bad.response.json();
    expect(body.reason).toBe('BAD_INPUT');
    expect(body.msg).toMatch(/无效/);
    const open = await exportCsv(c.token, { list: 'open', start_time: '1' });
    expect(open.response.json().reason).toBe('BAD_INPUT');
    const range = await exportCsv(c.token, {
      list: 'history',
      start_time: '2000',
      end_time: '1000',
      lang: 'zh',
    });
    expect(range.response.json().reason).toBe('DATE_RANGE_INVALID');
    const anonymous = await exportCsv(undefined, { list: 'history' });
    expect(anonymous.response.json().reason).toBe('LOGIN_REQUIRED');
    expect(anonymous.response.headers['content-type']).not.toMatch(/csv/);
  });
});
