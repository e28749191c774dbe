import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { customer, fund, ledgerOf, USDT } from '../assets/testing.ts';
import { adminCall, staffSession } from '../staff/testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0, marketMaker: 'on' });
  await t.app.market.step();
  await t.app.marketMaker.refreshNow();
});
afterAll(async () => t?.close());

describe('market maker', () => {
  it('quotes several levels on both books after start, from ledger-funded ordinary accounts', async () => {
    const real = await call(t.app, { method: 'GET', call: 'getDepth', fields: { symbol: 'BTC/USDT' } });
    expect(real.data.bids).toHaveLength(5);
    expect(real.data.asks).toHaveLength(5);
    const bestBid = Number(real.data.bids[0][0]);
    const bestAsk = Number(real.data.asks[0][0]);
    const mark = Number(t.app.market.ticker('BTC/USDT').mark);
    expect(bestBid).toBeLessThan(mark);
    expect(bestAsk).toBeGreaterThan(mark);
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin', fields: {} });
    const demoDepth = await call(t.app, {
      method: 'GET',
      call: 'getDepth',
      fields: { symbol: 'BTC/USDT' },
      headers: { token: demo.data.token },
    });
    expect(demoDepth.data.book).toBe('demo');
    expect(demoDepth.data.bids).toHaveLength(5);
    const capital = await t.db
      .selectFrom('ledger_entry')
      .select(['reason', 'book'])
      .where('reason', '=', 'spot.mm.capital')
      .execute();
    expect(capital.some((e) => e.book === 'real')).toBe(true);
    expect(capital.some((e) => e.book === 'demo')).toBe(true);
    const view = t.app.marketMaker.view ? await t.app.marketMaker.view() : null;
    expect(view?.open_orders.real).toBeGreaterThan(0);
    expect((await ledgerOf(t).verify()).ok).toBe(true);
    expect(await t.app.spot.checkFrozen()).toEqual([]);
  });

  it('a customer market order fills against it (demo and real)', async () => {
    const c = await customer(t);
    await fund(t, c.id, 'USDT', USDT(10_000));
    const answer = await call(t.app, {
      call: 'createOrder',
      fields: { symbol: 'BTC/USDT', side: 'buy', type: 'market', quantity: '0.001' },
      headers: { token: c.token },
    });
    expect(answer.data.status).toBe('filled');
    expect(answer.data.frozen).toBe('0');
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin', fields: {} });
    const d = await call(t.app, {
      call: 'createOrder',
      fields: { symbol: 'BTC/USDT', side: 'buy', type: 'market', quantity: '0.001' },
      headers: { token: demo.data.token },
    });
    expect(d.data).toMatchObject({ status: 'filled', book: 'demo' });
    expect((await ledgerOf(t).verify()).ok).toBe(true);
    expect(await t.app.spot.checkFrozen()).toEqual([]);
  });

  it('the operator turns it off (audited): its quotes are cancelled', async () => {
    const staff = await staffSession(t, ['administrator']);
    const off = await adminCall(t.app, {
      call: 'marketMakerSettings',
      token: staff.token,
      fields: { enabled: '0', reason: 'test stop' },
    });
    expect(off.data.settings.enabled).toBe(false);
    expect(off.data.open_orders).toEqual({ real: 0, demo: 0 });
    const depth = await call(t.app, { method: 'GET', call: 'getDepth', fields: { symbol: 'BTC/USDT' } });
    expect(depth.data.bids).toHaveLength(0);
    const audits = await t.db
      .selectFrom('staff_audit')
      .select('action')
      .where('action', '=', 'spot.market_maker.update')
      .execute();
    expect(audits).toHaveLength(1);
    expect(await t.app.spot.checkFrozen()).toEqual([]);
  });
});
