import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, createTestDatabase, type TestApp } from '../../../test/harness.ts';
import { buildApp } from '../../app.ts';
import { type Config, loadConfig } from '../../config.ts';
import { createDb } from '../../db/database.ts';
import { manualClock } from '../../lib/clock.ts';
import { customer, fund, ledgerOf, USDT } from '../assets/testing.ts';
import { adminCall, staffSession } from '../staff/testing.ts';
import { writeSetting } from './repo.ts';

type LogLine = { level: number; msg: string; symbol?: string; book?: string };

/** The test harness's app, but with a real pino logger writing into `lines` (error lines are checked). */
async function startWithLog(overrides: Partial<Config>): Promise<TestApp & { lines: LogLine[] }> {
  const database = await createTestDatabase();
  const config: Config = Object.freeze({
    ...loadConfig({ LOG_LEVEL: 'silent' }),
    demoContent: false,
    accessRateLimitPerIp: 100_000,
    accessRateLimitPerAccount: 100_000,
    webDist: '/nonexistent',
    adminDist: '/nonexistent',
    simHistoryCandles: 0,
    ...overrides,
  });
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split('\n')) if (text.trim()) lines.push(JSON.parse(text));
      done();
    },
  });
  const handle = createDb(database.url, { max: 10 });
  const clock = manualClock(new Date('2026-11-21T04:00:00Z'));
  const app = await buildApp({
    config,
    db: handle.db,
    secret: 'test-secret-test-secret-test-secret!',
    clock,
    logger: pino({ level: 'info' }, sink),
  });
  await app.ready();
  return {
    app,
    db: handle.db,
    clock,
    config,
    lines,
    async close() {
      await app.close();
      await handle.db.destroy();
      await database.drop();
    },
  };
}

const errorLines = (lines: LogLine[]) => lines.filter((l) => l.level >= 50);

let t: TestApp & { lines: LogLine[] };
const LEGACY_BTC_KEY = 'spot:mm:capital:real:BTC/USDT:BTC';
beforeAll(async () => {
  t = await startWithLog({ feedTickMs: 0, marketMaker: 'on' });
  t.app.marketMaker.stop(); // no wall-clock timer: the test drives every round
  // An install funded before capital was keyed per currency: its per-market key counts as committed.
  await ledgerOf(t).credit(t.db, {
    book: 'real',
    customerId: t.app.marketMaker.ids().real as string,
    accountType: 'spot',
    currency: 'BTC',
    amountUnits: 50_000_000n,
    from: 'market_maker_capital',
    reason: 'spot.mm.capital',
    reference: { type: 'market_maker', id: 'real:BTC/USDT' },
    idempotencyKey: LEGACY_BTC_KEY,
  });
  await t.app.market.step();
  await t.app.marketMaker.refreshNow();
});
afterAll(async () => t?.close());

/** Moves the simulated price: the clock forward, one feed step. */
async function movePrice(ms = 7_000): Promise<void> {
  t.clock.advance(ms);
  await t.app.market.step();
}

async function depthOf(symbol: string): Promise<{ bids: string[][]; asks: string[][] }> {
  const d = await call(t.app, { method: 'GET', call: 'getDepth', fields: { symbol } });
  return d.data;
}

const SYMBOLS = ['BTC/USDT', 'ETH/USDT', 'SOL/USDT', 'BNB/USDT', 'TRX/USDT'];

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

  it('follows a moving price round after round: no throw, no error line, quotes around each new mark', async () => {
    const seen = new Map<string, Set<string>>();
    for (let round = 0; round < 4; round++) {
      await movePrice();
      await expect(t.app.marketMaker.refreshNow()).resolves.toBeUndefined();
      for (const symbol of SYMBOLS) {
        const mark = t.app.market.ticker(symbol).mark;
        seen.set(symbol, (seen.get(symbol) ?? new Set()).add(mark));
        const depth = await depthOf(symbol);
        expect(depth.bids.length, symbol).toBeGreaterThan(0);
        expect(depth.asks.length, symbol).toBeGreaterThan(0);
        const m = Number(mark);
        const bid = Number(depth.bids[0]?.[0]);
        const ask = Number(depth.asks[0]?.[0]);
        // spread_bps 10 around the mark (plus one tick of rounding): the quotes follow the price.
        expect(bid, `${symbol} bid at mark ${mark}`).toBeLessThanOrEqual(m);
        expect(ask, `${symbol} ask at mark ${mark}`).toBeGreaterThanOrEqual(m);
        expect((m - bid) / m, `${symbol} bid at mark ${mark}`).toBeLessThan(0.0025);
        expect((ask - m) / m, `${symbol} ask at mark ${mark}`).toBeLessThan(0.0025);
      }
    }
    for (const symbol of SYMBOLS) expect(seen.get(symbol)?.size, symbol).toBeGreaterThan(1);
    expect(errorLines(t.lines)).toEqual([]);
    // Capital: one entry per book and currency, whatever the price did.
    const capital = await t.db
      .selectFrom('ledger_entry')
      .select(['book', 'idempotency_key'])
      .where('reason', '=', 'spot.mm.capital')
      .execute();
    expect(capital).toHaveLength(2 * 6);
    const keys = capital.map((e) => e.idempotency_key);
    const realId = t.app.marketMaker.ids().real as string;
    expect(keys).toContain(LEGACY_BTC_KEY);
    expect(keys).not.toContain(`spot:mm:capital:real:${realId}:BTC`);
    expect(keys).toContain(`spot:mm:capital:real:${realId}:USDT`);
    const health = t.app.marketMaker.health();
    expect(health.markets).toHaveLength(2 * SYMBOLS.length);
    for (const h of health.markets) {
      expect(h.last_quote_at).toBe(t.clock.now().toISOString());
      expect(h.errors_last_hour).toBe(0);
    }
    expect((await ledgerOf(t).verify()).ok).toBe(true);
    expect(await t.app.spot.checkFrozen()).toEqual([]);
  }, 240_000); // each round re-quotes 10 books × 10 post-only orders: slow on a loaded machine

  it('keeps its quotes while the mark stays within half a step (5 bps); follows a larger move', async () => {
    await t.app.marketMaker.refreshNow();
    const symbol = 'BTC/USDT';
    const mm = t.app.marketMaker.ids().real as string;
    const quotes = () =>
      [...t.app.spot.runner(symbol, 'real').open.values()]
        .filter((o) => o.customerId === mm)
        .map((o) => o.id)
        .sort();
    const before = quotes();
    expect(before.length).toBeGreaterThan(0);
    // The mark the quotes stand around: midway between the best bid and ask (within a tick).
    const depth = await depthOf(symbol);
    const center = (Number(depth.bids[0]?.[0]) + Number(depth.asks[0]?.[0])) / 2;
    const bpsFrom = () => (Math.abs(Number(t.app.market.ticker(symbol).mark) - center) / center) * 10_000;
    // A small move (the mark changed, by under 3 bps): the quotes stay — no cancel, no new order.
    const startMark = t.app.market.ticker(symbol).mark;
    let small = false;
    for (let i = 0; i < 100 && !small; i++) {
      await movePrice(20);
      const d = bpsFrom();
      if (d >= 3) break;
      small = t.app.market.ticker(symbol).mark !== startMark;
    }
    expect(small, 'a move of under 3 bps').toBe(true);
    await t.app.marketMaker.refreshNow();
    expect(quotes()).toEqual(before);
    // A move past 5 bps: all of them are replaced around the new mark.
    for (let i = 0; i < 200 && bpsFrom() < 8; i++) await movePrice(7_000);
    expect(bpsFrom()).toBeGreaterThanOrEqual(8);
    await t.app.marketMaker.refreshNow();
    const after = quotes();
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((id) => before.includes(id))).toEqual([]);
    expect(await t.app.spot.checkFrozen()).toEqual([]);
  }, 120_000);

  it('one failing market never stops the others, logs once per run of failures, and recovers by itself', async () => {
    const original = t.app.spot.amendFor;
    const spy = vi.spyOn(t.app.spot, 'amendFor').mockImplementation(async (...args) => {
      if (args[2] === 'ETH/USDT') throw new Error('injected: ETH/USDT unavailable');
      return original(...args);
    });
    const before = t.lines.length;
    // The first failing round needs a move past the re-quote tolerance (5 bps) from ETH's quotes;
    // after a failure every round re-quotes.
    const quoted = await depthOf('ETH/USDT');
    const center = (Number(quoted.bids[0]?.[0]) + Number(quoted.asks[0]?.[0])) / 2;
    const ethMoved = () =>
      (Math.abs(Number(t.app.market.ticker('ETH/USDT').mark) - center) / center) * 10_000;
    for (let i = 0; i < 200 && ethMoved() < 8; i++) await movePrice();
    expect(ethMoved()).toBeGreaterThanOrEqual(8);
    const failedAt = t.clock.now().getTime();
    try {
      for (let round = 0; round < 3; round++) {
        if (round > 0) await movePrice();
        await expect(t.app.marketMaker.refreshNow()).resolves.toBeUndefined();
        for (const symbol of SYMBOLS.filter((s) => s !== 'ETH/USDT')) {
          const mark = Number(t.app.market.ticker(symbol).mark);
          const depth = await depthOf(symbol);
          expect((mark - Number(depth.bids[0]?.[0])) / mark, symbol).toBeLessThan(0.0025);
          expect((Number(depth.asks[0]?.[0]) - mark) / mark, symbol).toBeLessThan(0.0025);
        }
      }
    } finally {
      spy.mockRestore();
    }
    const errors = errorLines(t.lines.slice(before));
    // One line per book for the run of three failed rounds, with its market and book.
    expect(errors.map((l) => `${l.symbol} ${l.book}`).sort()).toEqual(['ETH/USDT demo', 'ETH/USDT real']);
    let health = t.app.marketMaker.health();
    for (const h of health.markets) {
      if (h.symbol === 'ETH/USDT') {
        expect(h.errors_last_hour).toBe(3);
        expect(h.last_error).toBe('injected: ETH/USDT unavailable');
        expect(Date.parse(h.last_quote_at ?? '')).toBeLessThanOrEqual(failedAt);
      } else {
        expect(h.errors_last_hour).toBe(0);
        expect(h.last_quote_at).toBe(t.clock.now().toISOString());
      }
    }
    // The next round quotes ETH/USDT again, on its own.
    await movePrice();
    await t.app.marketMaker.refreshNow();
    const mark = Number(t.app.market.ticker('ETH/USDT').mark);
    const depth = await depthOf('ETH/USDT');
    expect((mark - Number(depth.bids[0]?.[0])) / mark).toBeLessThan(0.0025);
    expect((Number(depth.asks[0]?.[0]) - mark) / mark).toBeLessThan(0.0025);
    health = t.app.marketMaker.health();
    const eth = health.markets.filter((h) => h.symbol === 'ETH/USDT');
    for (const h of eth) expect(h.last_quote_at).toBe(t.clock.now().toISOString());
    // Errors age out of the rolling hour by the injected clock.
    t.clock.advance(3_600_000);
    for (const h of t.app.marketMaker.health().markets) expect(h.errors_last_hour).toBe(0);
    t.clock.advance(-3_600_000);
    expect(await t.app.spot.checkFrozen()).toEqual([]);
  }, 240_000);

  it("settings another process's back office saved are applied at the next controls refresh (SPOT_LEASES)", async () => {
    const mine = () =>
      SYMBOLS.flatMap((symbol) =>
        (['real', 'demo'] as const).flatMap((book) =>
          [...t.app.spot.runner(symbol, book).open.values()].filter(
            (o) => o.customerId === t.app.marketMaker.ids()[book],
          ),
        ),
      ).length;
    await t.app.marketMaker.refreshNow();
    expect(mine()).toBeGreaterThan(0);
    // Nothing changed: a refresh leaves the quotes alone.
    await t.app.spot.refreshControls();
    expect(mine()).toBeGreaterThan(0);
    // Another process saved "off" (only the row changes here): this one cancels its quotes.
    const saved = (await t.app.marketMaker.view()).settings;
    await writeSetting(t.db, 'market_maker', { ...saved, enabled: false }, t.clock.now());
    await t.app.spot.refreshControls();
    expect((await t.app.marketMaker.view()).settings.enabled).toBe(false);
    expect(mine()).toBe(0);
    // And "on" again: it quotes at its next round.
    await writeSetting(t.db, 'market_maker', { ...saved, enabled: true }, t.clock.now());
    await t.app.spot.refreshControls();
    await t.app.marketMaker.refreshNow();
    expect(mine()).toBeGreaterThan(0);
    t.app.marketMaker.stop(); // the tests drive every round
    expect(await t.app.spot.checkFrozen()).toEqual([]);
  });

  it('health reports only the books this process owns (SPOT_LEASES: the owner reports the others)', async () => {
    const all = t.app.marketMaker.health().markets.map((h) => `${h.symbol} ${h.book}`);
    expect(all).toContain('ETH/USDT real');
    const spy = vi
      .spyOn(t.app.spot, 'owns')
      .mockImplementation((symbol, book) => !(symbol === 'ETH/USDT' && book === 'real'));
    try {
      const listed = t.app.marketMaker.health().markets.map((h) => `${h.symbol} ${h.book}`);
      expect(listed).toEqual(all.filter((x) => x !== 'ETH/USDT real'));
    } finally {
      spy.mockRestore();
    }
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
