/**
 * Kysely types of the contract tables (migrations.ts). Amounts and lots are NUMERIC minor units read as
 * strings (USDT at 8 decimals, lots at LOTS_SCALE = 8); prices are NUMERIC decimals at the instrument's
 * price scale; BIGINT columns are strings both ways.
 */
type Book = 'real' | 'demo';
type Side = 'buy' | 'sell';

export type ContractsTables = {
  /** Every rule an order is checked against, per instrument (seeded at start for every non-spot instrument). */
  contracts_setting: {
    symbol: string;
    enabled: boolean;
    /** Price units added to the ask for buys and taken from the bid for sells (a price decimal). */
    spread: string;
    /** USDT per lot, charged on opening and again on closing. */
    fee_per_lot: string;
    /** Operator cap, ≤ the instrument's max leverage. */
    max_leverage: number;
    min_lots: string;
    max_lots: string;
    liquidation_level: string;
    margin_topup_max: string;
    funding_rate: string | null;
    funding_interval_hours: number | null;
    created_at: Date;
    updated_at: Date;
  };
  /** Every order: market orders are filled at once; limit orders wait `pending`. */
  contracts_order: {
    id: string;
    customer_id: string;
    book: Book;
    symbol: string;
    client_oid: string | null;
    side: Side;
    type: 'market' | 'limit';
    /** The limit price (limit orders) or the price it opened at (market orders). */
    price: string;
    lots_units: string;
    leverage: number;
    tp_price: string | null;
    sl_price: string | null;
    /** What the order holds frozen while pending: margin and opening fee (USDT units). */
    margin_units: string;
    fee_units: string;
    /** The settings it was placed under: a fill keeps them (changes apply to new orders only). */
    fee_per_lot: string;
    liquidation_level: string;
    status: 'pending' | 'filled' | 'cancelled';
    cancel_reason: string | null;
    position_id: string | null;
    created_at: Date;
    updated_at: Date;
  };
  contracts_position: {
    id: string;
    customer_id: string;
    book: Book;
    symbol: string;
    instrument_id: string;
    order_id: string;
    side: Side;
    leverage: number;
    lots_units: string;
    opened_lots_units: string;
    open_price: string;
    open_price_source: string;
    open_price_at: Date;
    open_tick_seq: string;
    /** Quote → USDT rate at opening (a decimal; "1" for USD and USDT quotes). */
    open_rate: string;
    margin_units: string;
    fee_units: string;
    /** Signed: received positive, paid negative. */
    funding_units: string;
    realized_pnl_units: string;
    tp_price: string | null;
    sl_price: string | null;
    fee_per_lot: string;
    liquidation_level: string;
    status: 'open' | 'closed' | 'liquidated' | 'delivered';
    close_reason: string | null;
    close_price: string | null;
    close_price_source: string | null;
    close_price_at: Date | null;
    opened_at: Date;
    closed_at: Date | null;
    updated_at: Date;
  };
  /** Each close (partial or full) with its price of record. */
  contracts_close: {
    id: string;
    position_id: string;
    customer_id: string;
    book: Book;
    symbol: string;
    side: Side;
    lots_units: string;
    open_price: string;
    close_price: string;
    price_source: string;
    price_at: Date;
    tick_seq: string | null;
    rate: string;
    pnl_units: string;
    fee_units: string;
    released_units: string;
    insurance_covered_units: string;
    uncovered_units: string;
    reason: string;
    entry_id: string | null;
    closed_at: Date;
  };
  contracts_funding: {
    id: string;
    position_id: string;
    customer_id: string;
    book: Book;
    symbol: string;
    side: Side;
    funding_at: Date;
    rate: string;
    mark_price: string;
    mark_source: string;
    mark_at: Date;
    usdt_rate: string;
    amount_units: string;
    entry_id: string | null;
    created_at: Date;
  };
  /** The risk engine's cursor: the last market_tick seq whose actions are written (one row); `rounds` counts the rounds that moved it. */
  contracts_engine_cursor: {
    name: string;
    seq: string;
    rounds: string;
    processed_through: Date | null;
    updated_at: Date;
  };
};
