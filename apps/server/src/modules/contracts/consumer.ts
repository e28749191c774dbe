import { executable } from '@bourse/risk';
import type { Logger } from 'pino';
import type { Tx } from '../../db/database.ts';
import { Refusal } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { RecordedTick, TickConsumer } from '../../lib/ticks.ts';
import type { Ledger } from '../ledger/index.ts';
import { isOpenAt as isOpen, type Market, recordedTickAtOrBefore } from '../market/index.ts';
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
import { InstrumentBooks } from './evaluate.ts';
import { type Conversion, conversionFrom, IDENTITY, type InstrumentInfo, storedPrice } from './math.ts';
import { loadSettings, parseSetting, type Setting } from './settings.ts';

const USD_QUOTES = new Set(['USD', 'USDT']);
/** Funding times one round charges per instrument (a longer outage catches up over several rounds). */
export const FUNDING_TIMES_PER_ROUND = 100;

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
    const books = new Map<string, InstrumentBooks>();
    const orders = new Map<string, OrderRow[]>();
    const latest = new Map<string, RecordedTick>();
    for (const tick of ticks) {
      latest.set(tick.symbol, tick);
      const entry = settings.get(tick.symbol);
      if (!entry) continue;
      const { i, s } = entry;
      let book = books.get(tick.symbol);
      if (!book) {
        book = new InstrumentBooks(i, s.spreadUnits, await openPositions(tx, tick.symbol));
        books.set(tick.symbol, book);
      }
      let pending = orders.get(tick.symbol);
      if (!pending) {
        pending = await pendingOrders(tx, tick.symbol);
        orders.set(tick.symbol, pending);
      }
      if (book.size === 0 && pending.length === 0) continue;
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
      // (1) TP/SL at the executable close price, (2) liquidation at the mark — by position id.
      const actions = book.evaluate(
        { seq: tick.seq, bidUnits: bid, askUnits: ask, markUnits: mark },
        conversion.rate,
      );
      for (const a of actions) {
        const p = book.get(a.id);
        await closeLots(tx, ledger, {
          i,
          p,
          lotsUnits: p.lotsUnits,
          fill: { ...base, priceUnits: a.priceUnits },
          reason: a.kind,
          now,
        });
        book.remove(a.id);
        deps.onAction?.(a.kind);
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
        book.add(positionOf(row, i)); // evaluated from the next tick on
      }
      orders.set(tick.symbol, still);
    }
  }

  async function onTime(tx: Tx, now: Date, recordedThrough: Date | null): Promise<void> {
    const settings = await settingsBySymbol(tx);
    // Funding times are charged only once the ticks before them are processed (TP/SL and
    // liquidations first, in time order); with no tick of record yet, up to now.
    const until = recordedThrough && recordedThrough.getTime() < now.getTime() ? recordedThrough : now;
    for (const { i, s } of settings.values()) {
      if (s.fundingIntervalHours !== null && s.fundingRate !== null) await funding(tx, i, s, until, now);
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

  /**
   * Every funding time ≤ `until` a position has not been charged for yet, oldest first — several
   * when the engine was down across funding times. A position owes the funding times from the first
   * at or after its opening (or after its last charge) on; each is charged once (unique key) at the
   * last recorded mark at or before THAT time. At most FUNDING_TIMES_PER_ROUND times per instrument
   * and round (the rest in the next rounds).
   */
  async function funding(tx: Tx, i: InstrumentInfo, s: Setting, until: Date, now: Date): Promise<void> {
    const every = (s.fundingIntervalHours as number) * 3_600_000;
    const latest = Math.floor(until.getTime() / every) * every;
    // Every round asks; almost always nothing is owed. A lock-free look first, so the open positions
    // are locked (below) only when one of them still owes the latest funding time (charges run oldest
    // first, so a position charged for it owes nothing earlier either).
    const owing = await tx
      .selectFrom('contracts_position as p')
      .select('p.id')
      .where('p.symbol', '=', i.symbol)
      .where('p.status', '=', 'open')
      .where('p.opened_at', '<=', new Date(latest))
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('contracts_funding as f')
              .select('f.id')
              .whereRef('f.position_id', '=', 'p.id')
              .where('f.funding_at', '>=', new Date(latest)),
          ),
        ),
      )
      .limit(1)
      .executeTakeFirst();
    if (!owing) return;
    const rows = await tx
      .selectFrom('contracts_position as p')
      .selectAll('p')
      .select((eb) =>
        eb
          .selectFrom('contracts_funding as f')
          .select((f) => f.fn.max('f.funding_at').as('last'))
          .whereRef('f.position_id', '=', 'p.id')
          .as('last_funding_at'),
      )
      .where('p.symbol', '=', i.symbol)
      .where('p.status', '=', 'open')
      .where('p.opened_at', '<=', new Date(latest))
      .orderBy('p.id')
      .forUpdate()
      .execute();
    if (rows.length === 0) return;
    // funding time → the positions owing it
    const owed = new Map<number, string[]>();
    for (const { last_funding_at, ...row } of rows) {
      const last = last_funding_at as Date | null;
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
    const times = [...owed.keys()].sort((a, b) => a - b).slice(0, FUNDING_TIMES_PER_ROUND);
    for (const atMs of times) {
      const at = new Date(atMs);
      const mark = await markAt(tx, i, at);
      if (!mark) continue; // nothing recorded at or before it: charged when a price of record exists
      for (const id of owed.get(atMs) ?? []) {
        const p = await reload(tx, i, id);
        if (!p) continue; // liquidated by an earlier funding time of this round
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
