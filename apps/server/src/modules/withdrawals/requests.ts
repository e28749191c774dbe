import { isKnownAsset } from '@bourse/money';
import { inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import { parseAmount } from '../assets/index.ts';
import {
  fmt,
  loadRules,
  type RequestInput,
  view,
  WITHDRAW_ACCOUNT_TYPE,
  type WithdrawalsContext,
  type WithdrawalsDeps,
} from './context.ts';
import { notify } from './notices.ts';
import { checkDailyCount, checkRequest, checkTurnover, feeOf, localTime, type Rules } from './policy.ts';
import * as repo from './repo.ts';

/**
 * The customer's side: a request (the policy's checks and the trade password, then in one
 * transaction the Google code's step, the daily count, the turnover rule, the row and the freeze)
 * and its cancel.
 */

type Destination = { chain: string; destination: string; label: string; memo: string };

/** The saved address or bank card the request names, as the withdrawal row keeps it. */
async function destinationOf(
  deps: Pick<WithdrawalsDeps, 'db' | 'book'>,
  auth: AuthContext,
  input: RequestInput,
): Promise<Destination> {
  if (input.method === 'address') {
    const address = await repo.findAddress(deps.db, auth.customerId, input.destinationId);
    if (!address) refuse('NOT_FOUND');
    if (input.currency !== address.currency) refuse('BAD_INPUT', { field: 'currency' });
    return {
      chain: address.chain,
      destination: address.address,
      label: address.address,
      memo: address.memo,
    };
  }
  const payee = await repo.findPayee(deps.db, auth.customerId, input.destinationId);
  if (!payee || payee.kind !== 'bank') refuse('NOT_FOUND');
  const fields = deps.book.openBank(payee.sealed);
  // The snapshot stays sealed: the withdrawal row holds no digit of the card in the clear;
  // answers show the last 4, opened from the snapshot (view()).
  return { chain: 'BANK', destination: payee.sealed, label: fields.bank_name, memo: '' };
}

/** The turnover rule, in the request's transaction: promotional funds not yet traded are held. */
async function checkTurnoverIn(
  deps: Pick<WithdrawalsDeps, 'ledger'>,
  tx: Tx,
  input: { rules: Rules; customerId: string; currency: string; amountUnits: bigint },
) {
  const { customerId, currency } = input;
  const figures = await repo.turnoverFigures(tx, { customerId, currency });
  const balance = await deps.ledger.balance(tx, {
    book: 'real',
    customerId,
    accountType: WITHDRAW_ACCOUNT_TYPE,
    currency,
  });
  checkTurnover(input.rules, {
    amountUnits: input.amountUnits,
    availableUnits: balance.availableUnits,
    promotionalUnits: figures.promotional,
    consumedUnits: figures.consumed,
    currency,
    format: (u) => fmt(u, currency),
  });
}

/** A new pending withdrawal's row. */
function pendingRow(input: {
  id: string;
  customerId: string;
  request: RequestInput;
  dest: Destination;
  amountUnits: bigint;
  fee: bigint;
  day: string;
  now: Date;
}): repo.WithdrawalRow {
  const { request, dest, amountUnits, fee, now } = input;
  return {
    id: input.id,
    customer_id: input.customerId,
    method: request.method,
    destination_id: request.destinationId,
    destination: dest.destination,
    destination_label: dest.label,
    currency: request.currency,
    chain: dest.chain,
    memo: dest.memo,
    amount: amountUnits.toString(),
    fee: fee.toString(),
    received: (amountUnits - fee).toString(),
    status: 'pending',
    policy_day: input.day,
    reject_reason: null,
    decided_by: null,
    provider_ref: null,
    tx_hash: null,
    fail_reason: null,
    bank_reference: null,
    paid_requested_by: null,
    created_at: now,
    updated_at: now,
    decided_at: null,
    settled_at: null,
  };
}

export async function request(deps: WithdrawalsContext, auth: AuthContext, input: RequestInput) {
  if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
  await deps.requireFeature(auth.customerId, 'withdraw');
  if (!isKnownAsset(input.currency)) refuse('CURRENCY_UNKNOWN', { currency: input.currency });
  const amountUnits = parseAmount('amount', input.amount, input.currency);
  const dest = await destinationOf(deps, auth, input);
  const rules = await loadRules(deps);
  const now = deps.clock.now();
  checkRequest(rules, {
    method: input.method,
    currency: input.currency,
    chain: dest.chain,
    amountUnits,
    now,
  });
  // Its failure count is bookkeeping written apart (detached): it never records the request's claim.
  await deps.security.checkTradePassword(auth.customerId, input.tradePassword);
  const fee = feeOf(rules, { method: input.method, amountUnits });
  const day = localTime(now, rules.daily_count.params.timezone).day;
  const id = newId('wdr', now.getTime());
  const customerId = auth.customerId;
  const requested = await inTransaction(deps.db, async (tx) => {
    // One customer's requests serialize on their trade-password row: the daily count holds.
    await repo.findTradePassword(tx, customerId, { lock: true });
    // The Google step is used here, so it commits with the row and the freeze (and the request's
    // claim) or not at all: a request that fails after it can be retried with the same code.
    await deps.security.checkGoogle(customerId, input.googleCode, tx);
    checkDailyCount(rules, await repo.countToday(tx, customerId, day));
    if (rules.turnover.enabled) {
      await checkTurnoverIn(deps, tx, { rules, customerId, currency: input.currency, amountUnits });
    }
    const row = pendingRow({ id, customerId, request: input, dest, amountUnits, fee, day, now });
    await repo.insertWithdrawal(tx, row);
    await deps.ledger.freeze(tx, {
      book: 'real',
      customerId,
      accountType: WITHDRAW_ACCOUNT_TYPE,
      currency: input.currency,
      amountUnits,
      reason: 'withdrawal.request',
      reference: { type: 'withdrawal', id },
      idempotencyKey: `wdr-freeze:${id}`,
    });
    await deps.faults.afterRequestFreeze?.(id);
    deps.log.info({ withdrawal: id, customer: customerId }, 'withdrawal requested');
    return row;
  });
  await notify(deps, requested);
  return view(deps, requested);
}

/** The customer cancels a pending withdrawal: the frozen amount is unfrozen. */
export async function cancel(deps: WithdrawalsContext, auth: AuthContext, withdrawalId: string) {
  const cancelled = await inTransaction(deps.db, async (tx) => {
    const row = await repo.findWithdrawal(tx, withdrawalId, { customerId: auth.customerId, lock: true });
    if (!row) refuse('NOT_FOUND');
    if (row.status !== 'pending') refuse('WITHDRAW_NOT_PENDING');
    await deps.ledger.unfreeze(tx, {
      book: 'real',
      customerId: row.customer_id,
      accountType: WITHDRAW_ACCOUNT_TYPE,
      currency: row.currency,
      amountUnits: BigInt(row.amount),
      reason: 'withdrawal.cancel',
      reference: { type: 'withdrawal', id: row.id },
      idempotencyKey: `wdr-release:${row.id}`,
    });
    const now = deps.clock.now();
    await repo.updateWithdrawal(tx, row.id, { status: 'cancelled', updated_at: now });
    return { ...row, status: 'cancelled' as const, updated_at: now };
  });
  await notify(deps, cancelled);
  return view(deps, cancelled);
}
