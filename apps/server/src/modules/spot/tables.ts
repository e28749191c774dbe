/** Kysely types of the spot tables (migrations.ts). Amounts are NUMERIC minor units, read as strings. */
export type SpotTables = {
  spot_market: {
    symbol: string;
    base: string;
    quote: string;
    price_tick: string;
    lot_size: string;
    min_quantity: string;
    min_notional: string;
    max_notional: string;
    maker_fee_rate: string;
    taker_fee_rate: string;
    price_band_bps: number;
    status: 'enabled' | 'halted';
    halt_reason: string | null;
    created_at: Date;
    updated_at: Date;
  };
  /** Append-only: every command of a book, numbered, written before it is acknowledged. */
  spot_journal: {
    symbol: string;
    book: 'real' | 'demo';
    seq: string;
    command: unknown;
    created_at: Date;
  };
  /** Per book: the last journal seq whose results (orders, trades, ledger) are written. */
  spot_cursor: {
    symbol: string;
    book: 'real' | 'demo';
    settled_seq: string;
  };
  /** SPOT_LEASES=on: which process owns a book (`lease.ts`); expiry judged by PostgreSQL's now(). */
  spot_book_lease: {
    symbol: string;
    book: 'real' | 'demo';
    owner: string;
    epoch: string;
    expires_at: Date;
  };
  spot_order: {
    id: string;
    customer_id: string;
    book: 'real' | 'demo';
    symbol: string;
    client_oid: string | null;
    side: 'buy' | 'sell';
    type: 'limit' | 'market';
    tif: 'GTC' | 'IOC' | 'FOK';
    post_only: boolean;
    price_ticks: string | null;
    /** Market buys: the band limit price the funds were frozen at. */
    freeze_price_ticks: string | null;
    qty_lots: string;
    filled_lots: string;
    filled_amount_units: string;
    fee_units: string;
    frozen_units: string;
    frozen_currency: string;
    fee_rate_maker: string;
    fee_rate_taker: string;
    status: 'unfilled' | 'partially_filled' | 'filled' | 'cancelled';
    cancel_reason: string | null;
    seq: string;
    created_at: Date;
    updated_at: Date;
  };
  spot_trade: {
    id: string;
    symbol: string;
    book: 'real' | 'demo';
    engine_trade_id: string;
    seq: string;
    maker_order_id: string;
    taker_order_id: string;
    maker_customer_id: string;
    taker_customer_id: string;
    taker_side: 'buy' | 'sell';
    price_ticks: string;
    qty_lots: string;
    amount_units: string;
    maker_fee_units: string;
    taker_fee_units: string;
    entry_id: string;
    /** The platform account the fees went to: null for the market's own (`spot_fees_<market>`); `fee_income` before it had one. */
    fee_account: string | null;
    created_at: Date;
  };
  /** The engine's state at a settled seq: recovery restores the latest and replays only the tail. */
  spot_snapshot: {
    symbol: string;
    book: 'real' | 'demo';
    seq: string;
    snapshot: unknown;
    created_at: Date;
  };
  spot_setting: {
    key: string;
    value: unknown;
    updated_at: Date;
  };
};
