import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { type Customer, fund, ledgerOf, USDT } from '../assets/testing.ts';
import { adminCall, type StaffLogin, staffSession } from '../staff/testing.ts';
import { ratedCustomer } from '../suitability/testing.ts';
import { verifiedPrimary } from '../verification/testing.ts';
import { refPriceOnGrid } from './listing.ts';
import { DAY, HOUR, projectBody } from './testing.ts';

/**
 * A listed coin's spot market: staff open it on or after the listing date, once; the instrument is
 * priced by its own book only — no price before its first trade (market orders refuse, limit orders
 * trade), then the last trade is the price (source `book`), re-confirmed while the book is quiet.
 */

let t: TestApp;
let admin: StaffLogin;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0, marketMaker: 'on' });
  t.app.marketMaker.stop(); // no wall-clock timer: the test drives every round
  await t.app.market.step();
  admin = await staffSession(t, ['administrator']);
}, 120_000);
afterAll(async () => t?.close());

const post = (path: string, body: object) =>
  adminCall(t.app, { call: path, token: admin.token, fields: body as Record<string, string> });

const MARKET = {
  price_tick: '0.0001',
  lot_size: '0.01',
  min_quantity: '0.01',
  min_notional: '1',
  max_notional: '1000000',
  maker_fee_rate: '0.001',
  taker_fee_rate: '0.002',
  price_band_bps: '2000',
  reason: 'listing day',
};

async function verifiedCustomer(usdt: number): Promise<Customer> {
  const c = await ratedCustomer(t, 'balanced');
  await verifiedPrimary(t, c.token, (await staffSession(t, ['compliance'])).token);
  await fund(t, c.id, 'USDT', USDT(usdt));
  return c;
}

const order = (c: Customer, fields: Record<string, string>) =>
  call(t.app, { call: 'createOrder', fields, headers: { token: c.token } });

describe("a listed coin's spot market", () => {
  it('opens once on the listing date; its first price is its first trade on its own book', async () => {
    const created = await post(
      'launchpad/projects',
      projectBody(t.clock.now().getTime(), { price: '0.05', lockup_days: 0, per_customer_cap: '1000' }),
    );
    expect(created.code, created.msg).toBe(1);
    const id = created.data.project_id as string;
    const coin = created.data.coin as string;
    const symbol = `${coin}/USDT`;
    expect(
      (await post(`launchpad/projects/${id}/action`, { action: 'announce', reason: 'announce now' })).code,
    ).toBe(1);
    const [seller, buyer] = [await verifiedCustomer(1000), await verifiedCustomer(1000)];
    t.clock.advance(HOUR);
    await t.app.launchpad.job.runOnce();
    const s = await call(t.app, {
      call: 'subscribe',
      fields: { project_id: id, quantity: '500', accept_terms: '1' },
      headers: { token: seller.token },
    });
    expect(s.code, s.msg).toBe(1);
    t.clock.advance(DAY);
    await t.app.launchpad.job.runOnce();
    admin = await staffSession(t, ['administrator']);

    // Distributed, but the listing date is a day away: refused by name, nothing created.
    const early = await post(`launchpad/projects/${id}/market`, MARKET);
    expect(early.reason).toBe('LAUNCHPAD_ACTION_REFUSED');
    expect(t.app.spot.markets(symbol)).toEqual([]);

    t.clock.advance(DAY);
    await t.app.launchpad.job.runOnce(); // no lock-up: released at listing
    admin = await staffSession(t, ['administrator']);
    const bad = await post(`launchpad/projects/${id}/market`, { ...MARKET, price_tick: '-1' });
    expect(bad.reason).toBe('INSTRUMENT_INVALID');
    const opened = await post(`launchpad/projects/${id}/market`, MARKET);
    expect(opened.code, opened.msg).toBe(1);
    expect(opened.data).toMatchObject({ market_symbol: symbol, state: 'distributed' });
    const again = await post(`launchpad/projects/${id}/market`, MARKET);
    expect(again.reason).toBe('LAUNCHPAD_MARKET_OPEN');

    const instrument = t.app.market.instrument(symbol);
    expect(instrument).toMatchObject({ feedSymbol: 'book', assetClass: 'crypto_spot', base: coin });
    expect(t.app.spot.markets(symbol)[0]).toMatchObject({ status: 'enabled', price_tick: '0.0001' });
    // The customer's project page links the market.
    const info = await call(t.app, {
      method: 'GET',
      call: 'getSubscriptionInfo',
      fields: { project_id: id },
    });
    expect(info.data.project).toMatchObject({ market_symbol: symbol });

    // No price before a trade: the sim never prices it and a market order is refused.
    await t.app.market.step();
    expect(() => t.app.market.priceForTrading(symbol)).toThrow();
    const early2 = await order(buyer, { symbol, side: 'buy', type: 'market', quantity: '1' });
    expect(early2.reason).toBe('PRICE_NO_TRADE_YET');

    // Limit orders make the first trade; the next feed step makes it the price.
    const ask = await order(seller, { symbol, side: 'sell', price: '0.08', quantity: '100' });
    expect(ask.code, ask.msg).toBe(1);
    const bid = await order(buyer, { symbol, side: 'buy', price: '0.07', quantity: '50' });
    expect(bid.code, bid.msg).toBe(1);
    const take = await order(buyer, { symbol, side: 'buy', price: '0.08', quantity: '40' });
    expect(take.code, take.msg).toBe(1);
    expect(take.data.status).toBe('filled');
    await t.app.market.step();
    const price = t.app.market.priceForTrading(symbol);
    expect(price).toMatchObject({
      last: '0.0800',
      mark: '0.0800',
      bid: '0.0700',
      ask: '0.0800',
      source: 'book',
    });
    const tickers = await call(t.app, { method: 'GET', call: 'getTickers', fields: { symbols: symbol } });
    expect(tickers.data.items[0]).toMatchObject({
      symbol,
      last: '0.0800',
      volume_24h: '40',
      turnover_24h: '3.2',
      source: 'book',
    });

    // A market order now uses that price as its band's reference.
    const mkt = await order(buyer, { symbol, side: 'buy', type: 'market', quantity: '20' });
    expect(mkt.code, mkt.msg).toBe(1);
    expect(mkt.data.status).toBe('filled');
    await t.app.market.step();
    expect(t.app.market.priceForTrading(symbol).last).toBe('0.0800');

    // A quiet book keeps its last price live (re-confirmed with the current quote), never a made-up one.
    t.clock.advance(20_000);
    await t.app.market.step();
    expect(t.app.market.priceForTrading(symbol)).toMatchObject({
      last: '0.0800',
      bid: '0.0700',
      ask: '0.0800',
    });

    // The market maker quotes the other markets, never this one: its book holds only customers' orders.
    await t.app.marketMaker.refreshNow();
    const quoted = t.app.marketMaker.health().markets.map((m) => m.symbol);
    expect(quoted).toContain('BTC/USDT');
    expect(quoted).not.toContain(symbol);
    const depth = await call(t.app, { method: 'GET', call: 'getDepth', fields: { symbol } });
    expect(depth.data).toMatchObject({ bids: [['0.07', '50']], asks: [['0.08', '40']] });
    const audit = await t.db
      .selectFrom('staff_audit')
      .select(['action'])
      .where('target_id', 'in', [id, symbol])
      .orderBy('seq')
      .execute();
    expect(audit.map((r) => r.action)).toEqual([
      'launchpad.project.create',
      'launchpad.project.announce',
      'spot.market.create',
      'launchpad.project.open_market',
    ]);
    expect((await ledgerOf(t).verify()).ok).toBe(true);
  });

  it('the reference price is the issue price on the tick grid', () => {
    expect(refPriceOnGrid(50_000n, 6, '0.0001')).toBe('0.05');
    expect(refPriceOnGrid(123_456n, 6, '0.01')).toBe('0.12');
    expect(refPriceOnGrid(125_000n, 6, '0.01')).toBe('0.13');
    expect(refPriceOnGrid(1n, 6, '0.01')).toBe('0.01');
    expect(refPriceOnGrid(5_000_000n, 6, '1')).toBe('5');
  });
});
