import type { BookConfig, Command } from '@bourse/matching';
import type { SpotCancelReason, SpotOrderStatus } from '@bourse/protocol';
import { baseUnits, type MarketMath, notionalUnits, parseRate, spotFee } from '@bourse/risk';

/** The shapes a book works with (orders, the journal's commands, a batch's outcome) and the freeze rule. */

/** A market's real or demo side; each has its own engine, journal and ledger book. */
export type Book = 'real' | 'demo';

export type OrderState = {
  id: string;
  customerId: string;
  symbol: string;
  book: Book;
  clientOid: string | null;
  side: 'buy' | 'sell';
  type: 'limit' | 'market';
  tif: 'GTC' | 'IOC' | 'FOK';
  postOnly: boolean;
  priceTicks: bigint | null;
  freezePriceTicks: bigint | null;
  qtyLots: bigint;
  filledLots: bigint;
  filledAmount: bigint;
  fee: bigint;
  frozen: bigint;
  frozenCurrency: string;
  makerRate: string;
  takerRate: string;
  status: SpotOrderStatus;
  cancelReason: SpotCancelReason | null;
  seq: bigint;
  createdAt: Date;
  updatedAt: Date;
};

export type MarketRef = {
  symbol: string;
  base: string;
  quote: string;
  math: MarketMath;
  bandBps: number;
  minQtyLots: number;
};

export type PlaceInput = {
  order: OrderState;
  referencePriceTicks?: number;
};

export type Print = { id: string; priceTicks: bigint; qtyLots: bigint; side: 'buy' | 'sell'; time: number };

/** A `spot_journal` command: an engine command (a cancel with its reason) or a book's configuration. */
export type JournalCommand =
  | (Command & { cancelReason?: SpotCancelReason })
  | { type: 'config'; seq: number; timestampMs: number; bandBps: number; minQtyLots: number };

export type SettledTrade = {
  id: string;
  engineTradeId: number;
  priceTicks: bigint;
  qtyLots: bigint;
  takerSide: 'buy' | 'sell';
  time: number;
  maker: OrderState;
  taker: OrderState;
  makerFee: bigint;
  takerFee: bigint;
  amount: bigint;
};

export type BatchOutcome = {
  orders: OrderState[];
  trades: SettledTrade[];
  /** Depth levels changed: side → price → new total lots. */
  depth: { bids: Map<number, number>; asks: Map<number, number> };
  customers: Set<string>;
  engineSeq: number;
};

export function bookConfig(market: MarketRef, book: Book): BookConfig {
  return {
    market: `${market.symbol}#${book}`,
    minQtyLots: market.minQtyLots,
    maxQtyLots: 9_000_000_000,
    maxPriceTicks: 2 ** 39,
    maxOpenOrders: 1_000_000,
    band: { bps: market.bandBps },
    stpDefault: 'cancel-taker',
  };
}

/** What an open order still needs frozen (quote for a buy incl. the taker fee, base for a sell). */
export function needOf(math: MarketMath, o: OrderState): bigint {
  if (o.status === 'filled' || o.status === 'cancelled') return 0n;
  const open = o.qtyLots - o.filledLots;
  if (o.side === 'sell') return baseUnits(math, open);
  const price = o.priceTicks ?? o.freezePriceTicks;
  if (price === null) throw new Error(`buy order ${o.id} without a freeze price`);
  const n = notionalUnits(math, price, open);
  return n + spotFee(n, parseRate(o.takerRate));
}
