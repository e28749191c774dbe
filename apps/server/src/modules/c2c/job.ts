import { inTransaction } from '../../db/database.ts';
import { type JobSchedule, scheduleJob } from '../../db/schedule.ts';
import {
  type C2cDeps,
  DISPUTE_RESPONSE_MINUTES,
  JOB_BATCH,
  minutes,
  REMINDER_BEFORE_MINUTES,
} from './context.ts';
import { runDemoDesk } from './desk.ts';
import { autoOutcome, resolve } from './disputes.ts';
import { type C2cNotice, notifyOrder, publishOrder } from './notices.ts';
import type { OrderRow } from './repo.ts';
import * as repo from './repo.ts';
import { applyEvent } from './transition.ts';

/**
 * The deadline job (README.md, "Deadlines"), on the injected clock, one transaction per order with
 * its row locked and the deadline re-checked under the lock: an unpaid order at `pay_by` expires
 * (escrow back to the seller at once); a paid order at `confirm_by` becomes a dispute (never
 * expires); a dispute at `respond_by` is decided by the published auto rule when it applies, else
 * left to staff. The state, the timeline event and the ledger entry (under the order's one
 * `c2c:out:` key) commit together, so a crash repeats nothing and the next run resumes. Reminders:
 * once each (the mark in a transaction, the message after it; a crash in between loses a reminder
 * rather than sending two).
 */

const JOB = { kind: 'job' as const, id: 'c2c_job' };

type Done = { row: OrderRow; notice: C2cNotice | null } | null;

async function step(deps: C2cDeps, id: string, now: Date): Promise<Done> {
  const done = await inTransaction(deps.db, async (tx): Promise<Done> => {
    const o = await repo.findOrder(tx, id, { lock: true });
    if (!o) return null;
    if (o.state === 'matched' && o.pay_by <= now) {
      const row = await applyEvent(deps, tx, o, {
        event: 'expire',
        actor: JOB,
        reason: 'pay_by',
        patch: { end_reason: 'unpaid_at_deadline' },
      });
      await deps.afterJobPost?.(o.id, 'expire');
      return { row, notice: 'expired' };
    }
    if (o.state === 'paid' && o.confirm_by !== null && o.confirm_by <= now) {
      const row = await applyEvent(deps, tx, o, {
        event: 'confirm_deadline',
        actor: JOB,
        reason: 'confirm_by',
        patch: {
          dispute_reason: 'paid_not_confirmed',
          dispute_note: '',
          dispute_by: 'job',
          disputed_at: now,
          respond_by: new Date(now.getTime() + minutes(DISPUTE_RESPONSE_MINUTES)),
        },
      });
      await deps.afterJobPost?.(o.id, 'confirm_deadline');
      return { row, notice: 'disputed' };
    }
    if (o.state === 'disputed' && o.respond_by !== null && o.respond_by <= now) {
      const outcome = await autoOutcome(deps, tx, o);
      if (outcome === null) {
        // Both sides spoke, or too large for the rule: staff decide; the job never looks again.
        await repo.updateOrder(tx, o.id, { respond_by: null });
        return null;
      }
      const row = await resolve(deps, tx, o, {
        outcome,
        by: 'rule',
        actorId: JOB.id,
        reason: 'other_side_silent',
      });
      await deps.afterJobPost?.(o.id, 'auto_resolve');
      return { row, notice: 'resolved' };
    }
    return null;
  });
  if (done) {
    await publishOrder(deps, done.row, done.row.state);
    if (done.notice) await notifyOrder(deps, done.row, done.notice);
  }
  return done;
}

async function remind(deps: C2cDeps, id: string, kind: 'pay' | 'confirm', until: Date): Promise<boolean> {
  const row = await inTransaction(deps.db, async (tx): Promise<OrderRow | null> => {
    const o = await repo.findOrder(tx, id, { lock: true });
    if (!o) return null;
    if (kind === 'pay' && (o.state !== 'matched' || o.pay_reminded_at !== null || o.pay_by > until))
      return null;
    if (
      kind === 'confirm' &&
      (o.state !== 'paid' || o.confirm_reminded_at !== null || !o.confirm_by || o.confirm_by > until)
    )
      return null;
    const now = deps.clock.now();
    await repo.updateOrder(
      tx,
      o.id,
      kind === 'pay' ? { pay_reminded_at: now } : { confirm_reminded_at: now },
    );
    return o;
  });
  if (!row) return false;
  await notifyOrder(deps, row, kind === 'pay' ? 'payReminder' : 'confirmReminder', [
    kind === 'pay' ? row.buyer_id : row.seller_id,
  ]);
  return true;
}

/** One run: every passed deadline (one transaction each), then the reminders. Answers how many it did. */
export async function runC2cJob(deps: C2cDeps): Promise<number> {
  const now = deps.clock.now();
  let count = 0;
  for (const state of ['matched', 'paid', 'disputed'] as const) {
    for (;;) {
      const ids = await repo.dueOrders(deps.db, { state, now, limit: JOB_BATCH });
      let progressed = 0;
      for (const id of ids) if (await step(deps, id, now)) progressed += 1;
      count += progressed;
      if (ids.length < JOB_BATCH || progressed === 0) break;
    }
  }
  count += await runDemoDesk(deps);
  const until = new Date(now.getTime() + minutes(REMINDER_BEFORE_MINUTES));
  for (const kind of ['pay', 'confirm'] as const)
    for (const id of await repo.remindable(deps.db, { kind, until, limit: JOB_BATCH }))
      if (await remind(deps, id, kind, until)) count += 1;
  return count;
}

export function scheduleC2cJob(deps: C2cDeps, intervalMs: number): JobSchedule {
  return scheduleJob({ run: () => runC2cJob(deps), what: 'c2c job', log: deps.log, intervalMs });
}
