import { MatchingBook } from '@bourse/matching';
import { isKnownAsset } from '@bourse/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { customer, fund, ledgerOf, USDT } from '../assets/testing.ts';
import { adminCall, staffSession } from '../staff/testing.ts';
import { bookConfig } from './order.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
  await t.app.market.step();
});
afterAll(async () => t?.close());

const BTC = (n: number) => BigInt(Math.round(n * 1e8));

async function order(token: string, fields: Record<string, string>) {
  return call(t.app, { call: 'createOrder', fields: { symbol: 'BTC/USDT', ...fields }, headers: { token } });
}

async function spotCounts() {
  const out: Record<string, number> = {};
  for (const table of ['spot_order', 'spot_journal', 'spot_trade', 'ledger_entry'] as const) {
    const r = await t.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    out[table] = Number(r.n);
  }
  return out;
}

async function invariants() {
  expect(await t.app.spot.checkFrozen()).toEqual([]);
  const report = await ledgerOf(t).verify();
  expect(report.ok).toBe(true);
}

describe('spot order flow', () => {
  it('lists the seeded markets with their rules', async () => {
    const answer = await call(t.app, { method: 'GET', call: 'getSpotMarkets', fields: {} });
    const btc = answer.data.items.find((m: { symbol: string }) => m.symbol === 'BTC/USDT');
    expect(btc).toMatchObject({
      base: 'BTC',
      quote: 'USDT',
      price_tick: '0.01',
      lot_size: '0.00001',
      status: 'enabled',
    });
  });

  it('every listed crypto pair whose assets are known is an enabled market; the rest have none', async () => {
    // The web shows a Buy button for an enabled market and "not tradable yet" for a pair without one.
    const listed = await call(t.app, {
      method: 'GET',
      call: 'getInstruments',
      fields: { class: 'crypto_spot', page_size: '500' },
    });
    const markets = await call(t.app, { method: 'GET', call: 'getSpotMarkets', fields: {} });
    const bySymbol = new Map<string, { status: string }>(
      markets.data.items.map((m: { symbol: string; status: string }) => [m.symbol, m]),
    );
    const pairs: Array<{ symbol: string; base: string; quote: string }> = listed.data.items;
    expect(pairs.length).toBe(25);
    for (const pair of pairs) {
      const known = isKnownAsset(pair.base) && isKnownAsset(pair.quote);
      expect(bySymbol.get(pair.symbol)?.status, pair.symbol).toBe(known ? 'enabled' : undefined);
    }
    expect([...bySymbol.keys()].sort()).toEqual(['BNB/USDT', 'BTC/USDT', 'ETH/USDT', 'SOL/USDT', 'TRX/USDT']);
  });

  it('refuses each validation rule by name and writes nothing', async () => {
    const c = await customer(t);
    await fund(t, c.id, 'USDT', USDT(1000));
    const before = await spotCounts();
    const cases: Array<[Record<string, string>, string, Record<string, unknown>?]> = [
      [{ side: 'buy', price: '100.001', quantity: '0.001' }, 'ORDER_PRICE_TICK', { tick: '0.01' }],
      [{ side: 'buy', price: '100', quantity: '0.000011' }, 'ORDER_QTY_LOT', { lot: '0.00001' }],
      [
        { side: 'buy', price: '100', quantity: '0.00001' },
        'ORDER_NOTIONAL_BELOW_MIN',
        { min: '5', currency: 'USDT' },
      ],
      [
        { side: 'buy', price: '100000000', quantity: '1' },
        'ORDER_NOTIONAL_ABOVE_MAX',
        { max: '1000000', currency: 'USDT' },
      ],
      [{ side: 'buy', quantity: '0.001' }, 'ORDER_PRICE_REQUIRED'],
      [{ side: 'buy', type: 'market', price: '1', quantity: '0.001' }, 'ORDER_PRICE_NOT_ALLOWED'],
      [{ side: 'buy', type: 'market', tif: 'GTC', quantity: '0.001' }, 'ORDER_TIF_INVALID'],
      [{ side: 'buy', price: '100', quantity: '0.1', tif: 'IOC', post_only: '1' }, 'ORDER_POST_ONLY_INVALID'],
      [{ side: 'buy', price: '90000', quantity: '1' }, 'INSUFFICIENT_BALANCE'],
      [{ side: 'sell', price: '90000', quantity: '0.001' }, 'INSUFFICIENT_BALANCE'],
      [{ side: 'buy', price: 'abc', quantity: '0.001' }, 'AMOUNT_INVALID'],
      [{ symbol: 'NOPE/USDT', side: 'buy', price: '1', quantity: '1' }, 'SPOT_MARKET_UNKNOWN'],
    ];
    for (const [fields, reason, params] of cases) {
      const answer = await order(c.token, fields);
      expect(answer.reason, JSON.stringify(fields)).toBe(reason);
      if (params) expect(answer.params).toMatchObject(params);
    }
    const min = await call(t.app, { method: 'GET', call: 'getSpotMarkets', fields: { symbol: 'BTC/USDT' } });
    expect(min.data.items[0].min_quantity).toBe('0.00001');
    expect(await spotCounts()).toEqual(before);
    await invariants();
  });

  it('rests, crosses at the maker price, settles fees exactly and releases what is not needed', async () => {
    const buyer = await customer(t);
    const seller = await customer(t);
    await fund(t, buyer.id, 'USDT', USDT(10_000));
    await fund(t, seller.id, 'BTC', BTC(1));
    const rest = await order(seller.token, { side: 'sell', price: '50000', quantity: '0.1' });
    expect(rest.code).toBe(1);
    expect(rest.data).toMatchObject({ status: 'unfilled', frozen: '0.1', frozen_currency: 'BTC' });
    // The buyer bids higher: trades at the maker's 50000; needs price × qty + taker fee, gets the rest back.
    const take = await order(buyer.token, { side: 'buy', price: '51000', quantity: '0.04' });
    expect(take.data).toMatchObject({
      status: 'filled',
      filled_quantity: '0.04',
      filled_amount: '2000',
      avg_price: '50000',
      fee: '4',
      frozen: '0',
    });
    const b = await call(t.app, {
      method: 'GET',
      call: 'getSpotBalance',
      fields: { symbol: 'BTC/USDT' },
      headers: { token: buyer.token },
    });
    expect(b.data).toMatchObject({ base_available: '0.04', quote_available: '7996', quote_frozen: '0' });
    const s = await call(t.app, {
      method: 'GET',
      call: 'getSpotBalance',
      fields: { symbol: 'BTC/USDT' },
      headers: { token: seller.token },
    });
    // Maker fee 0.1 % of 2000 = 2 USDT.
    expect(s.data).toMatchObject({ base_available: '0.9', base_frozen: '0.06', quote_available: '1998' });
    const current = await call(t.app, {
      method: 'GET',
      call: 'getCurrentOrders',
      fields: {},
      headers: { token: seller.token },
    });
    expect(current.data.items[0]).toMatchObject({ status: 'partially_filled', filled_quantity: '0.04' });
    const fills = await call(t.app, {
      method: 'GET',
      call: 'getMyTrades',
      fields: {},
      headers: { token: seller.token },
    });
    expect(fills.data.items[0]).toMatchObject({
      role: 'maker',
      side: 'sell',
      price: '50000',
      quantity: '0.04',
      fee: '2',
    });
    const cancelled = await call(t.app, {
      call: 'cancelOrder',
      fields: { order_id: rest.data.order_id },
      headers: { token: seller.token },
    });
    expect(cancelled.data).toMatchObject({ status: 'cancelled', cancel_reason: 'user', frozen: '0' });
    const again = await call(t.app, {
      call: 'cancelOrder',
      fields: { order_id: rest.data.order_id },
      headers: { token: seller.token },
    });
    expect(again.reason).toBe('ORDER_NOT_OPEN');
    const other = await call(t.app, {
      call: 'cancelOrder',
      fields: { order_id: rest.data.order_id },
      headers: { token: buyer.token },
    });
    expect(other.reason).toBe('NOT_FOUND');
    const peek = await call(t.app, {
      method: 'GET',
      call: 'getOrder',
      fields: { order_id: rest.data.order_id },
      headers: { token: buyer.token },
    });
    expect(peek.reason).toBe('NOT_FOUND');
    const history = await call(t.app, {
      method: 'GET',
      call: 'getHistoryOrders',
      fields: {},
      headers: { token: seller.token },
    });
    expect(history.data.items[0]).toMatchObject({
      order_id: rest.data.order_id,
      status: 'cancelled',
      filled_quantity: '0.04',
    });
    // Both fees went into the market's own fee account (no row every market's settlement shares).
    const fees = await ledgerOf(t).platformBalances(t.db, { book: 'real', platform: 'spot_fees_btc_usdt' });
    expect(
      fees.find((f: { currency: string }) => f.currency === 'USDT')?.availableUnits,
    ).toBeGreaterThanOrEqual(USDT(6));
    await invariants();
  });

  it('a retried client_oid is one order; other fields under it are refused', async () => {
    const c = await customer(t);
    await fund(t, c.id, 'USDT', USDT(1000));
    const first = await order(c.token, { side: 'buy', price: '100', quantity: '0.1', client_oid: 'retry-1' });
    const second = await order(c.token, {
      side: 'buy',
      price: '100',
      quantity: '0.1',
      client_oid: 'retry-1',
    });
    expect(second.data.order_id).toBe(first.data.order_id);
    for (let round = 0; round < 5; round++) {
      const parallel = await Promise.all(
        [1, 2, 3].map(() =>
          order(c.token, { side: 'buy', price: '101', quantity: '0.1', client_oid: `par-${round}` }),
        ),
      );
      expect(new Set(parallel.map((a) => a.data?.order_id)).size, JSON.stringify(parallel)).toBe(1);
      expect(parallel.map((a) => a.code)).toEqual([1, 1, 1]);
    }
    const changed = await order(c.token, {
      side: 'buy',
      price: '100',
      quantity: '0.2',
      client_oid: 'retry-1',
    });
    expect(changed.reason).toBe('CLIENT_OID_REUSED');
    const open = await call(t.app, {
      method: 'GET',
      call: 'getCurrentOrders',
      fields: {},
      headers: { token: c.token },
    });
    expect(open.data.total).toBe(6);
    await invariants();
  });

  it('two orders racing for one balance never both freeze it', async () => {
    const c = await customer(t);
    await fund(t, c.id, 'USDT', USDT(1000));
    // Each needs 600 + fee; only one fits. Two markets: two engines, one ledger.
    const [a, b] = await Promise.all([
      order(c.token, { side: 'buy', price: '6000', quantity: '0.1' }),
      call(t.app, {
        call: 'createOrder',
        fields: { symbol: 'ETH/USDT', side: 'buy', price: '600', quantity: '1' },
        headers: { token: c.token },
      }),
    ]);
    expect([a.code, b.code].sort()).toEqual([0, 1]);
    expect([a.reason, b.reason]).toContain('INSUFFICIENT_BALANCE');
    await invariants();
  });

  it('racing orders on one book: of ten that each need 40 % of the balance, exactly two freeze it', async () => {
    for (let round = 0; round < 3; round++) {
      const c = await customer(t);
      await fund(t, c.id, 'USDT', USDT(1000));
      // 400 + 0.8 taker fee each.
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => order(c.token, { side: 'buy', price: '4000', quantity: '0.1' })),
      );
      expect(answers.filter((a) => a.code === 1)).toHaveLength(2);
      expect(answers.filter((a) => a.reason === 'INSUFFICIENT_BALANCE')).toHaveLength(8);
      const b = await call(t.app, {
        method: 'GET',
        call: 'getSpotBalance',
        fields: { symbol: 'BTC/USDT' },
        headers: { token: c.token },
      });
      expect(b.data).toMatchObject({ quote_available: '198.4', quote_frozen: '801.6' });
    }
    await invariants();
  });

  it('demo and real books never meet: the same price on both sides rests in each book', async () => {
    const real = await customer(t);
    await fund(t, real.id, 'USDT', USDT(10_000));
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin', fields: {} });
    const demoId = (
      await t.db
        .selectFrom('accounts_customer')
        .select('id')
        .where('uid', '=', demo.data.uid)
        .executeTakeFirstOrThrow()
    ).id;
    await ledgerOf(t).credit(t.db, {
      book: 'demo',
      customerId: demoId,
      accountType: 'spot',
      currency: 'BTC',
      amountUnits: BTC(1),
      from: 'demo_faucet',
      reference: { type: 'test', id: 'demo-btc' },
      idempotencyKey: `test-demo-btc-${demoId}`,
    });
    const bid = await order(real.token, { side: 'buy', price: '30000', quantity: '0.01' });
    const ask = await order(demo.data.token, { side: 'sell', price: '30000', quantity: '0.01' });
    expect(bid.data).toMatchObject({ book: 'real', status: 'unfilled' });
    expect(ask.data).toMatchObject({ book: 'demo', status: 'unfilled' });
    const demoDepth = await call(t.app, {
      method: 'GET',
      call: 'getDepth',
      fields: { symbol: 'BTC/USDT' },
      headers: { token: demo.data.token },
    });
    expect(demoDepth.data.asks).toContainEqual(['30000', '0.01']);
    expect(demoDepth.data.bids).not.toContainEqual(['30000', '0.01']);
    await invariants();
  });

  it('cancel racing a fill: exactly one wins, the books and the ledger agree', async () => {
    const maker = await customer(t);
    const taker = await customer(t);
    await fund(t, maker.id, 'BTC', BTC(1));
    await fund(t, taker.id, 'USDT', USDT(100_000));
    for (let i = 0; i < 5; i++) {
      const rest = await order(maker.token, { side: 'sell', price: '40000', quantity: '0.01' });
      const [cancel, take] = await Promise.all([
        call(t.app, {
          call: 'cancelOrder',
          fields: { order_id: rest.data.order_id },
          headers: { token: maker.token },
        }),
        order(taker.token, { side: 'buy', price: '40000', quantity: '0.01', tif: 'IOC' }),
      ]);
      const cancelled = cancel.code === 1;
      const filled = take.data.status === 'filled';
      expect(cancelled !== filled, JSON.stringify({ cancel, take })).toBe(true);
    }
    await invariants();
  });

  it('replaying the journal gives the same book (hash)', async () => {
    const runner = t.app.spot.runner('BTC/USDT', 'real');
    const live = runner.hash();
    const rows = await t.db
      .selectFrom('spot_journal')
      .select('command')
      .where('symbol', '=', 'BTC/USDT')
      .where('book', '=', 'real')
      .orderBy('seq')
      .execute();
    let book = new MatchingBook(bookConfig(runner.market, 'real'));
    for (const { command } of rows) {
      const c = command as { type: string; bandBps?: number; minQtyLots?: number; cancelReason?: string };
      if (c.type === 'config') {
        book = MatchingBook.restore({
          ...book.snapshot(),
          config: bookConfig(
            { ...runner.market, bandBps: c.bandBps ?? 0, minQtyLots: c.minQtyLots ?? 1 },
            'real',
          ),
        });
      } else {
        const { cancelReason: _ignored, ...rest } = c;
        book.apply(rest as never);
      }
    }
    expect(book.hash()).toBe(live);
    await runner.recover();
    expect(runner.hash()).toBe(live);
    // Snapshot + tail: restore the snapshot, replay only what came after it.
    const at = await runner.snapshotNow();
    const c = await customer(t);
    await fund(t, c.id, 'USDT', USDT(1000));
    expect((await order(c.token, { side: 'buy', price: '1000', quantity: '0.01' })).code).toBe(1);
    const after = runner.hash();
    const { replayed } = await runner.recover();
    expect(replayed).toBe(1);
    expect(runner.hash()).toBe(after);
    expect(runner.engineSeq).toBe(at + 1);
    await invariants();
  });

  it('kill switch under load: no order matches later than a second after it is engaged', async () => {
    const staff = await staffSession(t, ['administrator']);
    const a = await customer(t);
    const b = await customer(t);
    for (const c of [a, b]) {
      await fund(t, c.id, 'USDT', USDT(1_000_000));
      await fund(t, c.id, 'ETH', 1_000n * 10n ** 18n);
    }
    let engagedAt = Number.POSITIVE_INFINITY;
    let lastAcceptedAt = 0;
    let accepted = 0;
    let halted = 0;
    const loop = async (w: number) => {
      for (let i = 0; ; i++) {
        const who = (w + i) % 2 === 0 ? a : b;
        const side = (w + i) % 2 === 0 ? 'buy' : 'sell';
        const answer = await call(t.app, {
          call: 'createOrder',
          fields: { symbol: 'ETH/USDT', side, price: '3000', quantity: '0.01' },
          headers: { token: who.token },
        });
        if (answer.reason === 'TRADING_HALTED') {
          halted += 1;
          return;
        }
        expect(answer.code).toBe(1);
        accepted += 1;
        lastAcceptedAt = performance.now();
      }
    };
    const loops = Array.from({ length: 8 }, (_, w) => loop(w));
    await new Promise((r) => setTimeout(r, 400));
    engagedAt = performance.now();
    const engaged = await adminCall(t.app, {
      call: 'spotKillSwitch',
      token: staff.token,
      fields: { engaged: '1', reason: 'load drill' },
    });
    expect(engaged.data.engaged).toBe(true);
    await Promise.all(loops);
    const tradesAfter = Number(
      (
        await t.db
          .selectFrom('spot_trade')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const lag = Math.max(0, lastAcceptedAt - engagedAt);
    console.log(
      `kill switch under load: ${accepted} orders accepted before, the last ${lag.toFixed(0)} ms after engaging; ${halted} refused`,
    );
    expect(accepted).toBeGreaterThan(0);
    expect(halted).toBe(8);
    expect(lag).toBeLessThan(1000);
    const late = await call(t.app, {
      call: 'createOrder',
      fields: { symbol: 'ETH/USDT', side: 'buy', price: '3000', quantity: '0.01' },
      headers: { token: a.token },
    });
    expect(late.reason).toBe('TRADING_HALTED');
    expect(
      Number(
        (
          await t.db
            .selectFrom('spot_trade')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(tradesAfter);
    await adminCall(t.app, {
      call: 'spotKillSwitch',
      token: staff.token,
      fields: { engaged: '0', reason: 'drill over' },
    });
    await invariants();
  });

  it('kill switch: halts matching within a second, audited; halt per market names its reason', async () => {
    const staff = await staffSession(t, ['administrator']);
    const c = await customer(t);
    await fund(t, c.id, 'USDT', USDT(1000));
    const started = performance.now();
    const engaged = await adminCall(t.app, {
      call: 'spotKillSwitch',
      token: staff.token,
      fields: { engaged: '1', reason: 'incident drill' },
    });
    expect(engaged.data.engaged).toBe(true);
    const refused = await order(c.token, { side: 'buy', price: '100', quantity: '0.1' });
    const elapsed = performance.now() - started;
    expect(refused.reason).toBe('TRADING_HALTED');
    expect(elapsed).toBeLessThan(1000);
    await adminCall(t.app, {
      call: 'spotKillSwitch',
      token: staff.token,
      fields: { engaged: '0', reason: 'drill over' },
    });
    const halted = await adminCall(t.app, {
      call: 'spotMarketHalt',
      token: staff.token,
      fields: { symbol: 'BTC/USDT', reason: 'maintenance' },
    });
    expect(halted.data.status).toBe('halted');
    const refused2 = await order(c.token, { side: 'buy', price: '100', quantity: '0.1' });
    expect(refused2.reason).toBe('SPOT_MARKET_HALTED');
    expect(refused2.params).toMatchObject({ symbol: 'BTC/USDT', reason: 'maintenance' });
    await adminCall(t.app, { call: 'spotMarketEnable', token: staff.token, fields: { symbol: 'BTC/USDT' } });
    const okAgain = await order(c.token, { side: 'buy', price: '100', quantity: '0.1' });
    expect(okAgain.code).toBe(1);
    const audits = await t.db
      .selectFrom('staff_audit')
      .select('action')
      .where('action', 'like', 'spot.%')
      .execute();
    expect(audits.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'spot.kill_switch.engage',
        'spot.kill_switch.release',
        'spot.market.halt',
        'spot.market.enable',
      ]),
    );
    const forbidden = await adminCall(t.app, {
      call: 'spotKillSwitch',
      token: (await staffSession(t, ['content'])).token,
      fields: { engaged: '1', reason: 'nope' },
    });
    expect(forbidden.reason).toBe('FORBIDDEN');
    console.log(`kill switch: engaged and the next order refused in ${elapsed.toFixed(1)} ms`);
  });
});
