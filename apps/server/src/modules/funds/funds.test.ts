import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp, testNow } from '../../../test/harness.ts';
import { Refusal } from '../../http/refusal.ts';
import { customer, customerSnapshot, fund, ledgerOf, USDT } from '../assets/testing.ts';
import { adminCall, staffSession } from '../staff/testing.ts';
import { ratedCustomer } from '../suitability/testing.ts';
import type { FundsSpot } from './context.ts';
import { process } from './orders.ts';
import { usdt, worthOf } from './plan.ts';
import { startRebalance } from './rebalance.ts';
import { createFunds } from './service.ts';

/**
 * ETF orders on a scripted feed (FEED=replay through the real market engine and recorder) with the
 * real spot books and market maker: buy, value, NAV history, rebalance after a recorded move,
 * redeem, exactly-once on retries and after a crash, refusals that change nothing. The clock is
 * stepped; nothing reads the wall clock.
 */
const START = testNow().getTime();
const MIN = 60_000;
const HOUR = 3_600_000;

function script(): string {
  const lines: string[] = [];
  const tick = (ms: number, symbol: string, price: string) =>
    lines.push(JSON.stringify({ time: START + ms, symbol, price, bid: price, ask: price }));
  // BTC 100,000 and ETH 3,000 for three hours, then BTC +60 % (the balanced order drifts past 5 points),
  // and from six hours BTC back at 100,000.
  for (let ms = -10 * MIN; ms <= 8 * HOUR; ms += MIN) {
    const late = ms >= 3 * HOUR && ms < 6 * HOUR;
    tick(ms, 'BTC/USDT', late ? '160000.00' : '100000.00');
    tick(ms, 'ETH/USDT', '3000.00');
  }
  return lines.join('\n');
}

let t: TestApp;
let dir: string;

async function to(ms: number) {
  t.clock.set(new Date(START + ms));
  // The replay feed hands over a bounded batch per step: step until it has caught up with the clock.
  for (let i = 0; i < 100 && (await t.app.market.step()) > 0; i++);
  await t.app.market.flushRecorder();
  await t.app.marketMaker.refreshNow();
}

async function invariants(customerIds: string[] = []) {
  expect(await t.app.spot.checkFrozen()).toEqual([]);
  expect((await ledgerOf(t).verify()).ok).toBe(true);
  // Each customer's frozen earn balance is exactly the holdings of their orders (nothing else freezes it here).
  for (const id of customerIds) {
    const held = await t.db
      .selectFrom('funds_order_holding')
      .innerJoin('funds_order', 'funds_order.id', 'funds_order_holding.order_id')
      .select(['funds_order_holding.asset', 'funds_order_holding.quantity_units', 'funds_order.book'])
      .where('funds_order.customer_id', '=', id)
      .execute();
    const sums = new Map<string, bigint>();
    for (const h of held) sums.set(h.asset, (sums.get(h.asset) ?? 0n) + BigInt(h.quantity_units));
    const balances = await ledgerOf(t).balances(t.db, { customerId: id, accountType: 'earn' });
    for (const b of balances) expect(b.frozenUnits, `${id} ${b.currency}`).toBe(sums.get(b.currency) ?? 0n);
    for (const [asset, units] of sums)
      expect(balances.find((b) => b.currency === asset)?.frozenUnits ?? 0n, asset).toBe(units);
  }
}

async function count(table: 'funds_order' | 'funds_order_leg' | 'funds_rebalance' | 'funds_nav') {
  const r = await t.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function spotUsdt(customerId: string, book: 'real' | 'demo' = 'real') {
  return (await ledgerOf(t).balance(t.db, { book, customerId, accountType: 'spot', currency: 'USDT' }))
    .availableUnits;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-funds-'));
  const file = path.join(dir, 'ticks.jsonl');
  fs.writeFileSync(file, script());
  t = await startTestApp({
    feed: 'replay',
    replayFile: file,
    replayLoop: false,
    feedTickMs: 0,
    marketMaker: 'on',
  });
  t.app.marketMaker.stop();
  await to(0);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('ETF orders', () => {
  let buyer: Awaited<ReturnType<typeof ratedCustomer>>;
  let orderId: string;

  it('lists the two seeded models: weights over listed spot assets and cash, NAV starting at 1', async () => {
    const list = await call(t.app, { method: 'GET', call: 'getEtfList', fields: {} });
    expect(list.code).toBe(1);
    const ids = list.data.items.map((m: { model_id: string }) => m.model_id);
    expect(ids).toEqual(['balanced', 'low_risk']);
    for (const m of list.data.items) {
      const sum = m.weights.reduce((s: number, w: { weight_bps: number }) => s + w.weight_bps, 0);
      expect(sum).toBe(10_000);
      expect(m.weights.at(-1)).toMatchObject({ asset: 'USDT', symbol: null });
      expect(Number(m.nav)).toBeGreaterThan(0.9);
      expect(m.description).not.toMatch(/guarantee|fixed return of/i);
    }
    const zh = await call(t.app, { method: 'GET', call: 'getEtfList', fields: { lang: 'zh' } });
    expect(zh.data.items[0].name).toBe('平衡型 ETF');
  });

  it('previews the basket: quantities never cost more than each budget, fees at the taker rate', async () => {
    const p = await call(t.app, {
      method: 'GET',
      call: 'previewEtf',
      fields: { model_id: 'balanced', amount: '1000' },
    });
    expect(p.code).toBe(1);
    expect(p.data.legs.map((l: { asset: string }) => l.asset)).toEqual(['BTC', 'ETH']);
    for (const l of p.data.legs) {
      expect(Number(l.value) + Number(l.fee)).toBeLessThanOrEqual(Number(l.budget));
      expect(l.fee_rate).toBe('0.002');
    }
    expect(Number(p.data.cash)).toBeGreaterThanOrEqual(300);
  });

  it('refuses by rating, verification state and bad input, writing nothing', async () => {
    const unrated = await customer(t);
    await fund(t, unrated.id, 'USDT', USDT(5000));
    const cautious = await ratedCustomer(t, 'conservative');
    await fund(t, cautious.id, 'USDT', USDT(5000));
    const before = [await customerSnapshot(t, unrated.id), await customerSnapshot(t, cautious.id)];
    const orders = await count('funds_order');
    const r1 = await call(t.app, {
      call: 'buyEtf',
      fields: { model_id: 'balanced', amount: '500' },
      headers: { token: unrated.token },
    });
    expect(r1.reason).toBe('FUNDS_RATING_REQUIRED');
    const r2 = await call(t.app, {
      call: 'buyEtf',
      fields: { model_id: 'balanced', amount: '500', lang: 'zh' },
      headers: { token: cautious.token },
    });
    expect(r2.reason).toBe('FUNDS_RATING_REQUIRED');
    expect(r2.msg).toContain('风险评级');
    // the eligibility shown before the form says the same
    const info = await call(t.app, {
      method: 'GET',
      call: 'getEtfInfo',
      fields: { model_id: 'balanced' },
      headers: { token: cautious.token },
    });
    expect(info.data.eligibility).toMatchObject({
      eligible: false,
      refusal: { code: 'FUNDS_RATING_REQUIRED', params: { rating: 'conservative', required: 'balanced' } },
    });
    // a conservative rating may buy the low-risk model only up to its earn cap (suitability)
    const bad: Array<[Record<string, string>, string]> = [
      [{ model_id: 'low_risk', amount: 'abc' }, 'AMOUNT_INVALID'],
      [{ model_id: 'low_risk', amount: '99.99' }, 'FUNDS_AMOUNT_BELOW_MIN'],
      [{ model_id: 'low_risk', amount: '100001' }, 'FUNDS_AMOUNT_ABOVE_MAX'],
      [{ model_id: 'low_risk', amount: '0.000000001' }, 'AMOUNT_TOO_PRECISE'],
      [{ model_id: 'gold', amount: '100' }, 'BAD_INPUT'],
      [{ model_id: 'low_risk', amount: '100', extra: '1' }, 'UNKNOWN_FIELD'],
    ];
    for (const [fields, reason] of bad) {
      const r = await call(t.app, { call: 'buyEtf', fields, headers: { token: cautious.token } });
      expect(r.reason, JSON.stringify(fields)).toBe(reason);
      expect(r.status).toBeLessThan(500);
    }
    const broke = await call(t.app, {
      call: 'buyEtf',
      fields: { model_id: 'low_risk', amount: '6000' },
      headers: { token: cautious.token },
    });
    expect(['INSUFFICIENT_BALANCE', 'RATING_CAP_EXCEEDED']).toContain(broke.reason);
    expect(await count('funds_order')).toBe(orders);
    expect([await customerSnapshot(t, unrated.id), await customerSnapshot(t, cautious.id)]).toEqual(before);
    await invariants([unrated.id, cautious.id]);
  });

  it('buys the basket in the customer’s own account through the spot books', async () => {
    buyer = await ratedCustomer(t, 'aggressive');
    await fund(t, buyer.id, 'USDT', USDT(10_000));
    const rt = 'rt-buy-1';
    const answer = await call(t.app, {
      call: 'buyEtf',
      fields: { model_id: 'balanced', amount: '1000', client_oid: 'etf-1', rtoken: rt },
      headers: { token: buyer.token },
    });
    expect(answer.code).toBe(1);
    const o = answer.data;
    orderId = o.order_id;
    expect(o).toMatchObject({
      state: 'in_custody',
      model_id: 'balanced',
      book: 'real',
      amount: '1000',
      cost: '1000',
    });
    expect(o.legs.map((l: { asset: string; state: string }) => [l.asset, l.state])).toEqual([
      ['BTC', 'filled'],
      ['ETH', 'filled'],
    ]);
    // every trade is an ordinary spot order of the customer (client_oid = the leg id)
    const spotOrders = await t.db
      .selectFrom('spot_order')
      .select(['id', 'client_oid', 'status', 'side'])
      .where('customer_id', '=', buyer.id)
      .execute();
    expect(spotOrders).toHaveLength(2);
    expect(new Set(spotOrders.map((s) => s.id))).toEqual(
      new Set(o.legs.map((l: { spot_order_id: string }) => l.spot_order_id)),
    );
    // the amount left spot; the order holds assets and cash in the earn account, frozen
    expect(await spotUsdt(buyer.id)).toBe(USDT(9000));
    expect(Number(o.holdings[0].quantity)).toBeGreaterThan(0);
    expect(Number(o.fees)).toBeGreaterThan(0);
    // units = cost / NAV at purchase
    expect(Number(o.units)).toBeCloseTo(1000 / Number(o.nav_at_purchase), 4);
    await invariants([buyer.id]);

    // the same rtoken answers the first answer; the same client_oid answers the same order
    const again = await call(t.app, {
      call: 'buyEtf',
      fields: { model_id: 'balanced', amount: '1000', client_oid: 'etf-1', rtoken: rt },
      headers: { token: buyer.token },
    });
    expect(again.data.order_id).toBe(orderId);
    const twin = await call(t.app, {
      call: 'buyEtf',
      fields: { model_id: 'balanced', amount: '1000', client_oid: 'etf-1' },
      headers: { token: buyer.token },
    });
    expect(twin.data.order_id).toBe(orderId);
    const reused = await call(t.app, {
      call: 'buyEtf',
      fields: { model_id: 'balanced', amount: '900', client_oid: 'etf-1' },
      headers: { token: buyer.token },
    });
    expect(reused.reason).toBe('CLIENT_OID_REUSED');
    expect(await spotUsdt(buyer.id)).toBe(USDT(9000));
  });

  it('values the order at the reference prices: Σ quantity × price + cash', async () => {
    const r = await call(t.app, {
      method: 'GET',
      call: 'getEtfOrder',
      fields: { order_id: orderId },
      headers: { token: buyer.token },
    });
    const o = r.data;
    const held = await t.db
      .selectFrom('funds_order_holding')
      .selectAll()
      .where('order_id', '=', orderId)
      .execute();
    let expected = 0n;
    for (const h of held)
      expected +=
        h.asset === 'USDT'
          ? BigInt(h.quantity_units)
          : worthOf(h.asset, BigInt(h.quantity_units), t.app.market.ticker(`${h.asset}/USDT`).mark);
    expect(o.value).toBe(usdt(expected));
    expect(Number(o.pnl)).toBeCloseTo(Number(o.value) - 1000, 6);
    const list = await call(t.app, {
      method: 'GET',
      call: 'getEtfOrders',
      fields: { model_id: 'balanced' },
      headers: { token: buyer.token },
    });
    expect(list.data.total).toBe(1);
    const other = await customer(t);
    const hidden = await call(t.app, {
      method: 'GET',
      call: 'getEtfOrder',
      fields: { order_id: orderId },
      headers: { token: other.token },
    });
    expect(hidden.reason).toBe('NOT_FOUND');
  });

  it('records the NAV each hour from recorded prices; rebalances past the drift threshold, every trade recorded', async () => {
    const navBefore = await count('funds_nav');
    await to(2 * HOUR + 5 * MIN);
    let jobs = await t.app.funds.runJobs();
    expect(jobs.nav).toBe(4); // two hours for each model
    expect(jobs.rebalanced).toBe(0);
    expect(await count('funds_nav')).toBe(navBefore + 4);
    // BTC +60 % at 3 h: the balanced order's BTC weight passes 40 % + 5 points
    await to(4 * HOUR + 5 * MIN);
    jobs = await t.app.funds.runJobs();
    expect(jobs.rebalanced).toBe(1);
    const rb = await call(t.app, {
      method: 'GET',
      call: 'getEtfOrder',
      fields: { order_id: orderId },
      headers: { token: buyer.token },
    });
    const legs = rb.data.legs.filter((l: { phase: string }) => l.phase === 'rebalance');
    expect(legs.map((l: { asset: string; side: string }) => [l.asset, l.side])).toEqual([
      ['BTC', 'sell'],
      ['ETH', 'buy'],
    ]);
    const row = await t.db.selectFrom('funds_rebalance').selectAll().executeTakeFirstOrThrow();
    expect(row.state).toBe('done');
    const w = (list: Array<{ asset: string; weight_bps: number }> | null, a: string) =>
      list?.find((x) => x.asset === a)?.weight_bps ?? 0;
    expect(w(row.before, 'BTC')).toBeGreaterThan(4500);
    expect(Math.abs(w(row.after, 'BTC') - 4000)).toBeLessThan(100);
    expect(Math.abs(w(row.after, 'ETH') - 3000)).toBeLessThan(100);
    // the NAV rose with BTC; the history shows it
    const info = await call(t.app, {
      method: 'GET',
      call: 'getEtfInfo',
      fields: { model_id: 'balanced', range: 'day' },
    });
    const navs = info.data.nav_history.map((p: { nav: string }) => Number(p.nav));
    expect(navs.at(-1)).toBeGreaterThan(navs[0] * 1.15);
    // a second run changes nothing
    jobs = await t.app.funds.runJobs();
    expect(jobs).toEqual({ resumed: 0, nav: 0, rebalanced: 0 });
    await invariants([buyer.id]);
  });

  it('redeems: every holding sold at market, proceeds and cash back to spot; a retry changes nothing', async () => {
    const before = await spotUsdt(buyer.id);
    const r = await call(t.app, {
      call: 'sellEtf',
      fields: { order_id: orderId },
      headers: { token: buyer.token },
    });
    expect(r.code).toBe(1);
    expect(r.data.state).toBe('redeemed');
    expect(r.data.returned_in_kind).toEqual([]);
    const after = await spotUsdt(buyer.id);
    expect(after - before).toBe(BigInt(Math.round(Number(r.data.proceeds) * 1e8)));
    expect(Number(r.data.pnl)).toBeGreaterThan(0);
    const earn = await ledgerOf(t).balances(t.db, { customerId: buyer.id, accountType: 'earn' });
    for (const b of earn) expect(b.frozenUnits).toBe(0n);
    const again = await call(t.app, {
      call: 'sellEtf',
      fields: { order_id: orderId },
      headers: { token: buyer.token },
    });
    expect(again.data.state).toBe('redeemed');
    expect(await spotUsdt(buyer.id)).toBe(after);
    await invariants([buyer.id]);
  });

  it('a demo customer buys and redeems in the demo book, without a rating', async () => {
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin', fields: {} });
    const token = demo.data.token;
    const b = await call(t.app, {
      call: 'buyEtf',
      fields: { model_id: 'balanced', amount: '500' },
      headers: { token },
    });
    expect(b.data).toMatchObject({ state: 'in_custody', book: 'demo' });
    const s = await call(t.app, {
      call: 'sellEtf',
      fields: { order_id: b.data.order_id },
      headers: { token },
    });
    expect(s.data.state).toBe('redeemed');
    await invariants();
  });

  it('a crash mid-purchase is resumed by the job: each leg traded once', async () => {
    const c = await ratedCustomer(t, 'aggressive');
    await fund(t, c.id, 'USDT', USDT(2000));
    // A process that dies after the first leg's spot order: the service built on a spot that fails the second.
    let placed = 0;
    const flaky: FundsSpot = {
      market: (s) => t.app.spot.market(s),
      markets: () => t.app.spot.markets(),
      async placeFor(customerId, book, body) {
        placed += 1;
        if (placed === 2) throw new Error('process killed');
        return t.app.spot.placeFor(customerId, book, body);
      },
    };
    const crashed = createFunds({
      db: t.db,
      clock: t.clock,
      log: (t.app as unknown as { log: never }).log,
      ledger: ledgerOf(t),
      market: t.app.market,
      spot: flaky,
      audit: t.app.audit,
      ratings: { checkCap: async () => undefined, ratingOf: async () => 'aggressive' },
      requireFeature: async () => undefined,
      featureTier: async () => 'none' as const,
    });
    const auth = { customerId: c.id, sessionId: 's', isDemo: false, token: c.token };
    await expect(crashed.buy(auth, { model_id: 'balanced', amount: '1000' }, 'en')).rejects.toThrow(
      'process killed',
    );
    const row = await t.db
      .selectFrom('funds_order')
      .selectAll()
      .where('customer_id', '=', c.id)
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('buying');
    const jobs = await t.app.funds.runJobs();
    expect(jobs.resumed).toBe(1);
    const o = await call(t.app, {
      method: 'GET',
      call: 'getEtfOrder',
      fields: { order_id: row.id },
      headers: { token: c.token },
    });
    expect(o.data.state).toBe('in_custody');
    expect(o.data.legs.map((l: { state: string }) => l.state)).toEqual(['filled', 'filled']);
    const spotOrders = await t.db
      .selectFrom('spot_order')
      .select('id')
      .where('customer_id', '=', c.id)
      .execute();
    expect(spotOrders).toHaveLength(2);
    expect(await spotUsdt(c.id)).toBe(USDT(1000));
    await invariants([c.id]);
  });

  /** A funds service over a spot whose order path refuses `symbol` (a halted market, say): the leg's outcome. */
  function refusingSpot(symbol: string, side: 'buy' | 'sell') {
    const spot: FundsSpot = {
      market: (s) => t.app.spot.market(s),
      markets: () => t.app.spot.markets(),
      async placeFor(customerId, book, body) {
        if (body.symbol === symbol && body.side === side)
          throw new Refusal('SPOT_MARKET_HALTED', { symbol, reason: 'test' });
        return t.app.spot.placeFor(customerId, book, body);
      },
    };
    return createFunds({
      db: t.db,
      clock: t.clock,
      log: (t.app as unknown as { log: never }).log,
      ledger: ledgerOf(t),
      market: t.app.market,
      spot,
      audit: t.app.audit,
      ratings: { checkCap: async () => undefined, ratingOf: async () => 'aggressive' },
      requireFeature: async () => undefined,
      featureTier: async () => 'none' as const,
    });
  }

  it('a leg that cannot trade keeps its budget as cash in the order, saying why', async () => {
    const c = await ratedCustomer(t, 'aggressive');
    await fund(t, c.id, 'USDT', USDT(1000));
    const funds = refusingSpot('ETH/USDT', 'buy');
    const auth = { customerId: c.id, sessionId: 's', isDemo: false, token: c.token };
    const o = await funds.buy(auth, { model_id: 'balanced', amount: '1000' }, 'en');
    expect(o.state).toBe('in_custody');
    const eth = o.legs.find((l) => l.asset === 'ETH');
    expect(eth).toMatchObject({ state: 'failed', refusal: { code: 'SPOT_MARKET_HALTED' }, filled: '0' });
    expect(Number(o.cash)).toBeGreaterThan(590); // its 30 % cash plus the 30 % ETH could not buy
    expect(o.cost).toBe('1000');
    await invariants([c.id]);
    // redeeming while BTC cannot be sold returns the BTC as it is, with the cash
    const stuck = refusingSpot('BTC/USDT', 'sell');
    const r = await stuck.sell(auth, o.order_id, 'en');
    expect(r.state).toBe('redeemed');
    expect(r.returned_in_kind.map((x) => x.asset)).toEqual(['BTC']);
    const btc = await ledgerOf(t).balance(t.db, {
      book: 'real',
      customerId: c.id,
      accountType: 'spot',
      currency: 'BTC',
    });
    expect(btc.availableUnits).toBeGreaterThan(0n);
    expect(r.proceeds).toBe(o.cash);
    await invariants([c.id]);
  });

  it('concurrent purchases against one balance: only what the balance pays for; twin redemptions redeem once', async () => {
    const c = await ratedCustomer(t, 'aggressive');
    await fund(t, c.id, 'USDT', USDT(2500));
    const answers = await Promise.all(
      [1, 2, 3, 4].map(() =>
        call(t.app, {
          call: 'buyEtf',
          fields: { model_id: 'low_risk', amount: '1000' },
          headers: { token: c.token },
        }),
      ),
    );
    const won = answers.filter((a) => a.code === 1);
    expect(won).toHaveLength(2);
    for (const a of answers.filter((x) => x.code !== 1)) expect(a.reason).toBe('INSUFFICIENT_BALANCE');
    expect(await spotUsdt(c.id)).toBe(USDT(500));
    const id = won[0]?.data.order_id as string;
    const twins = await Promise.all(
      [1, 2].map(() =>
        call(t.app, { call: 'sellEtf', fields: { order_id: id }, headers: { token: c.token } }),
      ),
    );
    for (const a of twins) expect(a.data.state).toBe('redeemed');
    const legs = await t.db
      .selectFrom('funds_order_leg')
      .select('id')
      .where('order_id', '=', id)
      .where('phase', '=', 'redeem')
      .execute();
    expect(legs).toHaveLength(2);
    await invariants([c.id]);
  });

  it('a crash in the middle of a rebalance and of a redemption is resumed by the job: each trade once', async () => {
    const c = await ratedCustomer(t, 'aggressive');
    await fund(t, c.id, 'USDT', USDT(1000));
    const bought = await call(t.app, {
      call: 'buyEtf',
      fields: { model_id: 'balanced', amount: '1000' },
      headers: { token: c.token },
    });
    expect(bought.data.state).toBe('in_custody');
    // BTC falls back to 100,000: the order (bought at 160,000) drifts; the process dies after the first sale.
    await to(6 * HOUR + 20 * MIN); // the file starts 10 min before: its 6 h is our 6 h 10 min
    let sells = 0;
    const dying: FundsSpot = {
      market: (s) => t.app.spot.market(s),
      markets: () => t.app.spot.markets(),
      async placeFor(customerId, book, body) {
        if (body.side === 'sell') sells += 1;
        const r = await t.app.spot.placeFor(customerId, book, body);
        if (body.side === 'sell' && sells === 1) throw new Error('process killed after the sale');
        return r;
      },
    };
    const deps = {
      db: t.db,
      clock: t.clock,
      log: (t.app as unknown as { log: never }).log,
      ledger: ledgerOf(t),
      market: t.app.market,
      spot: dying,
      audit: t.app.audit,
      ratings: { checkCap: async () => undefined, ratingOf: async () => 'aggressive' as const },
      requireFeature: async () => undefined,
      featureTier: async () => 'none' as const,
    };
    const crashed = createFunds(deps);
    const row = await t.db
      .selectFrom('funds_order')
      .selectAll()
      .where('id', '=', bought.data.order_id)
      .executeTakeFirstOrThrow();
    const rebalanceId = await startRebalance(deps, row);
    expect(rebalanceId).not.toBeNull();
    await expect(process(deps, bought.data.order_id)).rejects.toThrow('process killed');
    const running = await t.db
      .selectFrom('funds_rebalance')
      .selectAll()
      .where('order_id', '=', bought.data.order_id)
      .execute();
    expect(running[0]?.state).toBe('running');
    const resumed = await t.app.funds.runJobs();
    expect(resumed.resumed).toBeGreaterThanOrEqual(1);
    const done = await t.db
      .selectFrom('funds_rebalance')
      .selectAll()
      .where('id', '=', running[0]?.id as string)
      .executeTakeFirstOrThrow();
    expect(done.state).toBe('done');
    const legs = await t.db
      .selectFrom('funds_order_leg')
      .selectAll()
      .where('rebalance_id', '=', done.id)
      .execute();
    for (const l of legs) {
      const spot = await t.db.selectFrom('spot_order').select('id').where('client_oid', '=', l.id).execute();
      expect(spot, l.id).toHaveLength(l.state === 'skipped' ? 0 : 1);
    }
    await invariants([c.id]);
    // a redemption that dies after its first sale: the job finishes it, each holding sold once
    sells = 0;
    await expect(
      crashed.sell(
        { customerId: c.id, sessionId: 's', isDemo: false, token: c.token },
        bought.data.order_id,
        'en',
      ),
    ).rejects.toThrow('process killed');
    await t.app.funds.runJobs();
    const o = await call(t.app, {
      method: 'GET',
      call: 'getEtfOrder',
      fields: { order_id: bought.data.order_id },
      headers: { token: c.token },
    });
    expect(o.data.state).toBe('redeemed');
    const redeemLegs = o.data.legs.filter((l: { phase: string }) => l.phase === 'redeem');
    for (const l of redeemLegs) {
      const spot = await t.db
        .selectFrom('spot_order')
        .select('id')
        .where('id', '=', l.spot_order_id)
        .execute();
      expect(spot).toHaveLength(1);
    }
    const earn = await ledgerOf(t).balances(t.db, { customerId: c.id, accountType: 'earn' });
    for (const b of earn) expect(b.frozenUnits).toBe(0n);
    await invariants([c.id]);
  });

  it('staff pause a model (audited, with a reason); a paused model refuses new orders; the views need funds.read', async () => {
    const admin = (await staffSession(t, ['administrator'])).token;
    const support = (await staffSession(t, ['support'])).token;
    const denied = await adminCall(t.app, { method: 'GET', call: 'funds/models', token: support });
    expect(denied.reason).toBe('FORBIDDEN');
    const paused = await adminCall(t.app, {
      call: 'funds/models/state',
      token: admin,
      fields: { model_id: 'low_risk', state: 'paused', reason: 'test: review of the model' },
    });
    expect(paused.data.state).toBe('paused');
    const c = await ratedCustomer(t, 'aggressive');
    await fund(t, c.id, 'USDT', USDT(500));
    const r = await call(t.app, {
      call: 'buyEtf',
      fields: { model_id: 'low_risk', amount: '200' },
      headers: { token: c.token },
    });
    expect(r.reason).toBe('FUNDS_MODEL_PAUSED');
    await adminCall(t.app, {
      call: 'funds/models/state',
      token: admin,
      fields: { model_id: 'low_risk', state: 'open', reason: 'test: review done' },
    });
    const audit = await t.db
      .selectFrom('staff_audit')
      .select(['action', 'reason'])
      .where('action', 'like', 'funds.model.%')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['funds.model.pause', 'funds.model.open']);
    const models = await adminCall(t.app, { method: 'GET', call: 'funds/models', token: admin });
    expect(models.data.items[0].orders_in_custody).toBeGreaterThanOrEqual(1);
    const orders = await adminCall(t.app, {
      method: 'GET',
      call: 'funds/orders',
      token: admin,
      fields: { state: 'redeemed' },
    });
    expect(orders.data.total).toBeGreaterThanOrEqual(1);
    const rbs = await adminCall(t.app, { method: 'GET', call: 'funds/rebalances', token: admin });
    // Both rebalances of this file are listed (their order depends on the stepped clock): the one over
    // the drift threshold sold BTC and bought ETH, two trades.
    expect(rbs.data.items.length).toBeGreaterThanOrEqual(2);
    expect(rbs.data.items.map((i: { trades: unknown[] }) => i.trades.length)).toContain(2);
    const nav = await adminCall(t.app, {
      method: 'GET',
      call: 'funds/nav',
      token: admin,
      fields: { model_id: 'balanced' },
    });
    expect(nav.data.items.length).toBeGreaterThan(3);
  });
});

describe('the jurisdiction profile’s verification rule for ETF orders is data, shown before it refuses', () => {
  it('getEtfList and getEtfInfo carry the earn rule as profile_tier and follow the active profile', async () => {
    // A fresh staff session: the clock has moved on hours since the other tests'.
    const admin = (await staffSession(t, ['administrator'])).token;
    const post = async (path: string, fields: object) =>
      (await adminCall(t.app, { call: path, token: admin, fields: fields as Record<string, string> })).code;
    const setProfile = async (profile: string) =>
      expect(await post('jurisdiction', { profile, reason: 'funds rule test' })).toBe(1);
    const setEarnTier = async (tier: string) =>
      expect(
        await post('verification/rules/update', {
          profile: 'custom',
          features: [{ feature: 'earn', tier }],
          reason: 'funds rule test',
        }),
      ).toBe(1);
    const c = await ratedCustomer(t, 'aggressive');
    await fund(t, c.id, 'USDT', USDT(500));
    const shown = async () => {
      const list = await call(t.app, { method: 'GET', call: 'getEtfList', fields: {} });
      const info = await call(t.app, {
        method: 'GET',
        call: 'getEtfInfo',
        fields: { model_id: 'balanced' },
        headers: { token: c.token },
      });
      expect([list.code, info.code]).toEqual([1, 1]);
      const tiers = list.data.items.map((m: { profile_tier: string }) => m.profile_tier);
      expect(tiers).toEqual([info.data.model.profile_tier, info.data.model.profile_tier]);
      return { tier: info.data.model.profile_tier as string, refusal: info.data.eligibility.refusal };
    };
    const before = (await t.app.jurisdiction.active()).id;
    const orders = await count('funds_order');
    try {
      await setProfile('permissive');
      expect(await shown()).toEqual({ tier: 'none', refusal: null });
      await setProfile('eu_retail');
      // The rule shown on the model is the rule the eligibility and the purchase refuse with.
      expect(await shown()).toEqual({
        tier: 'primary',
        refusal: { code: 'VERIFICATION_PRIMARY_REQUIRED', params: { feature: 'earn', tier: 'primary' } },
      });
      await setEarnTier('advanced');
      await setProfile('custom');
      expect((await shown()).tier).toBe('advanced');
      const refused = await call(t.app, {
        call: 'buyEtf',
        fields: { model_id: 'balanced', amount: '200' },
        headers: { token: c.token },
      });
      expect([refused.reason, refused.params]).toEqual([
        'VERIFICATION_ADVANCED_REQUIRED',
        { feature: 'earn', tier: 'advanced' },
      ]);
      expect(await count('funds_order')).toBe(orders);
      // The back office's model data does not carry it (the verification rules screen does).
      const models = await adminCall(t.app, { method: 'GET', call: 'funds/models', token: admin });
      expect(models.data.items[0]).not.toHaveProperty('profile_tier');
    } finally {
      await setEarnTier('none');
      await setProfile(before);
    }
  });
});
