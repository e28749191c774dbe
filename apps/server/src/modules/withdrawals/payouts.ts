import type { Logger } from 'pino';
import { type JobSchedule, scheduleJob } from '../../db/schedule.ts';
import type { Withdrawals } from './service.ts';

export type PayoutSchedule = JobSchedule;

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
  return scheduleJob({
    run: () => deps.withdrawals.confirmDuePayouts(),
    what: 'payout job',
    log: deps.log,
    intervalMs: deps.intervalMs,
  });
}
