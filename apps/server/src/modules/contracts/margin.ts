import type { AddMarginBody, ContractPositionData } from '@bourse/protocol';
import { inTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import { parseAmount } from '../assets/index.ts';
import { type ContractsContext, settingOf } from './context.ts';
import { lockCustomer, lockPosition, positionById, updatePosition } from './repo.ts';
import { positionData } from './views.ts';

/** Top-up: available → frozen into an open position's margin, at most `margin_topup_max` per call. */
export async function addMargin(
  ctx: ContractsContext,
  auth: AuthContext,
  body: AddMarginBody,
): Promise<ContractPositionData> {
  const amount = parseAmount('amount', body.amount, 'USDT');
  const current = await positionById(ctx.db, body.position_id);
  if (!current || current.customer_id !== auth.customerId) refuse('NOT_FOUND');
  const { s } = await settingOf(ctx, ctx.db, current.symbol);
  if (amount > s.marginTopupMaxUnits) refuse('MARGIN_TOPUP_ABOVE_MAX', { max: s.marginTopupMax });
  const row = await inTransaction(ctx.db, async (tx) => {
    await lockCustomer(tx, auth.customerId);
    const row = await lockPosition(tx, body.position_id);
    if (!row) refuse('NOT_FOUND');
    if (row.status !== 'open') refuse('POSITION_NOT_OPEN', { status: row.status });
    const now = ctx.clock.now();
    const topupId = newId('ctu', now.getTime());
    await ctx.ledger.freeze(tx, {
      book: row.book,
      customerId: row.customer_id,
      accountType: 'contract',
      currency: 'USDT',
      amountUnits: amount,
      reason: 'contract.margin',
      reference: { type: 'contract_position', id: row.id },
      idempotencyKey: `contracts:topup:${topupId}`,
    });
    const margin = (BigInt(row.margin_units) + amount).toString();
    await updatePosition(tx, row.id, { margin_units: margin, updated_at: now });
    return { ...row, margin_units: margin, updated_at: now };
  });
  return positionData(ctx, row);
}
