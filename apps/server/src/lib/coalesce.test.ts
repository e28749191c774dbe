import { describe, expect, it } from 'vitest';
import { coalesce } from './coalesce.ts';

/** A flush that records its batches and finishes when the test says so. */
function gatedFlush() {
  const batches: number[][] = [];
  const gates: Array<() => void> = [];
  let running = 0;
  let maxRunning = 0;
  const flush = async (items: number[]) => {
    batches.push(items);
    running += 1;
    maxRunning = Math.max(maxRunning, running);
    await new Promise<void>((r) => gates.push(r));
    running -= 1;
    if (items.includes(-1)) throw new Error('flush failed');
    return items.map((i) => i * 10);
  };
  const open = async () => {
    while (gates.length === 0) await new Promise((r) => setTimeout(r, 1));
    gates.shift()?.();
  };
  return { flush, batches, open, maxRunning: () => maxRunning, pending: () => gates.length };
}

describe('coalesce', () => {
  it('flushes the calls of one turn together, and what came meanwhile in the next flush, answering each in order', async () => {
    const g = gatedFlush();
    const call = coalesce(g.flush);
    const first = [1, 2].map((i) => call(i));
    // A later turn, while [1, 2] is being flushed: these wait for it and go together.
    await new Promise((r) => setImmediate(r));
    expect(g.batches).toEqual([[1, 2]]);
    const rest = [3, 4, 5].map((i) => call(i));
    await g.open();
    expect(await Promise.all(first)).toEqual([10, 20]);
    await g.open();
    expect(await Promise.all(rest)).toEqual([30, 40, 50]);
    expect(g.batches).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    await call.drained();
  });

  it('a lone call on an idle process goes at the end of its turn, before any timer', async () => {
    const g = gatedFlush();
    const call = coalesce(g.flush);
    const answer = call(7);
    expect(g.batches).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(g.batches).toEqual([[7]]);
    await g.open();
    expect(await answer).toBe(70);
  });

  it('runs at most `lanes` flushes at once and at most `max` items in each', async () => {
    const g = gatedFlush();
    const call = coalesce(g.flush, { lanes: 2, max: 2 });
    const answers = Promise.all([1, 2, 3, 4, 5, 6, 7].map((i) => call(i)));
    // One turn's calls, both lanes free: [1, 2] and [3, 4] at once; then [5, 6] and [7] as lanes free up.
    for (let i = 0; i < 4; i++) await g.open();
    expect(await answers).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(g.maxRunning()).toBe(2);
    expect(g.batches).toEqual([[1, 2], [3, 4], [5, 6], [7]]);
  });

  it('a failed flush rejects its own batch only; a flush answering the wrong count is a failure', async () => {
    const g = gatedFlush();
    const call = coalesce(g.flush);
    const a = call(1);
    await new Promise((r) => setImmediate(r));
    const b = [call(-1), call(2)];
    const c = call(3);
    await g.open();
    await g.open();
    // -1, 2 and 3 all waited while 1 was flushed: they went together, and fail together.
    expect(await a).toBe(10);
    await expect(b[0]).rejects.toThrow('flush failed');
    await expect(b[1]).rejects.toThrow('flush failed');
    await expect(c).rejects.toThrow('flush failed');
    const short = coalesce(async (items: number[]) => items.slice(1));
    await expect(short(1)).rejects.toThrow('answered 0 of 1');
    const after = call(4);
    await g.open();
    expect(await after).toBe(40);
  });

  it('drained resolves once nothing runs and nothing waits', async () => {
    const g = gatedFlush();
    const call = coalesce(g.flush);
    let drained = false;
    const p = call(1);
    void call.drained().then(() => {
      drained = true;
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(drained).toBe(false);
    await g.open();
    await p;
    await new Promise((r) => setTimeout(r, 0));
    expect(drained).toBe(true);
  });
});
