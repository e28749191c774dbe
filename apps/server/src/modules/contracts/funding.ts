import type { Tx } from '../../db/database.ts';
import { chargeFunding, closeLots, type Fill, liquidates, type Position } from './core.ts';
import type { InstrumentInfo } from './math.ts';
import { anyPositionOwing, openPositionsWithLastFunding } from './repo.ts';
import { type ConsumerDeps, markAt, reload } from './round.ts';
import type { Setting } from './settings.ts';

/** Funding times one round charges per instrument (a longer outage catches up over several rounds). */
export const FUNDING_TIMES_PER_ROUND = 100;

/**
 * Every funding time ≤ `until` a position has not been charged for yet, oldest first — several
 * when the engine was down across funding times. A position owes the funding times from the first
 * at or after its opening (or after its last charge) on; each is charged once (unique key) at the
 * last recorded mark at or before THAT time. At most FUNDING_TIMES_PER_ROUND times per instrument
 * and round (the rest in the next rounds).
 */
export async function chargeFundingDue(
  deps: ConsumerDeps,
  tx: Tx,
  input: { i: InstrumentInfo; s: Setting; until: Date; now: Date },
): Promise<void> {
  const { i, s } = input;
  const every = (s.fundingIntervalHours as number) * 3_600_000;
  const latest = Math.floor(input.until.getTime() / every) * every;
  // Every round asks; almost always nothing is owed. A lock-free look first, so the open positions
  // are locked (below) only when one of them still owes the latest funding time (charges run oldest
  // first, so a position charged for it owes nothing earlier either).
  if (!(await anyPositionOwing(tx, i.symbol, new Date(latest)))) return;
  const rows = await openPositionsWithLastFunding(tx, i.symbol, new Date(latest));
  if (rows.length === 0) return;
  const owed = owedTimes(rows, every, latest);
  const times = [...owed.keys()].sort((a, b) => a - b).slice(0, FUNDING_TIMES_PER_ROUND);
  for (const atMs of times) {
    const at = new Date(atMs);
    const mark = await markAt(deps, tx, i, at);
    if (!mark) continue; // nothing recorded at or before it: charged when a price of record exists
    for (const id of owed.get(atMs) ?? []) {
      await chargeOne(deps, tx, { i, rate: s.fundingRate as string, id, at, mark, now: input.now });
    }
  }
}

/** Funding time → the positions owing it. */
function owedTimes(
  rows: ReadonlyArray<{ id: string; opened_at: Date; last_funding_at: Date | null }>,
  every: number,
  latest: number,
): Map<number, string[]> {
  const owed = new Map<number, string[]>();
  for (const row of rows) {
    const last = row.last_funding_at;
    let at = last
      ? (Math.floor(last.getTime() / every) + 1) * every
      : Math.ceil(row.opened_at.getTime() / every) * every;
    for (; at <= latest; at += every) {
      let list = owed.get(at);
      if (!list) {
        list = [];
        owed.set(at, list);
      }
      list.push(row.id);
    }
  }
  return owed;
}

/** One position at one funding time; a payment that brings the risk rate to the level liquidates at the same mark. */
async function chargeOne(
  deps: ConsumerDeps,
  tx: Tx,
  input: { i: InstrumentInfo; rate: string; id: string; at: Date; mark: Fill; now: Date },
): Promise<void> {
  const { i, mark, now } = input;
  const p = await reload(tx, i, input.id);
  if (!p) return; // liquidated by an earlier funding time of this round
  const amount = await chargeFunding(tx, deps.ledger, {
    i,
    p,
    fundingAt: input.at,
    rate: input.rate,
    mark,
    now,
  });
  if (amount === null) return;
  deps.onAction?.('funding');
  const after: Position | null = await reload(tx, i, p.id);
  if (after && liquidates(i, after, mark.priceUnits, mark.conversion.rate)) {
    await closeLots(tx, deps.ledger, {
      i,
      p: after,
      lotsUnits: after.lotsUnits,
      fill: mark,
      reason: 'liquidation',
      now,
    });
    deps.onAction?.('liquidation');
  }
}
