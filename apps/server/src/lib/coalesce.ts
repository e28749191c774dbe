/**
 * Group calls into batches: calls made in the same turn of the event loop go together (a free lane
 * flushes at `setImmediate`, after the turn's other callbacks — the requests parsed from one read
 * of the sockets, the answers of one spot batch), and a call made while `lanes` flushes are already
 * running waits and goes with every other call made meanwhile in the next flush (at most `max` per
 * flush). A lone call on an idle process waits only for the end of its turn; under load, one round
 * trip serves many callers. (Flushing a call at once when a lane was free sent most calls alone:
 * bench/README.md, "Session 23".)
 *
 * `flush` answers each item in order (an array as long as its input); if it throws, every call of
 * that batch is rejected with the error.
 */
export type Coalesced<I, O> = ((item: I) => Promise<O>) & {
  /** Resolves when no flush is running and nothing waits. */
  drained(): Promise<void>;
};

export type CoalesceOptions = { max?: number; lanes?: number };

/** Flushes running at once against a pool (reads and writes on separate connections). */
export const POOL_LANES = 4;

type Waiting<I, O> = { item: I; resolve: (o: O) => void; reject: (e: unknown) => void };

export function coalesce<I, O>(
  flush: (items: I[]) => Promise<O[]>,
  options: CoalesceOptions = {},
): Coalesced<I, O> {
  const max = options.max ?? 500;
  const lanes = options.lanes ?? 1;
  let waiting: Waiting<I, O>[] = [];
  let running = 0;
  let idle: Array<() => void> = [];

  function start(): void {
    while (running < lanes && waiting.length > 0) {
      const batch = waiting.slice(0, max);
      waiting = waiting.slice(batch.length);
      running += 1;
      void run(batch);
    }
    if (running === 0 && waiting.length === 0) {
      const done = idle;
      idle = [];
      for (const r of done) r();
    }
  }

  async function run(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const out = await flush(batch.map((w) => w.item));
      if (out.length !== batch.length)
        throw new Error(`coalesce: flush answered ${out.length} of ${batch.length} items`);
      batch.forEach((w, i) => {
        w.resolve(out[i] as O);
      });
    } catch (error) {
      for (const w of batch) w.reject(error);
    } finally {
      running -= 1;
      start();
    }
  }

  /** A flush is due at the end of this turn (set once per turn, by its first call). */
  let due = false;
  const call = ((item: I) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (due || running >= lanes) return; // it goes with the due flush, or when a lane frees up
      due = true;
      setImmediate(() => {
        due = false;
        start();
      });
    })) as Coalesced<I, O>;
  call.drained = () =>
    running === 0 && waiting.length === 0 ? Promise.resolve() : new Promise<void>((r) => idle.push(r));
  return call;
}
