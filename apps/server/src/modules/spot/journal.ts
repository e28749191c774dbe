import type { SpotCancelReason } from '@bourse/protocol';
import { ClaimLostError, type Db, type EffectClaim, inTransaction, type Tx } from '../../db/database.ts';
import { Refusal } from '../../http/refusal.ts';
import type { EntryInput, Ledger } from '../ledger/index.ts';
import type { Book, JournalCommand, MarketRef, OrderState, PlaceInput } from './order.ts';
import { appendJournal, insertOrders, type SpotJournalTableRow, takenClientOids } from './repo.ts';

/**
 * Step 1 of a batch, the journal (one transaction): the new orders' freezes (one `postBatch`: a
 * refused freeze refuses only its order), their rows, each accepted request's idempotency claim, and
 * every accepted command into `spot_journal` with the next seq. Nothing is acknowledged before this
 * commits.
 */

/** A request waiting in a book's queue. */
export type Job =
  | {
      kind: 'place';
      input: PlaceInput;
      claim: EffectClaim | null;
      resolve: (o: OrderState) => void;
      reject: (e: unknown) => void;
    }
  | {
      kind: 'cancel';
      claim: EffectClaim | null;
      orderId: string;
      customerId: string;
      reason: SpotCancelReason;
      resolve: (o: OrderState) => void;
      reject: (e: unknown) => void;
    };

export type PlaceJob = Job & { kind: 'place' };
export type CancelJob = Job & { kind: 'cancel' };

/** A journaled command and the request it answers (a place carries its order as journaled). */
export type Accepted = { job: Job; command: JournalCommand; order?: OrderState };

export type JournalResult = {
  accepted: Accepted[];
  /** client_oid already used (in the table or earlier in the batch): the service answers the existing order. */
  duplicate: Set<Job>;
  /** The request's idempotency claim was taken by a twin. */
  lost: Set<Job>;
  /** Freezes the ledger refused. */
  refusals: Map<Job, Refusal>;
};

export type JournalBatch = {
  jobs: Job[];
  places: PlaceJob[];
  cancels: CancelJob[];
  /** The book's seq before this batch. */
  firstSeq: number;
  now: Date;
};

type JournalDeps = {
  db: Db;
  ledger: Ledger;
  market: MarketRef;
  book: Book;
  /** SPOT_LEASES: the lease check, first in the transaction (throws SPOT_BOOK_MOVED: nothing is written). */
  fence?: (tx: Tx) => Promise<void>;
};

class ClientOidRace extends Error {}
/** A request's idempotency claim was taken by a twin: drop that job and journal the rest. */
class ClaimRace extends Error {}

/**
 * Journals a batch, retrying when a twin (same client_oid in another book, or the same request's
 * claim) committed meanwhile. On any other failure every job is rejected and null returned.
 */
export async function journalBatch(deps: JournalDeps, batch: JournalBatch): Promise<JournalResult | null> {
  const result: JournalResult = { accepted: [], duplicate: new Set(), lost: new Set(), refusals: new Map() };
  for (let attempt = 0; ; attempt++) {
    try {
      await inTransaction(deps.db, (tx) => journalAttempt(tx, deps, batch, result));
      return result;
    } catch (error) {
      if ((error instanceof ClientOidRace || error instanceof ClaimRace) && attempt < batch.jobs.length + 5)
        continue;
      for (const job of batch.jobs) job.reject(error);
      return null;
    }
  }
}

async function journalAttempt(tx: Tx, deps: JournalDeps, batch: JournalBatch, result: JournalResult) {
  await deps.fence?.(tx);
  result.accepted.length = 0;
  result.refusals.clear();
  let candidates = batch.places.filter((j) => !result.duplicate.has(j) && !result.lost.has(j));
  await markDuplicateClientOids(tx, candidates, result.duplicate);
  candidates = candidates.filter((j) => !result.duplicate.has(j));
  const placed = await freeze(tx, deps, candidates, result.refusals);
  const rows = journalCommands(deps, batch, { placed, lost: result.lost, accepted: result.accepted });
  const orders = result.accepted.flatMap((a) => (a.order ? [a.order] : []));
  if (orders.length > 0) {
    const ids = await insertOrders(tx, orders);
    if (ids.size !== orders.length) {
      // A twin with the same client_oid committed in another book meanwhile: drop it and redo.
      for (const a of result.accepted) if (a.order && !ids.has(a.order.id)) result.duplicate.add(a.job);
      throw new ClientOidRace();
    }
  }
  // Each accepted request's idempotency claim commits with its journal entry (exactly once).
  for (const a of result.accepted) {
    if (a.job.claim && !(await a.job.claim.commit(tx))) {
      result.lost.add(a.job);
      throw new ClaimRace();
    }
  }
  await appendJournal(tx, rows);
}

/** Answers the requests the journal refused: lost claims, refused freezes, reused client_oids. */
export function answerJournalRefusals(jobs: Job[], places: PlaceJob[], r: JournalResult): void {
  for (const job of jobs) if (r.lost.has(job)) job.reject(new ClaimLostError());
  for (const job of places) {
    if (r.lost.has(job)) continue;
    const refusal = r.refusals.get(job);
    if (refusal) job.reject(refusal);
    else if (r.duplicate.has(job))
      job.reject(new Refusal('CLIENT_OID_REUSED', { client_oid: job.input.order.clientOid ?? '' }));
  }
}

/** A client_oid already used is answered by the service with the existing order. */
async function markDuplicateClientOids(tx: Tx, candidates: PlaceJob[], duplicate: Set<Job>): Promise<void> {
  const oids = candidates.filter((j) => j.input.order.clientOid !== null);
  if (oids.length === 0) return;
  const taken = await takenClientOids(
    tx,
    oids.map((j) => ({ customerId: j.input.order.customerId, clientOid: j.input.order.clientOid as string })),
  );
  const keys = new Set(taken.map((r) => `${r.customer_id}|${r.client_oid}`));
  const inBatch = new Set<string>();
  for (const j of oids) {
    const key = `${j.input.order.customerId}|${j.input.order.clientOid}`;
    if (keys.has(key) || inBatch.has(key)) duplicate.add(j);
    inBatch.add(key);
  }
}

/** Freezes each candidate's need (one postBatch); returns the jobs whose freeze went through. */
async function freeze(
  tx: Tx,
  deps: JournalDeps,
  candidates: PlaceJob[],
  refusals: Map<Job, Refusal>,
): Promise<Set<Job>> {
  const freezes = candidates.map((j) => freezeEntry(deps.book, j.input.order));
  const outcomes = freezes.length > 0 ? await deps.ledger.postBatch(tx, freezes) : [];
  const placed = new Set<Job>();
  candidates.forEach((j, i) => {
    const outcome = outcomes[i];
    if (outcome?.ok) placed.add(j);
    else if (outcome) refusals.set(j, new Refusal(outcome.refusal.reason, outcome.refusal.params));
  });
  return placed;
}

/** available → frozen: what a new order needs, in its frozen currency. */
function freezeEntry(book: Book, o: OrderState): EntryInput {
  const account = { book, customerId: o.customerId, accountType: 'spot' as const };
  return {
    reason: 'spot.freeze',
    reference: { type: 'spot_order', id: o.id },
    idempotencyKey: `spot:freeze:${o.id}`,
    postings: [
      { account, currency: o.frozenCurrency, bucket: 'available', amountUnits: -o.frozen },
      { account, currency: o.frozenCurrency, bucket: 'frozen', amountUnits: o.frozen },
    ],
  };
}

/**
 * Numbers the batch's commands in queue order (placed orders and cancels not lost), fills
 * `accepted` and returns the journal rows.
 */
function journalCommands(
  deps: JournalDeps,
  batch: JournalBatch,
  state: { placed: Set<Job>; lost: Set<Job>; accepted: Accepted[] },
): SpotJournalTableRow[] {
  const rows: SpotJournalTableRow[] = [];
  let seq = batch.firstSeq;
  const row = (command: JournalCommand): SpotJournalTableRow => ({
    symbol: deps.market.symbol,
    book: deps.book,
    seq: String(command.seq),
    command: JSON.stringify(command),
    created_at: batch.now,
  });
  for (const job of batch.jobs) {
    if (job.kind === 'place') {
      if (!state.placed.has(job)) continue;
      seq += 1;
      const command = placeCommand(job.input, seq, batch.now);
      state.accepted.push({ job, command, order: { ...job.input.order, seq: BigInt(seq) } });
      rows.push(row(command));
    } else if (batch.cancels.includes(job) && !state.lost.has(job)) {
      seq += 1;
      const command: JournalCommand = {
        type: 'cancel',
        seq,
        timestampMs: batch.now.getTime(),
        orderId: job.orderId,
        userId: job.customerId,
        cancelReason: job.reason,
      };
      state.accepted.push({ job, command });
      rows.push(row(command));
    }
  }
  return rows;
}

function placeCommand(input: PlaceInput, seq: number, now: Date): JournalCommand {
  const o = input.order;
  return {
    type: 'place',
    seq,
    timestampMs: now.getTime(),
    orderId: o.id,
    userId: o.customerId,
    side: o.side,
    kind: o.type,
    ...(o.type === 'limit' ? { priceTicks: Number(o.priceTicks) } : {}),
    qtyLots: Number(o.qtyLots),
    tif: o.tif,
    ...(o.postOnly ? { postOnly: true } : {}),
    ...(input.referencePriceTicks !== undefined ? { referencePriceTicks: input.referencePriceTicks } : {}),
  };
}
