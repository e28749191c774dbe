import type { WsTicker } from '@bourse/protocol';
import { describe, expect, it, vi } from 'vitest';
import { testLogger } from '../../../test/logwatch.ts';
import type { Db } from '../../db/database.ts';
import { manualClock } from '../../lib/clock.ts';
import type { MarketBus, WireBatch } from './bus.ts';
import type { MarketChannels } from './channels.ts';
import { MarketEngine } from './engine.ts';
import { bySymbol, fixtureInstruments } from './fixtures/instruments.ts';
import { createRecorder, type RecordSnapshot, restoreState } from './recorder.ts';
import type { CandleRow, PriceRow } from './repo.ts';
import { type InstrumentState, MarketState } from './state.ts';
import { wsTicker } from './tickers.ts';

/**
 * The record in memory, standing in for the database. A write waits at a gate until the test opens
 * it (a write that takes a while, with batches arriving meanwhile), and writes in persistBatch's
 * order: ticks, candles and prices first, the cursor last (ticks are not read back: not kept here).
 */
const record = vi.hoisted(() => {
  type Input = { prices: PriceRow[]; candles: CandleRow[]; cursor: { batchSeq: number; tickSeq: number } };
  const rows = { prices: new Map<string, PriceRow>(), candles: new Map<string, CandleRow>() };
  let cursor = { batchSeq: 0, tickSeq: 0 };
  const gates: Array<() => void> = [];
  const readers: Array<{ need: number; read(snapshot: RecordSnapshot): void }> = [];
  const snapshot = (): RecordSnapshot => ({
    cursor: { ...cursor },
    prices: [...rows.prices.values()],
    candles: [...rows.candles.values()],
  });
  return {
    async persist(input: Input): Promise<void> {
      const { prices, candles } = input;
      await new Promise<void>((open) => gates.push(open));
      for (const row of prices) rows.prices.set(row.instrument_id, row);
      for (const row of candles)
        rows.candles.set(`${row.instrument_id}|${row.interval}|${row.open_time.getTime()}`, row);
      // The cursor statement is built last, from `input.cursor` as it is by then.
      cursor = {
        batchSeq: Math.max(cursor.batchSeq, input.cursor.batchSeq),
        tickSeq: Math.max(cursor.tickSeq, input.cursor.tickSeq),
      };
      for (const reader of readers.splice(0)) {
        if (cursor.batchSeq >= reader.need) reader.read(snapshot());
        else readers.push(reader);
      }
    },
    /** Lets the oldest waiting write commit, and the recorder start its next one. */
    async open(): Promise<void> {
      gates.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    },
    cursor: () => ({ ...cursor }),
    /** What a resynchronising follower reads: the first committed record whose cursor covers `need`. */
    covering(need: number): Promise<RecordSnapshot> {
      if (cursor.batchSeq >= need) return Promise.resolve(snapshot());
      return new Promise((read) => readers.push({ need, read }));
    },
  };
});

vi.mock('./repo.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./repo.ts')>()),
  persistBatch: (_tx: unknown, input: Parameters<typeof record.persist>[0]) => record.persist(input),
}));

const T0 = new Date('2026-11-21T04:00:00Z');
const instruments = fixtureInstruments();
const btc = bySymbol(instruments, 'BTC/USDT');
const noDb = {
  transaction: () => ({ execute: (work: (tx: unknown) => unknown) => work({}) }),
} as unknown as Db;

/** One process's market, with the tickers it publishes by message time. */
function market(resync: (state: MarketState, need: number) => Promise<{ batchSeq: number }>) {
  const state = new MarketState({ staleAfterMs: 30_000 });
  state.setCatalogue(instruments);
  const tickers = new Map<number, WsTicker[]>();
  const channels: MarketChannels = {
    publish(changes, _also, timeMs) {
      if (changes)
        tickers.set(
          timeMs,
          changes.touched.map((i) => wsTicker(state.at(i) as InstrumentState)),
        );
    },
    refreshAll() {},
  };
  const wire: WireBatch[] = [];
  const bus: MarketBus = {
    processId: 'p',
    distributed: true,
    start: async () => {},
    publish: (batch) => void wire.push(batch),
    close: async () => {},
  };
  const clock = manualClock(T0);
  const log = testLogger();
  const recorder = createRecorder({ db: noDb, log, clock, cursorName: 'main' });
  const engine = new MarketEngine({
    state,
    channels,
    recorder,
    bus,
    clock,
    log,
    resync: (n) => resync(state, n),
  });
  return { state, engine, clock, tickers, wire };
}

describe('a follower restored from the record while the owner is writing', () => {
  it('shows the owner’s tickers, 24 h volume and turnover included', async () => {
    const owner = market(async () => ({ batchSeq: 0 }));
    owner.engine.becomeLeader({ batchMs: 0 });
    const follower = market(async (state, need) =>
      restoreState(state, instruments, await record.covering(need), T0.getTime()),
    );
    const step = (price: bigint) => {
      owner.clock.advance(500);
      const atMs = owner.clock.now().getTime();
      const tick = { atMs, priceTicks: price, bidTicks: price, askTicks: price, markTicks: price };
      owner.engine.ingest([{ instrument: btc, ...tick, sizeUnits: 10_000_000n, source: 'sim' }]);
      owner.engine.flushBatch();
      return owner.wire[owner.wire.length - 1] as WireBatch;
    };

    follower.engine.receive(step(9_500_000n)); // batch 1: its write is under way
    step(9_500_100n); // batch 2: the follower misses it
    follower.engine.receive(step(9_500_200n)); // batch 3: a gap, so the follower resynchronises
    await record.open(); // batch 1's write commits: the record holds batch 1 only
    const firstCursor = record.cursor();
    await record.open(); // batches 2 and 3, merged into the next write
    await follower.engine.settled();
    const last = step(9_500_300n);
    follower.engine.receive(last);

    expect(follower.engine.batchSeq).toBe(4);
    expect(follower.tickers.get(last.time)).toEqual(owner.tickers.get(last.time));
    expect(owner.tickers.get(last.time)?.[0]).toMatchObject({ v: '0.4', q: '38000.6' });
    // The cause: a write committed the cursor of batches recorded while it was under way.
    expect(firstCursor).toEqual({ batchSeq: 1, tickSeq: 1 });
  });
});
