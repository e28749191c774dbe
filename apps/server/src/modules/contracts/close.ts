import type { CloseAllResult, ContractCloseData } from '@bourse/protocol';
import { inTransaction } from '../../db/database.ts';
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

/** Closes `lots` (all when not given) of one open position at the executable close price now. */
async function closeOne(
  ctx: ContractsContext,
  input: { customerId: string; positionId: string; lots: string | undefined; cause: CloseReason },
): Promise<ContractCloseData> {
  const { customerId, positionId } = input;
  const row0 = await positionById(ctx.db, positionId);
  if (!row0 || row0.customer_id !== customerId) refuse('NOT_FOUND');
  const { i, s } = await settingOf(ctx, ctx.db, row0.symbol);
  const lotsWanted = input.lots === undefined || input.lots === '' ? null : parseLots(i, input.lots, null);
  if (row0.status !== 'open') refuse('POSITION_NOT_OPEN', { status: row0.status });
  const now0 = pricesNow(ctx.market, i, s);
  const conversion = conversionNow(ctx.market, i);
  const closeId = await inTransaction(ctx.db, async (tx) => {
    await lockCustomer(tx, customerId);
    const row = await lockPosition(tx, positionId);
    if (!row) refuse('NOT_FOUND');
    if (row.status !== 'open') refuse('POSITION_NOT_OPEN', { status: row.status });
    const p = positionOf(row, i);
    const lots = lotsWanted ?? p.lotsUnits;
    if (lots > p.lotsUnits) refuse('CLOSE_LOTS_ABOVE_OPEN', { lots: lotsText(p.lotsUnits) });
    const fill: Fill = {
      priceUnits: p.side === 'buy' ? now0.exec.closeLong : now0.exec.closeShort,
      source: now0.price.source,
      at: now0.price.at,
      tickSeq: BigInt(now0.price.tickSeq),
      conversion,
    };
    const now = ctx.clock.now();
    return (await closeLots(tx, ctx.ledger, { i, p, lotsUnits: lots, fill, reason: input.cause, now }))
      .closeId;
  });
  return closeData(ctx, await closeById(ctx.db, closeId));
}

/**
 * Closes every open position of the customer (on one instrument if given), oldest first; a position
 * closed meanwhile (TP/SL, liquidation) is skipped, any other refusal is reported in `failed`.
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
  for (const r of rows) {
    try {
      out.closed.push(
        await closeOne(ctx, {
          customerId: auth.customerId,
          positionId: r.id,
          lots: undefined,
          cause: 'close_all',
        }),
      );
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      if (error.reason === 'POSITION_NOT_OPEN') continue; // closed meanwhile (TP/SL, liquidation)
      out.failed.push({
        position_id: r.id,
        symbol: r.symbol,
        reason: error.reason,
        message: reasonEnvelope(lang, error.reason, error.params).msg,
      });
    }
  }
  return out;
}
