import { inTransaction } from '../../db/database.ts';
import { recordedTickAtOrBefore } from '../market/index.ts';
import type { FundsDeps } from './context.ts';
import { navOf, positionsFor, positionsValue } from './models.ts';
import { CASH, driftOf, worthOf } from './plan.ts';
import * as repo from './repo.ts';
import type { StoredWeight } from './tables.ts';

/**
 * The model NAV per unit, recomputed hourly on the injected clock from **recorded** prices (the
 * newest tick of record at or before each hour) and the model's hypothetical holdings, and stored as
 * history (`funds_nav`). The hypothetical holdings are traded back to the targets (no fees) at an
 * hour whose drift passes the model's threshold, as orders are. Each hour is written once: the
 * model row is locked and `nav_through` compared, so a crash or a second run resumes where it stopped.
 */

export const HOUR_MS = 3_600_000;
/** Hours one run writes at most per model (a long outage is caught up over several runs). */
export const NAV_HOURS_PER_RUN = 24 * 31;

export const hourOf = (d: Date) => new Date(Math.floor(d.getTime() / HOUR_MS) * HOUR_MS);

/** Values per asset (USDT minor units) of holdings at prices keyed by symbol. */
export function valuesAt(
  weights: readonly StoredWeight[],
  quantities: Record<string, string>,
  prices: ReadonlyMap<string, string>,
): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const w of weights) {
    const qty = BigInt(quantities[w.asset] ?? '0');
    if (w.symbol === null) out.set(CASH, qty);
    else out.set(w.asset, worthOf(w.asset, qty, prices.get(w.symbol) ?? '0'));
  }
  return out;
}

/** Writes the NAV of every hour since each model's last one up to now; returns the rows written. */
export async function runNav(deps: FundsDeps): Promise<number> {
  const { db, clock, market } = deps;
  const until = hourOf(clock.now());
  let written = 0;
  for (const m of await repo.models(db)) {
    const last = await repo.lastNav(db, m.id);
    const known = new Map<string, string>(Object.entries(last?.prices ?? {}));
    let through = m.nav_through;
    let positions = m.positions;
    for (let n = 0; n < NAV_HOURS_PER_RUN && through < until; n++) {
      const at = new Date(through.getTime() + HOUR_MS);
      const prices = new Map<string, string>();
      for (const w of m.weights) {
        if (w.symbol === null) continue;
        const tick = await recordedTickAtOrBefore(db, market.instrument(w.symbol).id, at);
        const price = tick?.mark ?? known.get(w.symbol);
        if (price) prices.set(w.symbol, price);
      }
      if (m.weights.some((w) => w.symbol !== null && !prices.has(w.symbol))) break;
      const value = positionsValue(m.weights, positions, prices);
      const rebalanced = driftOf(valuesAt(m.weights, positions, prices), m.weights) > m.drift_bps;
      const next = rebalanced ? positionsFor(m.weights, value, prices) : positions;
      const ok = await inTransaction(db, async (tx) => {
        const row = await repo.model(tx, m.id, { lock: true });
        if (!row || row.nav_through.getTime() !== through.getTime()) return false;
        await repo.insertNav(tx, {
          model_id: m.id,
          at,
          nav_units: navOf(value).toString(),
          prices: Object.fromEntries(prices),
          rebalanced,
        });
        await repo.setModelNav(tx, m.id, { positions: next, nav_through: at });
        return true;
      });
      if (!ok) break;
      written += 1;
      for (const [s, p] of prices) known.set(s, p);
      through = at;
      positions = next;
    }
  }
  return written;
}

/** The model's NAV per unit now, at the reference prices (USDT minor units). */
export function navNow(
  deps: Pick<FundsDeps, 'market'>,
  m: Pick<repo.ModelRow, 'weights' | 'positions'>,
): bigint {
  return navOf(positionsValue(m.weights, m.positions, marksOf(deps, m.weights)));
}

/** The reference price (mark) now of every market of the weights, by symbol. */
export function marksOf(
  deps: Pick<FundsDeps, 'market'>,
  weights: readonly StoredWeight[],
): Map<string, string> {
  const prices = new Map<string, string>();
  for (const w of weights) if (w.symbol) prices.set(w.symbol, deps.market.ticker(w.symbol).mark);
  return prices;
}
