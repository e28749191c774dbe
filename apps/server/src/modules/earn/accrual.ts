import { inTransaction } from '../../db/database.ts';
import { type JobSchedule, scheduleJob } from '../../db/schedule.ts';
import { newId } from '../../lib/ids.ts';
import { dayCutoff, lastCutoff } from './calendar.ts';
import {
  ACCRUAL_BATCH,
  customerAccount,
  EARN_ACCOUNT_TYPE,
  type EarnDeps,
  fundAccount,
  MAIN_ACCOUNT_TYPE,
  nextAccrualAt,
  reserveAccount,
} from './context.ts';
import { nonZero } from './ledger-moves.ts';
import { type EarnNotice, notifyEarn } from './notices.ts';
import { releaseOne } from './redemption.ts';
import * as repo from './repo.ts';

/**
 * The daily accrual (README.md, "Accrual"): each due order-day is one transaction — the row lock on
 * the order, one ledger entry from the product's reserve to the customer's own earn account
 * (frozen) under the key `earn:accrual:<order>:<day>`, the `earn_accrual` row (unique per order
 * and day), the order's new totals and the cut-off's run totals — so a crash anywhere leaves the day
 * either fully posted or not at all, and the next run posts it once. An order behind by several
 * cut-offs (the server was down) catches up one day per transaction. On the last day the same
 * transaction matures the order: principal and rewards to the customer's available balance, any
 * reserve left for it back to the funding account.
 */

export type AccrualOutcome = 'none' | 'posted' | 'matured';

export async function accrueOneDay(deps: EarnDeps, orderId: string, now: Date): Promise<AccrualOutcome> {
  const done = await postOneDay(deps, orderId, now);
  // After the commit, and only when this transaction matured the order: a re-run finds it completed.
  if (done.notice) await notifyEarn(deps, done.notice);
  return done.outcome;
}

type DayDone = { outcome: AccrualOutcome; notice: EarnNotice | null };

async function postOneDay(deps: EarnDeps, orderId: string, now: Date): Promise<DayDone> {
  const { db, ledger } = deps;
  return inTransaction(db, async (tx): Promise<DayDone> => {
    const o = await repo.findOrder(tx, orderId, { lock: true });
    if (o?.state !== 'in_custody' || !o.next_accrual_at || o.next_accrual_at > now)
      return { outcome: 'none', notice: null };
    const day = o.days_accrued + 1;
    const cutoffAt = dayCutoff(o, day);
    const book = o.book;
    const c = o.currency;
    const daily = BigInt(o.daily_reward_units);
    const matured = day === o.term_days;
    // The product row before any ledger account, in the order buying takes them (no lock cycle).
    if (matured && book === 'real') await repo.addSubscribed(tx, o.product_id, -BigInt(o.amount_units));
    const entry = await ledger.post(tx, {
      reason: 'earn.accrual',
      reference: { type: 'earn_order', id: o.id },
      idempotencyKey: `earn:accrual:${o.id}:${day}`,
      postings: [
        { account: reserveAccount(book, o.reserve_code), currency: c, amountUnits: -daily },
        {
          account: customerAccount(book, o.customer_id, EARN_ACCOUNT_TYPE),
          currency: c,
          bucket: 'frozen',
          amountUnits: daily,
        },
      ],
    });
    await repo.insertAccrual(tx, {
      order_id: o.id,
      day,
      amount_units: daily.toString(),
      cutoff_at: cutoffAt,
      posted_at: now,
      entry_id: entry.id,
    });
    await deps.afterAccrualPost?.(o.id, day);
    const accrued = BigInt(o.accrued_units) + daily;
    let notice: EarnNotice | null = null;
    if (!matured) {
      await repo.updateOrder(tx, o.id, {
        days_accrued: day,
        accrued_units: accrued.toString(),
        next_accrual_at: nextAccrualAt(o, day),
      });
    } else {
      const principal = BigInt(o.amount_units);
      const left = BigInt(o.total_reward_units) - accrued;
      const postings = nonZero([
        {
          account: customerAccount(book, o.customer_id, EARN_ACCOUNT_TYPE),
          currency: c,
          bucket: 'frozen',
          amountUnits: -(principal + accrued),
        },
        {
          account: customerAccount(book, o.customer_id, MAIN_ACCOUNT_TYPE),
          currency: c,
          amountUnits: principal + accrued,
        },
        { account: reserveAccount(book, o.reserve_code), currency: c, amountUnits: -left },
        { account: fundAccount(book, o.fund_code), currency: c, amountUnits: left },
      ]);
      if (postings)
        await ledger.post(tx, {
          reason: 'earn.mature',
          reference: { type: 'earn_order', id: o.id },
          idempotencyKey: `earn:mature:${o.id}`,
          postings,
        });
      const patch = {
        days_accrued: day,
        accrued_units: accrued.toString(),
        next_accrual_at: null,
        state: 'completed' as const,
        completed_at: now,
        principal_returned_units: principal.toString(),
        rewards_paid_units: accrued.toString(),
      };
      await repo.updateOrder(tx, o.id, patch);
      notice = { type: 'matured', order: { ...o, ...patch } };
    }
    await repo.addToRun(tx, {
      id: newId('ear', now.getTime()),
      cutoffAt,
      now,
      book,
      currency: c,
      amountUnits: daily,
      matured,
    });
    return { outcome: matured ? 'matured' : 'posted', notice };
  });
}

/** One run: every due order-day (each in its own transaction), then the redemptions whose money arrived. */
export async function runEarnJob(deps: EarnDeps): Promise<number> {
  const now = deps.clock.now();
  const { db } = deps;
  const s = await repo.setting(db);
  const cutoff = lastCutoff(now, s.cutoff_hour, s.time_zone);
  // Every cut-off with orders in custody gets its run row, even when none was due yet; an idle
  // platform writes nothing.
  if (await repo.anyRunning(db)) await repo.ensureRun(db, newId('ear', now.getTime()), cutoff, now);
  let count = 0;
  for (;;) {
    const ids = await repo.dueOrderIds(db, now, ACCRUAL_BATCH);
    if (ids.length === 0) break;
    // Each order until it is no longer due at `now` (so the next batch never sees it again).
    for (const id of ids) while ((await accrueOneDay(deps, id, now)) !== 'none') count += 1;
  }
  for (;;) {
    const ids = await repo.arrivingOrderIds(db, now, ACCRUAL_BATCH);
    if (ids.length === 0) break;
    let released = 0;
    for (const id of ids) if (await releaseOne(deps, id, now)) released += 1;
    count += released;
    if (released === 0) break;
  }
  await repo.finishRuns(db, now, now);
  return count;
}

/** The job every EARN_JOB_INTERVAL_MS (db/schedule.ts): safe to run again at any point. */
export function scheduleEarnJob(deps: EarnDeps, intervalMs: number): JobSchedule {
  return scheduleJob({ run: () => runEarnJob(deps), what: 'earn accrual job', log: deps.log, intervalMs });
}
