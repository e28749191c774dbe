import { describe, expect, it } from 'vitest';
import { testLogger } from '../../../test/logwatch.ts';
import { manualClock } from '../../lib/clock.ts';
import type { MarketBus, WireBatch } from './bus.ts';
import { MarketEngine } from './engine.ts';
import { fixtureInstruments } from './fixtures/instruments.ts';
import type { Recorder } from './recorder.ts';
import { MarketState } from './state.ts';

/** A follower's side of the stream, without database or Redis: order, duplicates, gaps. */
function follower() {
  const state = new MarketState({ staleAfterMs: 30_000 });
  state.setCatalogue(fixtureInstruments());
  const published: number[] = [];
  const resyncs: number[] = [];
  let release: () => void = () => {};
  const engine = new MarketEngine({
    state,
    channels: { publish: (changes) => published.push(changes?.ticks.length ?? 0), refreshAll() {} },
    recorder: { record() {}, flush: async () => true, backlog: () => 0, close: async () => {} } as Recorder,
    bus: {
      processId: 'me',
      distributed: true,
      start: async () => {},
      publish() {},
      close: async () => {},
    } as MarketBus,
    clock: manualClock(new Date('2026-11-21T04:00:00Z')),
    log: testLogger(),
    async resync(need) {
      resyncs.push(need);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { batchSeq: need };
    },
  });
  return { engine, state, published, resyncs, release: () => release() };
}

function batch(seq: number, price: string): WireBatch {
  return {
    v: 1,
    leader: 'owner',
    seq,
    time: Date.parse('2026-11-21T04:00:00Z') + seq * 500,
    ticks: [
      [
        'BTC/USDT',
        seq,
        Date.parse('2026-11-21T04:00:00Z') + seq * 500,
        price,
        price,
        price,
        price,
        '0.1',
        'sim',
      ],
    ],
  };
}

describe('a follower applying the owner’s batches', () => {
  it('applies in order and skips what it has seen', () => {
    const f = follower();
    f.engine.receive(batch(1, '95000.00'));
    f.engine.receive(batch(2, '95001.00'));
    f.engine.receive(batch(2, '95001.00'));
    f.engine.receive(batch(1, '95000.00'));
    expect(f.published).toEqual([1, 1]);
    expect(f.state.get('BTC/USDT')?.last).toBe(9500100n);
    expect(f.engine.batchSeq).toBe(2);
  });

  it('a gap makes it reload the recorded state, holding what arrives meanwhile, then go on', async () => {
    const f = follower();
    f.engine.receive(batch(1, '95000.00'));
    f.engine.receive(batch(4, '95004.00')); // 2 and 3 were missed
    expect(f.resyncs).toEqual([3]);
    f.engine.receive(batch(5, '95005.00')); // held during the resync
    expect(f.published).toEqual([1]);
    f.release();
    await f.engine.settled();
    expect(f.engine.batchSeq).toBe(5);
    expect(f.published).toEqual([1, 1, 1]);
    expect(f.state.get('BTC/USDT')?.last).toBe(9500500n);
  });
});
