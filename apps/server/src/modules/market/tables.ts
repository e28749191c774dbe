/** BIGINT columns are strings both ways (db/database.ts reads INT8 as text). */
type Int8 = string;

export type MarketTables = {
  /** The catalogue. `symbol` is unique; `price_tick` never changes once the instrument has ticked. */
  market_instrument: {
    id: string;
    symbol: string;
    name: string;
    asset_class: string;
    base: string;
    quote: string;
    price_tick: string;
    lot_size: string;
    contract_size: string;
    max_leverage: number;
    trading_hours: string;
    status: 'active' | 'halted' | 'delisted';
    /** The seed reference price: shown (as source `reference`) until the first tick; the sim starts from it. */
    ref_price: string;
    /** The symbol at an external source (ccxt unified symbol), when it differs. */
    feed_symbol: string | null;
    expiry_at: Date | null;
    rank: number;
    created_at: Date;
    updated_at: Date;
  };
  /** The latest price of each instrument, written with every recorded batch. */
  market_price: {
    instrument_id: string;
    last: string;
    bid: string;
    ask: string;
    mark: string;
    tick_seq: Int8;
    tick_at: Date;
    source: string;
  };
  /** Every tick of record, with its source and time. Pruned after TICK_RETENTION_HOURS. */
  market_tick: {
    seq: Int8;
    instrument_id: string;
    at: Date;
    price: string;
    bid: string;
    ask: string;
    mark: string;
    size: string;
    source: string;
  };
  market_candle: {
    instrument_id: string;
    interval: string;
    open_time: Date;
    open: string;
    high: string;
    low: string;
    close: string;
    volume: string;
    turnover: string;
    ticks: number;
  };
  /** How far the recorded stream goes: the last batch and tick persisted (one row per feed owner key). */
  market_feed_cursor: {
    name: string;
    batch_seq: Int8;
    tick_seq: Int8;
    updated_at: Date;
  };
};
