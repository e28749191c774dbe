import { executable, tpSlTriggered } from '@bourse/risk';
import type { Logger } from 'pino';
import type { Tx } from '../../db/database.ts';
import { Refusal } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { RecordedTick, TickConsumer } from '../../lib/ticks.ts';
import type { Ledger } from '../ledger/index.ts';
import { type Market, recordedTickAtOrBefore } from '../market/index.ts';
import { isOpenAt as isOpen } from '../market/schedule.ts';
import {
  chargeFunding,
  closeLots,
  type Fill,
  liquidates,
  type OrderRow,
  openPosition,
  type Position,
  positionOf,
  releaseOrder,
} from './core.ts';
import { type Conversion, conversionFrom, IDENTITY, type InstrumentInfo, storedPrice } from './math.ts';
import { loadSettings, parseSetting, type Setting } from './settings.ts';

const USD_QUOTES = new Set(['USD', 'USDT']);

/**
 * The contracts consumer of the risk engine. Per recorded tick, for that instrument, in order:
 * (1) take-profit / stop-loss on the executable close price (closed at that price), (2) liquidation
 * when the risk rate at the mark reaches the level (closed at the mark), (3) pending limit orders the
 * executable price reached (filled at it: never worse than the limit). onTime: funding for
 * perpetuals at each funding time, delivery of expired delivery contracts. All through `tx`.
 */
export function createContractsConsumer(deps: {
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  market: Market;
  pairOf(quote: string): { symbol: string; inverse: boolean; scale: number } | null;
  /** Told of each action as it is written (inside the round's transaction): tests and the bench count them. */
  onAction?(kind: string): void;
}): TickConsumer {
  const { ledger, market, clock } = deps;

  function instrumentOf(symbol: string): InstrumentInfo | null {
    try {
      return market.instrument(symbol);
    } catch (error) {
      if (error instanceof Refusal) return null;
      throw error;
    }
  }

  /** Quote → USDT at a recorded tick: the pair's newest tick at or before it (this round's first). */
  async function conversionAt(
    tx: Tx,
    i: InstrumentInfo,
    at: RecordedTick,
    latest: Map<string, RecordedTick>,
  ): Promise<Conversion | null> {
    if (USD_QUOTES.has(i.quote)) return IDENTITY;
    const pair = deps.pairOf(i.quote);
    if (!pair) return null;
    const p = instrumentOf(pair.symbol);
    if (!p) return null;
    let tick: RecordedTick | null | undefined = latest.get(pair.symbol);
    if (!tick || tick.at.getTime() > at.at.getTime()) tick = await recordedTickAtOrBefore(tx, p.id, at.at);
    if (!tick) return null;
    return conversionFrom(pair, storedPrice(p, tick.bid), storedPrice(p, tick.ask));
  }

  async function settingsBySymbol(tx: Tx): Promise<Map<string, { i: InstrumentInfo; s: Setting }>> {
    const out = new Map<string, { i: InstrumentInfo; s: Setting }>();
    for (const row of await loadSettings(tx)) {
      const i = instrumentOf(row.symbol);
      if (i) out.set(row.symbol, { i, s: parseSetting(row, i) });
    }
    return out;
  }

  async function openPositions(tx: Tx, symbol: string): Promise<Position[]> {
    const i = market.instrument(symbol);
    const rows = await tx
      .selectFrom('contracts_position')
      .selectAll()
      .where('symbol', '=', symbol)
      .where('status', '=', 'open')
      .orderBy('id')
      .forUpdate()
      .execute();
    return rows.map((r) => positionOf(r, i));
  }

  async function pendingOrders(tx: Tx, symbol: string): Promise<OrderRow[]> {
    return tx
      .selectFrom('contracts_order')
      .selectAll()
      .where('symbol', '=', symbol)
      .where('status', '=', 'pending')
      .orderBy('id')
      .forUpdate()
      .execute();
  }

  async function reload(tx: Tx, i: InstrumentInfo, id: string): Promise<Position | null> {
    const row = await tx
      .selectFrom('contracts_position')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row.status === 'open' ? positionOf(row, i) : null;
  }

  async function cancel(
    tx: Tx,
    o: OrderRow,
    reason: 'market_closed' | 'insufficient_balance' | 'expired' | 'settings_changed',
  ) {
    await releaseOrder(tx, ledger, o);
    await tx
      .updateTable('contracts_order')
      .set({ status: 'cancelled', cancel_reason: reason, updated_at: clock.now() })
      .where('id', '=', o.id)
      .execute();
    deps.onAction?.(`cancel:${reason}`);
  }

  async function onTicks(tx: Tx, ticks: readonly RecordedTick[]): Promise<void> {
    if (ticks.length === 0) return;
    const settings = await settingsBySymbol(tx);
    const positions = new Map<string, Position[]>();
    const orders = new Map<string, OrderRow[]>();
    const latest = new Map<string, RecordedTick>();
    for (const tick of ticks) {
      latest.set(tick.symbol, tick);
      const entry = settings.get(tick.symbol);
      if (!entry) continue;
      const { i, s } = entry;
      let list = positions.get(tick.symbol);
      if (!list) {
        list = await openPositions(tx, tick.symbol);
        positions.set(tick.symbol, list);
      }
      let pending = orders.get(tick.symbol);
      if (!pending) {
        pending = await pendingOrders(tx, tick.symbol);
        orders.set(tick.symbol, pending);
      }
      if (list.length === 0 && pending.length === 0) continue;
      const conversion = await conversionAt(tx, i, tick, latest);
      if (!conversion) {
        deps.log.warn(
          { symbol: tick.symbol },
          'no conversion rate of record: positions not evaluated on this tick',
        );
        continue;
      }
      const bid = storedPrice(i, tick.bid);
      const ask = storedPrice(i, tick.ask);
      const mark = storedPrice(i, tick.mark);
      const exec = executable(bid, ask, s.spreadUnits);
      const base = { source: tick.source, at: tick.at, tickSeq: tick.seq, conversion };
      const now = clock.now();
      const kept: Position[] = [];
      for (const p of list) {
        if (BigInt(p.row.open_tick_seq) >= tick.seq) {
          kept.push(p);
          continue;
        }
        const close = p.side === 'buy' ? exec.closeLong : exec.closeShort;
        const trigger = tpSlTriggered(p.side, close, p.tpUnits, p.slUnits);
        if (trigger) {
          await closeLots(tx, ledger, {
            i,
            p,
            lotsUnits: p.lotsUnits,
            fill: { ...base, priceUnits: close },
            reason: trigger,
            now,
          });
          deps.onAction?.(trigger);
          continue;
        }
        if (liquidates(i, p, mark, conversion.rate)) {
          await closeLots(tx, ledger, {
            i,
            p,
            lotsUnits: p.lotsUnits,
            fill: { ...base, priceUnits: mark },
            reason: 'liquidation',
            now,
          });
          deps.onAction?.('liquidation');
          continue;
        }
        kept.push(p);
      }
      const still: OrderRow[] = [];
      for (const o of pending) {
        if (o.created_at.getTime() >= tick.at.getTime()) {
          still.push(o);
          continue;
        }
        const limit = storedPrice(i, o.price);
        const price = o.side === 'buy' ? exec.openBuy : exec.openSell;
        const reached = o.side === 'buy' ? price <= limit : price >= limit;
        if (!reached) {
          still.push(o);
          continue;
        }
        if (!s.enabled) {
          await cancel(tx, o, 'settings_changed');
          continue;
        }
        const schedule = market.instrument(i.symbol).schedule;
        if (!isOpen(schedule, tick.at.getTime())) {
          await cancel(tx, o, 'market_closed');
          continue;
        }
        const fill: Fill = { ...base, priceUnits: price };
        const positionId = newId('cpo', now.getTime());
        await tx
          .updateTable('contracts_order')
          .set({ status: 'filled', position_id: positionId, updated_at: now })
          .where('id', '=', o.id)
          .execute();
        const row = await openPosition(tx, ledger, {
          i,
          order: o,
          positionId,
          fill,
          now,
          frozen: { marginUnits: BigInt(o.margin_units), feeUnits: BigInt(o.fee_units) },
        });
        deps.onAction?.('fill');
        kept.push(positionOf(row, i));
      }
      positions.set(tick.symbol, kept);
      orders.set(tick.symbol, still);
    }
  }

  async function onTime(tx: Tx, now: Date, _recordedThrough: Date | null): Promise<void> {
    const settings = await settingsBySymbol(tx);
    for (const { i, s } of settings.values()) {
      if (s.fundingIntervalHours !== null && s.fundingRate !== null) await funding(tx, i, s, now);
      if (i.expiryAt && i.expiryAt.getTime() <= now.getTime()) await deliver(tx, i, i.expiryAt, now);
    }
  }

  async function markAt(tx: Tx, i: InstrumentInfo, at: Date): Promise<Fill | null> {
    const tick = await recordedTickAtOrBefore(tx, i.id, at);
    if (!tick) return null;
    const conversion = await conversionAt(tx, i, tick, new Map());
    if (!conversion) return null;
    return {
      priceUnits: storedPrice(i, tick.mark),
      source: tick.source,
      at: tick.at,
      tickSeq: tick.seq,
      conversion,
    };
  }

  /** The latest funding time ≤ now: positions opened at or before it, not yet charged for it. */
  async function funding(tx: Tx, i: InstrumentInfo, s: Setting, now: Date): Promise<void> {
    const every = (s.fundingIntervalHours as number) * 3_600_000;
    const at = new Date(Math.floor(now.getTime() / every) * every);
    const rows = await tx
      .selectFrom('contracts_position as p')
      .selectAll('p')
      .where('p.symbol', '=', i.symbol)
      .where('p.status', '=', 'open')
      .where('p.opened_at', '<=', at)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('contracts_funding as f')
              .select('f.id')
              .whereRef('f.position_id', '=', 'p.id')
              .where('f.funding_at', '=', at),
          ),
        ),
      )
      .orderBy('p.id')
      .forUpdate()
      .execute();
    if (rows.length === 0) return;
    const mark = await markAt(tx, i, at);
    if (!mark) return;
    for (const row of rows) {
      const p = positionOf(row, i);
      const amount = await chargeFunding(tx, ledger, {
        i,
        p,
        fundingAt: at,
        rate: s.fundingRate as string,
        mark,
        now,
      });
      if (amount === null) continue;
      deps.onAction?.('funding');
      // A payment that brings the risk rate to the level liquidates at the same recorded mark.
      const after = await reload(tx, i, p.id);
      if (after && liquidates(i, after, mark.priceUnits, mark.conversion.rate)) {
        await closeLots(tx, ledger, {
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
  }

  /** Delivery: every open position at the last recorded mark at or before expiry; pending orders expire. */
  async function deliver(tx: Tx, i: InstrumentInfo, expiry: Date, now: Date): Promise<void> {
    const pending = await pendingOrders(tx, i.symbol);
    for (const o of pending) await cancel(tx, o, 'expired');
    const list = await openPositions(tx, i.symbol);
    if (list.length === 0) return;
    const mark = await markAt(tx, i, expiry);
    if (!mark) {
      deps.log.error({ symbol: i.symbol }, 'delivery: no recorded price at or before expiry; positions wait');
      return;
    }
    for (const p of list) {
      await closeLots(tx, ledger, { i, p, lotsUnits: p.lotsUnits, fill: mark, reason: 'delivery', now });
      deps.onAction?.('delivery');
    }
  }

  return Object.freeze({ name: 'contracts', onTicks, onTime });
}
