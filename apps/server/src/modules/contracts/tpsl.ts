import type { ContractOrderData, ContractPositionData, SetTpSlBody } from '@bourse/protocol';
import { checkTpSl } from '@bourse/risk';
import { inTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { type ContractsContext, pricesNow, settingOf } from './context.ts';
import { type InstrumentInfo, parseLevel, priceText, storedPrice } from './math.ts';
import {
  type LevelsTable,
  levelsHolder,
  lockCustomer,
  type OrderRow,
  orderById,
  type PositionRow,
  positionById,
  statusOf,
  updateLevels,
} from './repo.ts';
import type { Setting } from './settings.ts';
import { orderData, positionData } from './views.ts';

/**
 * Take-profit / stop-loss of an open position or a pending order: checked against the executable
 * close price now (position) or the limit price (order) by `@bourse/risk`'s checkTpSl; a field left
 * out keeps its level. The engine triggers them (consumer.ts).
 */
export async function setTpSl(
  ctx: ContractsContext,
  auth: AuthContext,
  body: SetTpSlBody,
): Promise<{ position: ContractPositionData | null; order: ContractOrderData | null }> {
  if (!body.position_id === !body.order_id) refuse('FIELD_REQUIRED', { field: 'position_id' });
  const table: LevelsTable = body.position_id ? 'contracts_position' : 'contracts_order';
  const id = (body.position_id ?? body.order_id) as string;
  const current = await levelsHolder(ctx.db, table, id);
  if (!current || current.customer_id !== auth.customerId) refuse('NOT_FOUND');
  const { i, s } = await settingOf(ctx, ctx.db, current.symbol);
  const level = (text: string | undefined, was: string | null, field: string) =>
    text === undefined ? (was === null ? null : storedPrice(i, was)) : parseLevel(i, field, text);
  const tp = level(body.tp_price, current.tp_price, 'tp_price');
  const sl = level(body.sl_price, current.sl_price, 'sl_price');
  const bad = checkTpSl(current.side, referencePrice(ctx, { table, current, i, s }), tp, sl);
  if (bad) refuse(bad.reason, { price: priceText(i, bad.priceUnits) });
  const change = {
    tp_price: tp === null ? null : priceText(i, tp),
    sl_price: sl === null ? null : priceText(i, sl),
    updated_at: ctx.clock.now(),
  };
  await inTransaction(ctx.db, async (tx) => {
    await lockCustomer(tx, auth.customerId);
    const status = table === 'contracts_position' ? 'open' : 'pending';
    if (await updateLevels(tx, { table, id, status, change })) return;
    const now = await statusOf(tx, table, id);
    if (table === 'contracts_position') refuse('POSITION_NOT_OPEN', { status: now });
    refuse('CONTRACT_ORDER_NOT_PENDING', { status: now });
  });
  if (table === 'contracts_position') {
    const row = await positionById(ctx.db, id);
    if (!row) throw new Error(`position ${id} vanished`);
    return { position: positionData(ctx, row), order: null };
  }
  const row = await orderById(ctx.db, id);
  if (!row) throw new Error(`order ${id} vanished`);
  return { position: null, order: orderData(ctx, row) };
}

/** What TP/SL are checked against; refuses a position no longer open or an order no longer pending. */
function referencePrice(
  ctx: ContractsContext,
  input: { table: LevelsTable; current: PositionRow | OrderRow; i: InstrumentInfo; s: Setting },
): bigint {
  const { current, i, s } = input;
  if (input.table === 'contracts_position') {
    if (current.status !== 'open') refuse('POSITION_NOT_OPEN', { status: current.status });
    const e = pricesNow(ctx.market, i, s).exec;
    return current.side === 'buy' ? e.closeLong : e.closeShort;
  }
  if (current.status !== 'pending') refuse('CONTRACT_ORDER_NOT_PENDING', { status: current.status });
  return storedPrice(i, (current as OrderRow).price);
}
