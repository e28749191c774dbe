import type { Logger } from 'pino';
import type { Tx } from '../../db/database.ts';
import { Refusal } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RecordedTick } from '../../lib/ticks.ts';
import type { Ledger } from '../ledger/index.ts';
import { type Market, recordedTickAtOrBefore } from '../market/index.ts';
import { type Fill, type Position, positionOf, releaseOrder } from './core.ts';
import { type Conversion, conversionFrom, IDENTITY, type InstrumentInfo, storedPrice } from './math.ts';
import {
  loadSettings,
  markOrderCancelled,
  type OrderRow,
  openPositionsForUpdate,
  positionById,
} from './repo.ts';
import { parseSetting, type Setting } from './settings.ts';

/**
 * What the contracts consumer's steps share inside one engine round (all through the round's `tx`):
 * its dependencies, the prices of record (a conversion or a mark at a recorded tick, never the live
 * ticker), the settings and open positions as the round loads them, and cancelling a pending order.
 */

export type ConsumerDeps = {
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  market: Market;
  pairOf(quote: string): { symbol: string; inverse: boolean; scale: number } | null;
  /** Told of each action as it is written (inside the round's transaction): tests and the bench count them. */
  onAction?(kind: string): void;
};

export type Priced = { i: InstrumentInfo; s: Setting };

const USD_QUOTES = new Set(['USD', 'USDT']);

export function instrumentOrNull(deps: ConsumerDeps, symbol: string): InstrumentInfo | null {
  try {
    return deps.market.instrument(symbol);
  } catch (error) {
    if (error instanceof Refusal) return null;
    throw error;
  }
}

/** Quote → USDT at a recorded tick: the pair's newest tick at or before it (this round's first). */
export async function conversionAt(
  deps: ConsumerDeps,
  tx: Tx,
  i: InstrumentInfo,
  at: RecordedTick,
  latest: Map<string, RecordedTick>,
): Promise<Conversion | null> {
  if (USD_QUOTES.has(i.quote)) return IDENTITY;
  const pair = deps.pairOf(i.quote);
  if (!pair) return null;
  const p = instrumentOrNull(deps, pair.symbol);
  if (!p) return null;
  let tick: RecordedTick | null | undefined = latest.get(pair.symbol);
  if (!tick || tick.at.getTime() > at.at.getTime()) tick = await recordedTickAtOrBefore(tx, p.id, at.at);
  if (!tick) return null;
  return conversionFrom(pair, storedPrice(p, tick.bid), storedPrice(p, tick.ask));
}

/** The mark of record at or before `at`, with its conversion: what funding and delivery act at. */
export async function markAt(deps: ConsumerDeps, tx: Tx, i: InstrumentInfo, at: Date): Promise<Fill | null> {
  const tick = await recordedTickAtOrBefore(tx, i.id, at);
  if (!tick) return null;
  const conversion = await conversionAt(deps, tx, i, tick, new Map());
  if (!conversion) return null;
  return {
    priceUnits: storedPrice(i, tick.mark),
    source: tick.source,
    at: tick.at,
    tickSeq: tick.seq,
    conversion,
  };
}

/** Every setting whose instrument is in the catalogue, by symbol. */
export async function settingsBySymbol(deps: ConsumerDeps, tx: Tx): Promise<Map<string, Priced>> {
  const out = new Map<string, Priced>();
  for (const row of await loadSettings(tx)) {
    const i = instrumentOrNull(deps, row.symbol);
    if (i) out.set(row.symbol, { i, s: parseSetting(row, i) });
  }
  return out;
}

/** The instrument's open positions (both books), locked, by id. */
export async function openPositions(deps: ConsumerDeps, tx: Tx, symbol: string): Promise<Position[]> {
  const i = deps.market.instrument(symbol);
  const rows = await openPositionsForUpdate(tx, symbol);
  return rows.map((r) => positionOf(r, i));
}

/** The position as it is now in this round; null once it is no longer open. */
export async function reload(tx: Tx, i: InstrumentInfo, id: string): Promise<Position | null> {
  const row = await positionById(tx, id);
  if (!row) throw new Error(`position ${id} vanished`);
  return row.status === 'open' ? positionOf(row, i) : null;
}

/** A pending order the engine cannot fill or keep: its margin and fee go back to available. */
export async function cancelPending(
  deps: ConsumerDeps,
  tx: Tx,
  o: OrderRow,
  reason: 'market_closed' | 'insufficient_balance' | 'expired' | 'settings_changed',
): Promise<void> {
  await releaseOrder(tx, deps.ledger, o);
  await markOrderCancelled(tx, { id: o.id, reason, now: deps.clock.now() });
  deps.onAction?.(`cancel:${reason}`);
}
