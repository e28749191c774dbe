import { randomBytes, randomInt } from 'node:crypto';
import { toDecimalString } from '@bourse/money';
import {
  allocateFirstCome,
  allocateProRata,
  buildLaunchpadTrees,
  type Commitment,
  customerLeafId,
} from '@bourse/proof';
import type {
  LaunchpadAllocationData,
  LaunchpadFailureReason,
  LaunchpadReviewReason,
} from '@bourse/protocol';
import { inTransaction, type Tx } from '../../db/database.ts';
import { type JobSchedule, scheduleJob } from '../../db/schedule.ts';
import { Refusal } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import type { PostingInput } from '../ledger/index.ts';
import {
  customerAccount,
  escrowAccount,
  JOB_BATCH,
  type LaunchpadDeps,
  LOCKED_ACCOUNT_TYPE,
  listCoin,
  MAIN_ACCOUNT_TYPE,
  supplyAccount,
} from './context.ts';
import { type LaunchpadNotice, notifyLaunchpad } from './notices.ts';
import type { ProjectRow, RunKind, SubscriptionRow } from './repo.ts';
import * as repo from './repo.ts';
import { costOf, USDT } from './rules.ts';
import { checkCustomer } from './subscribing.ts';

/**
 * The launchpad's job (README.md, "The job"): on the injected clock it opens and closes windows,
 * reviews, allocates, refunds and releases. Every effect is one transaction that re-reads its row
 * under a lock and does nothing if the row has moved on, with a ledger idempotency key per effect:
 * a crash anywhere and a rerun give each effect once. The allocation plan (every line, the salt,
 * the leaves and both roots) is written in ONE transaction before any money moves, so a resumed
 * run settles exactly the plan that was published.
 */

/** Steps one run takes per project at most (each step is a batch of JOB_BATCH subscriptions or one move). */
const STEPS_MAX = 1_000;
const hex32 = () => randomBytes(32).toString('hex');

function post(
  deps: LaunchpadDeps,
  tx: Tx,
  input: { reason: string; key: string; ref: string; postings: PostingInput[] },
) {
  return deps.ledger.post(tx, {
    reason: input.reason,
    reference: { type: 'launchpad_subscription', id: input.ref },
    idempotencyKey: input.key,
    postings: input.postings.filter((x) => x.amountUnits !== 0n),
  });
}

async function addRun(
  deps: LaunchpadDeps,
  tx: Tx,
  p: ProjectRow,
  kind: RunKind,
  lots: bigint,
  amount: bigint,
) {
  const now = deps.clock.now();
  await repo.addToRun(tx, { id: newId('lpr', now.getTime()), projectId: p.id, kind, now, lots, amount });
}

/** The review's rule that a subscription no longer meets at close (null: passed). */
async function reviewReason(
  deps: LaunchpadDeps,
  s: SubscriptionRow,
  p: ProjectRow,
): Promise<LaunchpadReviewReason | null> {
  try {
    await checkCustomer(deps, s.customer_id, p);
    return null;
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    if (error.reason === 'LAUNCHPAD_JURISDICTION') return 'jurisdiction';
    if (error.reason === 'LAUNCHPAD_RATING_REQUIRED') return 'rating';
    return 'tier';
  }
}

/** Moves every one of `rows` from frozen back to available: the not-passed and the refunded. */
function unfreezeAll(s: SubscriptionRow): PostingInput[] {
  const frozen = BigInt(s.frozen_units);
  return [
    {
      account: customerAccount(s.customer_id, MAIN_ACCOUNT_TYPE),
      currency: USDT.code,
      bucket: 'frozen',
      amountUnits: -frozen,
    },
    { account: customerAccount(s.customer_id, MAIN_ACCOUNT_TYPE), currency: USDT.code, amountUnits: frozen },
  ];
}

async function reviewOne(deps: LaunchpadDeps, id: string): Promise<void> {
  const s0 = await repo.findSubscription(deps.db, id);
  const p0 = s0 && (await repo.findProject(deps.db, s0.project_id));
  if (!s0 || !p0) return;
  const reason = await reviewReason(deps, s0, p0);
  const notice = await inTransaction(deps.db, async (tx): Promise<LaunchpadNotice | null> => {
    const s = await repo.findSubscription(tx, id, { lock: true });
    if (!s || s.state !== 'under_review') return null;
    const now = deps.clock.now();
    let told: LaunchpadNotice | null = null;
    if (reason === null) {
      await repo.updateSubscription(tx, id, { state: 'passed', reviewed_at: now });
    } else {
      await post(deps, tx, {
        reason: 'launchpad.not_passed',
        key: `launchpad:not-passed:${id}`,
        ref: id,
        postings: unfreezeAll(s),
      });
      const patch = {
        state: 'not_passed' as const,
        review_reason: reason,
        reviewed_at: now,
        refunded_units: s.frozen_units,
        refunded_at: now,
      };
      await repo.updateSubscription(tx, id, patch);
      told = { type: 'notPassed', sub: { ...s, ...patch }, project: p0 };
    }
    await addRun(deps, tx, p0, 'review', BigInt(s.lots), reason === null ? 0n : BigInt(s.frozen_units));
    return told;
  });
  // After the commit, only for the refusal this transaction made.
  if (notice) await notifyLaunchpad(deps, notice);
}

/** Fails a project (soft cap missed, issuer withdrew): every open subscription becomes issuance_failed. */
export async function failProject(deps: LaunchpadDeps, tx: Tx, p: ProjectRow, cause: LaunchpadFailureReason) {
  const now = deps.clock.now();
  await repo.updateProject(tx, p.id, {
    state: 'failed',
    failure_reason: cause,
    failed_at: now,
    refund_deadline_at: new Date(now.getTime() + p.refund_hours * 3_600_000),
  });
  await tx
    .updateTable('launchpad_subscription')
    .set({ state: 'issuance_failed', failure_reason: cause })
    .where('project_id', '=', p.id)
    .where('state', 'in', ['under_review', 'passed'])
    .execute();
}

/** The plan: every passed line's allocation, its leaves, both roots — written at once (closed → allocating). */
async function plan(deps: LaunchpadDeps, projectId: string): Promise<void> {
  await inTransaction(deps.db, async (tx) => {
    const p = await repo.findProject(tx, projectId, { lock: true });
    if (!p || p.state !== 'closed') return;
    const rows = await repo.passed(tx, p.id);
    const committed = rows.reduce((sum, s) => sum + BigInt(s.lots), 0n);
    if (committed < BigInt(p.soft_cap_lots) || rows.length === 0) {
      await failProject(deps, tx, p, 'soft_cap_missed');
      return;
    }
    const commitments: Commitment[] = rows.map((s) => ({ key: s.id, seq: s.seq, lots: BigInt(s.lots) }));
    const supply = BigInt(p.supply_lots);
    const cap = BigInt(p.cap_lots);
    const result =
      p.mode === 'pro_rata'
        ? allocateProRata(commitments, supply, cap)
        : allocateFirstCome(commitments, supply, cap);
    const salt = hex32();
    // Leaves in a random order, so a leaf's position tells nothing about who or when.
    const order = rows
      .map((s, i) => ({ s, r: randomInt(2 ** 47) + i / rows.length }))
      .sort((a, b) => a.r - b.r);
    const leaves = order.map(({ s }) => ({
      key: s.id,
      id: customerLeafId(salt, s.customer_id),
      commitNonce: hex32(),
      allotNonce: hex32(),
      committed: BigInt(s.lots),
      allocated: result.lots.get(s.id) ?? 0n,
    }));
    const trees = buildLaunchpadTrees(leaves);
    for (const [index, leaf] of leaves.entries())
      await repo.updateSubscription(tx, leaf.key, {
        allocated_lots: leaf.allocated.toString(),
        leaf_index: index,
        leaf_id: leaf.id,
        commit_nonce: leaf.commitNonce,
        allot_nonce: leaf.allotNonce,
      });
    const root = (t: typeof trees.commitment) => ({
      hash: t.root.hash,
      sum: t.root.sum.toString(),
      leaf_count: leaves.length,
    });
    const published: LaunchpadAllocationData = {
      mode: p.mode,
      supply_lots: p.supply_lots,
      cap_lots: p.cap_lots,
      commitments: rows.length,
      committed_lots: committed.toString(),
      capped: result.capped,
      capped_committed_lots: result.cappedCommitted.toString(),
      fill_numerator: result.fillNumerator.toString(),
      fill_denominator: result.fillDenominator.toString(),
      remainder_lots: result.remainderLots.toString(),
      remainder_cut: result.remainderCut
        ? { remainder: result.remainderCut.remainder.toString(), seq: result.remainderCut.seq }
        : null,
      allocated_lots: result.allocated.toString(),
      commitment_root: root(trees.commitment),
      allocation_root: root(trees.allocation),
      published_at: deps.clock.now().getTime(),
    };
    await repo.updateProject(tx, p.id, { state: 'allocating', salt, allocation: published });
    await repo.ensureRun(tx, {
      id: newId('lpr', deps.clock.now().getTime()),
      projectId: p.id,
      kind: 'allocation',
      now: deps.clock.now(),
    });
  });
}

/** One line of the plan: pay for the allocation from the frozen money, release the rest, lock the coins. */
async function settleOne(deps: LaunchpadDeps, p: ProjectRow, id: string): Promise<void> {
  const notice = await inTransaction(deps.db, async (tx): Promise<LaunchpadNotice | null> => {
    const s = await repo.findSubscription(tx, id, { lock: true });
    if (!s || s.state !== 'passed' || s.allocated_lots === null) return null;
    const lots = BigInt(s.allocated_lots);
    const { cost, fee } = costOf(p, lots);
    const frozen = BigInt(s.frozen_units);
    const refund = frozen - cost - fee;
    const coins = lots * BigInt(p.lot_units);
    const spot = customerAccount(s.customer_id, MAIN_ACCOUNT_TYPE);
    await post(deps, tx, {
      reason: 'launchpad.allocate',
      key: `launchpad:allocate:${id}`,
      ref: id,
      postings: [
        { account: spot, currency: USDT.code, bucket: 'frozen', amountUnits: -frozen },
        { account: spot, currency: USDT.code, amountUnits: refund },
        { account: escrowAccount(p.code), currency: USDT.code, amountUnits: cost },
        { account: { book: 'real', platform: 'fee_income' }, currency: USDT.code, amountUnits: fee },
        { account: supplyAccount(p.code), currency: p.coin, amountUnits: -coins },
        {
          account: customerAccount(s.customer_id, LOCKED_ACCOUNT_TYPE),
          currency: p.coin,
          bucket: 'frozen',
          amountUnits: coins,
        },
      ],
    });
    await deps.afterAllocationPost?.(id);
    const now = deps.clock.now();
    const patch = {
      state: 'allocated' as const,
      paid_units: cost.toString(),
      fee_paid_units: fee.toString(),
      refunded_units: refund.toString(),
      token_state: coins > 0n ? ('locked' as const) : ('none' as const),
      allocated_at: now,
    };
    await repo.updateSubscription(tx, id, patch);
    await addRun(deps, tx, p, 'allocation', lots, cost);
    return { type: lots > 0n ? 'allocated' : 'notAllocated', sub: { ...s, ...patch }, project: p };
  });
  if (notice) await notifyLaunchpad(deps, notice);
}

/** The coins no one was allocated (or all of them, for a failed project) go back to the issuer. */
async function returnSupply(deps: LaunchpadDeps, tx: Tx, p: ProjectRow, allocatedLots: bigint, key: string) {
  const back = (BigInt(p.supply_lots) - allocatedLots) * BigInt(p.lot_units);
  if (back <= 0n) return;
  await deps.ledger.post(tx, {
    reason: 'launchpad.return_supply',
    reference: { type: 'launchpad_project', id: p.id },
    idempotencyKey: key,
    postings: [
      { account: supplyAccount(p.code), currency: p.coin, amountUnits: -back },
      { account: { book: 'real', platform: 'launchpad_issuance' }, currency: p.coin, amountUnits: back },
    ],
  });
}

async function finishAllocation(deps: LaunchpadDeps, projectId: string): Promise<void> {
  await inTransaction(deps.db, async (tx) => {
    const p = await repo.findProject(tx, projectId, { lock: true });
    if (!p || p.state !== 'allocating' || !p.allocation) return;
    if ((await repo.subscriptionsIn(tx, p.id, ['passed'], 1)).length > 0) return;
    await returnSupply(deps, tx, p, BigInt(p.allocation.allocated_lots), `launchpad:unsold:${p.id}`);
    await repo.updateProject(tx, p.id, { state: 'distributed' });
    await repo.finishRun(tx, p.id, 'allocation', deps.clock.now());
  });
}

async function refundOne(deps: LaunchpadDeps, p: ProjectRow, id: string): Promise<void> {
  const notice = await inTransaction(deps.db, async (tx): Promise<LaunchpadNotice | null> => {
    const s = await repo.findSubscription(tx, id, { lock: true });
    if (!s || s.state !== 'issuance_failed') return null;
    await post(deps, tx, {
      reason: 'launchpad.refund',
      key: `launchpad:refund:${id}`,
      ref: id,
      postings: unfreezeAll(s),
    });
    const now = deps.clock.now();
    const patch = { state: 'refunded' as const, refunded_units: s.frozen_units, refunded_at: now };
    await repo.updateSubscription(tx, id, patch);
    await addRun(deps, tx, p, 'refund', BigInt(s.lots), BigInt(s.frozen_units));
    return { type: 'refunded', sub: { ...s, ...patch }, project: p };
  });
  if (notice) await notifyLaunchpad(deps, notice);
}

async function finishRefunds(deps: LaunchpadDeps, projectId: string): Promise<void> {
  await inTransaction(deps.db, async (tx) => {
    const p = await repo.findProject(tx, projectId, { lock: true });
    if (!p || p.state !== 'failed') return;
    if ((await repo.subscriptionsIn(tx, p.id, ['issuance_failed'], 1)).length > 0) return;
    await returnSupply(deps, tx, p, 0n, `launchpad:return:${p.id}`);
    await repo.ensureRun(tx, {
      id: newId('lpr', deps.clock.now().getTime()),
      projectId: p.id,
      kind: 'refund',
      now: deps.clock.now(),
    });
    await repo.updateProject(tx, p.id, { state: 'refunded' });
    await repo.finishRun(tx, p.id, 'refund', deps.clock.now());
  });
}

async function releaseOne(deps: LaunchpadDeps, p: ProjectRow, id: string): Promise<void> {
  const notice = await inTransaction(deps.db, async (tx): Promise<LaunchpadNotice | null> => {
    const s = await repo.findSubscription(tx, id, { lock: true });
    if (!s || s.token_state !== 'locked' || s.allocated_lots === null) return null;
    const coins = BigInt(s.allocated_lots) * BigInt(p.lot_units);
    await post(deps, tx, {
      reason: 'launchpad.release',
      key: `launchpad:release:${id}`,
      ref: id,
      postings: [
        {
          account: customerAccount(s.customer_id, LOCKED_ACCOUNT_TYPE),
          currency: p.coin,
          bucket: 'frozen',
          amountUnits: -coins,
        },
        { account: customerAccount(s.customer_id, MAIN_ACCOUNT_TYPE), currency: p.coin, amountUnits: coins },
      ],
    });
    const patch = { token_state: 'released' as const, released_at: deps.clock.now() };
    await repo.updateSubscription(tx, id, patch);
    await addRun(deps, tx, p, 'release', BigInt(s.allocated_lots), 0n);
    return { type: 'released', sub: { ...s, ...patch }, project: p };
  });
  if (notice) await notifyLaunchpad(deps, notice);
}

/** Opens or closes a window under the project lock (subscriptions re-check the state under the same lock). */
async function moveWindow(deps: LaunchpadDeps, projectId: string): Promise<boolean> {
  return inTransaction(deps.db, async (tx) => {
    const p = await repo.findProject(tx, projectId, { lock: true });
    const now = deps.clock.now();
    if (p?.state === 'announced' && now >= p.opens_at) {
      await repo.updateProject(tx, p.id, { state: 'open' });
      return true;
    }
    if (p?.state === 'open' && now >= p.closes_at) {
      await repo.updateProject(tx, p.id, { state: 'closed' });
      await repo.ensureRun(tx, { id: newId('lpr', now.getTime()), projectId: p.id, kind: 'review', now });
      return true;
    }
    return false;
  });
}

/** One step of a project; resolves to the number of effects (0: nothing left to do now). */
async function step(deps: LaunchpadDeps, projectId: string): Promise<number> {
  const p = await repo.findProject(deps.db, projectId);
  if (!p) return 0;
  listCoin(p);
  const each = async (rows: SubscriptionRow[], fn: (id: string) => Promise<void>) => {
    for (const s of rows) await fn(s.id);
    return rows.length;
  };
  switch (p.state) {
    case 'announced':
    case 'open':
      return (await moveWindow(deps, p.id)) ? 1 : 0;
    case 'closed': {
      const due = await repo.subscriptionsIn(deps.db, p.id, ['under_review'], JOB_BATCH);
      if (due.length > 0) return each(due, (id) => reviewOne(deps, id));
      await repo.finishRun(deps.db, p.id, 'review', deps.clock.now());
      await plan(deps, p.id);
      return 1;
    }
    case 'allocating': {
      const due = await repo.subscriptionsIn(deps.db, p.id, ['passed'], JOB_BATCH);
      if (due.length > 0) return each(due, (id) => settleOne(deps, p, id));
      await finishAllocation(deps, p.id);
      return 1;
    }
    case 'failed': {
      const due = await repo.subscriptionsIn(deps.db, p.id, ['issuance_failed'], JOB_BATCH);
      if (due.length > 0) return each(due, (id) => refundOne(deps, p, id));
      await finishRefunds(deps, p.id);
      return 1;
    }
    case 'distributed': {
      if (deps.clock.now() < p.release_at) return 0;
      const due = await repo.subscriptionsIn(deps.db, p.id, ['allocated'], JOB_BATCH, {
        tokenState: 'locked',
      });
      if (due.length > 0) return each(due, (id) => releaseOne(deps, p, id));
      await repo.finishRun(deps.db, p.id, 'release', deps.clock.now());
      return 0;
    }
    default:
      return 0;
  }
}

/** Every due project, stepped until it has nothing left to do at this time. */
export async function runLaunchpadJob(deps: LaunchpadDeps): Promise<number> {
  let total = 0;
  for (const p of await repo.projectsDue(deps.db, deps.clock.now())) {
    // Bounded: a project that keeps reporting work is picked up again at the next tick.
    for (let i = 0, n = await step(deps, p.id); n > 0 && i < STEPS_MAX; i++, n = await step(deps, p.id))
      total += n;
  }
  return total;
}

export function scheduleLaunchpadJob(deps: LaunchpadDeps, intervalMs: number): JobSchedule {
  return scheduleJob({ run: () => runLaunchpadJob(deps), what: 'launchpad job', log: deps.log, intervalMs });
}

export const usdt = (units: bigint) => toDecimalString(units, USDT.scale);
