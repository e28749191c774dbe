import { MatchingBook } from '@bourse/matching';
import { mathOf, normalizeDecimal } from '@bourse/risk';
import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import { type Book, bookConfig, type MarketRef, needOf } from './order.ts';
import { journalAfter, openOrderRows, orderCustomerIds, orderFromRow, selectMarket } from './repo.ts';

/** A market's reference as a fresh process would load it (tests that replay the journal themselves). */
export async function marketRef(db: Db | Tx, symbol: string): Promise<MarketRef> {
  const row = await selectMarket(db, symbol);
  const math = mathOf({
    base: row.base,
    quote: row.quote,
    priceTick: normalizeDecimal(String(row.price_tick)),
    lotSize: normalizeDecimal(String(row.lot_size)),
  });
  return { symbol, base: row.base, quote: row.quote, math, bandBps: row.price_band_bps, minQtyLots: 1 };
}

/** Replays a book's journal (up to `maxSeq`) into a fresh engine, independently of the server's runner. */
export async function replayJournal(
  db: Db | Tx,
  market: MarketRef,
  book: Book,
  maxSeq = Number.POSITIVE_INFINITY,
): Promise<MatchingBook> {
  const rows = (await journalAfter(db, market.symbol, book, 0)).filter((r) => Number(r.seq) <= maxSeq);
  let engine = new MatchingBook(bookConfig(market, book));
  for (const { command } of rows) {
    const c = command as { type: string; bandBps?: number; minQtyLots?: number; cancelReason?: string };
    if (c.type === 'config') {
      engine = MatchingBook.restore({
        ...engine.snapshot(),
        config: bookConfig(
          { ...market, bandBps: c.bandBps ?? market.bandBps, minQtyLots: c.minQtyLots ?? 1 },
          book,
        ),
      });
    } else {
      const { cancelReason: _ignored, ...rest } = c;
      engine.apply(rest as never);
    }
  }
  return engine;
}

/**
 * Frozen = what open orders need, straight from the tables (for a process the test does not own).
 * Until the transaction that settles it, an order whose cancel is journaled already holds nothing (the
 * journal part released it) while its row still says open: its need is nothing.
 */
export async function frozenMismatches(db: Db | Tx): Promise<string[]> {
  const out: string[] = [];
  const markets = new Map<string, MarketRef>();
  const open = await openOrderRows(db);
  const cancelling = new Set(
    (
      await db
        .selectFrom('spot_journal as j')
        .innerJoin('spot_cursor as c', (join) =>
          join.onRef('c.symbol', '=', 'j.symbol').onRef('c.book', '=', 'j.book'),
        )
        .select(sql<string>`j.command->>'orderId'`.as('order_id'))
        .where(sql<boolean>`j.seq > c.settled_seq and j.command->>'type' = 'cancel'`)
        .execute()
    ).map((r) => r.order_id),
  );
  const sums = new Map<string, bigint>();
  for (const r of open) {
    const o = orderFromRow(r);
    if (!markets.has(o.symbol)) markets.set(o.symbol, await marketRef(db, o.symbol));
    const need = cancelling.has(o.id) ? 0n : needOf((markets.get(o.symbol) as MarketRef).math, o);
    if (need !== o.frozen) out.push(`order ${o.id} holds ${o.frozen}, needs ${need}`);
    const key = `${o.customerId}|${o.book}|${o.frozenCurrency}`;
    sums.set(key, (sums.get(key) ?? 0n) + o.frozen);
  }
  const ids = await orderCustomerIds(db);
  if (ids.length === 0) return out;
  // TODO(boundary): reads the ledger's table `ledger_account` directly (the crash test checks a
  // process it does not own, so it has no Ledger object); use a ledger read function taking a Db
  // once the ledger's public index offers one.
  const accounts = await db
    .selectFrom('ledger_account')
    .select(['customer_id', 'book', 'currency', 'frozen'])
    .where('customer_id', 'in', ids)
    .where('account_type', '=', 'spot')
    .execute();
  const seen = new Set<string>();
  for (const a of accounts) {
    const key = `${a.customer_id}|${a.book}|${a.currency}`;
    seen.add(key);
    const want = sums.get(key) ?? 0n;
    if (BigInt(a.frozen) !== want) out.push(`${key}: ledger frozen ${a.frozen}, open orders ${want}`);
  }
  for (const [key, want] of sums)
    if (!seen.has(key) && want !== 0n) out.push(`${key}: no account, open orders ${want}`);
  return out;
}

/**
 * Settled exactly once, for a process the test does not own: the book's trade rows and its ledger
 * `spot.trade` entries (each should equal the engine's trade count).
 */
export async function settledTradeCounts(q: Db | Tx, symbol: string, book: Book) {
  const trades = await q
    .selectFrom('spot_trade')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('symbol', '=', symbol)
    .where('book', '=', book)
    .executeTakeFirstOrThrow();
  // TODO(boundary): the ledger's table, as in `frozenMismatches`.
  const entries = await q
    .selectFrom('ledger_entry')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('reason', '=', 'spot.trade')
    .where('idempotency_key', 'like', `spot:trade:${symbol}:${book}:%`)
    .executeTakeFirstOrThrow();
  return { trades: Number(trades.n), entries: Number(entries.n) };
}
