import type { Logger } from 'pino';
import { type JobSchedule, scheduleJob } from '../../db/schedule.ts';
import type { Uploads } from './service.ts';

export type SweepSchedule = JobSchedule;

/**
 * The retention job: every `intervalMs` it deletes the files that are due at the injected clock
 * (uploads.sweep). Runs never overlap; a failed run is logged and the next one takes it up again.
 */
export function scheduleSweep(deps: {
  uploads: Pick<Uploads, 'sweep'>;
  log: Logger;
  intervalMs: number;
}): SweepSchedule {
  return scheduleJob({
    run: () => deps.uploads.sweep(),
    what: 'document retention job',
    log: deps.log,
    intervalMs: deps.intervalMs,
  });
}
