import type { SpotCancelReason } from '@bourse/protocol';
import {
  ClaimLostError,
  commitClaims,
  type Db,
  type EffectClaim,
  embedClaims,
  type Tx,
} from '../../db/database.ts';
import { Refusal } from '../../http/refusal.ts';
import type { EntryInput, Ledger } from '../ledger/index.ts';
import type { Book, JournalCommand, MarketRef, OrderState, PlaceInput } from './order.ts';
import { insertOrdersAndJournal, type SpotJournalTableRow, takenClientOids } from './repo.ts';
import { type Settlement, SPOT_SOLE_WRITER, settledEntryIds, settledRowsOf } from './settle.ts';

/**
 * A book's transaction (`runner.ts`): the settlement of the batch before (matched in memory after its
 * own transaction) and this batch's journal part. One ledger call posts the settlement's entries, the
 * releases of cancelled orders and the new orders' freezes (a refused freeze refuses only its order);
 * then one statement writes the settlement's trades, order rows and cursor, and one the new orders'
 * rows, every accepted command into `spot_journal` with the next seq and the accepted requests'
 * idempotency claims (embedded: db/database.ts `embedClaims`). Nothing is acknowledged before the
 * transaction commits.
 */

/**
 * A request waiting in a book's queue. Jobs of one `group` (an amend) go in the same batch; a place
 * of a group is checked for post-only by the engine only (after the group's cancels), not against
 * the book as it stood.
 */
export type Job = (
  | {
      kind: 'place';
      input: PlaceInput;
    }
  | {
      kind: 'cancel';
      orderId: string;
      customerId: string;
      reason: SpotCancelReason;
    }
) & {
  claim: EffectClaim | null;
  group?: number;
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
  /** Orders cancelled in this batch whose frozen funds the journal part already released. */
  released: Set<string>;
};

export type JournalBatch = {
  jobs: Job[];
  places: PlaceJob[];
  cancels: CancelJob[];
  /** The book's seq before this batch. */
  firstSeq: number;
  now: Date;
};

export type JournalDeps = {
  db: Db;
  ledger: Ledger;
  market: MarketRef;
  book: Book;
  /** The book's open orders (what its cancels release). */
  open: ReadonlyMap<string, OrderState>;
};

class ClientOidRace extends Error {}
/** A request's idempotency claim was taken by a twin: drop that job and journal the rest. */
class ClaimRace extends Error {}

/**
 * A twin committed meanwhile (same client_oid in another book, or the same request's claim): the
 * attempt is undone and run again without that job (`journalAttempt` remembers it in the result).
 */
export function isJournalRace(error: unknown): boolean {
  return error instanceof ClientOidRace || error instanceof ClaimRace;
}

export function newJournalResult(): JournalResult {
  return { accepted: [], duplicate: new Set(), lost: new Set(), refusals: new Map(), released: new Set() };
}

/**
 * One attempt at a book's transaction in `tx`: the settlement of the batch before (`prior`, null when
 * there is none) and the journal part of `batch`; `result` carries what earlier attempts learned
 * (duplicates, lost claims). Throws a journal race (see `isJournalRace`) to be run again.
 */
export async function journalAttempt(
  tx: Tx,
  deps: JournalDeps,
  batch: JournalBatch,
  result: JournalResult,
  prior: Settlement | null,
) {
  result.accepted.length = 0;
  result.refusals.clear();
  result.released.clear();
  let candidates = batch.places.filter((j) => !result.duplicate.has(j) && !result.lost.has(j));
  await markDuplicateClientOids(tx, candidates, result.duplicate);
  candidates = candidates.filter((j) => !result.duplicate.has(j));
  const cancels = batch.cancels.filter((j) => !result.lost.has(j));
  const { placed, settledIds } = await postLedger(tx, deps, batch, { cancels, candidates, result, prior });
  const rows = journalCommands(deps, batch, {
    placed,
    cancels,
    accepted: result.accepted,
  });
  const orders = result.accepted.flatMap((a) => (a.order ? [a.order] : []));
  // Each accepted request's idempotency claim commits with its journal entry (exactly once): in the
  // same statement when the claims can be embedded, else in one of their own right after it.
  const claimed = result.accepted.filter((a) => a.job.claim !== null);
  const claims = claimed.map((a) => a.job.claim as EffectClaim);
  const embedded = claims.length > 0 ? embedClaims(claims) : null;
  const written = await insertOrdersAndJournal(tx, {
    orders,
    journal: rows,
    released: [...result.released],
    claims: embedded?.statement ?? null,
    settled: prior ? settledRowsOf(deps, prior, settledIds) : null,
  });
  if (written.placed.size !== orders.length) {
    // A twin with the same client_oid committed in another book meanwhile: drop it and redo (the
    // claims recorded with it roll back with the attempt).
    for (const a of result.accepted)
      if (a.order && !written.placed.has(a.order.id)) result.duplicate.add(a.job);
    throw new ClientOidRace();
  }
  const ours = embedded ? embedded.ours(written.claimed) : await commitClaims(tx, claims);
  const lost = claimed.filter((_, i) => !ours[i]);
  if (lost.length > 0) {
    for (const a of lost) result.lost.add(a.job);
    throw new ClaimRace();
  }
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

/**
 * The transaction's one ledger call (`postAll`: its accounts locked in one round): the prior batch's
 * settlement entries first, then every cancelled order's frozen funds go back (a batch's cancels run
 * before its places, on orders resting when the batch began, so each is certain to succeed: an
 * amend's new quotes can use what its old ones held), then each candidate's need is frozen. Returns
 * the jobs whose freeze went through and the ids of the settlement's entries; the released orders are
 * in `result.released`.
 */
async function postLedger(
  tx: Tx,
  deps: JournalDeps,
  batch: JournalBatch,
  p: { cancels: CancelJob[]; candidates: PlaceJob[]; result: JournalResult; prior: Settlement | null },
): Promise<{ placed: Set<Job>; settledIds: string[] }> {
  const releases: EntryInput[] = [];
  p.cancels.forEach((job, i) => {
    const o = deps.open.get(job.orderId);
    if (!o) throw new Error(`order ${job.orderId} is not open in ${deps.market.symbol}/${deps.book}`);
    if (o.frozen === 0n) return;
    releases.push(releaseEntry(deps.book, o, batch.firstSeq + i + 1));
    p.result.released.add(o.id);
  });
  const freezes = p.candidates.map((j) => freezeEntry(deps.book, j.input.order));
  const settled = p.prior?.entries ?? [];
  const entries = [...settled, ...releases, ...freezes];
  const all = entries.length > 0 ? await deps.ledger.postAll(tx, entries, SPOT_SOLE_WRITER) : [];
  const settledIds = settledEntryIds(all.slice(0, settled.length));
  const outcomes = all.slice(settled.length);
  for (const outcome of outcomes.slice(0, releases.length))
    if (!outcome.ok) throw new Error(`spot release refused by the ledger: ${outcome.refusal.reason}`);
  const placed = new Set<Job>();
  p.candidates.forEach((j, i) => {
    const outcome = outcomes[releases.length + i];
    if (outcome?.ok) placed.add(j);
    else if (outcome) p.result.refusals.set(j, new Refusal(outcome.refusal.reason, outcome.refusal.params));
  });
  return { placed, settledIds };
}

/** frozen → available: all a cancelled order still holds (its need after the cancel is nothing). */
function releaseEntry(book: Book, o: OrderState, cancelSeq: number): EntryInput {
  const account = { book, customerId: o.customerId, accountType: 'spot' as const };
  return {
    reason: 'spot.release',
    reference: { type: 'spot_order', id: o.id },
    idempotencyKey: `spot:release:${o.id}:${cancelSeq}`,
    postings: [
      { account, currency: o.frozenCurrency, bucket: 'frozen', amountUnits: -o.frozen },
      { account, currency: o.frozenCurrency, bucket: 'available', amountUnits: o.frozen },
    ],
  };
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
 * Numbers the batch's commands — its cancels first, then its places in queue order — fills
 * `accepted` and returns the journal rows. Cancels first: each cancels an order resting when the
 * batch began, so it cannot lose to a fill in the same batch, and its funds are free for the places
 * that follow (the market maker's amend: old quotes out, new ones in, in one batch).
 */
function journalCommands(
  deps: JournalDeps,
  batch: JournalBatch,
  state: { placed: Set<Job>; cancels: CancelJob[]; accepted: Accepted[] },
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
  for (const job of state.cancels) {
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
  for (const job of batch.jobs) {
    if (job.kind !== 'place' || !state.placed.has(job)) continue;
    seq += 1;
    const command = placeCommand(job.input, seq, batch.now);
    state.accepted.push({ job, command, order: { ...job.input.order, seq: BigInt(seq) } });
    rows.push(row(command));
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
