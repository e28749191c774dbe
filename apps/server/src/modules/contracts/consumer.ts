import { executable } from '@bourse/risk';
import type { Tx } from '../../db/database.ts';
import type { RecordedTick, TickConsumer } from '../../lib/ticks.ts';
import { deliver } from './delivery.ts';
import { InstrumentBooks } from './evaluate.ts';
import { fillReached } from './fills.ts';
import { chargeFundingDue } from './funding.ts';
import { storedPrice } from './math.ts';
import { type OrderRow, pendingOrdersForUpdate } from './repo.ts';
import { type ConsumerDeps, conversionAt, openPositions, type Priced, settingsBySymbol } from './round.ts';
import { closeTriggered } from './triggers.ts';

export { FUNDING_TIMES_PER_ROUND } from './funding.ts';

/**
 * The contracts consumer of the risk engine. Per recorded tick, for that instrument, in order:
 * (1) take-profit / stop-loss on the executable close price (closed at that price), (2) liquidation
 * when the risk rate at the mark reaches the level (closed at the mark) — triggers.ts —, (3) pending
 * limit orders the executable price reached (filled at it: never worse than the limit) — fills.ts.
 * onTime: funding for perpetuals at each funding time (funding.ts), delivery of expired delivery
 * contracts (delivery.ts). All through `tx`.
 */
export function createContractsConsumer(deps: ConsumerDeps): TickConsumer {
  async function onTicks(tx: Tx, ticks: readonly RecordedTick[]): Promise<void> {
    if (ticks.length === 0) return;
    const round: Round = {
      settings: await settingsBySymbol(deps, tx),
      books: new Map(),
      orders: new Map(),
      latest: new Map(),
    };
    for (const tick of ticks) await onTick(deps, tx, round, tick);
  }

  async function onTime(tx: Tx, now: Date, recordedThrough: Date | null): Promise<void> {
    const settings = await settingsBySymbol(deps, tx);
    // Funding times are charged only once the ticks before them are processed (TP/SL and
    // liquidations first, in time order); with no tick of record yet, up to now.
    const until = recordedThrough && recordedThrough.getTime() < now.getTime() ? recordedThrough : now;
    for (const { i, s } of settings.values()) {
      if (s.fundingIntervalHours !== null && s.fundingRate !== null)
        await chargeFundingDue(deps, tx, { i, s, until, now });
      if (i.expiryAt && i.expiryAt.getTime() <= now.getTime())
        await deliver(deps, tx, { i, expiry: i.expiryAt, now });
    }
  }

  return Object.freeze({ name: 'contracts', onTicks, onTime });
}

/**
 * What one round keeps per instrument, loaded (and locked) on the instrument's first tick and kept
 * current through the round: the open positions' books and the pending orders; and each symbol's
 * latest tick so far (conversions read it).
 */
type Round = {
  settings: Map<string, Priced>;
  books: Map<string, InstrumentBooks>;
  orders: Map<string, OrderRow[]>;
  latest: Map<string, RecordedTick>;
};

async function onTick(deps: ConsumerDeps, tx: Tx, round: Round, tick: RecordedTick): Promise<void> {
  round.latest.set(tick.symbol, tick);
  const entry = round.settings.get(tick.symbol);
  if (!entry) return;
  const { i, s } = entry;
  const { book, pending } = await instrumentState(deps, tx, round, { symbol: tick.symbol, ...entry });
  if (book.size === 0 && pending.length === 0) return;
  const conversion = await conversionAt(deps, tx, i, tick, round.latest);
  if (!conversion) {
    deps.log.warn(
      { symbol: tick.symbol },
      'no conversion rate of record: positions not evaluated on this tick',
    );
    return;
  }
  const prices = {
    bidUnits: storedPrice(i, tick.bid),
    askUnits: storedPrice(i, tick.ask),
    markUnits: storedPrice(i, tick.mark),
  };
  const exec = executable(prices.bidUnits, prices.askUnits, s.spreadUnits);
  const base = { source: tick.source, at: tick.at, tickSeq: tick.seq, conversion };
  const now = deps.clock.now();
  await closeTriggered(deps, tx, { i, book, tick, prices, base, now });
  const still = await fillReached(deps, tx, { i, s, book, pending, tick, exec, base, now });
  round.orders.set(tick.symbol, still);
}

async function instrumentState(
  deps: ConsumerDeps,
  tx: Tx,
  round: Round,
  input: Priced & { symbol: string },
): Promise<{ book: InstrumentBooks; pending: OrderRow[] }> {
  let book = round.books.get(input.symbol);
  if (!book) {
    book = new InstrumentBooks(input.i, input.s.spreadUnits, await openPositions(deps, tx, input.symbol));
    round.books.set(input.symbol, book);
  }
  let pending = round.orders.get(input.symbol);
  if (!pending) {
    pending = await pendingOrdersForUpdate(tx, input.symbol);
    round.orders.set(input.symbol, pending);
  }
  return { book, pending };
}
