import { inTransaction, type Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import {
  PAYOUT_BATCH,
  type PayoutFailReason,
  WITHDRAW_ACCOUNT_TYPE,
  type WithdrawalsContext,
} from './context.ts';
import { notify } from './notices.ts';
import * as repo from './repo.ts';

/**
 * How a processing withdrawal ends: `finish` (shared with the staff's mark paid and mark failed),
 * the custody provider's report (`settle`, the webhook) and the payout job's run
 * (`confirmDuePayouts`).
 */

export type Outcome =
  | { status: 'confirmed'; txHash: string | null; bankReference?: string }
  | { status: 'failed'; reason: PayoutFailReason };

type Deps = Pick<WithdrawalsContext, 'clock' | 'ledger' | 'faults'>;

function customerAccount(row: repo.WithdrawalRow) {
  return { book: 'real' as const, customerId: row.customer_id, accountType: WITHDRAW_ACCOUNT_TYPE };
}

/** Confirmed: the frozen amount goes to `withdrawals_clearing`, the fee to `fee_income`. */
async function postSettle(deps: Deps, tx: Tx, row: repo.WithdrawalRow, actorId: string | undefined) {
  const fee = BigInt(row.fee);
  await deps.ledger.post(tx, {
    reason: 'withdrawal.settle',
    reference: { type: 'withdrawal', id: row.id },
    idempotencyKey: `wdr-settle:${row.id}`,
    ...(actorId ? { actorId } : {}),
    postings: [
      {
        account: customerAccount(row),
        currency: row.currency,
        bucket: 'frozen',
        amountUnits: -BigInt(row.amount),
      },
      {
        account: { book: 'real', platform: 'withdrawals_clearing' },
        currency: row.currency,
        amountUnits: BigInt(row.received),
      },
      ...(fee > 0n
        ? [
            {
              account: { book: 'real' as const, platform: 'fee_income' as const },
              currency: row.currency,
              amountUnits: fee,
            },
          ]
        : []),
    ],
  });
}

/** Failed: the frozen amount is unfrozen, with the reason as the entry's memo. */
async function releaseFailed(
  deps: Deps,
  tx: Tx,
  row: repo.WithdrawalRow,
  input: { reason: PayoutFailReason; actorId: string | undefined },
) {
  await deps.ledger.unfreeze(tx, {
    ...customerAccount(row),
    currency: row.currency,
    amountUnits: BigInt(row.amount),
    reason: 'withdrawal.fail',
    reference: { type: 'withdrawal', id: row.id },
    idempotencyKey: `wdr-release:${row.id}`,
    ...(input.actorId ? { actorId: input.actorId } : {}),
    memo: input.reason,
  });
}

/**
 * Ends a processing withdrawal in the caller's transaction (its row locked): confirmed consumes
 * the frozen amount (to `withdrawals_clearing`, the fee to `fee_income`); failed unfreezes it.
 * The payout row, when the embedded provider keeps one, ends with it.
 */
export async function finish(
  deps: Deps,
  tx: Tx,
  row: repo.WithdrawalRow,
  outcome: Outcome,
  actorId?: string,
): Promise<repo.WithdrawalRow> {
  const now = deps.clock.now();
  let patch: Partial<repo.WithdrawalRow>;
  if (outcome.status === 'confirmed') {
    await postSettle(deps, tx, row, actorId);
    patch = {
      status: 'completed',
      tx_hash: outcome.txHash,
      ...(outcome.bankReference ? { bank_reference: outcome.bankReference } : {}),
    };
  } else {
    await releaseFailed(deps, tx, row, { reason: outcome.reason, actorId });
    patch = { status: 'failed', fail_reason: outcome.reason };
  }
  await deps.faults.afterSettlePost?.(row.id);
  Object.assign(patch, { settled_at: now, updated_at: now });
  await repo.updateWithdrawal(tx, row.id, patch);
  const payout = await repo.findPayout(tx, row.id, { lock: true });
  if (payout && payout.status === 'broadcast') {
    await repo.updatePayout(tx, payout.id, {
      status: outcome.status === 'confirmed' ? 'confirmed' : 'failed',
      settled_at: now,
    });
  }
  return { ...row, ...patch };
}

/**
 * The custody provider's report on an approved withdrawal. Settles once: a replay finds the
 * withdrawal no longer processing and changes nothing.
 */
export async function settle(
  deps: WithdrawalsContext,
  input: { withdrawalId: string; providerRef: string; status: 'confirmed' | 'failed'; txHash: string },
) {
  const result = await inTransaction(deps.db, async (tx) => {
    const row = await repo.findWithdrawal(tx, input.withdrawalId, { lock: true });
    if (!row || row.provider_ref !== input.providerRef) refuse('NOT_FOUND');
    if (row.status !== 'processing') return { row, replayed: true };
    const after = await finish(
      deps,
      tx,
      row,
      input.status === 'confirmed'
        ? { status: 'confirmed', txHash: input.txHash || row.tx_hash }
        : { status: 'failed', reason: 'provider_error' },
    );
    return { row: after, replayed: false };
  });
  if (!result.replayed) await notify(deps, result.row);
  return { id: result.row.id, state: result.row.status, replayed: result.replayed };
}

/**
 * The payout job's run: every simulated-chain broadcast whose confirmation instant has come
 * (`confirm_at <= clock.now()`) is settled, each in its own transaction. Exactly once: a
 * payout already settled (by a concurrent run, the webhook or staff) is skipped; the ledger's
 * `wdr-settle:` key backs that up. Returns how many this run settled.
 */
export async function confirmDuePayouts(deps: WithdrawalsContext, limit = PAYOUT_BATCH): Promise<number> {
  const due = await repo.duePayouts(deps.db, deps.clock.now(), limit);
  let settled = 0;
  for (const payout of due) {
    const after = await inTransaction(deps.db, async (tx) => {
      const row = await repo.findWithdrawal(tx, payout.withdrawal_id, { lock: true });
      const locked = await repo.findPayout(tx, payout.withdrawal_id, { lock: true });
      if (!row || !locked || locked.status !== 'broadcast' || row.status !== 'processing') return null;
      return finish(deps, tx, row, { status: 'confirmed', txHash: locked.tx_hash });
    });
    if (after) {
      settled += 1;
      deps.log.info({ withdrawal: after.id, tx: after.tx_hash }, 'payout confirmed');
      await notify(deps, after);
    }
  }
  return settled;
}
