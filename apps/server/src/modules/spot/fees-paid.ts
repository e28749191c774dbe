import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import { type PlatformCode, spotFeeAccount } from '../ledger/index.ts';

/**
 * Fees customers paid on the REAL book, read in settlement order (modules/referral shares them with
 * inviters). Settlement of one book is serial and commits its batches in seq order, so a reader
 * keeping a cursor (seq, engine trade id) per market never skips a committed trade; the demo book is
 * never read. Each row names the ledger entry that put both fees into the platform account it names
 * (`fee_account`: the market's own `spot_fees_<market>`, or `fee_income` for trades settled before
 * markets had one) — the account a share of the fee is paid from.
 */
type Q = Db | Tx;

export type FeeCursor = { seq: string; engineTradeId: string };

export type FeePaidRow = {
  trade_id: string;
  symbol: string;
  seq: string;
  engine_trade_id: string;
  /** Fees are charged in the market's quote currency. */
  currency: string;
  maker_customer_id: string;
  maker_fee_units: string;
  taker_customer_id: string;
  taker_fee_units: string;
  /** The trade's ledger entry (both fees into `fee_account`). */
  entry_id: string;
  /** The platform account that received the fees. */
  fee_account: PlatformCode;
  created_at: Date;
};

/** The spot markets' symbols (each has a real book whose fees may be read). */
export async function feeMarkets(q: Q): Promise<string[]> {
  const rows = await q.selectFrom('spot_market').select('symbol').orderBy('symbol').execute();
  return rows.map((r) => r.symbol);
}

/** Up to `limit` real-book trades of one market after the cursor (null: from the start), in order. */
export async function feesPaidAfter(
  q: Q,
  input: { symbol: string; after: FeeCursor | null; limit: number },
): Promise<FeePaidRow[]> {
  const after = input.after ?? { seq: '-1', engineTradeId: '-1' };
  const rows = await q
    .selectFrom('spot_trade as t')
    .innerJoin('spot_market as m', 'm.symbol', 't.symbol')
    .select([
      't.id as trade_id',
      't.symbol',
      sql<string>`t.seq::text`.as('seq'),
      sql<string>`t.engine_trade_id::text`.as('engine_trade_id'),
      'm.quote as currency',
      't.maker_customer_id',
      sql<string>`t.maker_fee_units::text`.as('maker_fee_units'),
      't.taker_customer_id',
      sql<string>`t.taker_fee_units::text`.as('taker_fee_units'),
      't.entry_id',
      't.fee_account',
      't.created_at',
    ])
    .where('t.symbol', '=', input.symbol)
    .where('t.book', '=', 'real')
    .where(sql<boolean>`(t.seq, t.engine_trade_id) > (${after.seq}::bigint, ${after.engineTradeId}::bigint)`)
    .orderBy('t.seq')
    .orderBy('t.engine_trade_id')
    .limit(input.limit)
    .execute();
  return rows.map((r) => ({
    ...r,
    fee_account: (r.fee_account as PlatformCode | null) ?? spotFeeAccount(r.symbol),
  }));
}
