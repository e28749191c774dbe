import { describe, expect, it } from 'vitest';
import { createSimFeed, SIM_LIMITS } from './feeds/sim.ts';
import type { FeedTick } from './feeds/types.ts';
import { bySymbol, fixtureInstruments } from './fixtures/instruments.ts';

const instruments = fixtureInstruments();
const SATURDAY = Date.parse('2026-11-21T04:00:00Z');
const MONDAY_NY_OPEN = Date.parse('2026-11-23T14:30:00Z');

function feed(seed: string) {
  const f = createSimFeed({ seed, intervalMs: 1_000 });
  f.setInstruments(instruments, () => null);
  return f;
}

/** What a feed reports over `steps` polls 1 s apart, as comparable text. */
async function run(seed: string, startMs: number, steps: number): Promise<string[]> {
  const f = feed(seed);
  const out: string[] = [];
  for (let i = 0; i < steps; i++) {
    for (const t of await f.poll(startMs + i * 1_000)) out.push(describeTick(t));
  }
  return out;
}

function describeTick(t: FeedTick): string {
  return `${t.instrument.symbol}@${t.atMs} ${t.priceTicks} ${t.bidTicks}/${t.askTicks} m${t.markTicks} x${t.sizeUnits}`;
}

describe('the simulated feed', () => {
  it('is deterministic under a seed, and another seed gives another path', async () => {
    const a = await run('seed-1', MONDAY_NY_OPEN, 60);
    const b = await run('seed-1', MONDAY_NY_OPEN, 60);
    const c = await run('seed-2', MONDAY_NY_OPEN, 60);
    expect(a.length).toBeGreaterThan(60 * 40);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it("an instrument's path does not depend on which other instruments exist", async () => {
    const btc = bySymbol(instruments, 'BTC/USDT');
    const alone = createSimFeed({ seed: 's', intervalMs: 1_000 });
    alone.setInstruments([btc], () => null);
    const all = feed('s');
    for (let i = 0; i < 30; i++) {
      const now = SATURDAY + i * 1_000;
      const mine = (await alone.poll(now)).map(describeTick);
      const fromAll = (await all.poll(now))
        .filter((t) => t.instrument.symbol === 'BTC/USDT')
        .map(describeTick);
      expect(mine).toEqual(fromAll);
    }
  });

  it('respects trading hours: nothing while closed, ticks again at the open', async () => {
    const f = feed('hours');
    const saturday = await f.poll(SATURDAY);
    const classes = new Set(saturday.map((t) => t.instrument.assetClass));
    expect([...classes].sort()).toEqual(['crypto_delivery', 'crypto_perp', 'crypto_spot']);
    for (let i = 1; i < 20; i++) {
      for (const t of await f.poll(SATURDAY + i * 1_000)) expect(t.instrument.assetClass).toMatch(/^crypto_/);
    }
    // Monday 09:30 New York: stocks and ETFs open (forex and metals opened on Sunday evening).
    const monday = await f.poll(MONDAY_NY_OPEN);
    const symbols = new Set(monday.map((t) => t.instrument.symbol));
    for (const symbol of ['AAPL', 'SPY', 'EUR/USD', 'XAU/USD', 'WTI']) expect(symbols.has(symbol)).toBe(true);
    // Hong Kong is closed at that hour.
    expect(symbols.has('0700.HK')).toBe(false);
    // 16:00 New York: the stock market closes again.
    const evening = await f.poll(Date.parse('2026-11-23T21:00:00Z'));
    expect(evening.some((t) => t.instrument.assetClass === 'stock' && t.instrument.quote === 'USD')).toBe(
      false,
    );
  });

  it('reports whole ticks with bid < ask, trades at the touch, sizes in whole lots', async () => {
    const f = feed('grid');
    for (let i = 0; i < 30; i++) {
      for (const t of await f.poll(MONDAY_NY_OPEN + i * 1_000)) {
        expect(t.bidTicks).toBeLessThan(t.askTicks);
        expect([t.bidTicks, t.askTicks]).toContain(t.priceTicks);
        expect(t.markTicks).toBeGreaterThanOrEqual(t.bidTicks);
        expect(t.markTicks).toBeLessThanOrEqual(t.askTicks);
        expect(t.sizeUnits).toBeGreaterThan(0n);
        expect(t.sizeUnits % t.instrument.lotUnits).toBe(0n);
        expect(t.source).toBe('sim');
      }
    }
  });

  it(`never leaves an open instrument silent for more than ${SIM_LIMITS.maxSilenceMs} ms`, async () => {
    const f = feed('silence');
    const lastSeen = new Map<string, number>();
    const start = MONDAY_NY_OPEN;
    for (let i = 0; i < 120; i++) {
      const now = start + i * 1_000;
      for (const t of await f.poll(now)) lastSeen.set(t.instrument.symbol, now);
      if (i < 10) continue;
      for (const symbol of ['BTC/USDT', 'AAPL', 'EUR/USD', 'NATGAS']) {
        expect(now - (lastSeen.get(symbol) ?? 0)).toBeLessThanOrEqual(SIM_LIMITS.maxSilenceMs);
      }
    }
  });

  it('stays near its reference price over a simulated month', async () => {
    const f = feed('month');
    const btc = bySymbol(instruments, 'BTC/USDT');
    let last = btc.refTicks;
    for (let i = 0; i < 30 * 24; i++) {
      for (const t of await f.poll(SATURDAY + i * 3_600_000)) if (t.instrument === btc) last = t.priceTicks;
    }
    expect(last).toBeGreaterThan(btc.refTicks / 3n);
    expect(last).toBeLessThan(btc.refTicks * 3n);
  });
});
