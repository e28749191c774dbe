import type { Logger } from 'pino';
import { detached } from './database.ts';

export type JobSchedule = {
  /** Runs the job now (joins the run in progress instead of overlapping it); resolves to its count. */
  runOnce(): Promise<number>;
  stop(): void;
};

/**
 * A background job every `intervalMs`, outside any request's effect scope: runs never overlap, and a
 * failed run is logged at warn (`<what> could not run; retried at the next tick`) and counts 0 — the
 * job itself must be safe to run again (each effect exactly once, in its own transaction).
 */
export function scheduleJob(deps: {
  run: () => Promise<number>;
  what: string;
  log: Logger;
  intervalMs: number;
}): JobSchedule {
  let running: Promise<number> | null = null;
  let stopped = false;
  const runOnce = (): Promise<number> => {
    if (running) return running;
    running = detached(deps.run)
      .catch((error: unknown) => {
        deps.log.warn({ err: error }, `${deps.what} could not run; retried at the next tick`);
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
