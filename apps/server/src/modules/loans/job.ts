import { inTransaction } from '../../db/database.ts';
import { type JobSchedule, scheduleJob } from '../../db/schedule.ts';
import { JOB_BATCH, type LoansDeps } from './context.ts';
import { chargeNextDay } from './days.ts';
import { notifyLoan } from './notices.ts';
import type { LoanRow } from './repo.ts';
import * as repo from './repo.ts';

/**
 * The daily job (README.md, "The daily job"), on the injected clock: every loan-day that has ended
 * is charged in its own transaction (`chargeNextDay`: the loan row locked, the ledger entry under
 * `loan:day:<loan>:<day>`, the `loans_day` row and the new state together), so a crash repeats
 * nothing and a later run resumes at the first uncharged day; days missed while the server was down
 * are each charged once, in order. Then the reminders: a loan due within a day is reminded once
 * (`reminded_at` set in a transaction, the message sent after it commits).
 */

async function chargeOne(deps: LoansDeps, id: string, now: Date): Promise<boolean> {
  return inTransaction(deps.db, async (tx) => {
    const row = await repo.findLoan(tx, id, { lock: true });
    if (!row) return false;
    return (await chargeNextDay(deps, tx, row, now)) !== null;
  });
}

async function remindOne(deps: LoansDeps, id: string, now: Date): Promise<boolean> {
  const row = await inTransaction(deps.db, async (tx): Promise<LoanRow | null> => {
    const r = await repo.findLoan(tx, id, { lock: true });
    if (!r || (r.state !== 'disbursed' && r.state !== 'repaying') || r.reminded_at !== null) return null;
    return (await repo.markReminded(tx, id, now)) ? r : null;
  });
  if (row === null) return false;
  await notifyLoan(deps, row, 'reminder');
  return true;
}

/** One run: every ended loan-day (one transaction each), then the reminders. Answers how many it did. */
export async function runLoansJob(deps: LoansDeps): Promise<number> {
  const now = deps.clock.now();
  let count = 0;
  for (;;) {
    const ids = await repo.dueLoanIds(deps.db, now, JOB_BATCH);
    let progressed = 0;
    // Each loan until it is no longer due at `now` (so the next batch never sees it again).
    for (const id of ids) while (await chargeOne(deps, id, now)) progressed += 1;
    count += progressed;
    if (ids.length < JOB_BATCH || progressed === 0) break;
  }
  for (const id of await repo.remindable(deps.db, now, JOB_BATCH))
    if (await remindOne(deps, id, now)) count += 1;
  return count;
}

/** The job every LOANS_JOB_INTERVAL_MS (db/schedule.ts): safe to run again at any point. */
export function scheduleLoansJob(deps: LoansDeps, intervalMs: number): JobSchedule {
  return scheduleJob({ run: () => runLoansJob(deps), what: 'loans job', log: deps.log, intervalMs });
}
