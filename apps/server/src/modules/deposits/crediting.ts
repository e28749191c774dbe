import { parseDecimal, scaleOf } from '@bourse/money';
import type { CustodyDepositEvent } from '@bourse/protocol';
import { inTransaction, type Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import { knownCurrency } from '../assets/index.ts';
import { cryptoStatus, DEPOSIT_ACCOUNT_TYPE, type DepositsDeps } from './context.ts';
import { isChain } from './derive.ts';
import { type DepositNotice, notifyDeposits } from './notices.ts';
import {
  type ChannelRow,
  type CryptoRow,
  channelOf,
  heldForUpdate,
  insertCryptoOnce,
  lockCryptoByOutput,
  lockHeld,
  recordCryptoEvent,
  updateCrypto,
} from './repo.ts';

/**
 * Crypto deposits from the custody provider's events: recorded once per (chain, txid, output),
 * confirmations only rise, credited exactly once after the channel's confirmations; a failed
 * transaction credits nothing; a confirmed deposit below the minimum is held until the customer's
 * held deposits of that currency reach it together (or staff release it, review.ts).
 */

type Deps = Pick<DepositsDeps, 'db' | 'ledger' | 'clock' | 'log' | 'provider' | 'notifier' | 'contacts'>;

/** An event checked against the channel and the provider: where it goes, and how much. */
type Placed = {
  chain: string;
  currency: string;
  customerId: string;
  amountUnits: bigint;
  channel: ChannelRow;
};

/**
 * One deposit event from the custody provider (already signature-checked). Recorded once per
 * (chain, txid, output); credited exactly once after the chain's confirmations; a failed
 * transaction credits nothing; a confirmed deposit below the minimum is held. After the commit the
 * customer is told what this event changed (credited now, held now) — a replay changes nothing and
 * tells nothing.
 */
export async function handleEvent(deps: Deps, event: CustodyDepositEvent) {
  const placed = await place(deps, event);
  const { answer, notices } = await inTransaction(deps.db, async (tx) => {
    const now = deps.clock.now();
    const row = await recordOutput(tx, { event, placed, now });
    const confirmations = Math.max(row.confirmations, event.confirmations);
    await recordCryptoEvent(tx, { id: row.id, confirmations, now });
    const { status, credited, notices } = await advance(deps, tx, { event, placed, row, confirmations });
    return {
      answer: { id: row.id, status: cryptoStatus(status), state: status, confirmations, credited },
      notices,
    };
  });
  await notifyDeposits(deps, notices);
  return answer;
}

/** Refuses an event that cannot be placed (nothing is written): chain, currency, amount, address. */
async function place(deps: Deps, event: CustodyDepositEvent): Promise<Placed> {
  const chain = event.chain;
  if (!isChain(chain)) refuse('BAD_INPUT', { field: 'chain' });
  const currency = knownCurrency(event.currency);
  const channel = await channelOf(deps.db, currency, chain);
  if (channel?.kind !== 'crypto') refuse('BAD_INPUT', { field: 'currency' });
  const parsed = parseDecimal(event.amount, {
    scale: scaleOf(currency),
    allowZero: false,
    maxIntegerDigits: 20,
  });
  if (!parsed.ok) refuse('BAD_INPUT', { field: 'amount' });
  const customerId = await deps.provider.ownerOf(chain, event.address);
  if (!customerId) refuse('NOT_FOUND');
  return { chain, currency, customerId, amountUnits: parsed.units, channel };
}

/** The output's row, inserted on its first event and locked; the same output cannot change what it paid or to whom. */
async function recordOutput(
  tx: Tx,
  input: { event: CustodyDepositEvent; placed: Placed; now: Date },
): Promise<CryptoRow> {
  const { event, placed, now } = input;
  await insertCryptoOnce(tx, {
    id: newId('dep', now.getTime()),
    customer_id: placed.customerId,
    chain: placed.chain,
    currency: placed.currency,
    txid: event.txid,
    output_index: event.output_index,
    address: event.address,
    amount_units: placed.amountUnits.toString(),
    confirmations: event.confirmations,
    status: 'pending',
    entry_id: null,
    released_by: null,
    created_at: now,
    updated_at: now,
  });
  const row = await lockCryptoByOutput(tx, {
    chain: placed.chain,
    txid: event.txid,
    outputIndex: event.output_index,
  });
  if (
    row.currency !== placed.currency ||
    BigInt(row.amount_units) !== placed.amountUnits ||
    row.customer_id !== placed.customerId
  ) {
    refuse('BAD_INPUT', { field: 'amount' });
  }
  return row;
}

type Advanced = { status: CryptoRow['status']; credited: boolean; notices: DepositNotice[] };

/**
 * A pending deposit fails, or once confirmed is credited (at or above the minimum) or held; with
 * what to tell the customer about the rows this call changed (nothing when it changed nothing).
 */
async function advance(
  deps: Deps,
  tx: Tx,
  input: { event: CustodyDepositEvent; placed: Placed; row: CryptoRow; confirmations: number },
): Promise<Advanced> {
  const { event, placed, row } = input;
  const minUnits = BigInt(placed.channel.min_units);
  if (row.status === 'pending' && event.status === 'failed') {
    await updateCrypto(tx, row.id, { status: 'failed' });
    return { status: 'failed', credited: false, notices: [] };
  }
  if (row.status === 'pending' && input.confirmations >= placed.channel.confirmations) {
    if (placed.amountUnits >= minUnits) {
      await creditCrypto(deps, tx, { row, releasedBy: 'threshold', actorId: null });
      return { status: 'credited', credited: true, notices: [{ type: 'cryptoCredited', row }] };
    }
    await updateCrypto(tx, row.id, { status: 'held' });
    const released = await releaseHeldIfEnough(deps, tx, {
      customerId: placed.customerId,
      currency: placed.currency,
      minUnits,
    });
    if (released.length === 0) {
      const held = { type: 'cryptoHeld' as const, row, minUnits: placed.channel.min_units };
      return { status: 'held', credited: false, notices: [held] };
    }
    // Credited together: one message per deposit, each naming its own transaction.
    const notices = released.map((r) => ({ type: 'cryptoCredited' as const, row: r }));
    return { status: 'credited', credited: true, notices };
  }
  if (row.status === 'credited' && event.status === 'failed') {
    deps.log.error({ deposit: row.id }, 'custody reported a credited deposit as failed: needs staff review');
  }
  return { status: row.status, credited: false, notices: [] };
}

/** Credits one crypto deposit row (inside the caller's transaction) and marks it credited. */
export async function creditCrypto(
  deps: Pick<DepositsDeps, 'ledger' | 'clock'>,
  tx: Tx,
  input: { row: CryptoRow; releasedBy: string; actorId: string | null },
) {
  const { row } = input;
  const entry = await deps.ledger.credit(tx, {
    book: 'real',
    customerId: row.customer_id,
    accountType: DEPOSIT_ACCOUNT_TYPE,
    currency: row.currency,
    amountUnits: BigInt(row.amount_units),
    from: 'deposits_clearing',
    reason: 'deposit.crypto',
    reference: { type: 'deposit', id: row.id },
    // Exactly once per (chain, transaction, output), whatever replays or races.
    idempotencyKey: `deposit:${row.chain}:${row.txid}:${row.output_index}`,
    actorId: input.actorId,
    memo: `${row.chain} ${row.txid}:${row.output_index}`,
  });
  await updateCrypto(tx, row.id, {
    status: 'credited',
    entry_id: entry.id,
    released_by: input.releasedBy,
    updated_at: deps.clock.now(),
  });
  return entry;
}

/**
 * Held deposits (confirmed, each below the minimum) of one customer and currency are credited
 * together once their sum reaches the channel's minimum (the rows credited, none if not yet).
 * Serialized per (customer, currency).
 */
async function releaseHeldIfEnough(
  deps: Deps,
  tx: Tx,
  input: { customerId: string; currency: string; minUnits: bigint },
): Promise<CryptoRow[]> {
  await lockHeld(tx, input.customerId, input.currency);
  const held = await heldForUpdate(tx, input.customerId, input.currency);
  const total = held.reduce((sum, r) => sum + BigInt(r.amount_units), 0n);
  if (total < input.minUnits) return [];
  for (const row of held) await creditCrypto(deps, tx, { row, releasedBy: 'cumulative', actorId: null });
  return held;
}
