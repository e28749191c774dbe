import type { EngineEvent } from '@bourse/matching';
import type { SpotCancelReason } from '@bourse/protocol';
import { baseUnits, notionalUnits, parseRate, spotFee } from '@bourse/risk';
import type { Tx } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { type EntryInput, type Ledger, type Outcome, spotFeeAccount } from '../ledger/index.ts';
import {
  type BatchOutcome,
  type Book,
  type JournalCommand,
  type MarketRef,
  needOf,
  type OrderState,
  type SettledTrade,
} from './order.ts';
import { type NewSpotTradeRow, type SettledRows, writeSettlementRows } from './repo.ts';

/**
 * Every `spot:` ledger key (freeze, release, trade) is posted by its book's runner alone — one per
 * book, fenced by the book's lease — so the ledger skips the advisory key locks that make concurrent
 * twins wait (`PostOptions.soleWriter`): a round trip fewer in each batch's transaction.
 */
export const SPOT_SOLE_WRITER = { soleWriter: true } as const;

/**
 * Step 3 of a batch, settlement: from the engine's events, the orders' new states, the trades, one
 * ledger entry per trade (buyer's frozen quote → seller, base the other way, both fees into the
 * market's fee account `spot_fees_<market>`) and a release per order whose need fell; then a
 * transaction writes the entries, the trades, the order rows and the cursor — the next batch's, with
 * its journal part (`runner.ts`), or recovery's own. Idempotency keys per trade and per release make
 * a repeat (recovery) harmless.
 */

/** What a batch settles, computed in memory before anything is written. */
export type Settlement = {
  touched: Map<string, OrderState>;
  trades: SettledTrade[];
  entries: EntryInput[];
  depth: BatchOutcome['depth'];
  /** The seq the cursor moves to. */
  lastSeq: number;
};

type SettleBook = {
  market: MarketRef;
  book: Book;
  /** The book's open orders before the batch (not changed: touched orders are copies). */
  open: ReadonlyMap<string, OrderState>;
  /** The book's seq (the last journaled command): names the release entries. */
  seq: number;
};

const CANCEL_REASON: Record<string, SpotCancelReason> = {
  USER: 'user',
  IOC_REMAINDER: 'ioc_remainder',
  FOK_UNFILLABLE: 'fok_unfillable',
  NO_LIQUIDITY: 'no_liquidity',
  PRICE_BAND: 'price_band',
  SELF_TRADE: 'self_trade',
};

const CLOSED = new Set(['filled', 'cancelled']);

/** Computes the settlement of `commands` from their `events`; nothing is written. */
export function settlementOf(
  b: SettleBook,
  commands: JournalCommand[],
  events: EngineEvent[],
  now: Date,
): Settlement {
  const touched = new Map<string, OrderState>();
  const cancelReasonOf = new Map<number, SpotCancelReason>();
  for (const c of commands)
    if (c.type === 'cancel' && c.cancelReason) cancelReasonOf.set(c.seq, c.cancelReason);
  const get = (id: string): OrderState => {
    const o = touched.get(id) ?? b.open.get(id);
    if (!o) throw new Error(`order ${id} is not known to book ${b.market.symbol}/${b.book}`);
    const copy = touched.get(id) ?? { ...o };
    touched.set(id, copy);
    return copy;
  };
  const s: Settlement = {
    touched,
    trades: [],
    entries: [],
    depth: { bids: new Map(), asks: new Map() },
    lastSeq: commands.length > 0 ? (commands.at(-1) as { seq: number }).seq : b.seq,
  };
  const levelTouched = (side: 'buy' | 'sell', price: number) =>
    (side === 'buy' ? s.depth.bids : s.depth.asks).set(price, 0);
  for (const c of commands) if (c.type === 'place' || c.type === 'cancel') get(c.orderId);
  for (const e of events) {
    switch (e.type) {
      case 'trade': {
        const trade = settleTrade(b, e, get(e.makerOrderId), get(e.takerOrderId), now);
        s.entries.push(trade.entry);
        s.trades.push(trade.trade);
        levelTouched(e.takerSide === 'buy' ? 'sell' : 'buy', e.priceTicks);
        break;
      }
      case 'filled': {
        const o = get(e.orderId);
        o.status = 'filled';
        o.updatedAt = now;
        break;
      }
      case 'cancelled': {
        const o = get(e.orderId);
        o.status = 'cancelled';
        o.cancelReason =
          e.reason === 'USER' ? (cancelReasonOf.get(e.seq) ?? 'user') : (CANCEL_REASON[e.reason] ?? 'user');
        o.updatedAt = now;
        if (e.resting) levelTouched(e.side, e.priceTicks);
        break;
      }
      case 'rejected': {
        if (e.command === 'place') {
          const o = get(e.orderId);
          o.status = 'cancelled';
          o.cancelReason = 'rejected';
          o.updatedAt = now;
        }
        break;
      }
      case 'rested':
      case 'reduced':
      case 'increased':
        levelTouched(e.side, e.priceTicks);
        break;
      default:
        break;
    }
  }
  for (const o of touched.values()) {
    const release = releaseExcess(b, o);
    if (release) s.entries.push(release);
  }
  return s;
}

/**
 * One fill: its ledger entry (`tradeEntry`), the buyer's and seller's frozen funds used, and the
 * maker's and taker's filled quantity, amount and fee. Fees round down (`spotFee`), in the quote currency.
 */
function settleTrade(
  b: SettleBook,
  e: Extract<EngineEvent, { type: 'trade' }>,
  maker: OrderState,
  taker: OrderState,
  now: Date,
): { entry: EntryInput; trade: SettledTrade } {
  const qty = BigInt(e.qtyLots);
  const price = BigInt(e.priceTicks);
  const amount = notionalUnits(b.market.math, price, qty);
  const makerFee = spotFee(amount, parseRate(maker.makerRate));
  const takerFee = spotFee(amount, parseRate(taker.takerRate));
  const buyer = e.takerSide === 'buy' ? taker : maker;
  const seller = e.takerSide === 'buy' ? maker : taker;
  const buyerFee = buyer === taker ? takerFee : makerFee;
  const sellerFee = seller === taker ? takerFee : makerFee;
  const base = baseUnits(b.market.math, qty);
  const id = newId('trd', e.timestampMs);
  const entry = tradeEntry(b, e.tradeId, { buyer, seller, amount, base, buyerFee, sellerFee });
  buyer.frozen -= amount + buyerFee;
  seller.frozen -= base;
  for (const [o, fee] of [
    [maker, makerFee],
    [taker, takerFee],
  ] as const) {
    o.filledLots += qty;
    o.filledAmount += amount;
    o.fee += fee;
    o.updatedAt = now;
  }
  const trade: SettledTrade = {
    id,
    engineTradeId: e.tradeId,
    priceTicks: price,
    qtyLots: qty,
    takerSide: e.takerSide,
    time: e.timestampMs,
    maker,
    taker,
    makerFee,
    takerFee,
    amount,
  };
  return { entry, trade };
}

/**
 * A trade's ledger entry: the buyer pays value + fee from frozen quote and receives the base; the
 * seller's frozen base goes and value − fee arrives; both fees go into the market's own fee account
 * (`spotFeeAccount`: no row shared by every market's batches).
 * Idempotency key `spot:trade:<symbol>:<book>:<engine trade id>`.
 */
function tradeEntry(
  b: SettleBook,
  engineTradeId: number,
  t: {
    buyer: OrderState;
    seller: OrderState;
    amount: bigint;
    base: bigint;
    buyerFee: bigint;
    sellerFee: bigint;
  },
): EntryInput {
  const { market, book } = b;
  const spot = (customerId: string) => ({ book, customerId, accountType: 'spot' as const });
  const postings: EntryInput['postings'][number][] = [
    {
      account: spot(t.buyer.customerId),
      currency: market.quote,
      bucket: 'frozen',
      amountUnits: -(t.amount + t.buyerFee),
    },
    { account: spot(t.buyer.customerId), currency: market.base, bucket: 'available', amountUnits: t.base },
    { account: spot(t.seller.customerId), currency: market.base, bucket: 'frozen', amountUnits: -t.base },
  ];
  if (t.amount - t.sellerFee > 0n)
    postings.push({
      account: spot(t.seller.customerId),
      currency: market.quote,
      bucket: 'available',
      amountUnits: t.amount - t.sellerFee,
    });
  if (t.buyerFee + t.sellerFee > 0n)
    postings.push({
      account: { book, platform: spotFeeAccount(market.symbol) },
      currency: market.quote,
      amountUnits: t.buyerFee + t.sellerFee,
    });
  return {
    reason: 'spot.trade',
    reference: { type: 'spot_trade', id: `${market.symbol}:${book}:${engineTradeId}` },
    idempotencyKey: `spot:trade:${market.symbol}:${book}:${engineTradeId}`,
    postings,
  };
}

/**
 * Sets an order's final status for the batch and, when its need fell (a better price, a maker fee
 * below the taker fee, a cancel, an IOC rest), the entry releasing the excess (frozen → available).
 * Holding less than the need is a broken invariant: it throws.
 */
function releaseExcess(b: SettleBook, o: OrderState): EntryInput | null {
  if (!CLOSED.has(o.status)) o.status = o.filledLots > 0n ? 'partially_filled' : 'unfilled';
  const need = needOf(b.market.math, o);
  const excess = o.frozen - need;
  if (excess < 0n) throw new Error(`order ${o.id} would need ${need} but holds ${o.frozen}`);
  if (excess === 0n) return null;
  const account = { book: b.book, customerId: o.customerId, accountType: 'spot' as const };
  o.frozen = need;
  return {
    reason: 'spot.release',
    reference: { type: 'spot_order', id: o.id },
    idempotencyKey: `spot:release:${o.id}:${b.seq}`,
    postings: [
      { account, currency: o.frozenCurrency, bucket: 'frozen', amountUnits: -excess },
      { account, currency: o.frozenCurrency, bucket: 'available', amountUnits: excess },
    ],
  };
}

/**
 * Writes a settlement in the caller's transaction on its own (recovery): the entries, the trades, the
 * order rows, the cursor. A running book writes it with the next batch's journal part instead
 * (`journal.ts`: one ledger call for both, its rows in the journal's statement).
 */
export async function writeSettlementIn(
  tx: Tx,
  ledger: Ledger,
  b: { market: MarketRef; book: Book },
  s: Settlement,
): Promise<void> {
  const outcomes = await ledger.postAll(tx, s.entries, SPOT_SOLE_WRITER);
  await writeSettlementRows(tx, settledRowsOf(b, s, settledEntryIds(outcomes)));
}

/**
 * The ids of a settlement's posted entries, in its order (a trade's entry first, as `settlementOf`
 * pushes them); a refusal is a broken invariant (the freeze covered every need).
 */
export function settledEntryIds(outcomes: readonly Outcome[]): string[] {
  return outcomes.map((outcome) => {
    if (!outcome.ok)
      throw new Error(
        `spot settlement refused by the ledger: ${outcome.refusal.reason} ${JSON.stringify(outcome.refusal.params)}`,
      );
    return outcome.entry.id;
  });
}

/**
 * What a settlement writes besides its entries: its trades (each with its entry's id), the rows of
 * the orders it touched, and the book's cursor.
 */
export function settledRowsOf(
  b: { market: MarketRef; book: Book },
  s: Settlement,
  entryIds: readonly string[],
): SettledRows {
  return {
    symbol: b.market.symbol,
    book: b.book,
    seq: s.lastSeq,
    trades: s.trades.map((t, i) => tradeRow(b, t, s.lastSeq, entryIds[i] as string)),
    orders: [...s.touched.values()],
  };
}

function tradeRow(
  b: { market: MarketRef; book: Book },
  t: SettledTrade,
  seq: number,
  entryId: string,
): NewSpotTradeRow {
  return {
    ...tradeColumns(b.market.symbol, t),
    book: b.book,
    engine_trade_id: String(t.engineTradeId),
    seq: String(seq),
    entry_id: entryId,
  };
}

/** A settled trade's `spot_trade` columns that say what traded, between whom, at what fees (a fill's). */
export function tradeColumns(symbol: string, t: SettledTrade) {
  return {
    id: t.id,
    symbol,
    maker_order_id: t.maker.id,
    taker_order_id: t.taker.id,
    maker_customer_id: t.maker.customerId,
    taker_customer_id: t.taker.customerId,
    taker_side: t.takerSide,
    price_ticks: t.priceTicks.toString(),
    qty_lots: t.qtyLots.toString(),
    amount_units: t.amount.toString(),
    maker_fee_units: t.makerFee.toString(),
    taker_fee_units: t.takerFee.toString(),
    created_at: new Date(t.time),
  };
}
