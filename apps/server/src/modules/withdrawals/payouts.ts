import type { Logger } from 'pino';
import { detached } from '../../db/database.ts';
import type { Withdrawals } from './service.ts';

export type PayoutSchedule = {
  /** Settles every due payout now (joins the run in progress instead of overlapping it). */
  runOnce(): Promise<number>;
  stop(): void;
};

/**
 * The payout job: every `intervalMs` it settles the simulated-chain payouts whose confirmation
 * instant (read from the injected clock) has come. Runs never overlap; a failed run is logged and
 * the next one retries (each payout settles in its own transaction, exactly once).
 */
export function schedulePayouts(deps: {
  withdrawals: Withdrawals;
  log: Logger;
  intervalMs: number;
}): PayoutSchedule {
  let running: Promise<number> | null = null;
  let stopped = false;
  const runOnce = (): Promise<number> => {
    if (running) return running;
    running = detached(() => deps.withdrawals.confirmDuePayouts())
      .catch((error: unknown) => {
        deps.log.warn({ err: error }, 'payout job could not run; retried at the next tick');
        return 0;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => {
    if (!stopped) void runOnce();
  }, deps.intervalMs);
  timer.unref();
  return {
    runOnce,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
