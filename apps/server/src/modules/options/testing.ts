import type { TestApp } from '../../../test/harness.ts';
import { inTransaction } from '../../db/database.ts';
import type { TickConsumer } from '../../lib/ticks.ts';
import { latestRecordedSeq, recordedTicksAfter } from '../market/index.ts';

/**
 * Runs a consumer the way the risk engine does (lib/ticks.ts): the recorded ticks after a cursor,
 * in seq order, then the time-driven work, in one transaction. Test support only — the real engine
 * is modules/contracts.
 */
export async function engineDriver(t: TestApp, consumer: TickConsumer) {
  let cursor = await latestRecordedSeq(t.db);
  let through: Date | null = null;
  return {
    async round(): Promise<number> {
      await t.app.market.flushRecorder();
      const ticks = await recordedTicksAfter(t.db, cursor, 100_000);
      await inTransaction(t.db, async (tx) => {
        if (ticks.length > 0) await consumer.onTicks(tx, ticks);
        for (const tick of ticks) if (!through || tick.at > through) through = tick.at;
        await consumer.onTime(tx, t.clock.now(), through);
      });
      const last = ticks[ticks.length - 1];
      if (last) cursor = last.seq;
      return ticks.length;
    },
    /** Re-hands the ticks after `seq` (a crash-and-retry or a second engine). */
    async replayFrom(seq: bigint): Promise<void> {
      const ticks = await recordedTicksAfter(t.db, seq, 100_000);
      await inTransaction(t.db, async (tx) => {
        await consumer.onTicks(tx, ticks);
        await consumer.onTime(tx, t.clock.now(), through);
      });
    },
    cursor: () => cursor,
  };
}
