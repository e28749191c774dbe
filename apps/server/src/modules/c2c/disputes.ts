import type { AdminC2cDecideBody, C2cOutcome } from '@bourse/protocol';
import { inTransaction, type Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { type C2cDeps, DEFAULT_FOUR_EYES_UNITS } from './context.ts';
import { notifyOrder, publishOrder } from './notices.ts';
import type { OrderRow } from './repo.ts';
import * as repo from './repo.ts';
import { applyEvent } from './transition.ts';

/**
 * Dispute decisions (README.md, "Disputes"): staff release the escrow to the buyer or return it to
 * the seller, with a written reason — the one outcome staff set by hand, audited. Above the
 * threshold the first call records the decision (`first_*`, still disputed) and a DIFFERENT staff
 * member confirms the same outcome (`C2C_DECIDE_SELF`, `C2C_DECISION_DIFFERS`; a CHECK too).
 * The auto rule (`autoResolve`, run by the job at `respond_by`) decides only at or below the
 * threshold and only when the side that did not open the dispute never acted in it.
 */

export const fourEyesUnits = (deps: C2cDeps) => deps.fourEyesUnits ?? DEFAULT_FOUR_EYES_UNITS;
const EVENT = { release: 'decide_release', return: 'decide_return' } as const;

export type Decision = { row: OrderRow; decided: boolean };

export async function decide(
  deps: C2cDeps,
  staff: StaffContext,
  id: string,
  body: AdminC2cDecideBody,
): Promise<Decision> {
  const reason = body.reason.trim();
  const out = await inTransaction(deps.db, async (tx): Promise<Decision> => {
    const o = await repo.findOrder(tx, id, { lock: true });
    if (!o) refuse('NOT_FOUND');
    if (o.state !== 'disputed') refuse('C2C_ORDER_STATE', { state: o.state, action: EVENT[body.outcome] });
    const now = deps.clock.now();
    const needsTwo = BigInt(o.amount_units) > fourEyesUnits(deps);
    if (needsTwo && o.first_by === null) {
      const patch = {
        first_outcome: body.outcome,
        first_reason: reason,
        first_by: staff.staffId,
        first_at: now,
      };
      await repo.updateOrder(tx, o.id, patch);
      await deps.audit.record(tx, {
        actorId: staff.staffId,
        action: 'c2c.order.decide_request',
        targetType: 'c2c_order',
        targetId: o.id,
        before: { state: o.state },
        after: { state: o.state, awaiting_second: true, outcome: body.outcome },
        reason,
      });
      return { row: { ...o, ...patch }, decided: false };
    }
    if (needsTwo && o.first_by === staff.staffId) refuse('C2C_DECIDE_SELF');
    if (needsTwo && o.first_outcome !== body.outcome)
      refuse('C2C_DECISION_DIFFERS', { outcome: o.first_outcome ?? '' });
    const row = await resolve(deps, tx, o, {
      outcome: body.outcome,
      by: 'staff',
      actorId: staff.staffId,
      reason,
    });
    return { row, decided: true };
  });
  if (out.decided) {
    await publishOrder(deps, out.row, out.row.state);
    await notifyOrder(deps, out.row, 'resolved');
  }
  return out;
}

export function resolve(
  deps: C2cDeps,
  tx: Tx,
  o: OrderRow,
  input: { outcome: C2cOutcome; by: 'staff' | 'rule'; actorId: string; reason: string },
): Promise<OrderRow> {
  return applyEvent(deps, tx, o, {
    event: EVENT[input.outcome],
    actor: { kind: input.by === 'staff' ? 'staff' : 'job', id: input.actorId },
    reason: input.reason,
    patch: {
      outcome: input.outcome,
      outcome_by: input.by,
      outcome_reason: input.reason,
      decided_by: input.by === 'staff' ? input.actorId : null,
      end_reason: input.by === 'staff' ? 'decided' : 'auto_rule',
    },
  });
}

/**
 * The published auto rule at `respond_by`: an order at or below the four-eyes threshold, where the
 * side that did not open the dispute wrote nothing and uploaded nothing since it opened, is decided
 * for the side that did — a dispute opened by the confirm deadline counts as opened by the payer
 * (who proved payment and whose receiver never answered). Otherwise staff decide. Null: not decided.
 */
export async function autoOutcome(deps: C2cDeps, tx: Tx, o: OrderRow): Promise<C2cOutcome | null> {
  if (BigInt(o.amount_units) > fourEyesUnits(deps) || !o.disputed_at) return null;
  const opener =
    o.dispute_by === 'job'
      ? o.buyer_id
      : o.dispute_by === 'merchant'
        ? o.merchant_customer_id
        : o.customer_id;
  const other = opener === o.buyer_id ? o.seller_id : o.buyer_id;
  if (await repo.actedSince(tx, o.id, other, o.disputed_at)) return null;
  return opener === o.buyer_id ? 'release' : 'return';
}
