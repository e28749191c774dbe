import { baseUnits, notionalUnits } from '@bourse/risk';
import { inTransaction } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import type { FundsDeps } from './context.ts';
import { marksOf, valuesAt } from './nav.ts';
import { legRow, process } from './orders.ts';
import { driftOf, planBuy, priceTicksUp, rebalanceTargets, weightsOf } from './plan.ts';
import type { LegRow, OrderRow } from './repo.ts';
import * as repo from './repo.ts';

/**
 * Rebalancing: each order in custody is valued at the reference prices; when one weight is off its
 * target by more than the model's drift threshold, a rebalance row records the weights before, and
 * legs sell the over-weight assets and buy the under-weight ones (sales first: their proceeds are the
 * cash the buys spend) through the customer's own spot account; the row gets the weights after.
 * A rebalance whose every trade would be below the markets' minimums is not started.
 */

export async function runRebalances(deps: FundsDeps): Promise<number> {
  let started = 0;
  for (const o of await repo.inCustody(deps.db)) {
    const id = await startRebalance(deps, o);
    if (!id) continue;
    started += 1;
    await process(deps, o.id);
  }
  return started;
}

/** Plans and records a rebalance of `o` when its drift passes the threshold; its id, or null. */
export async function startRebalance(deps: FundsDeps, o: OrderRow): Promise<string | null> {
  const model = await repo.model(deps.db, o.model_id);
  if (!model) return null;
  const held = await repo.holdings(deps.db, [o.id]);
  const quantities = Object.fromEntries(held.map((h) => [h.asset, h.quantity_units]));
  const prices = marksOf(deps, o.weights);
  const values = valuesAt(o.weights, quantities, prices);
  const drift = driftOf(values, o.weights);
  if (drift <= model.drift_bps) return null;
  const trades = rebalanceTargets(values, o.weights);
  const planned: Array<Omit<Parameters<typeof legRow>[2], 'seq'>> = [];
  for (const t of trades) {
    const w = o.weights.find((x) => x.asset === t.asset);
    if (!w?.symbol) continue;
    const m = deps.spot.market(w.symbol);
    const price = prices.get(w.symbol) ?? '0';
    let lots: bigint;
    if (t.side === 'buy') lots = planBuy(m, t.valueUnits, price).qtyLots;
    else {
      const unit = notionalUnits(m.math, priceTicksUp(m.math, price), 1n);
      lots = t.valueUnits / unit;
      if (
        lots < m.minQtyLots ||
        notionalUnits(m.math, priceTicksUp(m.math, price), lots) < m.minNotionalUnits
      )
        lots = 0n;
    }
    if (lots === 0n) continue;
    planned.push({
      phase: 'rebalance',
      rebalanceId: null,
      asset: t.asset,
      symbol: w.symbol,
      side: t.side,
      quantityUnits: baseUnits(m.math, lots),
      price,
      tooSmall: null,
    });
  }
  if (planned.length === 0) return null;
  const before = weightsOf(values);
  return inTransaction(deps.db, async (tx) => {
    const row = await repo.order(tx, o.id, { lock: true });
    if (row?.state !== 'in_custody' || row.rebalancing) return null;
    const now = deps.clock.now();
    const id = newId('frb', now.getTime());
    await repo.insertRebalance(tx, {
      id,
      order_id: o.id,
      model_id: o.model_id,
      customer_id: o.customer_id,
      state: 'running',
      drift_bps: drift,
      before: o.weights.map((w) => ({ asset: w.asset, weight_bps: before.get(w.asset) ?? 0 })),
      after: null,
      started_at: now,
      done_at: null,
    });
    let seq = await repo.nextLegSeq(tx, o.id);
    const rows: LegRow[] = planned.map((p) => legRow(deps, o, { ...p, rebalanceId: id, seq: seq++ }));
    await repo.insertLegs(tx, rows);
    await repo.updateOrder(tx, o.id, { rebalancing: id });
    return id;
  });
}
