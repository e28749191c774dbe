import type { Logger } from 'pino';
import { detached } from '../../db/database.ts';
import type { Uploads } from './service.ts';

export type SweepSchedule = {
  /** Deletes what is due now (joins the run in progress instead of overlapping it). */
  runOnce(): Promise<number>;
  stop(): void;
};

/**
 * The retention job: every `intervalMs` it deletes the files that are due at the injected clock
 * (uploads.sweep). Runs never overlap; a failed run is logged and the next one takes it up again.
 */
export function scheduleSweep(deps: {
  uploads: Pick<Uploads, 'sweep'>;
  log: Logger;
  intervalMs: number;
}): SweepSchedule {
  let running: Promise<number> | null = null;
  let stopped = false;
  const runOnce = (): Promise<number> => {
    if (running) return running;
    running = detached(() => deps.uploads.sweep())
      .catch((error: unknown) => {
        deps.log.warn({ err: error }, 'document retention job could not run; retried at the next tick');
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
