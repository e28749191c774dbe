import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';

/** The market maker at shutdown: a round in flight does not hold the server's stop for every market. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0, marketMaker: 'on' });
  t.app.marketMaker.stop(); // no wall-clock timer: the test drives every round
  await t.app.market.step();
  await t.app.marketMaker.refreshNow();
});
afterAll(async () => t?.close());

async function quotes(symbol: string): Promise<string> {
  const d = await call(t.app, { method: 'GET', call: 'getDepth', fields: { symbol } });
  return JSON.stringify([d.data.bids, d.data.asks]);
}

/** Moves the simulated marks far enough for the next round to re-quote every market. */
async function moveMarks(): Promise<void> {
  t.clock.advance(600_000);
  await t.app.market.step();
}

describe('market maker at shutdown', () => {
  it('ends a round in flight after the market it is on, then quotes no more', async () => {
    const last =
      t.app.spot
        .markets()
        .filter((m) => m.status === 'enabled')
        .at(-1)?.symbol ?? '';
    expect(last).not.toBe('');
    // Control: a whole round re-quotes the last market after the marks move.
    await moveMarks();
    const before = await quotes(last);
    await t.app.marketMaker.refreshNow();
    expect(await quotes(last)).not.toBe(before);

    // Closing while a round runs: the round stops after its first market, the last keeps its quotes.
    await moveMarks();
    const kept = await quotes(last);
    const round = t.app.marketMaker.refreshNow();
    await t.app.marketMaker.close();
    await round;
    expect(await quotes(last)).toBe(kept);
    // And no round after close places anything.
    await moveMarks();
    await t.app.marketMaker.refreshNow();
    expect(await quotes(last)).toBe(kept);
  });
});
