import type { CloseAllResult, ContractCloseData } from '@bourse/protocol';
import { inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { reasonEnvelope } from '../../http/envelope.ts';
import { Refusal, refuse } from '../../http/refusal.ts';
import { bookOf, type ContractsContext, conversionNow, type Lang, pricesNow, settingOf } from './context.ts';
import { type CloseReason, closeLots, type Fill, positionOf } from './core.ts';
import { lotsText, parseLots } from './math.ts';
import { closeById, customerOpenPositionIds, lockCustomer, lockPosition, positionById } from './repo.ts';
import { closeData } from './views.ts';

/**
 * Closing by the customer: one position (all or some lots) or all of them, at the executable close
 * price now. The engine's closes (TP/SL, liquidation, delivery) are in the consumer.
 */

/** `web/closeContract`: only the customer's own position on the book they are signed in to. */
export async function closePosition(
  ctx: ContractsContext,
  auth: AuthContext,
  positionId: string,
  lots?: string,
): Promise<ContractCloseData> {
  const row = await positionById(ctx.db, positionId);
  if (!row || row.customer_id !== auth.customerId || row.book !== bookOf(auth)) refuse('NOT_FOUND');
  return closeOne(ctx, { customerId: auth.customerId, positionId, lots, cause: 'user' });
}

type Prepared = Awaited<ReturnType<typeof prepare>>;

/**
 * What a close needs from outside the transaction: the position as last read, its instrument and
 * settings, the lots wanted, the executable prices and the conversion now. Refuses NOT_FOUND,
 * POSITION_NOT_OPEN and the instrument's own refusals (no price, closed market).
 */
async function prepare(
  ctx: ContractsContext,
  customerId: string,
  positionId: string,
  lots: string | undefined,
) {
  const row0 = await positionById(ctx.db, positionId);
  if (!row0 || row0.customer_id !== customerId) refuse('NOT_FOUND');
  const { i, s } = await settingOf(ctx, ctx.db, row0.symbol);
  const lotsWanted = lots === undefined || lots === '' ? null : parseLots(i, lots, null);
  if (row0.status !== 'open') refuse('POSITION_NOT_OPEN', { status: row0.status });
  return {
    positionId,
    i,
    lotsWanted,
    now0: pricesNow(ctx.market, i, s),
    conversion: conversionNow(ctx.market, i),
  };
}

/** The close itself, in the caller's transaction (the customer already locked): its close id. */
async function closeIn(tx: Tx, ctx: ContractsContext, c: Prepared, cause: CloseReason): Promise<string> {
  const row = await lockPosition(tx, c.positionId);
  if (!row) refuse('NOT_FOUND');
  if (row.status !== 'open') refuse('POSITION_NOT_OPEN', { status: row.status });
  const p = positionOf(row, c.i);
  const lots = c.lotsWanted ?? p.lotsUnits;
  if (lots > p.lotsUnits) refuse('CLOSE_LOTS_ABOVE_OPEN', { lots: lotsText(p.lotsUnits) });
  const fill: Fill = {
    priceUnits: p.side === 'buy' ? c.now0.exec.closeLong : c.now0.exec.closeShort,
    source: c.now0.price.source,
    at: c.now0.price.at,
    tickSeq: BigInt(c.now0.price.tickSeq),
    conversion: c.conversion,
  };
  const now = ctx.clock.now();
  return (await closeLots(tx, ctx.ledger, { i: c.i, p, lotsUnits: lots, fill, reason: cause, now })).closeId;
}

/** Closes `lots` (all when not given) of one open position at the executable close price now. */
async function closeOne(
  ctx: ContractsContext,
  input: { customerId: string; positionId: string; lots: string | undefined; cause: CloseReason },
): Promise<ContractCloseData> {
  const c = await prepare(ctx, input.customerId, input.positionId, input.lots);
  const closeId = await inTransaction(ctx.db, async (tx) => {
    await lockCustomer(tx, input.customerId);
    return closeIn(tx, ctx, c, input.cause);
  });
  return closeData(ctx, await closeById(ctx.db, closeId));
}

/**
 * Closes every open position of the customer (on one instrument if given), oldest first, in ONE
 * transaction — with the request's idempotency claim, so a crash part way closes none and the retry
 * closes them all (one transaction a position would have recorded the claim at the first, and the
 * retry answered REQUEST_ALREADY_APPLIED with the rest still open). A position closed meanwhile
 * (TP/SL, liquidation) is skipped; a position whose instrument refuses (no price, market closed) is
 * reported in `failed` and the others still close.
 */
export async function closeAll(
  ctx: ContractsContext,
  auth: AuthContext,
  symbol: string | undefined,
  lang: Lang,
): Promise<CloseAllResult> {
  const rows = await customerOpenPositionIds(ctx.db, {
    customerId: auth.customerId,
    book: bookOf(auth),
    symbol,
  });
  const out: CloseAllResult = { closed: [], failed: [] };
  const failed = (r: (typeof rows)[number], error: Refusal) =>
    out.failed.push({
      position_id: r.id,
      symbol: r.symbol,
      reason: error.reason,
      message: reasonEnvelope(lang, error.reason, error.params).msg,
    });
  const ready: Prepared[] = [];
  for (const r of rows) {
    try {
      ready.push(await prepare(ctx, auth.customerId, r.id, undefined));
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      if (error.reason !== 'POSITION_NOT_OPEN') failed(r, error); // else closed meanwhile
    }
  }
  if (ready.length === 0) return out;
  const closeIds = await inTransaction(ctx.db, async (tx) => {
    await lockCustomer(tx, auth.customerId);
    const ids: string[] = [];
    for (const c of ready) {
      // Checked before anything is written for this position: a refusal here writes nothing.
      const row = await lockPosition(tx, c.positionId);
      if (!row || row.status !== 'open') continue; // closed meanwhile (TP/SL, liquidation)
      ids.push(await closeIn(tx, ctx, c, 'close_all'));
    }
    return ids;
  });
  for (const id of closeIds) out.closed.push(await closeData(ctx, await closeById(ctx.db, id)));
  return out;
}
