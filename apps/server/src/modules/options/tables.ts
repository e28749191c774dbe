import type { OptionDirection, OptionStatus } from '@bourse/protocol';

/** One offered duration: seconds and the profit rate on a win (decimal string). */
export type StoredDuration = { seconds: number; payout_rate: string };

/** Kysely types of the options tables (migrations.ts). Amounts are NUMERIC USDT minor units, read as strings. */
export type OptionsTables = {
  options_setting: {
    symbol: string;
    enabled: boolean;
    min_stake_units: string;
    max_stake_units: string;
    durations: StoredDuration[];
    created_at: Date;
    updated_at: Date;
  };
  options_order: {
    id: string;
    customer_id: string;
    book: 'real' | 'demo';
    symbol: string;
    instrument_id: string;
    client_oid: string | null;
    direction: OptionDirection;
    stake_units: string;
    duration_s: number;
    payout_rate: string;
    /** The recorded feed price it opened on (decimal, the instrument's scale), its source, time and seq. */
    open_price: string;
    open_price_source: string;
    open_price_at: Date;
    open_tick_seq: string;
    opened_at: Date;
    expires_at: Date;
    status: OptionStatus;
    settlement_price: string | null;
    settlement_price_source: string | null;
    settlement_price_at: Date | null;
    settlement_tick_seq: string | null;
    payout_units: string | null;
    profit_units: string | null;
    settled_at: Date | null;
    open_entry_id: string;
  };
};
